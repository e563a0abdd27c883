package fakeserver

import (
	"net/http"
	"sort"
	"time"

	"github.com/google/uuid"
)

// The calling access token (https://buildkite.com/docs/apis/rest-api/access-token): GET /v2/access-token
// describes it and needs no scope, so a client can learn its scopes before it changes anything; DELETE revokes
// it, after which it is a 401 everywhere.

// accessTokenTimeLayout is the access token's created_at form, unlike every other timestamp of the API:
// "2024-01-02 15:04:05 UTC".
const accessTokenTimeLayout = "2006-01-02 15:04:05 UTC"

// accessTokenNamespace makes a token's uuid a function of its secret, so a seeded token (AddToken,
// fixtures) has the same uuid in every run.
var accessTokenNamespace = uuid.MustParse("5b1c1f3e-8a43-4c52-9d2a-6f0b5e1a7c10")

// accessTokenUUID returns the stable uuid of the access token secret.
func accessTokenUUID(secret string) string {
	return uuid.NewSHA1(accessTokenNamespace, []byte(secret)).String()
}

// accessTokenView is the GET /v2/access-token response.
type accessTokenView struct {
	UUID        string              `json:"uuid"`
	Scopes      []string            `json:"scopes"`
	Description string              `json:"description"`
	CreatedAt   string              `json:"created_at"`
	User        accessTokenUserView `json:"user"`
}

// accessTokenUserView is the token's owner as the endpoint shows it: name and e-mail only.
type accessTokenUserView struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

func (s *Server) routeAccessToken(mux *routeMux) {
	mux.HandleFunc("GET /v2/access-token", s.getAccessToken)
	mux.HandleFunc("DELETE /v2/access-token", s.revokeAccessToken)
	mux.HandleFunc("GET /v2/user", s.getCurrentUser)
}

// scopeReadUser is the scope of GET /v2/user.
const scopeReadUser = "read_user"

// getCurrentUser answers GET /v2/user (Buildkite's REST documentation, apis/rest-api/user; go-buildkite's
// User.CurrentUser): the token's user as the user summary shows users (id, graphql_id, name, email,
// avatar_url, created_at). Scope read_user. Buildkite's CLI asks it for the builds of "me" (bk build view
// without a number) and when it creates a pipeline.
func (s *Server) getCurrentUser(w http.ResponseWriter, r *http.Request) {
	_, usr, ok := s.authenticate(w, r, scopeReadUser)
	if !ok {
		return
	}
	var out *userView
	_ = s.store.view(func() *apiError {
		out = s.store.userSummary(usr.id)
		return nil
	})
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getAccessToken(w http.ResponseWriter, r *http.Request) {
	tok, usr, ok := s.authenticate(w, r, "")
	if !ok {
		return
	}
	scopes := make([]string, 0, len(tok.scopes))
	for sc := range tok.scopes {
		scopes = append(scopes, sc)
	}
	sort.Strings(scopes)
	writeJSON(w, http.StatusOK, accessTokenView{
		UUID: tok.uuid, Scopes: scopes, Description: tok.description,
		CreatedAt: tok.createdAt.UTC().Format(accessTokenTimeLayout),
		User:      accessTokenUserView{Name: usr.name, Email: usr.email},
	})
}

func (s *Server) revokeAccessToken(w http.ResponseWriter, r *http.Request) {
	tok, _, ok := s.authenticate(w, r, "")
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		delete(s.store.tokens, tok.token)
		return nil
	})
	if err != nil { // not saved to the state file
		writeError(w, err)
		return
	}
	writeNoContent(w)
}

// newTokenRecord returns the access token secret of userID, seeing orgs and holding scopes, created now.
func newTokenRecord(secret, userID, description string, orgs, scopes []string, now time.Time) *tokenRecord {
	rec := &tokenRecord{
		token: secret, uuid: accessTokenUUID(secret), description: description, createdAt: now,
		userID: userID, orgs: map[string]bool{}, scopes: map[string]bool{},
	}
	for _, slug := range orgs {
		rec.orgs[slug] = true
	}
	for _, sc := range scopes {
		rec.scopes[sc] = true
	}
	return rec
}

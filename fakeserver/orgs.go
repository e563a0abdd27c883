package fakeserver

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Organizations and their members (https://buildkite.com/docs/apis/rest-api/organizations and
// https://buildkite.com/docs/apis/rest-api/organizations/members), plus the exported Store methods that seed
// organizations, users and their access tokens for tests and fixtures.

// ---- views ----

// orgView is an organization, as the REST API shows it.
type orgView struct {
	ID           string `json:"id"`
	GraphQLID    string `json:"graphql_id"`
	URL          string `json:"url"`
	WebURL       string `json:"web_url"`
	Name         string `json:"name"`
	Slug         string `json:"slug"`
	PipelinesURL string `json:"pipelines_url"`
	AgentsURL    string `json:"agents_url"`
	EmojisURL    string `json:"emojis_url"`
	CreatedAt    string `json:"created_at"`
}

// organizationView renders o. Its web URL is https://buildkite.com/<slug> on the real service, so here it
// is the slug on the emulator's origin.
func organizationView(base string, o *orgRecord) orgView {
	return orgView{
		ID: o.id, GraphQLID: o.graphqlID, Name: o.name, Slug: o.slug,
		URL:          apiURL(base, "organizations", o.slug),
		WebURL:       webURL(base, o.slug),
		PipelinesURL: apiURL(base, "organizations", o.slug, "pipelines"),
		AgentsURL:    apiURL(base, "organizations", o.slug, "agents"),
		EmojisURL:    apiURL(base, "organizations", o.slug, "emojis"),
		CreatedAt:    formatTime(o.createdAt),
	}
}

// memberView is an organization member. graphql_id, the user's, is beyond the three fields the members page
// lists because every object of the REST API carries one; go-buildkite ignores it.
type memberView struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	// Role and SSOMode (https://buildkite.com/docs/apis/rest-api/organizations/members): sso_mode only for
	// administrators or on the viewer's own membership.
	Role    string  `json:"role,omitempty"`
	SSOMode *string `json:"sso_mode,omitempty"`
}

func memberViewOf(u *userRecord) memberView {
	return memberView{ID: u.id, GraphQLID: u.graphqlID, Name: u.name, Email: u.email}
}

// ---- lookups (a lock must be held) ----

// orgsOfToken returns the organizations the token sees, by slug: organizations have no creation sequence,
// and slug order is what a person scanning the list expects.
func (st *Store) orgsOfToken(tok tokenRecord) []*orgRecord {
	var out []*orgRecord
	for slug := range tok.orgs {
		if o, ok := st.orgs[slug]; ok {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].slug < out[j].slug })
	return out
}

// membersOf returns the organization's users ordered by name (case-insensitively), then e-mail, then id,
// so pages are stable.
func (st *Store) membersOf(o *orgRecord) []*userRecord {
	var out []*userRecord
	for id := range o.members {
		if u, ok := st.users[id]; ok {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if la, lb := strings.ToLower(a.name), strings.ToLower(b.name); la != lb {
			return la < lb
		}
		if a.email != b.email {
			return a.email < b.email
		}
		return a.id < b.id
	})
	return out
}

// userByEmail returns the user with the e-mail address (compared case-insensitively), or nil.
func (st *Store) userByEmail(email string) *userRecord {
	for _, u := range st.users {
		if strings.EqualFold(u.email, email) {
			return u
		}
	}
	return nil
}

// ---- routes and handlers ----

func (s *Server) routeOrganizations(mux *routeMux) {
	mux.HandleFunc("GET /v2/organizations", s.listOrganizations)
	mux.HandleFunc("GET /v2/organizations/{org}", s.getOrganization)
	mux.HandleFunc("GET /v2/organizations/{org}/members", s.listMembers)
	mux.HandleFunc("GET /v2/organizations/{org}/members/{user}", s.getMember)
}

// listOrganizations lists only the organizations the token sees: a token is given access to chosen
// organizations only.
func (s *Server) listOrganizations(w http.ResponseWriter, r *http.Request) {
	tok, _, ok := s.authenticate(w, r, scopeReadOrganizations)
	if !ok {
		return
	}
	var out []orgView
	_ = s.store.view(func() *apiError {
		for _, o := range paginate(w, r, s.store.orgsOfToken(tok)) {
			out = append(out, organizationView(baseURL(r), o))
		}
		return nil
	})
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) getOrganization(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadOrganizations, func(org orgRecord, _ userRecord) (any, *apiError) {
		return organizationView(baseURL(r), &org), nil
	})
}

func (s *Server) listMembers(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadOrganizations, func(org orgRecord, user userRecord) (any, *apiError) {
		o, ok := s.store.orgs[org.slug]
		if !ok { // removed between authorize and here
			return nil, errNotFound("organization")
		}
		out := []memberView{}
		for _, u := range paginate(w, r, s.store.membersOf(o)) {
			out = append(out, s.store.memberViewIn(o, u, user.id))
		}
		return out, nil
	})
}

// getMember answers 404 "No member found" for a user who exists but is not a member of the organization,
// as for one who does not exist: the documentation does not show the message, and a token must not learn
// about users outside its organizations.
func (s *Server) getMember(w http.ResponseWriter, r *http.Request) {
	s.serveReadFor(w, r, scopeReadOrganizations, func(org orgRecord, user userRecord) (any, *apiError) {
		id := r.PathValue("user")
		u, ok := s.store.users[strings.ToLower(id)]
		if !ok || !s.store.isMember(org.slug, u.id) {
			return nil, errNotFound("member")
		}
		return s.store.memberViewIn(s.store.orgs[org.slug], u, user.id), nil
	})
}

// ---- seeding for tests and fixtures ----

// AddOrg creates the organization slug (named name, or after its slug when name is empty) on an
// enterprise plan with teams enabled, unless it exists; see SetOrgPlan to change the plan.
func (st *Store) AddOrg(slug, name string) {
	defer st.edit()()
	st.addOrg(slug, orDefault(name, titleCase(slug)))
}

// SetOrgPlan sets whether the organization is on an enterprise plan (pipeline templates exist only there)
// and whether it has teams enabled (test suites then need team_ids). It fails for an unknown organization.
func (st *Store) SetOrgPlan(org string, enterprise, teamsEnabled bool) error {
	defer st.edit()()
	o, ok := st.orgs[org]
	if !ok {
		return fmt.Errorf("fakeserver: no organization %q", org)
	}
	o.enterprise, o.teamsEnabled = enterprise, teamsEnabled
	return nil
}

// AddUser makes the user with email a member of org (an administrator when admin is true) and returns the
// user's id. The user is created, named name, unless one with that e-mail address exists (the default
// "Test User" is test-user@example.com); the organization is created, named after its slug, unless it
// exists. Adding an existing member changes only the admin flag.
func (st *Store) AddUser(org, name, email string, admin bool) (userID string) {
	defer st.edit()()
	st.addOrg(org, titleCase(org))
	u := st.userByEmail(email)
	if u == nil {
		u = st.addUser(name, email)
	}
	st.addMember(org, u.id, admin)
	return u.id
}

// AddTokenForUser seeds an access token belonging to the user userID (see AddUser), seeing orgs and
// holding scopes (see AllScopes). The user must be a member of every organization listed. Adding a token
// that exists replaces it.
func (st *Store) AddTokenForUser(token, userID string, orgs, scopes []string) error {
	defer st.edit()()
	if token == "" {
		return fmt.Errorf("fakeserver: empty access token")
	}
	if _, ok := st.users[userID]; !ok {
		return fmt.Errorf("fakeserver: no user %q", userID)
	}
	for _, slug := range orgs {
		if _, ok := st.orgs[slug]; !ok {
			return fmt.Errorf("fakeserver: no organization %q", slug)
		}
		if !st.isMember(slug, userID) {
			return fmt.Errorf("fakeserver: user %q is not a member of organization %q", userID, slug)
		}
	}
	st.putToken(token, userID, "", orgs, scopes)
	return nil
}

// defaultTokenDescription describes a seeded access token that declares no description.
const defaultTokenDescription = "Emulator access token"

// putToken stores an access token. The write lock must be held.
func (st *Store) putToken(token, userID, description string, orgs, scopes []string) {
	st.tokens[token] = newTokenRecord(token, userID, orDefault(description, defaultTokenDescription), orgs, scopes,
		st.timestamp())
}

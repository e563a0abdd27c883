package fakeserver

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// timeLayout is the API's timestamp form: ISO 8601, UTC, milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

// formatTime renders t in the API's timestamp form.
func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// formatTimePtr renders t, or null when t is zero.
func formatTimePtr(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := formatTime(t)
	return &s
}

// stringPtr returns a pointer to s.
func stringPtr(s string) *string { return &s }

// graphQLID returns the GraphQL node ID Buildkite uses: base64 of "<Type>---<uuid>".
func graphQLID(typeName, id string) string {
	return base64.StdEncoding.EncodeToString([]byte(typeName + "---" + id))
}

// writeJSON writes v as the JSON body with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeNoContent answers 204 with no body.
func writeNoContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }

// baseURL is the origin the client used, so response URLs work behind httptest without configuration.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// apiURL joins the escaped path segments onto base + "/v2".
func apiURL(base string, segments ...string) string { return base + "/v2" + joinSegments(segments) }

// webURL joins the escaped path segments onto base: the emulator serves no web pages, but its web URLs
// keep Buildkite's shape (https://buildkite.com/organizations/...) on the emulator's origin.
func webURL(base string, segments ...string) string { return base + joinSegments(segments) }

func joinSegments(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}

// userView is the user summary, embedded as created_by, dispatch_paused_by and the like.
type userView struct {
	ID        string  `json:"id"`
	GraphQLID string  `json:"graphql_id"`
	Name      string  `json:"name"`
	Email     string  `json:"email"`
	AvatarURL *string `json:"avatar_url"`
	CreatedAt string  `json:"created_at"`
}

// userSummary renders the user with id, or nil (JSON null) when there is none. The read lock must be held.
func (st *Store) userSummary(id string) *userView {
	u, ok := st.users[id]
	if !ok {
		return nil
	}
	v := &userView{ID: u.id, GraphQLID: u.graphqlID, Name: u.name, Email: u.email, CreatedAt: formatTime(u.createdAt)}
	if u.avatarURL != "" {
		v.AvatarURL = stringPtr(u.avatarURL)
	}
	return v
}

// respond writes err when there is one, else out with status; a 204 answers no body.
func respond(w http.ResponseWriter, status int, out any, err *apiError) {
	if status == http.StatusNoContent {
		respondNoContent(w, err) // a 204 has no body, and so no Content-Type
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, out)
}

// respondNoContent writes err when there is one, else 204.
func respondNoContent(w http.ResponseWriter, err *apiError) {
	if err != nil {
		writeError(w, err)
		return
	}
	writeNoContent(w)
}

// nonNil keeps an empty list a JSON [] rather than null.
func nonNil[T any](items []T) []T {
	if items == nil {
		return []T{}
	}
	return items
}

// setString applies a property read from a request to dst: absent leaves dst alone, null empties it.
func setString(dst *string, v opt[string]) {
	if v.Set {
		*dst = v.Value
	}
}

// slugify derives the slug of a team, suite, registry or pipeline from its name: lowercase, each run of characters other than ASCII letters and
// digits becomes one hyphen, and no hyphen leads or trails. "" means the name has no letter or digit.
func slugify(name string) string {
	var b strings.Builder
	pendingHyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if pendingHyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(r)
			continue
		}
		pendingHyphen = true
	}
	return b.String()
}

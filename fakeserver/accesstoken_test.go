package fakeserver

import (
	"regexp"
	"testing"
	"time"
)

func TestAccessTokenDescribesTheCallingToken(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("narrow", []string{"acme"}, []string{scopeReadPipelines, scopeReadBuilds})

	got := e.do("GET", "/v2/access-token", "narrow", nil)
	expect(t, got, 200)
	m := got.object(t)
	if m["uuid"] != accessTokenUUID("narrow") || m["uuid"] == accessTokenUUID("test-token") {
		t.Fatalf("uuid %v", m["uuid"])
	}
	if scopes, _ := m["scopes"].([]any); len(scopes) != 2 || scopes[0] != scopeReadBuilds || scopes[1] != scopeReadPipelines {
		t.Fatalf("scopes %v", m["scopes"])
	}
	if m["description"] != defaultTokenDescription {
		t.Fatalf("description %v", m["description"])
	}
	created, _ := m["created_at"].(string)
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$`).MatchString(created) {
		t.Fatalf("created_at %q", created)
	}
	if _, err := time.Parse(accessTokenTimeLayout, created); err != nil {
		t.Fatal(err)
	}
	if u, _ := m["user"].(map[string]any); u["name"] != "Test User" || u["email"] != "test-user@example.com" || len(u) != 2 {
		t.Fatalf("user %v", m["user"])
	}

	// The uuid is a function of the secret: the same on another server, or after the token is replaced.
	other := New(Options{Token: "narrow"})
	other.Store().AddToken("narrow", []string{"acme"}, nil)
	if accessTokenUUID("narrow") != other.Store().tokens["narrow"].uuid {
		t.Fatal("uuid not stable")
	}
}

func TestAccessTokenNeedsAKnownToken(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("no-scopes", []string{"acme"}, nil)
	expect(t, e.do("GET", "/v2/access-token", "no-scopes", nil), 200) // no scope needed
	for _, token := range []string{"", "unknown"} {
		for _, method := range []string{"GET", "DELETE"} {
			expectError(t, e.do(method, "/v2/access-token", token, nil), 401, errUnauthorized().body.(messageBody).Message)
		}
	}
	expectError(t, e.do("POST", "/v2/access-token", "test-token", nil), 405, "Method Not Allowed")
}

func TestAccessTokenRevoke(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("keep", []string{"acme"}, AllScopes())
	expect(t, e.do("GET", "/v2/organizations/acme/pipelines", "test-token", nil), 200)

	got := e.do("DELETE", "/v2/access-token", "test-token", nil)
	expect(t, got, 204)
	if len(got.raw) != 0 {
		t.Fatalf("204 with a body %q", got.raw)
	}
	unauthorized := errUnauthorized().body.(messageBody).Message
	for _, path := range []string{"/v2/access-token", "/v2/organizations/acme/pipelines", "/v2/organizations"} {
		expectError(t, e.do("GET", path, "test-token", nil), 401, unauthorized)
	}
	expectError(t, e.do("DELETE", "/v2/access-token", "test-token", nil), 401, unauthorized)
	// Only the calling token goes.
	expect(t, e.do("GET", "/v2/organizations/acme/pipelines", "keep", nil), 200)
}

func TestAccessTokenFixtureDescription(t *testing.T) {
	f, err := ParseFixtures([]byte(`
organizations: [{slug: acme}]
users: [{name: Ann, email: ann@example.com, memberships: [{org: acme, admin: true}]}]
access_tokens:
  - {token: t1, user: ann@example.com, scopes: all, description: CI token}
`), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{Fixtures: f})
	m := e.do("GET", "/v2/access-token", "t1", nil).object(t)
	if m["description"] != "CI token" || m["uuid"] != accessTokenUUID("t1") {
		t.Fatalf("%v", m)
	}
	if u, _ := m["user"].(map[string]any); u["email"] != "ann@example.com" {
		t.Fatalf("user %v", u)
	}
}

// TestCurrentUser: GET /v2/user (go-buildkite's User.CurrentUser, which Buildkite's CLI calls) is the
// token's user, with read_user; without it 403, without a token 401.
func TestCurrentUser(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	r := e.do("GET", "/v2/user", "test-token", nil)
	expect(t, r, 200)
	m := r.object(t)
	st.mu.RLock()
	u := st.users[st.defaultUserID]
	st.mu.RUnlock()
	if m["id"] != u.id || m["name"] != u.name || m["email"] != u.email || m["graphql_id"] != u.graphqlID || m["created_at"] == nil {
		t.Errorf("user %v, want %s %s", m, u.id, u.email)
	}
	st.AddToken("narrow", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("GET", "/v2/user", "narrow", nil), 403, "Your access token doesn't have the read_user scope")
	expect(t, e.do("GET", "/v2/user", "", nil), 401)
}

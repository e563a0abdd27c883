package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestPortalsCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/portals", map[string]any{
		"name": "Build Stats", "query": "{ viewer { user { name } } }", "description": "stats",
		"allowed_ip_addresses": "10.0.0.0/8  192.168.0.0/16",
	})
	expect(t, r, http.StatusCreated)
	p := r.object(t)
	hasKeys(t, p, "uuid", "slug", "organization_uuid", "name", "description", "query", "allowed_ip_addresses",
		"user_invokable", "created_at", "created_by", "token")
	if p["slug"] != "build-stats" || p["user_invokable"] != false || p["allowed_ip_addresses"] != "10.0.0.0/8 192.168.0.0/16" ||
		p["token"] == "" || p["created_by"].(map[string]any)["name"] != "Test User" {
		t.Fatalf("created %v", p)
	}

	// The token is in the create answer only.
	r = e.api("GET", "/portals/build-stats", nil)
	expect(t, r, http.StatusOK)
	if got := r.object(t); got["token"] != nil || got["uuid"] != p["uuid"] {
		t.Fatalf("read %v", got)
	}

	// Rename the slug, clear description (null) and allowed_ip_addresses ("").
	r = e.api("PUT", "/portals/build-stats", map[string]any{
		"slug": "stats", "description": nil, "allowed_ip_addresses": "", "user_invokable": true,
	})
	expect(t, r, http.StatusOK)
	if got := r.object(t); got["slug"] != "stats" || got["description"] != nil || got["allowed_ip_addresses"] != nil ||
		got["user_invokable"] != true || got["name"] != "Build Stats" || got["token"] != nil {
		t.Fatalf("updated %v", got)
	}
	expectError(t, e.api("GET", "/portals/build-stats", nil), http.StatusNotFound, "No portal found")

	expect(t, e.api("DELETE", "/portals/stats", nil), http.StatusNoContent)
	expectError(t, e.api("DELETE", "/portals/stats", nil), http.StatusNotFound, "No portal found")
	expectError(t, e.api("PUT", "/portals/stats", map[string]any{"name": "x"}), http.StatusNotFound, "No portal found")
}

func TestPortalsBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	expect(t, e.api("POST", "/portals", map[string]any{"name": "One", "slug": "one", "query": "{ a }"}), http.StatusCreated)
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{"query": "{ a }"}, "Validation failed: Name can't be blank"},
		{map[string]any{"name": "Two"}, "Validation failed: Query can't be blank"},
		{map[string]any{"name": "Two", "query": "{ a"}, "Validation failed: Query is not a valid GraphQL document"},
		{map[string]any{"name": "Two", "slug": "Not A Slug", "query": "{ a }"}, "Validation failed: Slug must contain only lowercase letters, numbers and hyphens"},
		{map[string]any{"name": "One", "query": "{ a }"}, "Validation failed: Slug has already been taken"},
		{map[string]any{"name": "Two", "query": "{ a }", "allowed_ip_addresses": "10.0.0.1/33"}, "Validation failed: Allowed ip addresses 10.0.0.1/33 is not a valid CIDR"},
		{map[string]any{"name": "Two", "query": "{ a }", "user_invokable": "yes"}, "Validation failed: User invokable must be a boolean"},
		{map[string]any{"name": "!!!", "query": "{ a }"}, "Validation failed: Slug can't be blank"},
	} {
		expectError(t, e.api("POST", "/portals", tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	expect(t, e.api("POST", "/portals", map[string]any{"name": "Two", "query": "{ a }"}), http.StatusCreated)
	expectError(t, e.api("PUT", "/portals/two", map[string]any{"slug": "one"}), http.StatusUnprocessableEntity,
		"Validation failed: Slug has already been taken")
	expectError(t, e.api("PUT", "/portals/two", map[string]any{"name": ""}), http.StatusUnprocessableEntity,
		"Validation failed: Name can't be blank")
	expect(t, e.api("POST", "/portals", "not json"), http.StatusBadRequest)
}

func TestPortalsScopes(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("narrow", []string{"acme"}, []string{scopeReadPortals})
	base := "/v2/organizations/acme/portals"
	expect(t, e.do("GET", base, "narrow", nil), http.StatusOK)
	expectError(t, e.do("POST", base, "narrow", map[string]any{"name": "x", "query": "{ a }"}), http.StatusForbidden,
		"Your access token doesn't have the write_portals scope")
	e.srv.Store().AddToken("none", []string{"acme"}, []string{scopeReadPipelines})
	expectError(t, e.do("GET", base, "none", nil), http.StatusForbidden, "Your access token doesn't have the read_portals scope")
}

func TestPortalsPaging(t *testing.T) {
	e := newEnv(t, Options{})
	for i := range 5 {
		expect(t, e.api("POST", "/portals", map[string]any{"name": fmt.Sprintf("P%d", i), "query": "{ a }"}), http.StatusCreated)
	}
	r := e.api("GET", "/portals?per_page=2&page=2", nil)
	expect(t, r, http.StatusOK)
	if got := r.list(t); len(got) != 2 || got[0]["slug"] != "p2" {
		t.Fatalf("page 2: %v", got)
	}
	if link := r.header.Get("Link"); !strings.Contains(link, `page=3&per_page=2>; rel="next"`) {
		t.Fatalf("Link %q", link)
	}
}

func TestPortalsKind(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/portals", map[string]any{"name": "K", "query": "{ a }"})
	expect(t, r, http.StatusCreated)
	id := r.object(t)["uuid"].(string)
	st := e.srv.Store()
	if !st.Exists(KindPortal, "acme", id) || !st.Remove(KindPortal, "acme", id) || st.Exists(KindPortal, "acme", id) {
		t.Fatal("Exists/Remove")
	}
}

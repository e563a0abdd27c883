package fakeserver

import (
	"net/http"
	"testing"
)

// TestSuiteOIDCPolicy: oidc_policy is taken on create and update as a YAML string or an array of statements,
// shown by every answer (null when none), and cleared by null or "".
func TestSuiteOIDCPolicy(t *testing.T) {
	k := newTeamsKit(t)
	k.setTeamsEnabled("acme", false)
	const policy = "- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"
	r := k.suites("POST", "", map[string]any{"name": "Specs", "default_branch": "main", "oidc_policy": policy})
	expect(t, r, http.StatusCreated)
	if got := r.object(t)["oidc_policy"]; got != policy {
		t.Fatalf("created with %v", got)
	}
	if l := k.suites("GET", "", nil).list(t); len(l) != 1 || l[0]["oidc_policy"] != policy {
		t.Fatalf("listed %v", l)
	}
	r = k.suites("PATCH", "/specs", map[string]any{"oidc_policy": []map[string]any{{"iss": "https://agent.buildkite.com"}}})
	expect(t, r, http.StatusOK)
	if got := r.object(t)["oidc_policy"]; got != `[{"iss":"https://agent.buildkite.com"}]` {
		t.Fatalf("array kept as %v", got)
	}
	// Other properties leave it; "" and null clear it.
	expect(t, k.suites("PATCH", "/specs", map[string]any{"default_branch": "trunk"}), http.StatusOK)
	if got := k.suites("GET", "/specs", nil).object(t)["oidc_policy"]; got == nil {
		t.Fatal("an update without oidc_policy cleared it")
	}
	for _, clear := range []any{"", nil} {
		expect(t, k.suites("PATCH", "/specs", map[string]any{"oidc_policy": policy}), http.StatusOK)
		s := k.suites("PATCH", "/specs", map[string]any{"oidc_policy": clear}).object(t)
		if v, ok := s["oidc_policy"]; !ok || v != nil {
			t.Fatalf("after %#v: %v %v", clear, v, ok)
		}
	}
	// Bad input: not a string or an array, or not YAML.
	for _, bad := range []any{7, map[string]any{"iss": "x"}, "iss: [unclosed"} {
		r := k.suites("PATCH", "/specs", map[string]any{"oidc_policy": bad})
		expect(t, r, http.StatusUnprocessableEntity)
	}
	expect(t, k.suites("POST", "", map[string]any{"name": "Bad", "default_branch": "main", "oidc_policy": 7}), http.StatusUnprocessableEntity)
}

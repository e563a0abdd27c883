package fakeserver

import (
	"net/http"
	"testing"
)

// TestAPIAllowlistEnforced: a caller outside the organization's API allowlist is refused with the
// permission-denied answer, on reads and writes alike; inside it, or with no allowlist, it is served; a
// bad token is still a 401 first.
func TestAPIAllowlistEnforced(t *testing.T) {
	e := newEnv(t, Options{})
	expect(t, e.api("GET", "/clusters", nil), http.StatusOK) // no allowlist: anyone
	e.srv.Store().SetAPISettings("acme", "192.0.2.0/24 198.51.100.7/32", 0, false)
	r := e.api("GET", "/clusters", nil) // from 127.0.0.1
	expect(t, r, http.StatusForbidden)
	if m := r.object(t)["message"]; m != "Forbidden" {
		t.Fatalf("the refusal says %v", m)
	}
	expect(t, e.api("POST", "/clusters", map[string]any{"name": "x"}), http.StatusForbidden)
	expect(t, e.api("GET", "/api-settings", nil), http.StatusForbidden) // locked out of the remedy too
	if r := e.do("GET", "/v2/organizations/acme/clusters", "wrong-token", nil); r.status != http.StatusUnauthorized {
		t.Fatalf("a bad token from outside the allowlist: %d, want 401", r.status)
	}
	for _, addr := range []string{"192.0.2.200", "198.51.100.7"} {
		e.srv.SetCallerAddress(addr)
		expect(t, e.api("GET", "/clusters", nil), http.StatusOK)
	}
	e.srv.SetCallerAddress("198.51.100.8")
	expect(t, e.api("GET", "/clusters", nil), http.StatusForbidden)
	e.srv.SetCallerAddress("")
	expect(t, e.api("GET", "/clusters", nil), http.StatusForbidden)
	e.srv.Store().SetAPISettings("acme", "", 0, false)
	expect(t, e.api("GET", "/clusters", nil), http.StatusOK)
}

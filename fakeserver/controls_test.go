package fakeserver

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const testAdminToken = "admin-secret"

// TestControlsOffWithoutAdminToken: without Options.AdminToken every control but health is the API's 404,
// whatever token the request carries.
func TestControlsOffWithoutAdminToken(t *testing.T) {
	e := newEnv(t, Options{})
	for _, c := range []struct{ method, path string }{
		{"POST", "/_emulator/reset"}, {"GET", "/_emulator/state"}, {"PUT", "/_emulator/state"},
		{"GET", "/_emulator/nothing"},
	} {
		for _, token := range []string{"", "test-token", testAdminToken} {
			expectError(t, e.do(c.method, c.path, token, "{}"), http.StatusNotFound, "Not Found")
		}
	}
	r := e.do("GET", "/_emulator/health", "", nil)
	expect(t, r, http.StatusOK)
	if r.object(t)["status"] != "ok" {
		t.Fatalf("health body %s", r.raw)
	}
}

// TestControlsNeedAdminToken: with an admin token, the controls refuse a request without it or with an
// API token (401), and answer other methods 405; health needs no token.
func TestControlsNeedAdminToken(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken})
	for _, c := range []struct{ method, path string }{
		{"POST", "/_emulator/reset"}, {"GET", "/_emulator/state"}, {"PUT", "/_emulator/state"},
	} {
		for _, token := range []string{"", "test-token", "admin-secre", testAdminToken + "x"} {
			r := e.do(c.method, c.path, token, "{}")
			expect(t, r, http.StatusUnauthorized)
			if !strings.Contains(r.message(t), "admin token") {
				t.Fatalf("%s %s: message %q does not name the admin token", c.method, c.path, r.message(t))
			}
		}
	}
	r := e.do("DELETE", "/_emulator/state", testAdminToken, nil)
	expect(t, r, http.StatusMethodNotAllowed)
	if got := r.header.Get("Allow"); got != "GET, PUT" {
		t.Fatalf("Allow %q, want GET, PUT", got)
	}
	expect(t, e.do("GET", "/_emulator/reset", testAdminToken, nil), http.StatusMethodNotAllowed)
	expect(t, e.do("GET", "/_emulator/health", "", nil), http.StatusOK)
	expect(t, e.do("HEAD", "/_emulator/health", "", nil), http.StatusOK)
	expectError(t, e.do("GET", "/_emulator/other", testAdminToken, nil), http.StatusNotFound, "Not Found")
	// The admin token is no API token.
	expect(t, e.do("GET", "/v2/organizations/acme", testAdminToken, nil), http.StatusUnauthorized)
}

// TestAdminTokenMustNotBeAnAccessToken: an admin token that a client under test holds is refused.
func TestAdminTokenMustNotBeAnAccessToken(t *testing.T) {
	if _, err := Open(Options{Token: "same", AdminToken: "same"}); err == nil {
		t.Fatal("Open took an admin token equal to Options.Token")
	}
	f := &Fixtures{
		Organizations: []OrganizationFixture{{Slug: "o"}},
		Users:         []UserFixture{{Name: "U", Email: "u@example.com", Memberships: []MembershipFixture{{Org: "o"}}}},
		AccessTokens:  []AccessTokenFixture{{Token: "fixture-token", User: "u@example.com", Scopes: Scopes{"all"}}},
	}
	if _, err := Open(Options{Fixtures: f, AdminToken: "fixture-token"}); err == nil {
		t.Fatal("Open took an admin token that is a fixture's access token")
	}
}

// TestControlReset: reset brings back the seeded state, with its IDs, and drops what was made since.
func TestControlReset(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken, SeedDefaults: true})
	before := e.api("GET", "/clusters", nil).list(t)
	if len(before) != 1 {
		t.Fatalf("seeded clusters %v", before)
	}
	e.createCluster("made after start")
	e.srv.Store().AddOrg("second", "Second")
	expect(t, e.do("POST", "/_emulator/reset", testAdminToken, nil), http.StatusNoContent)
	after := e.api("GET", "/clusters", nil).list(t)
	if len(after) != 1 || after[0]["id"] != before[0]["id"] {
		t.Fatalf("after reset clusters %v, want the seeded %v", after, before)
	}
	if e.srv.Store().Exists(KindCluster, "acme", before[0]["id"].(string)) == false {
		t.Fatal("the store does not hold the seeded cluster after reset")
	}
	// The reset state takes changes as before.
	e.createCluster("after reset")
	if n := len(e.api("GET", "/clusters", nil).list(t)); n != 2 {
		t.Fatalf("%d clusters after a create following reset", n)
	}
}

// TestControlStateRoundTrip: GET state returns the state file's JSON; PUT puts it back, replacing what
// was made in between; a body that is not a state is 422 and changes nothing.
func TestControlStateRoundTrip(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken})
	id := e.createCluster("kept")
	r := e.do("GET", "/_emulator/state", testAdminToken, nil)
	expect(t, r, http.StatusOK)
	if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || !strings.Contains(string(r.raw), `"format":`) {
		t.Fatalf("state answer %s %.80s", r.header.Get("Content-Type"), r.raw)
	}
	saved := r.raw
	e.createCluster("dropped")
	expect(t, e.do("PUT", "/_emulator/state", testAdminToken, saved), http.StatusNoContent)
	clusters := e.api("GET", "/clusters", nil).list(t)
	if len(clusters) != 1 || clusters[0]["id"] != id {
		t.Fatalf("after PUT state clusters %v, want only %s", clusters, id)
	}

	for _, bad := range []string{"", "{}", "[]", `{"format":1,"store":null}`, `{"format":99,"store":{}}`, `{"format":1,"store":{"orgs":7}}`} {
		r := e.do("PUT", "/_emulator/state", testAdminToken, bad)
		expect(t, r, http.StatusUnprocessableEntity)
		if !strings.HasPrefix(r.message(t), "Not a state: ") {
			t.Fatalf("PUT %q: message %q", bad, r.message(t))
		}
	}
	if n := len(e.api("GET", "/clusters", nil).list(t)); n != 1 {
		t.Fatalf("a refused PUT changed the state: %d clusters", n)
	}
}

// TestControlsWithStateFile: reset and PUT state are written to the state file, and a server that resumed
// from a file resets to the state it resumed.
func TestControlsWithStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	srv, err := Open(Options{StateFile: path, AdminToken: testAdminToken})
	if err != nil {
		t.Fatal(err)
	}
	srv.Store().AddOrg("added", "Added")
	if err := srv.Reset(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"added"`) {
		t.Fatal("the state file still holds the organization made before reset")
	}
	srv.Store().AddOrg("kept", "Kept")
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	resumed, err := Open(Options{StateFile: path, AdminToken: testAdminToken})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resumed.Close() }()
	resumed.Store().AddOrg("later", "Later")
	if err := resumed.Reset(); err != nil {
		t.Fatal(err)
	}
	state, err := resumed.State()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(state), `"kept"`) || strings.Contains(string(state), `"later"`) {
		t.Fatal("reset of a resumed server did not go back to the state it resumed")
	}
}

// TestControlsUnderLoad: controls and API requests at once never interleave (run with -race).
func TestControlsUnderLoad(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken})
	saved := e.do("GET", "/_emulator/state", testAdminToken, nil).raw
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 5 {
				e.do("POST", "/v2/organizations/acme/clusters", "test-token", map[string]any{"name": fmt.Sprintf("c%d-%d", i, j)})
				switch j % 3 {
				case 0:
					e.do("POST", "/_emulator/reset", testAdminToken, nil)
				case 1:
					e.do("PUT", "/_emulator/state", testAdminToken, saved)
				default:
					e.do("GET", "/_emulator/state", testAdminToken, nil)
				}
			}
		}()
	}
	wg.Wait()
	expect(t, e.do("POST", "/_emulator/reset", testAdminToken, nil), http.StatusNoContent)
	if n := len(e.api("GET", "/clusters", nil).list(t)); n != 0 {
		t.Fatalf("%d clusters after the last reset", n)
	}
}

// TestControlsBypassFaultsAndRateLimit: the controls are not API requests: faults and the rate limit
// never touch them and the request log does not count them.
func TestControlsBypassFaultsAndRateLimit(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken, RateLimit: 1, Faults: Faults{ServerErrors: 1}})
	for range 3 {
		expect(t, e.do("GET", "/_emulator/health", "", nil), http.StatusOK)
		expect(t, e.do("GET", "/_emulator/state", testAdminToken, nil), http.StatusOK)
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Fatalf("the request log holds %d control requests", n)
	}
}

// TestUnknownRouteLoggedOnce: an unmodelled route answers the API's 404 JSON and is logged once, with a
// hint; a wrong method is 405 and logged once too.
func TestUnknownRouteLoggedOnce(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	e := newEnv(t, Options{Logf: logf, DisableTestRoutes: true})
	for range 3 {
		expectError(t, e.api("GET", "/no-such-area", nil), http.StatusNotFound, "Not Found")
		expect(t, e.api("PATCH", "/clusters", nil), http.StatusMethodNotAllowed)
		expectError(t, e.do("GET", "/organizations", "test-token", nil), http.StatusNotFound, "Not Found")
		expectError(t, e.do("POST", "/_fake/anything", "", nil), http.StatusNotFound, "Not Found")
	}
	mu.Lock()
	defer mu.Unlock()
	hints := map[string]string{
		"GET /v2/organizations/acme/no-such-area:": "does not model this route",
		"PATCH /v2/organizations/acme/clusters:":   "not with PATCH",
		"GET /organizations:":                      "start with /v2/",
		"POST /_fake/anything:":                    "--test-routes",
	}
	for prefix, hint := range hints {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				n++
				if !strings.Contains(l, hint) || !strings.Contains(l, "logged once") {
					t.Errorf("line %q lacks the hint %q", l, hint)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s logged %d times, want once; log:\n%s", prefix, n, strings.Join(lines, "\n"))
		}
	}
}

// TestControlPutStateRefusesAdminToken: a state holding the admin token as an access token is refused, as
// at start, and changes nothing: the admin token stays no API token.
func TestControlPutStateRefusesAdminToken(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken})
	id := e.createCluster("kept")
	other, err := New(Options{Token: testAdminToken}).State()
	if err != nil {
		t.Fatal(err)
	}
	r := e.do("PUT", "/_emulator/state", testAdminToken, other)
	expect(t, r, http.StatusBadRequest)
	if msg := r.message(t); !strings.Contains(msg, "the admin token is also an access token of the state") ||
		!strings.Contains(msg, "--admin-token") {
		t.Fatalf("message %q", msg)
	}
	expect(t, e.do("GET", "/v2/organizations/acme", testAdminToken, nil), http.StatusUnauthorized)
	if clusters := e.api("GET", "/clusters", nil).list(t); len(clusters) != 1 || clusters[0]["id"] != id {
		t.Fatalf("a refused PUT changed the state: %v", clusters)
	}
	if err := e.srv.SetState(other); !errors.Is(err, errAdminTokenInState) {
		t.Fatalf("SetState: %v", err)
	}
}

package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"
)

// serveWith answers one request whose Authorization header is exactly auth (no client in between to
// tidy it) and returns the status.
func serveWith(srv *Server, path, auth string) int {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if auth != "" {
		req.Header["Authorization"] = []string{auth}
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec.Code
}

// TestRateLimitPerResolvedToken: every spelling of the header that authenticates as one token draws on
// one budget (issue 16: ten spellings had ten budgets, 35 of 50 requests answered at a limit of 5).
func TestRateLimitPerResolvedToken(t *testing.T) {
	srv := New(Options{RateLimit: 5})
	spellings := []string{
		"Bearer test-token", "bearer test-token", "BEARER test-token", "BeArEr test-token",
		"Bearer  test-token", "Bearer   test-token", "Bearer test-token ", "Bearer test-token  ",
		"Bearer test-token\t", "bearer  test-token \t",
	}
	counts := map[int]int{}
	for _, auth := range spellings {
		for range 5 {
			counts[serveWith(srv, "/v2/organizations/acme/clusters", auth)]++
		}
	}
	if counts[http.StatusOK] != 5 || counts[http.StatusTooManyRequests] != 45 {
		t.Fatalf("answers by status %v, want 5 answered and 45 refused", counts)
	}
	if n := srv.limiter.size(); n != 1 {
		t.Fatalf("%d windows for one token", n)
	}
}

// TestRateLimitUnknownTokensKeepNoWindow: headers naming no known token (20,000 bogus ones, in both
// schemes) are answered 401 and leave nothing behind, so hostile requests cannot grow the emulator's
// memory (issue 16: 20,000 bogus tokens took it from 9 to 94 MB).
func TestRateLimitUnknownTokensKeepNoWindow(t *testing.T) {
	srv := New(Options{RateLimit: 5})
	for i := range 20_000 {
		path, auth := "/v2/organizations/acme/clusters", fmt.Sprintf("Bearer bogus-%d", i)
		if i%2 == 1 {
			path, auth = "/v3/metrics", fmt.Sprintf("Token bogus-%d", i)
		}
		if code := serveWith(srv, path, auth); code != http.StatusUnauthorized {
			t.Fatalf("request %d: status %d, want 401", i, code)
		}
	}
	n := srv.limiter.size()
	t.Logf("rate-limit windows after 20,000 bogus tokens: %d", n)
	if n != 0 {
		t.Fatalf("%d windows kept for unknown tokens", n)
	}
	serveWith(srv, "/v2/organizations/acme/clusters", "Bearer test-token")
	if n := srv.limiter.size(); n != 1 {
		t.Fatalf("%d windows after one known token", n)
	}
}

// TestRateLimitPrunesEndedWindows: the windows of tokens that stop calling are dropped once they end.
func TestRateLimitPrunesEndedWindows(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv := New(Options{RateLimit: 5, RateLimitWindow: time.Minute, Now: clock})
	for i := range 1000 {
		token := fmt.Sprintf("token-%d", i)
		srv.Store().AddToken(token, []string{"acme"}, AllScopes())
		serveWith(srv, "/v2/organizations/acme/clusters", "Bearer "+token)
	}
	if n := srv.limiter.size(); n != 1000 {
		t.Fatalf("%d windows for 1,000 tokens in one window", n)
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	serveWith(srv, "/v2/organizations/acme/clusters", "Bearer token-0")
	if n := srv.limiter.size(); n != 1 {
		t.Fatalf("%d windows a window later, want only the token that called again", n)
	}
}

// TestRateLimitAgentTokens: an agent registration token has its own budget on /v3/metrics.
func TestRateLimitAgentTokens(t *testing.T) {
	srv := New(Options{RateLimit: 2})
	if err := srv.Store().AddAgentToken("acme", "agent-secret"); err != nil {
		t.Fatal(err)
	}
	var codes []int
	for _, auth := range []string{"Token agent-secret", "token  agent-secret", "Token agent-secret "} {
		codes = append(codes, serveWith(srv, "/v3/metrics", auth))
	}
	if codes[0] != http.StatusOK || codes[1] != http.StatusOK || codes[2] != http.StatusTooManyRequests {
		t.Fatalf("statuses %v, want 200, 200, 429", codes)
	}
	// The access token's budget is another.
	if code := serveWith(srv, "/v2/organizations/acme/clusters", "Bearer test-token"); code != http.StatusOK {
		t.Fatalf("access token after the agent token's budget: %d", code)
	}
}

// TestRateLimitEndpoint: GET /v2/organizations/{org}/rate_limit (read_accounts) answers each scope's use.
// Off (the default), both limits are the service's numbers, enforced false and nothing used; on, the REST
// scope is the calling token's window, this request in it, and the GraphQL scope the organization's
// points spent, both enforced, with reset and reset_at from the window's start.
func TestRateLimitEndpoint(t *testing.T) {
	type scope struct {
		Limit, Current, Reset int
		ResetAt               string `json:"reset_at"`
		Enforced              bool
	}
	read := func(e *testEnv) map[string]scope {
		t.Helper()
		r := e.api("GET", "/rate_limit", nil)
		expect(t, r, http.StatusOK)
		var out struct{ Scopes map[string]scope }
		if err := json.Unmarshal(r.raw, &out); err != nil {
			t.Fatal(err)
		}
		return out.Scopes
	}
	clock := newBuildClock()
	start := clock.Now()
	off := read(newEnv(t, Options{Now: clock.Now}))
	wantOff := map[string]scope{
		"rest":    {Limit: 200, Reset: 60, ResetAt: start.Add(time.Minute).Format(time.RFC3339)},
		"graphql": {Limit: 20000, Reset: 300, ResetAt: start.Add(5 * time.Minute).Format(time.RFC3339)},
	}
	if !reflect.DeepEqual(off, wantOff) {
		t.Errorf("off: %+v, want %+v", off, wantOff)
	}

	e := newEnv(t, Options{Now: clock.Now, RateLimit: 100, GraphQLBudget: 20000})
	expect(t, e.gqlPost(`query { organization(slug: "acme") { pipelines(first: 10) { edges { node { slug } } } } }`), http.StatusOK) // 22 points
	clock.tick()
	expect(t, e.api("GET", "/clusters", nil), http.StatusOK)
	on := read(e)
	wantOn := map[string]scope{
		"rest":    {Limit: 100, Current: 2, Reset: 60, ResetAt: start.Add(2 * time.Minute).Format(time.RFC3339), Enforced: true},
		"graphql": {Limit: 20000, Current: 22, Reset: 240, ResetAt: start.Add(5 * time.Minute).Format(time.RFC3339), Enforced: true},
	}
	if !reflect.DeepEqual(on, wantOn) {
		t.Errorf("on: %+v, want %+v", on, wantOn)
	}

	e.srv.Store().AddToken("no-accounts", []string{"acme"}, []string{scopeReadOrganizations})
	expectError(t, e.do("GET", "/v2/organizations/acme/rate_limit", "no-accounts", nil), http.StatusForbidden,
		"Your access token doesn't have the read_accounts scope")
}

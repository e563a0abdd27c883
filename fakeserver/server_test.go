package fakeserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAuth(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("read-only", []string{"acme"}, []string{"read_clusters"})
	e.srv.Store().AddToken("other-org", []string{"other"}, AllScopes())
	unauthorized := "Authentication required. Please supply a valid API Access Token: " + authDocsURL

	tests := []struct {
		name, method, path, token string
		status                    int
		message                   string
	}{
		{"no token", "GET", "/v2/organizations/acme/clusters", "", 401, unauthorized},
		{"unknown token", "GET", "/v2/organizations/acme/clusters", "nope", 401, unauthorized},
		{"missing scope", "POST", "/v2/organizations/acme/clusters", "read-only", 403,
			"Your access token doesn't have the write_clusters scope"},
		{"scope held", "GET", "/v2/organizations/acme/clusters", "read-only", 200, ""},
		{"org the token does not see", "GET", "/v2/organizations/acme/clusters", "other-org", 404, "No organization found"},
		{"unknown org", "GET", "/v2/organizations/nowhere/clusters", "test-token", 404, "No organization found"},
		{"token's other org", "GET", "/v2/organizations/other/clusters", "other-org", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.method, tt.path, tt.token, nil)
			expect(t, r, tt.status)
			if tt.message != "" {
				expectError(t, r, tt.status, tt.message)
			}
		})
	}

	t.Run("non-bearer scheme", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/v2/organizations/acme/clusters", nil)
		req.Header.Set("Authorization", "Token test-token")
		resp, err := e.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("status %d, want 401", resp.StatusCode)
		}
	})
}

func TestOptionsDefaultsAndCustomOrg(t *testing.T) {
	e := newEnv(t, Options{Org: "demo", Token: "demo-token"})
	expect(t, e.do("GET", "/v2/organizations/demo/clusters", "demo-token", nil), 200)
	expect(t, e.do("GET", "/v2/organizations/acme/clusters", "demo-token", nil), 404)
	expect(t, e.do("GET", "/v2/organizations/demo/clusters", "test-token", nil), 401)
}

func TestRoutingErrors(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.do("GET", "/nope", "", nil), 404, "Not Found")
	expectError(t, e.do("GET", "/v2/organizations/acme/clusters/x/y/z", "test-token", nil), 404, "Not Found")

	r := e.do("POST", "/v2/organizations/acme/clusters/abc", "test-token", nil)
	expectError(t, r, 405, "Method Not Allowed")
	for _, m := range []string{"GET", "PUT", "PATCH", "DELETE"} {
		if !strings.Contains(r.header.Get("Allow"), m) {
			t.Errorf("Allow %q lacks %s", r.header.Get("Allow"), m)
		}
	}
	expectError(t, e.do("GET", "/v2/organizations/acme/clusters/a/queues/b/pause_dispatch", "test-token", nil),
		405, "Method Not Allowed")
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
}

func TestMalformedJSON(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.api("POST", "/clusters", `{"name":`), 400, "Problems parsing JSON")
	expectError(t, e.api("POST", "/clusters", `{"name":"a"} trailing`), 400, "Problems parsing JSON")
	expectError(t, e.api("POST", "/clusters", `["name"]`), 400, "Request body must be a JSON object")
	expectError(t, e.api("POST", "/clusters", `null`), 400, "Request body must be a JSON object")
	// A property of the wrong type is a validation failure naming it, never a 5xx.
	expectError(t, e.api("POST", "/clusters", `{"name":5,"emoji":true}`), 422,
		"Validation failed: Name must be a string, Emoji must be a string")
	// An empty body is an empty object.
	expectError(t, e.api("POST", "/clusters", ""), 422, "Validation failed: Name can't be blank")
}

func TestBodyTooLarge(t *testing.T) {
	e := newEnv(t, Options{})
	big := `{"name":"` + strings.Repeat("a", maxBodyBytes) + `"}`
	r := e.api("POST", "/clusters", big)
	expect(t, r, 413)
	if !strings.Contains(r.message(t), "too large") {
		t.Errorf("message %q", r.message(t))
	}

	// Without a Content-Length the limit applies while the body is read.
	req := httptest.NewRequest(http.MethodPost, "/v2/organizations/acme/clusters", strings.NewReader(big))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer test-token")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked: status %d, want 413; %s", rec.Code, rec.Body)
	}

	// Just under the limit the body is read: the name's own length limit (limits.go) refuses it.
	ok := `{"name":"` + strings.Repeat("a", maxBodyBytes-20) + `"}`
	expectError(t, e.api("POST", "/clusters", ok), 422, "Validation failed: Name is too long (maximum is 255 characters)")
}

func TestPagination(t *testing.T) {
	e := newEnv(t, Options{})
	for i := range 250 {
		e.createCluster(fmt.Sprintf("c%03d", i))
	}
	base := e.ts.URL + "/v2/organizations/acme/clusters"

	r := e.api("GET", "/clusters", nil)
	expect(t, r, 200)
	if n := len(r.list(t)); n != 30 {
		t.Fatalf("default page has %d items, want 30", n)
	}
	want := fmt.Sprintf(`<%s?page=2&per_page=30>; rel="next", <%s?page=9&per_page=30>; rel="last"`, base, base)
	if got := r.header.Get("Link"); got != want {
		t.Fatalf("Link\n got %s\nwant %s", got, want)
	}
	if got := r.header.Get("Access-Control-Expose-Headers"); got != "Link" {
		t.Fatalf("Access-Control-Expose-Headers %q", got)
	}

	r = e.api("GET", "/clusters?page=2&per_page=100", nil)
	l := r.list(t)
	if len(l) != 100 || l[0]["name"] != "c100" || l[99]["name"] != "c199" {
		t.Fatalf("page 2: %d items, first %v", len(l), l[0]["name"])
	}
	want = fmt.Sprintf(`<%[1]s?page=1&per_page=100>; rel="first", <%[1]s?page=1&per_page=100>; rel="prev", `+
		`<%[1]s?page=3&per_page=100>; rel="next", <%[1]s?page=3&per_page=100>; rel="last"`, base)
	if got := r.header.Get("Link"); got != want {
		t.Fatalf("Link\n got %s\nwant %s", got, want)
	}

	r = e.api("GET", "/clusters?page=3&per_page=100", nil)
	if n := len(r.list(t)); n != 50 {
		t.Fatalf("last page has %d items", n)
	}
	if got := r.header.Get("Link"); strings.Contains(got, `rel="next"`) || !strings.Contains(got, `rel="prev"`) {
		t.Fatalf("last page Link %s", got)
	}

	// per_page above 100 is capped.
	r = e.api("GET", "/clusters?per_page=1000", nil)
	if n := len(r.list(t)); n != 100 {
		t.Fatalf("per_page=1000 gave %d items", n)
	}
	if !strings.Contains(r.header.Get("Link"), "per_page=100>") {
		t.Fatalf("Link %s", r.header.Get("Link"))
	}

	// Invalid values are treated as absent.
	r = e.api("GET", "/clusters?page=abc&per_page=-5", nil)
	expect(t, r, 200)
	if n := len(r.list(t)); n != 30 || r.list(t)[0]["name"] != "c000" {
		t.Fatalf("invalid params gave %d items", n)
	}

	// Past the end: an empty array, not null.
	r = e.api("GET", "/clusters?page=99999999999999", nil)
	if string(r.raw) != "[]\n" {
		t.Fatalf("past the end: %s", r.raw)
	}

	// Other query parameters are carried into the links.
	r = e.api("GET", "/clusters?foo=bar&per_page=100", nil)
	if !strings.Contains(r.header.Get("Link"), "?foo=bar&page=2&per_page=100>") {
		t.Fatalf("Link %s", r.header.Get("Link"))
	}
}

func TestPaginationEmptyList(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("GET", "/clusters", nil)
	expect(t, r, 200)
	if string(r.raw) != "[]\n" {
		t.Fatalf("empty list: %s", r.raw)
	}
	if got := r.header.Get("Link"); got != "" {
		t.Fatalf("Link %q on a single page", got)
	}
}

func TestRateLimitHeadersUnenforced(t *testing.T) {
	e := newEnv(t, Options{})
	for range 3 {
		r := e.do("GET", "/nope", "", nil)
		h := r.header
		if h.Get("RateLimit-Scope") != "rest_user" || h.Get("RateLimit-Limit") != "200" ||
			h.Get("RateLimit-Remaining") != "200" || h.Get("RateLimit-Reset") != "60" {
			t.Fatalf("headers %v", h)
		}
	}
}

func TestRateLimitEnforced(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	e := newEnv(t, Options{RateLimit: 3, RateLimitWindow: time.Minute, Now: clock})

	for i := 1; i <= 3; i++ {
		r := e.api("GET", "/clusters", nil)
		expect(t, r, 200)
		if got, want := r.header.Get("RateLimit-Remaining"), fmt.Sprint(3-i); got != want {
			t.Fatalf("request %d: remaining %s, want %s", i, got, want)
		}
		if r.header.Get("RateLimit-Limit") != "3" || r.header.Get("RateLimit-Reset") != "60" {
			t.Fatalf("headers %v", r.header)
		}
	}
	advance(18 * time.Second)
	r := e.api("GET", "/clusters", nil)
	expect(t, r, 429)
	want := `{"message":"You have exceeded your API rate limit. Please wait 42 seconds before making more requests.",` +
		`"scope":"rest_user","limit":3,"current":4,"reset":42}` + "\n"
	if string(r.raw) != want {
		t.Fatalf("429 body\n got %s\nwant %s", r.raw, want)
	}
	if r.header.Get("RateLimit-Warning") == "" || r.header.Get("RateLimit-Remaining") != "0" ||
		r.header.Get("RateLimit-Reset") != "42" {
		t.Fatalf("429 headers %v", r.header)
	}

	// Another token has its own allowance.
	e.srv.Store().AddToken("second", []string{"acme"}, AllScopes())
	expect(t, e.do("GET", "/v2/organizations/acme/clusters", "second", nil), 200)

	// A new window starts once the old one ends.
	advance(42 * time.Second)
	r = e.api("GET", "/clusters", nil)
	expect(t, r, 200)
	if r.header.Get("RateLimit-Remaining") != "2" || r.header.Get("RateLimit-Warning") != "" {
		t.Fatalf("new window headers %v", r.header)
	}
}

func TestRequestLog(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	e := newEnv(t, Options{Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}})
	e.api("GET", "/clusters?page=1", nil)
	e.do("DELETE", "/nope", "", nil)
	got := e.srv.Requests()
	want := []Request{
		{Method: "GET", Path: "/v2/organizations/acme/clusters", Status: 200, Org: "acme"},
		{Method: "DELETE", Path: "/nope", Status: 404},
	}
	for i := range got {
		if got[i].Time.IsZero() {
			t.Errorf("entry %d has no time", i)
		}
		got[i].Time = time.Time{}
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Requests() = %+v", got)
	}
	mu.Lock()
	// The unknown route's hint comes before its request line (TestUnknownRouteLoggedOnce).
	if len(lines) != 3 || !regexp.MustCompile(`^GET /v2/organizations/acme/clusters\?page=1 200 `).MatchString(lines[0]) ||
		!strings.HasPrefix(lines[1], "DELETE /nope: ") || !strings.HasPrefix(lines[2], "DELETE /nope 404 ") {
		t.Errorf("log lines %q", lines)
	}
	mu.Unlock()
	e.srv.ResetRequests()
	if n := len(e.srv.Requests()); n != 0 {
		t.Fatalf("%d requests after reset", n)
	}
	e.api("GET", "/clusters", nil)
	if n := len(e.srv.Requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestTimestampsAndIDs(t *testing.T) {
	fixed := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("x", 3600))
	e := newEnv(t, Options{Now: func() time.Time { return fixed }})
	c := e.api("POST", "/clusters", map[string]any{"name": "n"}).object(t)
	if c["created_at"] != "2024-05-06T06:08:09.123Z" {
		t.Fatalf("created_at %v", c["created_at"])
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(c["id"].(string)) {
		t.Fatalf("id %v is not a UUID", c["id"])
	}
	if c["graphql_id"] != graphQLID("Cluster", c["id"].(string)) {
		t.Fatalf("graphql_id %v", c["graphql_id"])
	}
	user := c["created_by"].(map[string]any)
	for _, k := range []string{"id", "graphql_id", "name", "email", "avatar_url", "created_at"} {
		if _, ok := user[k]; !ok {
			t.Errorf("user summary lacks %s", k)
		}
	}
}

func TestURLsFollowTheRequest(t *testing.T) {
	srv := New(Options{})
	req := httptest.NewRequest(http.MethodPost, "https://api.example.test/v2/organizations/acme/clusters", strings.NewReader(`{"name":"x"}`))
	req.Header.Set("Authorization", "Bearer test-token")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 201 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if !strings.Contains(rec.Body.String(), `"url":"https://api.example.test/v2/organizations/acme/clusters/`) {
		t.Fatalf("body %s", rec.Body)
	}
}

func TestHumanize(t *testing.T) {
	for in, want := range map[string]string{
		"name": "Name", "allowed_ip_addresses": "Allowed ip addresses", "default_queue_id": "Default queue", "": "",
	} {
		if got := humanize(in); got != want {
			t.Errorf("humanize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPipelineValidationBody(t *testing.T) {
	var v validationErrors
	v.add("configuration", "is invalid")
	rec := httptest.NewRecorder()
	writeError(rec, errPipelineValidation(v))
	want := `{"message":"Validation Failed","errors":[{"field":"configuration","code":"is invalid"}]}` + "\n"
	if rec.Code != 422 || rec.Body.String() != want {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	writeError(rec, errForbidden())
	if rec.Code != 403 || rec.Body.String() != `{"message":"Forbidden"}`+"\n" {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

func TestRequestLogIsBounded(t *testing.T) {
	e := newEnv(t, Options{RequestLogSize: 3})
	for i := range 5 {
		e.api("GET", fmt.Sprintf("/clusters/c%d", i), nil)
	}
	e.do("GET", "/v2/organizations", "", nil)
	got := e.srv.Requests()
	if len(got) != 3 || got[0].Path != "/v2/organizations/acme/clusters/c3" || got[1].Path != "/v2/organizations/acme/clusters/c4" ||
		got[2].Method != http.MethodGet || got[2].Path != "/v2/organizations" || got[2].Status != 401 {
		t.Fatalf("Requests() = %+v, want the newest three, oldest first", got)
	}
	if c := e.srv.RequestCounts(); len(c) != 2 || c[404] != 5 || c[401] != 1 {
		t.Fatalf("RequestCounts() = %v", c)
	}
	e.srv.ResetRequests()
	if len(e.srv.Requests()) != 0 || len(e.srv.RequestCounts()) != 0 {
		t.Fatal("reset kept entries or counts")
	}

	// A negative size keeps nothing but still counts; the default keeps 10,000.
	none := New(Options{RequestLogSize: -1})
	none.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/organizations", nil))
	if len(none.Requests()) != 0 || none.RequestCounts()[401] != 1 {
		t.Fatalf("size -1: %v %v", none.Requests(), none.RequestCounts())
	}
	def := New(Options{})
	for range defaultRequestLogSize + 5 {
		def.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/nope", nil))
	}
	if n, c := len(def.Requests()), def.RequestCounts()[404]; n != defaultRequestLogSize || c != defaultRequestLogSize+5 {
		t.Fatalf("default: %d entries, %d counted", n, c)
	}
}

func TestDisableTestRoutes(t *testing.T) {
	for _, disabled := range []bool{false, true} {
		e := newEnv(t, Options{DisableTestRoutes: disabled})
		e.seedBuildPipeline("acme", "web", "")
		expect(t, e.api("POST", "/pipelines/web/builds", map[string]any{"commit": "HEAD", "branch": "main"}), 201)
		got := e.buildAdmin("web", 1, "", map[string]any{"state": "running"})
		flaky := e.do("POST", "/_fake/organizations/acme/suites/nope/flaky-tests", "", map[string]any{})
		if !disabled {
			expect(t, got, 200)
			expectError(t, flaky, 404, "No suite found") // routed: the handler answers
			continue
		}
		expectError(t, got, 404, "Not Found")
		expectError(t, flaky, 404, "Not Found")
		// Only /_fake/ goes: the API is untouched, and so is a path merely starting with "_fake".
		expect(t, e.api("GET", "/pipelines/web/builds/1", nil), 200)
		expectError(t, e.do("GET", "/_fakeish", "", nil), 404, "Not Found")
		if st, _, _ := e.srv.Store().BuildState("acme", "web", 1); st != "scheduled" {
			t.Fatalf("disabled route changed the build: %s", st)
		}
	}
}

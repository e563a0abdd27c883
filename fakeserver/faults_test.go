package fakeserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseFaults(t *testing.T) {
	got, err := ParseFaults(" 5xx=0.2, 429=0.1 ,latency=20ms,drop=0.5,seed=42,reset=3s")
	want := Faults{ServerErrors: 0.2, RateLimited: 0.1, Latency: 20 * time.Millisecond, DropCreates: 0.5, Seed: 42,
		RateLimitReset: 3 * time.Second}
	if err != nil || got.ServerErrors != want.ServerErrors || got.RateLimited != want.RateLimited || got.Latency != want.Latency ||
		got.DropCreates != want.DropCreates || got.Seed != want.Seed || got.RateLimitReset != want.RateLimitReset {
		t.Fatalf("ParseFaults = %+v, %v", got, err)
	}
	if f, err := ParseFaults(""); err != nil || f.enabled() {
		t.Fatalf("empty spec: %+v %v", f, err)
	}
	for spec, wantErr := range map[string]string{
		"5xx=2":               "5xx=2: want a share between 0 and 1",
		"429=-0.1":            "429=-0.1: want a share between 0 and 1",
		"drop=x":              "drop=x: want a share",
		"latency=fast":        "latency=fast: want a duration",
		"latency=-1s":         "latency=-1s: want a duration",
		"seed=1.5":            "seed=1.5: want an integer",
		"5xx":                 `"5xx" is not key=value`,
		"=1":                  `"=1" is not key=value`,
		"boom=1":              `unknown key "boom"`,
		"5xx=0.1,5xx=0.2":     "5xx given twice",
		"5xx=0.7,429=0.5":     "5xx and 429 together exceed 1",
		"5xx=2,latency=fast,": "5xx=2: want a share between 0 and 1; latency=fast: want a duration",
	} {
		if _, err := ParseFaults(spec); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("ParseFaults(%q) = %v, want %q", spec, err, wantErr)
		}
	}
}

// faultStatuses sends n GETs of the cluster list to a fresh server with f and returns the statuses.
func faultStatuses(t *testing.T, f Faults, n int) []int {
	e := newEnv(t, Options{Faults: f})
	out := make([]int, n)
	for i := range out {
		out[i] = e.api("GET", "/clusters", nil).status
	}
	return out
}

func TestFaultsAreRepeatable(t *testing.T) {
	f := Faults{ServerErrors: 0.3, RateLimited: 0.3, Seed: 42}
	first, again := faultStatuses(t, f, 60), faultStatuses(t, f, 60)
	if !slices.Equal(first, again) {
		t.Fatalf("same seed, different faults:\n%v\n%v", first, again)
	}
	f.Seed = 43
	if slices.Equal(first, faultStatuses(t, f, 60)) {
		t.Fatal("another seed gave the same faults")
	}
	seen := map[int]bool{}
	for _, s := range first {
		seen[s] = true
	}
	for _, s := range []int{200, 429, 500, 502, 503} {
		if !seen[s] {
			t.Errorf("status %d never answered in %v", s, first)
		}
	}
}

func TestFaultServerErrorsAndRateLimits(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{ServerErrors: 1, Seed: 1,
		Except: func(r *http.Request) bool { return r.URL.Path == "/v2/access-token" }}})
	r := e.api("POST", "/clusters", map[string]any{"name": "never"})
	if r.status < 500 || r.message(t) != http.StatusText(r.status) {
		t.Fatalf("status %d body %s", r.status, r.raw)
	}
	if e.srv.store.clusters.clusters.len() != 0 {
		t.Fatal("a refused create acted")
	}
	expect(t, e.do("GET", "/v2/access-token", "test-token", nil), 200) // spared by Except
	// The test-only routes and unknown paths outside the API are never touched.
	expectError(t, e.do("PUT", "/_fake/organizations/acme/pipelines/nope/builds/1", "", map[string]any{}), 404, "No pipeline found")
	expectError(t, e.do("GET", "/elsewhere", "", nil), 404, "Not Found")
	if c := e.srv.FaultCounts(); c.ServerErrors != 1 || c.ActedCreates() != 0 {
		t.Fatalf("counts %+v", c)
	}
	if log := e.srv.Requests(); log[0].Fault != FaultServerError || log[1].Fault != "" {
		t.Fatalf("log %+v", log)
	}

	e = newEnv(t, Options{Faults: Faults{RateLimited: 1, Latency: time.Millisecond}})
	r = e.api("GET", "/clusters", nil)
	expect(t, r, 429)
	body := r.object(t)
	if r.header.Get("RateLimit-Reset") != "1" || r.header.Get("RateLimit-Remaining") != "0" || body["reset"] != 1.0 ||
		body["scope"] != "rest_user" || body["message"] != rateLimitMessage(1) {
		t.Fatalf("429 headers %v body %v", r.header, body)
	}
	if c := e.srv.FaultCounts(); c.RateLimited != 1 {
		t.Fatalf("counts %+v", c)
	}
	if c := newEnv(t, Options{}).srv.FaultCounts(); c != (FaultCounts{}) {
		t.Fatalf("no faults configured, counts %+v", c)
	}
}

func TestFaultDroppedCreatesAct(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{DropCreates: 1, Seed: 7}})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	var dropped, badGateway int
	for i := range 12 {
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/v2/organizations/acme/clusters",
			strings.NewReader(fmt.Sprintf(`{"name":"c%d"}`, i)))
		req.Header.Set("Authorization", "Bearer test-token")
		resp, err := client.Do(req)
		switch {
		case err != nil:
			dropped++
		case resp.StatusCode == http.StatusBadGateway:
			badGateway++
			_ = resp.Body.Close()
		default:
			_ = resp.Body.Close()
			t.Fatalf("create answered %d", resp.StatusCode)
		}
	}
	if dropped == 0 || badGateway == 0 {
		t.Fatalf("dropped %d, 502 %d: want both", dropped, badGateway)
	}
	// Every create acted.
	if n := len(e.api("GET", "/clusters", nil).list(t)); n != 12 {
		t.Fatalf("%d clusters exist, want 12", n)
	}
	c := e.srv.FaultCounts()
	if c.Dropped != int64(dropped) || c.BadGateway != int64(badGateway) || c.ActedCreates() != 12 {
		t.Fatalf("counts %+v", c)
	}
	var logged int
	for _, req := range e.srv.Requests() {
		if req.Fault == FaultDropped {
			logged++
			if req.Status != 0 {
				t.Fatalf("dropped request logged with status %d", req.Status)
			}
		}
	}
	if logged != dropped || e.srv.RequestCounts()[0] != int64(dropped) {
		t.Fatalf("log: %d dropped, counts %v", logged, e.srv.RequestCounts())
	}

	// POSTs that do not create pass through; without a connection to take over, a dropped create is a 502.
	expectError(t, e.api("POST", "/clusters", map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	srv := New(Options{Faults: Faults{DropCreates: 1}})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v2/organizations/acme/clusters", strings.NewReader(`{"name":"r"}`))
	req.Header.Set("Authorization", "Bearer test-token")
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadGateway || srv.store.clusters.clusters.len() != 1 {
		t.Fatalf("recorder: %d, %d clusters", rec.Code, srv.store.clusters.clusters.len())
	}
}

// sendRaw posts body to path with the default token on a connection of its own and returns the status, or
// 0 when the connection closed without an answer.
func (e *testEnv) sendRaw(method, path, body string) int {
	e.t.Helper()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequest(method, e.ts.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer test-token")
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// clusterTokenCount returns how many agent tokens cluster has.
func (e *testEnv) clusterTokenCount(cluster string) int {
	e.t.Helper()
	r := e.api("GET", "/clusters/"+cluster+"/tokens", nil)
	expect(e.t, r, http.StatusOK)
	return len(r.list(e.t))
}

func TestAimedRESTDrops(t *testing.T) {
	const route = "POST /v2/organizations/{org}/clusters/{cluster}/tokens"
	e := newEnv(t, Options{Faults: Faults{Aimed: []AimedFault{{Route: route, Kind: FaultDropBefore, Times: 1}}}})
	cluster := e.createCluster("aimed") // another route: spared
	path := "/v2/organizations/acme/clusters/" + cluster + "/tokens"
	if got := e.sendRaw("POST", path, `{"description":"one"}`); got != 0 {
		t.Fatalf("drop_before: answered %d, want no answer", got)
	}
	if n := e.clusterTokenCount(cluster); n != 0 {
		t.Fatalf("drop_before acted: %d tokens", n)
	}
	if got := e.sendRaw("POST", path, `{"description":"one"}`); got != http.StatusCreated { // Times: 1
		t.Fatalf("after the aimed fault: %d", got)
	}

	// Armed at run time, after one matching request let through: the second meets it, the third not.
	e.srv.AimFault(AimedFault{Route: route, Kind: FaultDropAfter, Skip: 1, Times: 1})
	var got []int
	for range 3 {
		got = append(got, e.sendRaw("POST", path, `{"description":"two"}`))
	}
	if !slices.Equal(got, []int{201, 0, 201}) {
		t.Fatalf("statuses %v, want [201 0 201]", got)
	}
	if n := e.clusterTokenCount(cluster); n != 4 { // drop_after acted
		t.Fatalf("%d tokens, want 4", n)
	}
	if c := e.srv.FaultCounts(); c.DropBefore != 1 || c.DropAfter != 1 || c.ActedCreates() != 0 {
		t.Fatalf("counts %+v", c)
	}
	var faults []string
	for _, req := range e.srv.Requests() {
		if req.Fault != "" {
			faults = append(faults, fmt.Sprintf("%s %s %d", req.Fault, req.Method, req.Status))
		}
	}
	if !slices.Equal(faults, []string{"drop_before POST 0", "drop_after POST 0"}) {
		t.Fatalf("logged faults %v", faults)
	}

	// Cleared: no fault any more; a route with another segment count or method never matched.
	e.srv.ClearAimedFaults()
	e.srv.AimFault(AimedFault{Route: "GET /v2/organizations/{org}/clusters/{cluster}", Kind: FaultServerError})
	expect(t, e.api("GET", "/clusters/"+cluster+"/tokens", nil), 200)
	expect(t, e.api("POST", "/clusters/"+cluster+"/tokens", map[string]any{"description": "three"}), 201)
	expectError(t, e.api("GET", "/clusters/"+cluster, nil), 500, "Internal Server Error")

	// Without a connection to take over, a drop is a 502; drop_before still does not act.
	srv := New(Options{Faults: Faults{Aimed: []AimedFault{{Route: "POST /v2/organizations/acme/clusters", Kind: FaultDropBefore}}}})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v2/organizations/acme/clusters", strings.NewReader(`{"name":"r"}`))
	req.Header.Set("Authorization", "Bearer test-token")
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadGateway || srv.store.clusters.clusters.len() != 0 {
		t.Fatalf("recorder: %d, %d clusters", rec.Code, srv.store.clusters.clusters.len())
	}
}

func TestAimFaultRefusesInvalid(t *testing.T) {
	srv := New(Options{})
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `unknown kind "boom"`) {
			t.Fatalf("recovered %v", r)
		}
	}()
	srv.AimFault(AimedFault{Operation: "x", Kind: "boom"})
}

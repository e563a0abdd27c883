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

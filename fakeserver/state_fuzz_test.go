package fakeserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzStateFile: whatever a state file holds, reading it never panics, and a state it takes is one the
// emulator can work with: saved again, and served (listings, a create, the calling token). Its seeds (a
// saved state and the forms TestStateRefusesUntrustedFile refuses) run with every go test.
func FuzzStateFile(f *testing.F) {
	srv := New(Options{})
	req := httptest.NewRequest(http.MethodPost, "/v2/organizations/acme/clusters", strings.NewReader(`{"name":"seed"}`))
	req.Header.Set("Authorization", "Bearer test-token")
	srv.ServeHTTP(httptest.NewRecorder(), req)
	srv.store.mu.Lock()
	saved, err := srv.store.encodeState()
	srv.store.mu.Unlock()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(saved)
	for _, seed := range []string{"", " \n", `{"format":1,"store":null}`, `{"format":1}`, `{"format":1,"store":[]}`,
		`{"format":1,"store":{"orgs":null}}`, `{"format":1,"store":{"orgs":{"acme":null}}}`, `{"format":1,"store":{"clusters":null}}`,
		`{"format":1,"store":{"tokens":{"t":{"orgs":null,"scopes":null}}}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st := newStore(time.Now)
		if err := st.decodeState(data); err != nil {
			return
		}
		st.mu.Lock()
		_, err := st.encodeState()
		st.mu.Unlock()
		if err != nil {
			t.Fatalf("a state taken cannot be saved again: %v", err)
		}
		s := &Server{opts: Options{Org: "acme", Token: "test-token", Now: time.Now}, store: st,
			limiter: newRateLimiter(0, time.Minute, time.Now), log: newRequestLog(0), faults: newFaultInjector(Faults{})}
		s.mux = s.routes()
		for _, r := range []struct{ method, path, body string }{
			{http.MethodGet, "/v2/organizations/acme/clusters", ""},
			{http.MethodPost, "/v2/organizations/acme/clusters", `{"name":"fuzz"}`},
			{http.MethodGet, "/v2/organizations/acme/pipelines", ""},
			{http.MethodGet, "/v2/organizations/acme/teams", ""},
			{http.MethodGet, "/v2/access-token", ""},
		} {
			req := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
			req.Header.Set("Authorization", "Bearer test-token")
			s.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
}

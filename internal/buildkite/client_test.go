package buildkite

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewClient_validates(t *testing.T) {
	ok := Config{Organization: "acme", Token: "t"}
	cases := []struct {
		name string
		mod  func(*Config)
		want string // substring of the error, "" for success
	}{
		{"defaults", func(*Config) {}, ""},
		{"missing token", func(c *Config) { c.Token = " " }, "token"},
		{"missing organization", func(c *Config) { c.Organization = "" }, "organization"},
		{"relative base URL", func(c *Config) { c.BaseURL = "api.buildkite.com" }, "BaseURL"},
		{"unparsable base URL", func(c *Config) { c.BaseURL = "http://[::1" }, "BaseURL"},
		{"ftp base URL", func(c *Config) { c.BaseURL = "ftp://api.buildkite.com" }, "BaseURL"},
		{"bad agent URL", func(c *Config) { c.AgentURL = "nope" }, "AgentURL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ok
			tc.mod(&cfg)
			_, err := NewClient(cfg)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("NewClient: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("NewClient error = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestNewClient_defaultsAndNormalisation(t *testing.T) {
	c, err := NewClient(Config{Organization: "acme", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != DefaultBaseURL || c.AgentURL() != DefaultAgentURL || c.Organization() != "acme" {
		t.Errorf("got base %q agent %q org %q", c.BaseURL(), c.AgentURL(), c.Organization())
	}
	if c.maxRetries != 0 || c.retryWaitMin != defaultRetryWaitMin || c.retryWaitMax != defaultRetryWaitMax ||
		c.attemptTimeout != DefaultAttemptTimeout || c.callTimeout != DefaultCallTimeout || c.log != nil {
		t.Errorf("defaults: retries %d, waits %v..%v, timeouts %v/%v, logger %v",
			c.maxRetries, c.retryWaitMin, c.retryWaitMax, c.attemptTimeout, c.callTimeout, c.log)
	}

	c, err = NewClient(Config{Organization: "acme", Token: "t", BaseURL: "https://proxy.example/bk/v2/", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != "https://proxy.example/bk" {
		t.Errorf("BaseURL() = %q, want the /v2 and trailing slash dropped", c.BaseURL())
	}
	if c.maxRetries != -1 {
		t.Errorf("maxRetries = %d for MaxRetries -1, want -1 (no retries)", c.maxRetries)
	}
}

func TestClient_sendsAuthUserAgentAndJSONHeaders(t *testing.T) {
	s := newStub(t, emptyListing("/clusters", respond(http.StatusCreated, `{"id":"c1"}`)))
	c := newTestClient(t, s.srv.URL)
	ctx := context.Background()

	if _, err := c.Clusters.Create(ctx, ClusterCreate{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if got := s.requests()[0]; got.Method != http.MethodGet || got.Header.Get("Content-Type") != "" {
		t.Errorf("the listing before the create: %s with Content-Type %q", got.Method, got.Header.Get("Content-Type"))
	}
	s.drop(1)
	if _, err := c.Clusters.Get(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	for _, r := range reqs {
		if got := r.Header.Get("Authorization"); got != "Bearer test-token" {
			t.Errorf("%s Authorization = %q", r.Method, got)
		}
		if got := r.Header.Get("User-Agent"); got != "terraform-provider-buildkite/test" {
			t.Errorf("%s User-Agent = %q", r.Method, got)
		}
		if got := r.Header.Get("Accept"); got != "application/json" {
			t.Errorf("%s Accept = %q", r.Method, got)
		}
	}
	if got := reqs[0].Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("POST Content-Type = %q", got)
	}
	if got := reqs[1].Header.Get("Content-Type"); got != "" {
		t.Errorf("GET without body sent Content-Type %q", got)
	}
}

func TestClient_defaultUserAgent(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"id":"c1"}`))
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.UserAgent = "" })
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	if got := s.only(t).Header.Get("User-Agent"); got != DefaultUserAgent {
		t.Errorf("User-Agent = %q, want %q", got, DefaultUserAgent)
	}
}

func TestClient_basePathPrefix(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"id":"c1"}`))
	c := newTestClient(t, s.srv.URL+"/proxy/")
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	if got := s.only(t).Path; got != "/proxy/v2/organizations/acme/clusters/c1" {
		t.Errorf("path = %q", got)
	}
}

func TestClient_escapesAndRejectsIDs(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"id":"q1"}`))
	c := newTestClient(t, s.srv.URL)
	ctx := context.Background()

	if _, err := c.Queues.Get(ctx, "a/b", "q 1?x"); err != nil {
		t.Fatal(err)
	}
	if got := s.only(t).Path; got != "/v2/organizations/acme/clusters/a%2Fb/queues/q%201%3Fx" {
		t.Errorf("escaped path = %q", got)
	}

	for _, id := range []string{"", ".", ".."} {
		_, err := c.Clusters.Get(ctx, id)
		if !errors.Is(err, ErrInvalidID) {
			t.Errorf("Get(%q) error = %v, want ErrInvalidID", id, err)
		}
	}
	if s.count() != 1 {
		t.Errorf("invalid IDs reached the server: %d requests", s.count())
	}
}

func TestClient_decodeErrorOnBadJSON(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"id": 12`))
	c := newTestClient(t, s.srv.URL)
	_, err := c.Clusters.Get(context.Background(), "c1")
	if err == nil || !strings.Contains(err.Error(), "decoding") {
		t.Fatalf("error = %v, want a decoding error", err)
	}
}

func TestClient_contextCanceledBeforeSending(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{}`))
	c := newTestClient(t, s.srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Clusters.Get(ctx, "c1")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if s.count() != 0 {
		t.Errorf("server saw %d requests after cancellation", s.count())
	}
}

func TestClient_pathRoots(t *testing.T) {
	c := newTestClient(t, "https://api.example")
	for _, tc := range []struct {
		build func(...string) (string, error)
		want  string
	}{
		{c.orgPath, "/v2/organizations/acme/a%2Fb/c"},
		{c.analyticsPath, "/v2/analytics/organizations/acme/a%2Fb/c"},
		{c.packagesPath, "/v2/packages/organizations/acme/a%2Fb/c"},
	} {
		if got, err := tc.build("a/b", "c"); err != nil || got != tc.want {
			t.Errorf("path = %q, %v; want %q", got, err, tc.want)
		}
		if _, err := tc.build(".."); !errors.Is(err, ErrInvalidID) {
			t.Errorf("path of \"..\": error = %v, want ErrInvalidID", err)
		}
	}
}

func TestClient_sendReturnsHeadersAndUsesAgentOrigin(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.Header.Get("Authorization"))
		respond(http.StatusOK, `{}`)(w, r)
	})
	c := newTestClient(t, "https://api.example", func(c *Config) { c.AgentURL = s.srv.URL })
	h, err := c.send(context.Background(), call{method: http.MethodGet, path: "/v3/metrics", agentToken: "agent-secret", repeatable: true})
	if err != nil {
		t.Fatal(err)
	}
	if h.Get("X-Seen") != "Token agent-secret" || s.only(t).Path != "/v3/metrics" {
		t.Errorf("agent call sent Authorization %q to %s", h.Get("X-Seen"), s.only(t).Path)
	}
}

// TestClient_keepsTheConnectionsOfParallelCalls: two bursts of as many calls at once as Terraform makes by
// default dial no more connections than the first burst needed; http.DefaultTransport kept two of them, and
// the second burst dialed the rest again (a TLS handshake each against the service).
func TestClient_keepsTheConnectionsOfParallelCalls(t *testing.T) {
	const parallel = 10
	var dials atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(20 * time.Millisecond) // long enough that the burst's calls are all in flight at once
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"c1","name":"x"}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)

	for range 2 {
		var wg sync.WaitGroup
		for range parallel {
			wg.Go(func() {
				if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	if n := dials.Load(); n > parallel {
		t.Errorf("%d connections for two bursts of %d calls, want at most %d: idle connections were dropped", n, parallel, parallel)
	}
}

// TestClient_callerHTTPClientKeepsItsTransport: the shared transport is only for clients built without an
// HTTPClient; a caller's client keeps its own transport, and a nil one means http.DefaultTransport as in
// net/http.
func TestClient_callerHTTPClientKeepsItsTransport(t *testing.T) {
	own := &http.Transport{}
	for _, tc := range []struct {
		name string
		hc   *http.Client
		want http.RoundTripper
	}{
		{"none", nil, sharedTransport()},
		{"nil transport", &http.Client{}, http.DefaultTransport},
		{"own transport", &http.Client{Transport: own}, own},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, "http://127.0.0.1:1", func(cfg *Config) { cfg.HTTPClient = tc.hc })
			gt, ok := c.retry.HTTPClient.Transport.(*gateTransport)
			if !ok {
				t.Fatalf("transport is %T, want the rate-limit gate", c.retry.HTTPClient.Transport)
			}
			if gt.base != tc.want {
				t.Errorf("base transport %p, want %p", gt.base, tc.want)
			}
		})
	}
}

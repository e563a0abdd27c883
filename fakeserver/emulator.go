package fakeserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"time"
)

// The public surface for other modules' tests: a Server (an http.Handler made by New or Open) is the
// emulator; Start serves one on a free local port, StartTest does so for a test and stops it at the
// test's end. Seed it with Options (Org, Token, Fixtures, SeedDefaults) and the Store's methods; inspect
// and change it with Store (Exists, Remove and the Add/Set methods) or whole with State, SetState and
// Reset; ClientEnv gives the environment a Buildkite client reads.

// Emulator is a Server listening on a local port. Its Server's methods (Store, State, SetState, Reset,
// Requests, ...) are its own.
type Emulator struct {
	*Server
	url  string
	http *http.Server
	done chan struct{}
}

// Start serves a new Server made with opts on a free port of 127.0.0.1 until Close.
func Start(opts Options) (*Emulator, error) {
	return StartOn("127.0.0.1:0", opts)
}

// StartOn serves a new Server made with opts on addr (host:port; port 0 picks a free one) until Close.
func StartOn(addr string, opts Options) (*Emulator, error) {
	srv, err := Open(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	e := &Emulator{
		Server: srv,
		url:    ListenURL(ln.Addr()),
		http:   &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second},
		done:   make(chan struct{}),
	}
	go func() {
		defer close(e.done)
		_ = e.http.Serve(ln)
	}()
	return e, nil
}

// TB is the part of testing.TB that StartTest uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// StartTest starts an emulator for a test (see Start), failing the test if it cannot, and closes it when
// the test ends.
func StartTest(t TB, opts Options) *Emulator {
	t.Helper()
	e, err := Start(opts)
	if err != nil {
		t.Fatalf("starting the Buildkite emulator: %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// URL is the emulator's origin, such as http://127.0.0.1:41234: a client's REST base URL (the REST API
// is under /v2, the agent metrics API under /v3).
func (e *Emulator) URL() string { return e.url }

// Env is ClientEnv for the emulator's own URL.
func (e *Emulator) Env() []EnvVar { return e.ClientEnv(e.url) }

// Close stops serving, waiting up to five seconds for requests in flight, and releases the state file.
func (e *Emulator) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.http.Shutdown(ctx)
	<-e.done
	return errors.Join(err, e.Server.Close())
}

// ListenURL is the URL clients use for a listener's address: an unspecified host (0.0.0.0, ::) is shown
// as 127.0.0.1.
func ListenURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Org is the slug of the organization a client should use: Options.Org, or the first organization of
// Options.Fixtures.
func (s *Server) Org() string {
	if f := s.opts.Fixtures; f != nil && len(f.Organizations) > 0 {
		return f.Organizations[0].Slug
	}
	return s.opts.Org
}

// Token is the access token a client should use: Options.Token, or the first access token of
// Options.Fixtures.
func (s *Server) Token() string {
	if f := s.opts.Fixtures; f != nil && len(f.AccessTokens) > 0 {
		return f.AccessTokens[0].Token
	}
	return s.opts.Token
}

// EnvVar is one environment variable of ClientEnv.
type EnvVar struct {
	Name, Value string
}

// GraphQLPath is where the emulator serves Buildkite's GraphQL API, when it does.
const GraphQLPath = "/v1"

// ClientEnv is the environment a Buildkite client (this provider, Buildkite's CLI, go-buildkite's users)
// reads, for a server reached at base (its origin): BUILDKITE_REST_URL, BUILDKITE_GRAPHQL_URL when the
// server serves GraphQL, BUILDKITE_ORGANIZATION_SLUG and BUILDKITE_API_TOKEN (Org and Token). Buildkite's
// CLI (bk) names the two URLs differently, so they come twice: BUILDKITE_REST_API_ENDPOINT beside
// BUILDKITE_REST_URL, BUILDKITE_GRAPHQL_ENDPOINT beside BUILDKITE_GRAPHQL_URL.
func (s *Server) ClientEnv(base string) []EnvVar {
	env := []EnvVar{{"BUILDKITE_REST_URL", base}, {"BUILDKITE_REST_API_ENDPOINT", base}}
	probe := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: GraphQLPath}, Header: http.Header{}}
	if _, pattern := s.mux.Handler(probe); pattern != "" {
		env = append(env, EnvVar{"BUILDKITE_GRAPHQL_URL", base + GraphQLPath}, EnvVar{"BUILDKITE_GRAPHQL_ENDPOINT", base + GraphQLPath})
	}
	return append(env, EnvVar{"BUILDKITE_ORGANIZATION_SLUG", s.Org()}, EnvVar{"BUILDKITE_API_TOKEN", s.Token()})
}

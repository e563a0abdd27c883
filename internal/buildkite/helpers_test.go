package buildkite

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// testUnit stands in for one second of RateLimit-Reset / Retry-After so the
// rate-limit tests finish in milliseconds.
const testUnit = 10 * time.Millisecond

// newTestClient builds a client for srvURL with fast retries; mods adjust the
// config.
func newTestClient(t *testing.T, srvURL string, mods ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{
		BaseURL:      srvURL,
		Organization: "acme",
		Token:        "test-token",
		UserAgent:    "terraform-provider-buildkite/test",
		MaxRetries:   3,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: time.Second,
	}
	for _, m := range mods {
		m(&cfg)
	}
	c, err := newClient(cfg, testUnit)
	if err != nil {
		t.Fatalf("newClient: %v", err)
	}
	return c
}

// captured is what the stub server saw of one request.
type captured struct {
	Method string
	Path   string // escaped
	Query  string
	Header http.Header
	Body   string
	At     time.Time
}

// stub is an httptest server that records every request and answers with
// the handler given (or a fixed response).
type stub struct {
	mu   sync.Mutex
	reqs []captured
	srv  *httptest.Server
}

func newStub(t *testing.T, h http.HandlerFunc) *stub {
	t.Helper()
	s := &stub{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, captured{
			Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: string(body), At: time.Now(),
		})
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// respond returns a handler that always answers status with a JSON body.
func respond(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func (s *stub) requests() []captured {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]captured(nil), s.reqs...)
}

func (s *stub) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// only returns the single request the stub saw, failing otherwise.
func (s *stub) only(t *testing.T) captured {
	t.Helper()
	reqs := s.requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	return reqs[0]
}

// assertRequest checks the method, escaped path and JSON body ("" = none).
func assertRequest(t *testing.T, got captured, method, path, body string) {
	t.Helper()
	if got.Method != method || got.Path != path {
		t.Errorf("request = %s %s, want %s %s", got.Method, got.Path, method, path)
	}
	if body == "" {
		if got.Body != "" {
			t.Errorf("request body = %q, want none", got.Body)
		}
		return
	}
	assertJSONEqual(t, got.Body, body)
	if ct := got.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
}

func assertJSONEqual(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("body %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %q is not JSON: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("body = %s, want %s", got, want)
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func ptr[T any](v T) *T { return &v }

// userJSON is a realistic created_by / dispatch_paused_by object.
const userJSON = `{
  "id": "3d3c3bf0-7d58-4afe-8fe7-b3017d5504de",
  "graphql_id": "VXNlci0tLTNkM2MzYmYwLTdkNTgtNGFmZS04ZmU3LWIzMDE3ZDU1MDRkZQ==",
  "name": "Sam Kim",
  "email": "sam@example.com",
  "avatar_url": "https://www.gravatar.com/avatar/593nifo3i2",
  "created_at": "2025-05-03T04:17:43.118Z"
}`

func assertUser(t *testing.T, u *User) {
	t.Helper()
	if u == nil {
		t.Fatal("user is nil")
	}
	if u.ID != "3d3c3bf0-7d58-4afe-8fe7-b3017d5504de" || u.Name != "Sam Kim" || u.Email != "sam@example.com" ||
		u.GraphQLID == "" || u.AvatarURL == nil || *u.AvatarURL != "https://www.gravatar.com/avatar/593nifo3i2" ||
		u.CreatedAt == nil || !u.CreatedAt.Equal(mustTime(t, "2025-05-03T04:17:43.118Z")) {
		t.Errorf("user decoded as %+v", u)
	}
}

// creating is h for a stub that serves creates: a GET, such as the listing a create makes before it is
// sent to tell later what it made (adopt.go), answers 404, that is nothing there yet.
func creating(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			respond(http.StatusNotFound, `{"message":"Not Found"}`)(w, r)
			return
		}
		h(w, r)
	}
}

// emptyListing is h for a stub whose collection at a path ending in suffix is empty: a GET of it, such as
// the listing a create makes before it is sent, answers [].
func emptyListing(suffix string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, suffix) {
			respond(http.StatusOK, `[]`)(w, r)
			return
		}
		h(w, r)
	}
}

// drop forgets the first n requests the stub saw.
func (s *stub) drop(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = s.reqs[n:]
}

// sent is the requests other than GETs, such as the listing a create makes before it is sent.
func (s *stub) sent() []captured {
	var sent []captured
	for _, r := range s.requests() {
		if r.Method != http.MethodGet {
			sent = append(sent, r)
		}
	}
	return sent
}

// onlyCreate is the one request other than the GETs a create makes before it is sent.
func (s *stub) onlyCreate(t *testing.T) captured {
	t.Helper()
	sent := s.sent()
	if len(sent) != 1 {
		t.Fatalf("server saw %d requests besides GETs, want 1", len(sent))
	}
	return sent[0]
}

// pathBuilds is the root of the builds of every organization the token sees.
const pathBuilds = "/v2/builds"

// Listing conveniences only the tests use (the provider lists through List, listCache and adopt.go): kept
// here so that the client exports nothing its callers do not call.

// Each yields the queues of a cluster page by page; stopping early fetches no further page.
func (s *QueuesService) Each(ctx context.Context, clusterID string, opts ListOptions) iter.Seq2[*Queue, error] {
	p, err := s.client.orgPath("clusters", clusterID, "queues")
	if err != nil {
		return func(yield func(*Queue, error) bool) { yield(nil, err) }
	}
	return listEach[Queue](ctx, s.client, p, opts)
}

// Each yields the agent tokens of a cluster (without secrets) page by page; stopping early fetches no
// further page.
func (s *ClusterTokensService) Each(ctx context.Context, clusterID string, opts ListOptions) iter.Seq2[*ClusterToken, error] {
	p, err := s.client.orgPath("clusters", clusterID, "tokens")
	if err != nil {
		return func(yield func(*ClusterToken, error) bool) { yield(nil, err) }
	}
	return listEach[ClusterToken](ctx, s.client, p, opts)
}

// Each yields the organization's clusters page by page; stopping early fetches no further page.
func (s *ClustersService) Each(ctx context.Context, opts ListOptions) iter.Seq2[*Cluster, error] {
	p, err := s.client.orgPath("clusters")
	if err != nil {
		return func(yield func(*Cluster, error) bool) { yield(nil, err) }
	}
	return listEach[Cluster](ctx, s.client, p, opts)
}

// ListAll returns up to limit builds, newest first, across every organization the token sees.
func (s *BuildsService) ListAll(ctx context.Context, filter BuildFilter, limit int) ([]Build, error) {
	return listUpTo[Build](ctx, s.client, pathBuilds, filter.query(), limit)
}

// FindBySlug returns the team with slug, or an *Error with status 404 when there is none: the service
// reads a team by UUID only, so this searches the listing.
func (s *TeamsService) FindBySlug(ctx context.Context, slug string) (*Team, error) {
	teams, err := s.List(ctx, TeamListOptions{})
	if err != nil {
		return nil, err
	}
	for i := range teams {
		if teams[i].Slug == slug {
			return &teams[i], nil
		}
	}
	p, _ := s.client.orgPath("teams", slug)
	return nil, &Error{StatusCode: http.StatusNotFound, Method: http.MethodGet, Path: p, Message: "No team found"}
}

package fakeserver

import (
	"net/http"
	"strings"
	"sync"
)

// A client that reaches a route the emulator does not model gets the service's 404 (or 405) JSON, as it
// would for a path Buildkite lacks; the first time each method and path is met, Options.Logf also gets a
// line saying so, with a hint, so the log tells a client's author that the emulator, not their code, is
// missing something.

// maxUnknownRoutes bounds how many distinct unknown routes are remembered; beyond it, each is logged again.
const maxUnknownRoutes = 1000

// unknownRouteLog remembers the unknown routes already logged.
type unknownRouteLog struct {
	mu   sync.Mutex
	seen map[string]bool
}

// first reports whether key is met for the first time, and remembers it.
func (l *unknownRouteLog) first(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[key] {
		return false
	}
	if l.seen == nil || len(l.seen) >= maxUnknownRoutes {
		l.seen = map[string]bool{}
	}
	l.seen[key] = true
	return true
}

// hintUnknownRoute logs, once per method and path, that r reached no route (status 404) or not with its
// method (405), and why that may be.
func (s *Server) hintUnknownRoute(r *http.Request, status int) {
	if s.opts.Logf == nil || (status != http.StatusNotFound && status != http.StatusMethodNotAllowed) {
		return
	}
	if !s.unknownRoutes.first(r.Method + " " + r.URL.Path) {
		return
	}
	s.opts.Logf("%s %s: %s (answered %d; logged once)", r.Method, r.URL.Path, unknownRouteHint(r, status, s.opts.DisableTestRoutes), status)
}

// unknownRouteHint says why r has no route.
func unknownRouteHint(r *http.Request, status int, testRoutesOff bool) string {
	path := r.URL.Path
	switch {
	case status == http.StatusMethodNotAllowed:
		return "the emulator serves this path, but not with " + r.Method
	case strings.HasPrefix(path, testRoutePrefix) && testRoutesOff:
		return "the test-only routes under " + testRoutePrefix + " are off; start the emulator with --test-routes"
	case strings.HasPrefix(path, "/v2/") || strings.HasPrefix(path, "/v3/"):
		return "the emulator does not model this route (Buildkite may serve it); EMULATOR.md lists the areas it follows"
	default:
		return "not a Buildkite REST route: they start with /v2/ (give the client the emulator's origin as its base URL)"
	}
}

package fakeserver

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

const (
	// rateLimitScope is the RateLimit-Scope of REST answers: the emulator counts REST requests per access
	// token.
	rateLimitScope = "rest_user"
	// unenforcedLimit is the RateLimit-Limit reported when Options.RateLimit is 0.
	unenforcedLimit = 200
)

// rateLimiter counts use per key in fixed windows that start with a key's first use: REST requests per
// token (Server.limiter), and GraphQL complexity points per organization (Server.budget, graphql_limits.go).
// For REST the key is what the request's Authorization header resolves to (Store.rateKey), so every
// spelling of one token shares one budget, and a header naming no known token is not counted: it keeps no
// window, and is answered 401 anyway. Windows that have ended are dropped once per window, so the map
// holds at most the keys used in the last one. When limit is 0 nothing is counted: the headers report a
// full allowance of unenforced, so a client that honours them never waits on an emulator that would not
// refuse it.
type rateLimiter struct {
	limit      int
	unenforced int // the limit reported when limit is 0
	window     time.Duration
	now        func() time.Time

	mu      sync.Mutex
	windows map[string]*rateWindow
	pruned  time.Time // when ended windows were last dropped
}

type rateWindow struct {
	start time.Time
	count int
}

// rateDecision is what the limiter says about one request.
type rateDecision struct {
	limit, remaining, current, reset int
	resetAt                          time.Time
	exceeded                         bool
}

// newRateLimiter returns the REST limiter: limit requests per token per window.
func newRateLimiter(limit int, window time.Duration, now func() time.Time) *rateLimiter {
	return newLimiter(limit, unenforcedLimit, window, now)
}

// newLimiter returns a limiter of limit per key per window, reporting unenforced while limit is 0.
func newLimiter(limit, unenforced int, window time.Duration, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, unenforced: unenforced, window: window, now: now, windows: map[string]*rateWindow{}}
}

// enforced reports whether use is counted at all.
func (l *rateLimiter) enforced() bool { return l.limit > 0 }

// take counts one request for key ("" counts nothing); exceeded when it goes beyond the limit.
func (l *rateLimiter) take(key string) rateDecision {
	return l.use(key, 1, func(count int) bool { return count > l.limit })
}

// spend counts n for key, used after the fact (a GraphQL request's actual complexity): never exceeded.
func (l *rateLimiter) spend(key string, n int) rateDecision {
	return l.use(key, n, func(int) bool { return false })
}

// status is key's window as it stands, counting nothing; exceeded when nothing is left in it.
func (l *rateLimiter) status(key string) rateDecision {
	return l.use(key, 0, func(count int) bool { return count >= l.limit })
}

// use counts n for key and judges the window's count with over.
func (l *rateLimiter) use(key string, n int, over func(count int) bool) rateDecision {
	now := l.now()
	if !l.enforced() || key == "" {
		limit := l.limit
		if !l.enforced() {
			limit = l.unenforced
		}
		return rateDecision{limit: limit, remaining: limit, reset: ceilSeconds(l.window), resetAt: now.Add(l.window)}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prune(now)
	w, ok := l.windows[key]
	if !ok || !now.Before(w.start.Add(l.window)) {
		if n == 0 { // a look at a window not started: leave none behind
			return rateDecision{limit: l.limit, remaining: l.limit, reset: ceilSeconds(l.window), resetAt: now.Add(l.window)}
		}
		w = &rateWindow{start: now}
		l.windows[key] = w
	}
	w.count += n
	end := w.start.Add(l.window)
	return rateDecision{
		limit:     l.limit,
		remaining: max(0, l.limit-w.count),
		current:   w.count,
		reset:     ceilSeconds(end.Sub(now)),
		resetAt:   end,
		exceeded:  over(w.count),
	}
}

// prune drops the windows that have ended, at most once per window length. l.mu must be held.
func (l *rateLimiter) prune(now time.Time) {
	if now.Sub(l.pruned) < l.window {
		return
	}
	l.pruned = now
	for key, w := range l.windows {
		if !now.Before(w.start.Add(l.window)) {
			delete(l.windows, key)
		}
	}
}

// size returns how many windows the limiter keeps.
func (l *rateLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.windows)
}

// rateKey names what a request's rate limit counts against: its access token ("Bearer <token>") or agent
// token ("Token <token>"), found the way authentication finds it so that every spelling of the header that
// authenticates as one token is one key; "" when the header names no token the store knows.
func (st *Store) rateKey(r *http.Request) string {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if secret, ok := bearerToken(r); ok {
		if t, ok := st.tokens[secret]; ok {
			return "access:" + t.uuid
		}
		return ""
	}
	if secret, ok := agentToken(r); ok {
		_, registration := st.metrics.agentTokens[secret]
		_, cluster := st.clusters.tokens.lookup(clusterTokenSecretName(secret))
		if registration || cluster {
			return "agent:" + secret
		}
	}
	return ""
}

func ceilSeconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }

// headers sets the RateLimit-* headers of an answer in scope; RateLimit-Warning accompanies them while the
// allowance is exhausted.
func (d rateDecision) headers(w http.ResponseWriter, scope, warning string) {
	h := w.Header()
	h.Set("RateLimit-Scope", scope)
	h.Set("RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(d.reset))
	if d.exceeded {
		h.Set("RateLimit-Warning", warning)
	}
}

// apply sets the RateLimit-* headers on every REST answer and answers 429 when the allowance is spent.
func (d rateDecision) apply(w http.ResponseWriter) (refused *apiError) {
	d.headers(w, rateLimitScope, rateLimitMessage(d.reset))
	if d.exceeded {
		return errRateLimited(rateLimitScope, d.limit, d.current, d.reset)
	}
	return nil
}

// scopeReadAccounts is the scope of GET /v2/organizations/{org}/rate_limit (the endpoint's documentation
// names it, though Buildkite's GraphQL enum of token scopes does not list it).
const scopeReadAccounts = "read_accounts"

// The organization rate limits endpoint (Buildkite's documentation, apis/rest-api/organizations/rate-limits):
// GET /v2/organizations/{org}/rate_limit answers {"scopes": {"rest": {…}, "graphql": {…}}}, each scope's
// limit, current use and reset (seconds, and reset_at as a time), and whether it is enforced. limit is
// always a number: where the emulator enforces none, the service's (200 requests, 20,000 points) with
// enforced false and nothing used. The REST scope is the calling token's window, since the emulator counts
// REST requests per token (the service counts them per organization); this request is in it. The GraphQL
// scope is the organization's budget (graphql_limits.go).

// rateLimitView is one scope of the answer.
type rateLimitView struct {
	Limit    int    `json:"limit"`
	Current  int    `json:"current"`
	Reset    int    `json:"reset"`
	ResetAt  string `json:"reset_at"`
	Enforced bool   `json:"enforced"`
}

// rateLimitsView is the answer.
type rateLimitsView struct {
	Scopes map[string]rateLimitView `json:"scopes"`
}

func (s *Server) routeRateLimit(mux *routeMux) {
	mux.HandleFunc("GET /v2/organizations/{org}/rate_limit", s.getRateLimit)
}

func (s *Server) getRateLimit(w http.ResponseWriter, r *http.Request) {
	key := s.store.rateKey(r) // before serveRead takes the store's lock, which rateKey takes too
	s.serveRead(w, r, scopeReadAccounts, func(org string) (any, *apiError) {
		return rateLimitsView{Scopes: map[string]rateLimitView{
			"rest":       s.limiter.status(key).view(s.limiter.enforced()),
			graphqlScope: s.budget.status(org).view(s.budget.enforced()),
		}}, nil
	})
}

// view is a decision as the rate_limit endpoint shows it.
func (d rateDecision) view(enforced bool) rateLimitView {
	return rateLimitView{Limit: d.limit, Current: d.current, Reset: d.reset,
		ResetAt: d.resetAt.UTC().Format(time.RFC3339), Enforced: enforced}
}

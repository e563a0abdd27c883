package fakeserver

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

const (
	// rateLimitScope is the RateLimit-Scope the emulator reports: it counts per access token.
	rateLimitScope = "rest_user"
	// unenforcedLimit is the RateLimit-Limit reported when Options.RateLimit is 0.
	unenforcedLimit = 200
)

// rateLimiter counts requests per token in fixed windows that start with a token's first request. The
// key is what the request's Authorization header resolves to (Store.rateKey), so every spelling of one
// token shares one budget, and a header naming no known token is not counted: it keeps no window, and is
// answered 401 anyway. Windows that have ended are dropped once per window, so the map holds at most the
// tokens used in the last one. When limit is 0 nothing is counted: the headers report a full allowance,
// so a client that honours them never waits on an emulator that would not refuse it.
type rateLimiter struct {
	limit  int
	window time.Duration
	now    func() time.Time

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
	exceeded                         bool
}

func newRateLimiter(limit int, window time.Duration, now func() time.Time) *rateLimiter {
	return &rateLimiter{limit: limit, window: window, now: now, windows: map[string]*rateWindow{}}
}

// enforced reports whether requests are counted at all.
func (l *rateLimiter) enforced() bool { return l.limit > 0 }

// take counts one request for key ("" counts nothing).
func (l *rateLimiter) take(key string) rateDecision {
	switch {
	case !l.enforced():
		return rateDecision{limit: unenforcedLimit, remaining: unenforcedLimit, reset: ceilSeconds(l.window)}
	case key == "":
		return rateDecision{limit: l.limit, remaining: l.limit, reset: ceilSeconds(l.window)}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prune(now)
	w, ok := l.windows[key]
	if !ok || !now.Before(w.start.Add(l.window)) {
		w = &rateWindow{start: now}
		l.windows[key] = w
	}
	w.count++
	return rateDecision{
		limit:     l.limit,
		remaining: max(0, l.limit-w.count),
		current:   w.count,
		reset:     ceilSeconds(w.start.Add(l.window).Sub(now)),
		exceeded:  w.count > l.limit,
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

// apply sets the RateLimit-* headers on every response and answers 429 when the allowance is spent.
// RateLimit-Warning accompanies the headers while the allowance is exhausted.
func (d rateDecision) apply(w http.ResponseWriter) (refused *apiError) {
	h := w.Header()
	h.Set("RateLimit-Scope", rateLimitScope)
	h.Set("RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(d.reset))
	if d.exceeded {
		h.Set("RateLimit-Warning", rateLimitMessage(d.reset))
		return errRateLimited(rateLimitScope, d.limit, d.current, d.reset)
	}
	return nil
}

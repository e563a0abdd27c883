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

// rateLimiter counts requests per Authorization header in fixed windows that start with a key's first
// request. When limit is 0 nothing is counted: the headers report a full allowance, so a client that
// honours them never waits on an emulator that would not refuse it.
type rateLimiter struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	windows map[string]*rateWindow
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

// take counts one request for key.
func (l *rateLimiter) take(key string) rateDecision {
	if l.limit <= 0 {
		return rateDecision{limit: unenforcedLimit, remaining: unenforcedLimit, reset: ceilSeconds(l.window)}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
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

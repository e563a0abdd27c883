package buildkite

import (
	"context"
	"sync"
	"time"
)

// rateGate paces the requests of a Client by the service's rate-limit window. Requests in flight count
// against what the window has left: a request goes only while RateLimit-Remaining, as last reported and
// less every request sent since, is at least one; otherwise it waits for RateLimit-Reset. So concurrent
// Terraform operations wait for the window instead of drawing 429s. A 429 that comes anyway (another
// client shares the window) closes the gate until the reset it names.
type rateGate struct {
	mu sync.Mutex
	// until holds every request back until then (a 429, or a window reported used up).
	until time.Time
	// seen: a response has arrived. Until then one request goes at a time, since nothing is known yet.
	seen bool
	// known: left and resetAt describe the current window.
	known    bool
	left     int       // the lowest RateLimit-Remaining reported in the window
	resetAt  time.Time // when the window ends, as RateLimit-Reset said on receipt (so never early)
	limit    int       // RateLimit-Limit: what a new window holds; 0 when not said
	inFlight int       // requests sent and not yet answered
	// changed is closed, and replaced, whenever waiting requests may be able to go.
	changed chan struct{}
}

// block holds every request back until t; it never pulls the opening earlier, since another response may
// already know of a later reset.
func (g *rateGate) block(t time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.After(g.until) {
		g.until = t
	}
}

// openAt returns the time from which a request may be sent, as far as the window is concerned.
func (g *rateGate) openAt() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	at := g.until
	if g.known && g.left-g.inFlight < 1 && g.resetAt.After(at) {
		at = g.resetAt
	}
	return at
}

// rollover starts a new window once the reported one has ended. Called with mu held.
func (g *rateGate) rollover(now time.Time) {
	if !g.known || now.Before(g.resetAt) {
		return
	}
	if g.limit > 0 {
		g.left = g.limit
		g.resetAt = time.Time{} // unknown until a response of the new window says
		g.known = true
		return
	}
	g.known = false
}

// wake lets waiting requests look again. Called with mu held.
func (g *rateGate) wake() {
	if g.changed != nil {
		close(g.changed)
	}
	g.changed = make(chan struct{})
}

// acquire waits until a request may be sent, or ctx is done, and counts it in flight. The request's
// response, or its failure, must be handed to release.
func (g *rateGate) acquire(ctx context.Context) error {
	for {
		g.mu.Lock()
		now := time.Now()
		g.rollover(now)
		var wait time.Duration
		switch {
		case now.Before(g.until):
			wait = g.until.Sub(now)
		case !g.seen && g.inFlight > 0:
			wait = -1 // until the first answer says what the window holds
		case g.known && g.left-g.inFlight < 1 && !g.resetAt.IsZero():
			wait = max(g.resetAt.Sub(now), time.Millisecond)
		case g.known && g.left-g.inFlight < 1 && g.inFlight > 0:
			wait = -1 // a new window whose end no answer has told yet: the next answer will
		default:
			g.inFlight++
			g.mu.Unlock()
			return ctx.Err()
		}
		if g.changed == nil {
			g.changed = make(chan struct{})
		}
		changed := g.changed
		g.mu.Unlock()

		if err := waitFor(ctx, changed, wait); err != nil {
			return err
		}
	}
}

// waitFor waits until changed is closed, d has passed (d < 0: no limit) or ctx is done.
func waitFor(ctx context.Context, changed <-chan struct{}, d time.Duration) error {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-changed:
	case <-timer:
	}
	return nil
}

// release ends a request acquire let go: its response updates the window; a request that failed without
// one may still have been counted, so it is taken off what is left.
func (g *rateGate) release(w window, failed bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight--
	g.seen = true
	if failed && g.known {
		g.left--
	}
	g.update(w)
	g.wake()
}

// window is what one response said of the rate-limit window.
type window struct {
	remaining, limit int
	hasRemaining     bool
	reset            time.Duration // from receipt; valid when hasReset
	hasReset         bool
	grain            time.Duration // the unit RateLimit-Reset is rounded to (a second); 0 for a second
	retryAfter       time.Duration // a 429's wait when it names no reset; valid when hasRetryAfter
	hasRetryAfter    bool
	tooMany          bool
}

// update applies a response's report. Called with mu held.
func (g *rateGate) update(w window) {
	now := time.Now()
	if w.limit > 0 {
		g.limit = w.limit
	}
	if w.hasRemaining && w.hasReset {
		end := now.Add(w.reset)
		g.rollover(now)
		grain := w.grain
		if grain <= 0 {
			grain = time.Second
		}
		// Answers of one window name the same end, give or take the rounding of RateLimit-Reset to whole
		// seconds, and arrive out of order: the lowest count is the latest. An answer naming another end
		// describes another window (a 429's, a proxy's, or the service's after it moved), and the latest
		// answer is the service's word on it: merging the two would keep one window's count until the
		// other's end, as a 429's 0 until a 60 s window ends, and stall every request for that long. A 429
		// always replaces what other answers said.
		sameWindow := g.known && !g.resetAt.IsZero() && now.Before(g.resetAt) &&
			end.After(g.resetAt.Add(-2*grain)) && end.Before(g.resetAt.Add(2*grain))
		if w.tooMany || !sameWindow {
			g.left, g.resetAt = w.remaining, end
		} else {
			g.left = min(g.left, w.remaining)
			g.resetAt = maxTime(g.resetAt, end)
		}
		g.known = true
	}
	if w.tooMany || (w.hasRemaining && w.remaining <= 0) {
		d, ok := w.reset, w.hasReset
		if !ok && w.tooMany {
			d, ok = w.retryAfter, w.hasRetryAfter
		}
		if ok && d > 0 && now.Add(d).After(g.until) {
			g.until = now.Add(d)
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

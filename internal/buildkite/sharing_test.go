package buildkite

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// answer hands the gate one answer of a window of 50 ending in 10 s, for a request it let go.
func answer(t *testing.T, g *rateGate, remaining int) {
	t.Helper()
	if err := g.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	g.release(window{remaining: remaining, hasRemaining: true, limit: 50, reset: 10 * time.Second, hasReset: true}, false)
}

// TestSharing_gateSpreadsWhatIsLeft: answers whose count falls faster than our own requests explain say
// that others spend the window: the gate then spreads what is left over the time left and keeps one
// request back for each other client. Answers that show nobody else bring back bursts.
func TestSharing_gateSpreadsWhatIsLeft(t *testing.T) {
	g := &rateGate{}
	answer(t, g, 49) // the first request of the window: alone so far
	if g.shared {
		t.Fatal("a window only we spent is taken for shared")
	}
	answer(t, g, 45) // ours counts 1 of the 4 spent
	if !g.shared || g.sharers < 3.9 || g.sharers > 4.1 {
		t.Fatalf("shared %v by %.1f clients, want 4", g.shared, g.sharers)
	}
	g.mu.Lock()
	wait := g.wait(time.Now())
	g.mu.Unlock()
	if want := 10 * time.Second / 45; wait < want-20*time.Millisecond || wait > want {
		t.Errorf("next request waits %v, want about %v (10 s spread over 45 requests)", wait, want)
	}

	g.mu.Lock()
	g.left, g.lastSent = 3, time.Time{}
	wait = g.wait(time.Now())
	g.mu.Unlock()
	if wait < 9*time.Second {
		t.Errorf("with 3 left for 4 clients a request waits %v, want the reset: 3 are kept for the others", wait)
	}

	g = &rateGate{}
	for remaining := 49; remaining > 44; remaining-- {
		answer(t, g, remaining)
	}
	g.mu.Lock()
	wait = g.wait(time.Now())
	g.mu.Unlock()
	if g.shared || wait != 0 {
		t.Errorf("alone in the window: shared %v, wait %v; want a burst", g.shared, wait)
	}
}

// TestSharing_processesSharingAWindowDrawNo429: four clients (four processes' worth) working at once
// against one token's window draw no 429. Each begins as a provider does, with two calls of its own (the
// token and the organization), from whose answers it learns of the others; then it sends ten at a time,
// spreading what the window has left.
func TestSharing_processesSharingAWindowDrawNo429(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{RateLimit: 20, RateLimitWindow: 2 * time.Second})
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 4 {
		c := newPacedClient(t, e)
		wg.Go(func() {
			for range 2 {
				if _, err := c.Organizations.Get(ctx); err != nil {
					t.Error(err)
				}
			}
			concurrently(t, 10, func() error { _, err := c.Organizations.Get(ctx); return err })
		})
	}
	wg.Wait()
	if n := tooMany(e); n != 0 {
		t.Errorf("%d of %d requests answered 429, want none", n, len(e.Requests()))
	}
}

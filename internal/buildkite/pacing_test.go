package buildkite

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// newPacedClient is a client of the emulator that reads RateLimit-Reset in real seconds, as the
// emulator's enforced window needs.
func newPacedClient(t *testing.T, e *emulator) *Client {
	t.Helper()
	c, err := newClient(Config{BaseURL: e.url, Organization: "acme", Token: "test-token",
		RetryWaitMin: 10 * time.Millisecond, RetryWaitMax: 5 * time.Second}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// concurrently runs n calls of fn at once and fails on any error.
func concurrently(t *testing.T, n int, fn func() error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			if err := fn(); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// tooMany counts the 429s in the emulator's request log.
func tooMany(e *emulator) (n int) {
	for _, r := range e.Requests() {
		if r.Status == http.StatusTooManyRequests {
			n++
		}
	}
	return n
}

// TestPacing_inFlightCountAgainstRemaining: 20 concurrent GETs with 10 requests left in the window draw
// no 429: ten go, ten wait for the reset.
func TestPacing_inFlightCountAgainstRemaining(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{RateLimit: 20, RateLimitWindow: 2 * time.Second})
	c := newPacedClient(t, e)
	ctx := context.Background()
	for range 10 {
		if _, err := c.Organizations.Get(ctx); err != nil {
			t.Fatal(err)
		}
	}
	concurrently(t, 20, func() error { _, err := c.Organizations.Get(ctx); return err })
	if n := tooMany(e); n != 0 || len(e.Requests()) != 30 {
		t.Errorf("%d requests, %d answered 429; want 30 and none", len(e.Requests()), n)
	}
}

// TestPacing_coldStart: before any answer the client knows nothing of the window, so it sends one request
// and learns from its answer rather than letting 30 go at once.
func TestPacing_coldStart(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{RateLimit: 20, RateLimitWindow: 2 * time.Second})
	c := newPacedClient(t, e)
	concurrently(t, 30, func() error { _, err := c.Organizations.Get(context.Background()); return err })
	if n := tooMany(e); n != 0 {
		t.Errorf("%d answered 429, want none", n)
	}
}

// TestPacing_429FromASharedWindowIsWaitedOut: two clients share one token's window, so each draws 429s the
// other caused; every call still succeeds.
func TestPacing_429FromASharedWindowIsWaitedOut(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{RateLimit: 10, RateLimitWindow: time.Second})
	a, b := newPacedClient(t, e), newPacedClient(t, e)
	concurrently(t, 24, func() error {
		c := a
		if time.Now().UnixNano()%2 == 0 {
			c = b
		}
		_, err := c.Organizations.Get(context.Background())
		return err
	})
	var ok int
	for _, r := range e.Requests() {
		if r.Status == http.StatusOK {
			ok++
		}
	}
	if ok != 24 {
		t.Errorf("%d calls answered 200, want 24", ok)
	}
	t.Logf("%d 429s drawn by two clients sharing a window", tooMany(e))
}

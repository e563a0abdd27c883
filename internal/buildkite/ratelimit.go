package buildkite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rate-limit headers the service sends on every response. RateLimit-Reset is
// the number of seconds until the window resets, not a timestamp.
const (
	headerRateLimitRemaining = "RateLimit-Remaining"
	headerRateLimitReset     = "RateLimit-Reset"
	headerRetryAfter         = "Retry-After"
)

// rateGate holds back every request of a Client until the rate-limit window
// has reset, once a response said the window is used up. Pacing this way means
// parallel Terraform operations wait instead of each drawing a 429.
type rateGate struct {
	mu    sync.Mutex
	until time.Time
}

// block pushes the gate's opening time out to t; it never pulls it earlier,
// since another response may already know of a later reset.
func (g *rateGate) block(t time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.After(g.until) {
		g.until = t
	}
}

// openAt returns the time from which requests may be sent again.
func (g *rateGate) openAt() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.until
}

// wait blocks until the gate is open or ctx is done. It loops because a
// response received while sleeping may have moved the opening time.
func (g *rateGate) wait(ctx context.Context) error {
	for {
		d := time.Until(g.openAt())
		if d <= 0 {
			return ctx.Err()
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// gateTransport waits at the gate before every attempt (first tries and retries alike), counts the attempt
// in the call's tally, bounds it by the attempt timeout and records the rate-limit state of every response.
type gateTransport struct {
	base   http.RoundTripper
	client *Client
}

var _ http.RoundTripper = (*gateTransport)(nil)

// RoundTrip implements http.RoundTripper. The attempt timeout starts after the gate, so a wait for the
// rate-limit window never uses it up, and ends when the response body is closed.
func (t *gateTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := t.client.gate.wait(ctx); err != nil {
		// RoundTrip must close the body even when it does not send it.
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	if n := tallyFrom(ctx); n != nil {
		n.n.Add(1)
	}
	actx, cancel := context.WithTimeoutCause(ctx, t.client.attemptTimeout, errAttemptTimeout)
	resp, err := t.base.RoundTrip(req.WithContext(actx))
	if err != nil {
		cancel()
		if ctx.Err() == nil && errors.Is(context.Cause(actx), errAttemptTimeout) {
			err = fmt.Errorf("%w (%s)", errAttemptTimeout, t.client.attemptTimeout)
		}
		return nil, err
	}
	t.client.observe(resp)
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose ends an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

// Close closes the body, then releases the attempt's timer.
func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// CloseIdleConnections forwards to the wrapped transport so
// http.Client.CloseIdleConnections keeps working through the wrapper.
func (t *gateTransport) CloseIdleConnections() {
	if ci, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// observe closes the gate until the window resets when the response says no
// requests are left (or is itself a 429).
func (c *Client) observe(resp *http.Response) {
	exhausted := resp.StatusCode == http.StatusTooManyRequests
	if v := strings.TrimSpace(resp.Header.Get(headerRateLimitRemaining)); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n <= 0 {
			exhausted = true
		}
	}
	if !exhausted {
		return
	}
	d, ok := c.rateLimitReset(resp.Header)
	if !ok && resp.StatusCode == http.StatusTooManyRequests {
		d, ok = c.retryAfter(resp.Header)
	}
	if !ok || d <= 0 {
		return
	}
	// The cap keeps a bogus header from stalling every call indefinitely.
	c.gate.block(time.Now().Add(min(d, c.retryWaitMax)))
}

// rateLimitReset parses RateLimit-Reset (seconds until the window resets).
func (c *Client) rateLimitReset(h http.Header) (time.Duration, bool) {
	return c.seconds(h.Get(headerRateLimitReset))
}

// retryAfter parses Retry-After, either delta-seconds or an HTTP date.
func (c *Client) retryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get(headerRetryAfter))
	if d, ok := c.seconds(v); ok {
		return d, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// seconds parses a non-negative number of seconds (fractions tolerated) and
// scales it by resetUnit.
func (c *Client) seconds(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1e6 {
		return 0, false
	}
	return time.Duration(f * float64(c.resetUnit)), true
}

package buildkite

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Rate-limit headers the service sends on every response. RateLimit-Reset is the number of seconds until
// the window resets, not a timestamp.
const (
	headerRateLimitRemaining = "RateLimit-Remaining"
	headerRateLimitLimit     = "RateLimit-Limit"
	headerRateLimitReset     = "RateLimit-Reset"
	headerRetryAfter         = "Retry-After"
	// headerComplexityActual is what a GraphQL request cost in complexity points, the units of its window;
	// headerComplexityRequested what it asked for, which stands in where the actual cost is not said.
	headerComplexityActual    = "RateLimit-Complexity-Actual"
	headerComplexityRequested = "RateLimit-Complexity-Requested"
)

// window reads what a response says of the rate-limit window. Waits are capped at RetryWaitMax, which
// keeps a bogus header from stalling every call indefinitely.
func (c *Client) window(resp *http.Response) window {
	w := window{tooMany: resp.StatusCode == http.StatusTooManyRequests, grain: c.resetUnit}
	if n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get(headerRateLimitRemaining))); err == nil {
		w.remaining, w.hasRemaining = n, true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get(headerRateLimitLimit))); err == nil && n > 0 {
		w.limit = n
	}
	if d, ok := c.rateLimitReset(resp.Header); ok {
		w.reset, w.hasReset = min(d, c.retryWaitMax), true
	}
	if d, ok := c.retryAfter(resp.Header); ok {
		w.retryAfter, w.hasRetryAfter = min(d, c.retryWaitMax), true
	}
	for _, h := range []string{headerComplexityActual, headerComplexityRequested} {
		if n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get(h))); err == nil && n >= 0 {
			w.cost, w.hasCost = n, true
			break
		}
	}
	return w
}

// observe applies a response's rate-limit headers to the gate, outside of any request in flight.
func (c *Client) observe(resp *http.Response) {
	c.gate.mu.Lock()
	defer c.gate.mu.Unlock()
	c.gate.update(c.window(resp))
	c.gate.wake()
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

// seconds parses a non-negative number of seconds (fractions tolerated) and scales it by resetUnit.
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

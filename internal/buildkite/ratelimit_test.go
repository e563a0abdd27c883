package buildkite

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestRateLimit_429HonoursResetOverRetryAfter(t *testing.T) {
	// One counter across attempts: the first answer is a 429.
	h := failThen(1, http.StatusTooManyRequests, `{"id":"c1"}`)
	s := newStub(t, creating(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("RateLimit-Reset", "3") // 30ms at testUnit
		w.Header().Set("Retry-After", "50")    // 500ms: must lose to RateLimit-Reset
		h(w, r)
	}))
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.RetryWaitMin = 200 * time.Millisecond })
	if _, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	reqs := s.sent()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	gap := reqs[1].At.Sub(reqs[0].At)
	if gap < 3*testUnit || gap >= 200*time.Millisecond {
		t.Errorf("retried after %v, want RateLimit-Reset's %v", gap, 3*testUnit)
	}
}

func TestRateLimit_429FallsBackToRetryAfter(t *testing.T) {
	h := failThen(1, http.StatusTooManyRequests, `{"id":"c1"}`)
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "4")
		h(w, r)
	})
	c := newTestClient(t, s.srv.URL)
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if gap := reqs[1].At.Sub(reqs[0].At); len(reqs) != 2 || gap < 4*testUnit {
		t.Errorf("%d requests, gap %v; want a retry after %v", len(reqs), gap, 4*testUnit)
	}
}

func TestBackoff(t *testing.T) {
	c := &Client{resetUnit: time.Second}
	withHeaders := func(status int, kv ...string) *http.Response {
		r := &http.Response{StatusCode: status, Header: http.Header{}}
		for i := 0; i < len(kv); i += 2 {
			r.Header.Set(kv[i], kv[i+1])
		}
		return r
	}
	const lo, hi = 100 * time.Millisecond, 30 * time.Second
	cases := []struct {
		name    string
		attempt int
		resp    *http.Response
		want    time.Duration
	}{
		{"transport error, first retry", 0, nil, lo},
		{"500, third retry", 2, withHeaders(500), 4 * lo},
		{"exponential is capped", 40, withHeaders(502), hi},
		{"429 reset", 0, withHeaders(429, "RateLimit-Reset", "7", "Retry-After", "20"), 7 * time.Second},
		{"429 reset zero", 3, withHeaders(429, "RateLimit-Reset", "0"), 0},
		{"429 reset capped", 0, withHeaders(429, "RateLimit-Reset", "600"), hi},
		{"429 retry-after", 0, withHeaders(429, "Retry-After", "9"), 9 * time.Second},
		{"429 garbage headers", 1, withHeaders(429, "RateLimit-Reset", "soon", "Retry-After", "-3"), 2 * lo},
		{"429 without headers", 0, withHeaders(429), lo},
		{"503 retry-after", 0, withHeaders(503, "Retry-After", "2", "RateLimit-Reset", "9"), 2 * time.Second},
		{"503 ignores reset", 0, withHeaders(503, "RateLimit-Reset", "9"), lo},
	}
	for _, tc := range cases {
		if got := c.backoff(lo, hi, tc.attempt, tc.resp); got != tc.want {
			t.Errorf("%s: backoff = %v, want %v", tc.name, got, tc.want)
		}
	}

	date := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
	if got := c.backoff(lo, hi, 0, withHeaders(429, "Retry-After", date)); got < 3*time.Second || got > 5*time.Second {
		t.Errorf("HTTP-date Retry-After: backoff = %v, want about 4-5s", got)
	}
}

// TestRateLimit_pacesAllGoroutines: once a response says the window is used
// up, concurrent calls wait for the reset instead of drawing 429s.
func TestRateLimit_pacesAllGoroutines(t *testing.T) {
	const reset = 10 // 100ms at testUnit
	var (
		mu           sync.Mutex
		served       int
		blockedUntil time.Time
		tooMany      int
	)
	s := newStub(t, func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		w.Header().Set("RateLimit-Limit", "50")
		w.Header().Set("RateLimit-Reset", strconv.Itoa(reset))
		if now.Before(blockedUntil) {
			tooMany++
			w.Header().Set("RateLimit-Remaining", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"message":"You have exceeded your API rate limit."}`))
			return
		}
		served++
		if served == 1 {
			// Set before the response leaves, so the client's gate (set on
			// receipt) can only open later than this.
			blockedUntil = now.Add(reset * testUnit)
			w.Header().Set("RateLimit-Remaining", "0")
		} else {
			w.Header().Set("RateLimit-Remaining", "49")
		}
		_, _ = w.Write([]byte(`{"id":"c1"}`))
	})
	c := newTestClient(t, s.srv.URL)
	ctx := context.Background()
	if _, err := c.Clusters.Get(ctx, "c1"); err != nil {
		t.Fatal(err)
	}

	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			if _, err := c.Organizations.Get(ctx); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	mu.Lock()
	defer mu.Unlock()
	if tooMany != 0 {
		t.Errorf("server answered %d requests with 429, want 0", tooMany)
	}
	reqs := s.requests()
	if len(reqs) != n+1 {
		t.Fatalf("%d requests, want %d", len(reqs), n+1)
	}
	for _, r := range reqs[1:] {
		if r.At.Before(blockedUntil) {
			t.Errorf("request arrived %v before the reset", blockedUntil.Sub(r.At))
		}
	}
}

func TestRateLimit_gateWaitStopsOnContextCancel(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{}`))
	c := newTestClient(t, s.srv.URL)
	c.gate.block(time.Now().Add(time.Minute))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Clusters.Get(ctx, "c1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("waited %v despite the deadline", d)
	}
	if s.count() != 0 {
		t.Errorf("%d requests went through a closed gate", s.count())
	}
}

func TestRateLimit_observe(t *testing.T) {
	c := &Client{resetUnit: time.Second, retryWaitMax: 10 * time.Second, gate: &rateGate{}}
	resp := func(status int, kv ...string) *http.Response {
		r := &http.Response{StatusCode: status, Header: http.Header{}}
		for i := 0; i < len(kv); i += 2 {
			r.Header.Set(kv[i], kv[i+1])
		}
		return r
	}

	c.observe(resp(200, "RateLimit-Remaining", "3", "RateLimit-Reset", "2"))
	if !c.gate.openAt().IsZero() {
		t.Error("gate closed while requests remain")
	}
	c.observe(resp(200, "RateLimit-Remaining", "0"))
	if !c.gate.openAt().IsZero() {
		t.Error("gate closed without a reset time")
	}

	before := time.Now()
	c.observe(resp(200, "RateLimit-Remaining", "0", "RateLimit-Reset", "3"))
	if at := c.gate.openAt(); at.Before(before.Add(3*time.Second)) || at.After(time.Now().Add(3*time.Second)) {
		t.Errorf("gate opens at +%v, want +3s", at.Sub(before))
	}

	// A later, shorter reset must not reopen the gate early.
	prev := c.gate.openAt()
	c.observe(resp(200, "RateLimit-Remaining", "0", "RateLimit-Reset", "1"))
	if !c.gate.openAt().Equal(prev) {
		t.Error("gate moved earlier")
	}

	// Waits are capped at RetryWaitMax, even for absurd headers.
	c.observe(resp(429, "Retry-After", "100000"))
	if at := c.gate.openAt(); at.After(time.Now().Add(10 * time.Second)) {
		t.Errorf("gate opens at +%v, want at most RetryWaitMax", time.Until(at))
	}
	if at := c.gate.openAt(); at.Before(before.Add(9 * time.Second)) {
		t.Errorf("429 Retry-After did not close the gate: +%v", at.Sub(before))
	}
}

// TestRateLimit_newWindowWithoutAnswersDoesNotStall: when every request of a new window fails without an
// answer, nothing will tell the window's end; the gate lets the next request go rather than wait forever.
func TestRateLimit_newWindowWithoutAnswersDoesNotStall(t *testing.T) {
	g := &rateGate{seen: true, known: true, limit: 2, left: 2}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for range 2 {
		if err := g.acquire(ctx); err != nil {
			t.Fatal(err)
		}
		g.release(window{}, true)
	}
	if err := g.acquire(ctx); err != nil {
		t.Fatalf("third request: %v", err)
	}
}

// TestRateLimit_429WindowEndsAtItsReset: a 429 names a short window (RateLimit-Reset 1) while the answers
// around it name the service's 60 s window. The gate holds requests for the 429's reset, not until the
// longer window ends: an answer naming another end describes another window and replaces the 429's count,
// where merging kept the 429's 0 until the 60 s end and stalled every request for a minute.
func TestRateLimit_429WindowEndsAtItsReset(t *testing.T) {
	c := &Client{resetUnit: time.Second, retryWaitMax: time.Minute, gate: &rateGate{seen: true}}
	resp := func(status int, remaining, reset string) *http.Response {
		h := http.Header{}
		h.Set("RateLimit-Limit", "5000")
		h.Set("RateLimit-Remaining", remaining)
		h.Set("RateLimit-Reset", reset)
		return &http.Response{StatusCode: status, Header: h}
	}
	for _, order := range []string{"429 first", "429 last"} {
		c.gate = &rateGate{seen: true}
		start := time.Now()
		if order == "429 last" {
			c.observe(resp(http.StatusOK, "4999", "60"))
		}
		c.observe(resp(http.StatusTooManyRequests, "0", "1"))
		c.observe(resp(http.StatusOK, "4998", "60"))
		c.observe(resp(http.StatusOK, "4997", "60"))
		if at := c.gate.openAt(); at.After(start.Add(1500 * time.Millisecond)) {
			t.Errorf("%s: the gate opens at +%v, want at the 429's reset (+1s)", order, at.Sub(start).Round(time.Millisecond))
		}
		if !c.gate.openAt().After(start.Add(900 * time.Millisecond)) {
			t.Errorf("%s: the 429 did not hold requests for its reset", order)
		}
	}
}

// TestRateLimit_sameWindowKeepsLowestCount: answers of one window (the same end, give or take the rounding
// of RateLimit-Reset) arrive out of order; the lowest count stands, so a late answer cannot reopen a window
// reported used up.
func TestRateLimit_sameWindowKeepsLowestCount(t *testing.T) {
	c := &Client{resetUnit: time.Second, retryWaitMax: time.Minute, gate: &rateGate{seen: true}}
	h := func(remaining, reset string) *http.Response {
		hd := http.Header{}
		hd.Set("RateLimit-Remaining", remaining)
		hd.Set("RateLimit-Reset", reset)
		return &http.Response{StatusCode: http.StatusOK, Header: hd}
	}
	c.observe(h("0", "5"))
	c.observe(h("3", "6")) // sent earlier, answered later, rounded up
	if at := time.Until(c.gate.openAt()); at < 4*time.Second {
		t.Errorf("a late answer of the same window reopened the gate (opens in %v)", at)
	}
}

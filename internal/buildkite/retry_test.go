package buildkite

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// failThen answers the first n requests with status and the rest with 200
// and okBody.
func failThen(n int, status int, okBody string) http.HandlerFunc {
	var seen atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if int(seen.Add(1)) <= n {
			respond(status, `{"message":"try again"}`)(w, r)
			return
		}
		respond(http.StatusOK, okBody)(w, r)
	}
}

func TestRetry_GETRetriedOn500(t *testing.T) {
	s := newStub(t, failThen(1, http.StatusInternalServerError, `{"id":"c1","name":"Primary"}`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Get(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Primary" || s.count() != 2 {
		t.Errorf("got %+v after %d requests, want success on the 2nd", got, s.count())
	}
}

func TestRetry_idempotentWritesRetriedOn503(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(c *Client) error{
		http.MethodPut: func(c *Client) error {
			_, err := c.Clusters.Update(ctx, "c1", ClusterUpdate{Name: Value("Renamed")})
			return err
		},
		http.MethodPatch: func(c *Client) error {
			_, err := c.ClusterTokens.Update(ctx, "c1", "t1", ClusterTokenUpdate{Description: ptr("ci")})
			return err
		},
		http.MethodDelete: func(c *Client) error { return c.Queues.Delete(ctx, "c1", "q1") },
	}
	for method, call := range calls {
		t.Run(method, func(t *testing.T) {
			s := newStub(t, failThen(2, http.StatusServiceUnavailable, `{"id":"x"}`))
			c := newTestClient(t, s.srv.URL)
			if err := call(c); err != nil {
				t.Fatal(err)
			}
			reqs := s.requests()
			if len(reqs) != 3 {
				t.Fatalf("server saw %d requests, want 3", len(reqs))
			}
			// The body must be replayed intact on every attempt.
			for _, r := range reqs {
				if r.Method != method || r.Body != reqs[0].Body {
					t.Errorf("attempt %s body %q, first body %q", r.Method, r.Body, reqs[0].Body)
				}
			}
		})
	}
}

func TestRetry_POSTNotRetriedOn5xx(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504} {
		s := newStub(t, respond(status, `{"message":"oops"}`))
		c := newTestClient(t, s.srv.URL)
		// A plain create: the services' creates go on to find out what happened (see TestCreateOrAdopt).
		_, err := create[Cluster](context.Background(), c, "/v2/organizations/acme/clusters", ClusterCreate{Name: "x"})
		if StatusCode(err) != status || !isUnknownOutcome(err) {
			t.Errorf("%d: error = %v, want the status as an unknown outcome", status, err)
		}
		if s.count() != 1 {
			t.Errorf("%d: POST sent %d times, want exactly 1", status, s.count())
		}
	}
}

func TestRetry_POSTRetriedOn429(t *testing.T) {
	s := newStub(t, creating(failThen(1, http.StatusTooManyRequests, `{"id":"c1"}`)))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.sent()
	if got.ID != "c1" || len(reqs) != 2 || reqs[1].Body != `{"name":"x"}` {
		t.Errorf("got %+v after %+v", got, reqs)
	}
}

// countingTransport counts attempts that reach the network layer.
type countingTransport struct {
	n    atomic.Int32
	base http.RoundTripper
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	return t.base.RoundTrip(r)
}

func TestRetry_POSTRetriedWhenConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there now: every dial is refused

	ct := &countingTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	c := newTestClient(t, "http://"+addr, func(c *Config) {
		c.MaxRetries = 2
		c.HTTPClient = &http.Client{Transport: ct}
	})
	_, err = c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"})
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("error = %v, want connection refused", err)
	}
	if got := ct.n.Load(); got != 3 {
		t.Errorf("attempts = %d, want 3 (1 + MaxRetries)", got)
	}
}

// hangUp reads the request and drops the connection without answering,
// i.e. the request was sent and the service may have acted on it.
func hangUp(w http.ResponseWriter, r *http.Request) {
	_, _ = io.ReadAll(r.Body)
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

func TestRetry_resetAfterSending(t *testing.T) {
	t.Run("POST not retried", func(t *testing.T) {
		s := newStub(t, hangUp)
		c := newTestClient(t, s.srv.URL)
		_, err := create[Cluster](context.Background(), c, "/v2/organizations/acme/clusters", ClusterCreate{Name: "x"})
		if err == nil || !isUnknownOutcome(err) {
			t.Fatalf("error = %v, want an unknown outcome", err)
		}
		if s.count() != 1 {
			t.Errorf("POST sent %d times, want exactly 1", s.count())
		}
	})
	t.Run("GET retried", func(t *testing.T) {
		s := newStub(t, hangUp)
		c := newTestClient(t, s.srv.URL, func(c *Config) { c.MaxRetries = 2 })
		if _, err := c.Clusters.Get(context.Background(), "c1"); err == nil {
			t.Fatal("want an error")
		}
		if s.count() != 3 {
			t.Errorf("GET sent %d times, want 3", s.count())
		}
	})
}

func TestRetry_maxRetriesRespected(t *testing.T) {
	for _, tc := range []struct{ maxRetries, want int }{{2, 3}, {-1, 1}} {
		s := newStub(t, respond(http.StatusInternalServerError, `{"message":"boom"}`))
		c := newTestClient(t, s.srv.URL, func(c *Config) { c.MaxRetries = tc.maxRetries })
		_, err := c.Clusters.Get(context.Background(), "c1")
		var apiErr *Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusInternalServerError || apiErr.Message != "boom" {
			t.Errorf("MaxRetries %d: error = %v, want the final 500 as *Error", tc.maxRetries, err)
		}
		if s.count() != tc.want {
			t.Errorf("MaxRetries %d: %d requests, want %d", tc.maxRetries, s.count(), tc.want)
		}
	}
}

func TestRetry_rateLimitedAfterRetriesIsError(t *testing.T) {
	s := newStub(t, respond(http.StatusTooManyRequests, `{"message":"You have exceeded your API rate limit.","reset":0}`))
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.MaxRetries = 1 })
	_, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"})
	if !IsRateLimited(err) || !errors.Is(err, ErrRateLimited) || s.count() != 2 {
		t.Errorf("error = %v after %d requests", err, s.count())
	}
}

func TestRetry_clientErrorsNotRetried(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 409, 422, 501} {
		s := newStub(t, respond(status, `{"message":"no"}`))
		c := newTestClient(t, s.srv.URL)
		_, err := c.Clusters.Get(context.Background(), "c1")
		if StatusCode(err) != status || s.count() != 1 {
			t.Errorf("%d: error %v after %d requests, want 1 request", status, err, s.count())
		}
	}
}

func TestRetry_contextCancelStopsBackoff(t *testing.T) {
	s := newStub(t, respond(http.StatusInternalServerError, `{}`))
	c := newTestClient(t, s.srv.URL, func(c *Config) {
		c.RetryWaitMin = time.Minute
		c.RetryWaitMax = time.Minute
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Clusters.Get(ctx, "c1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("returned after %v, want soon after the deadline", d)
	}
	if s.count() != 1 {
		t.Errorf("%d requests, want 1", s.count())
	}
	if StatusCode(err) != http.StatusInternalServerError {
		t.Errorf("error = %v, want the last answer kept", err)
	}

	// Cancelled while waiting, with time left: the error says so and names the last answer.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.Clusters.Get(ctx, "c1")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "no success after 1 attempt over") ||
		!strings.Contains(err.Error(), "last answer 500") {
		t.Errorf("error = %v", err)
	}
}

func TestJudge(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("no route to host")}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	noHost := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}
	dnsTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "i/o timeout", Name: "x", IsTimeout: true}}
	x509err := &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}

	cases := []struct {
		name       string
		repeatable bool
		status     int // 0: transport error
		err        error
		want       verdict
	}{
		{"repeatable 500", true, 500, nil, retry},
		{"repeatable 501", true, 501, nil, done},
		{"repeatable 404", true, 404, nil, done},
		{"repeatable 200", true, 200, nil, done},
		{"repeatable 502", true, 502, nil, retry},
		{"repeatable 429", true, 429, nil, retry},
		{"create 500", false, 500, nil, unknown},
		{"create 503", false, 503, nil, unknown},
		{"create 429", false, 429, nil, retry},
		{"create 422", false, 422, nil, done},
		{"create dial", false, 0, dial, retry},
		{"create refused", false, 0, syscall.ECONNREFUSED, retry},
		{"create reset", false, 0, reset, unknown},
		{"create attempt timeout", false, 0, errAttemptTimeout, unknown},
		{"repeatable reset", true, 0, reset, retry},
		{"repeatable attempt timeout", true, 0, errAttemptTimeout, retry},
		{"unknown host", true, 0, noHost, permanent},
		{"unknown host, create", false, 0, noHost, permanent},
		{"DNS timeout", true, 0, dnsTimeout, retry},
		{"TLS", true, 0, x509err, permanent},
		{"scheme mismatch", true, 0, http.ErrSchemeMismatch, permanent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := judge(tc.repeatable, tc.status, tc.err); got != tc.want {
				t.Errorf("judge = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTimeBounds_silentServerFailsWithinDeadline: a service that accepts connections and never answers
// fails the call at its deadline, and the error says how many attempts were made over how long.
func TestTimeBounds_silentServerFailsWithinDeadline(t *testing.T) {
	release := make(chan struct{})
	s := newStub(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	c := newTestClient(t, s.srv.URL, func(c *Config) {
		c.MaxRetries = 0 // until the deadline
		c.AttemptTimeout = 100 * time.Millisecond
		c.CallTimeout = 450 * time.Millisecond
	})
	start := time.Now()
	_, err := c.Clusters.Get(context.Background(), "x")
	elapsed := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want the deadline", err)
	}
	if elapsed > time.Second {
		t.Errorf("returned after %v, want soon after the 450ms deadline", elapsed)
	}
	// Under load the backoff and the scheduler stretch each attempt, so the count is bounded below by
	// two (the call was retried, not abandoned after one) and the message must report what the server saw.
	m := regexp.MustCompile(`^GET /v2/organizations/acme/clusters/x: no answer after (\d+) attempts over 4\d\dms: context deadline exceeded$`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error = %q", err.Error())
	}
	n := s.count()
	if n < 2 || n > 5 {
		t.Errorf("server saw %d attempts, want 2 to 5 (100ms each plus backoff)", n)
	}
	// The last attempt may be cut off by the deadline before the server has seen it.
	if reported, _ := strconv.Atoi(m[1]); reported != n && reported != n+1 {
		t.Errorf("error reports %d attempts, server saw %d", reported, n)
	}
}

// TestTimeBounds_contextDeadlineWins: a deadline on the caller's context replaces CallTimeout.
func TestTimeBounds_contextDeadlineWins(t *testing.T) {
	s := newStub(t, func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.CallTimeout = time.Hour })
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Clusters.Get(ctx, "x")
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("error %v after %v, want the context's deadline", err, time.Since(start))
	}
	if !strings.Contains(err.Error(), "no answer after 1 attempt over") {
		t.Errorf("error = %q, want the attempt count", err)
	}
}

// TestTimeBounds_gateWaitDoesNotUseAttemptTimeout: time spent waiting for the rate-limit window is not
// part of an attempt, so a short attempt timeout does not fail a call that waited.
func TestTimeBounds_gateWaitDoesNotUseAttemptTimeout(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"id":"c1"}`))
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.AttemptTimeout = 50 * time.Millisecond })
	c.gate.block(time.Now().Add(150 * time.Millisecond))
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	if s.count() != 1 {
		t.Errorf("%d attempts, want 1", s.count())
	}
}

// TestTimeBounds_unknownHostFailsOnFirstAttempt: a host name that does not exist cannot start to exist
// by retrying.
func TestTimeBounds_unknownHostFailsOnFirstAttempt(t *testing.T) {
	ct := &countingTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	c := newTestClient(t, "http://api.nowhere.invalid", func(c *Config) {
		c.MaxRetries = 0
		c.HTTPClient = &http.Client{Transport: ct}
	})
	start := time.Now()
	_, err := c.Clusters.Get(context.Background(), "x")
	var dns *net.DNSError
	if !errors.As(err, &dns) || !dns.IsNotFound {
		t.Fatalf("error = %v, want a DNS not-found error", err)
	}
	if n := ct.n.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestRetry_untilDeadlineByDefault: with MaxRetries 0 a repeatable call outlasts many failures.
func TestRetry_untilDeadlineByDefault(t *testing.T) {
	s := newStub(t, failThen(12, http.StatusBadGateway, `{"id":"c1"}`))
	c := newTestClient(t, s.srv.URL, func(c *Config) {
		c.MaxRetries = 0
		c.RetryWaitMax = 5 * time.Millisecond
	})
	if _, err := c.Clusters.Get(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	if s.count() != 13 {
		t.Errorf("%d attempts, want 13", s.count())
	}
}

// TestTimeBounds_attemptTimeoutCoversTheBody: an answer whose body stalls is an attempt that timed out,
// and a repeatable call is sent again.
func TestTimeBounds_attemptTimeoutCoversTheBody(t *testing.T) {
	var seen atomic.Int32
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) == 1 {
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":`))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		respond(http.StatusOK, `{"id":"c1"}`)(w, r)
	})
	c := newTestClient(t, s.srv.URL, func(c *Config) { c.AttemptTimeout = 100 * time.Millisecond })
	got, err := c.Clusters.Get(context.Background(), "c1")
	if err != nil || got.ID != "c1" || s.count() != 2 {
		t.Errorf("got %+v, %v after %d attempts; want c1 on the second", got, err, s.count())
	}
}

package buildkite

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
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
			_, err := c.Clusters.Update(ctx, "c1", ClusterUpdate{Name: ptr("Renamed")})
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
		_, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"})
		if StatusCode(err) != status {
			t.Errorf("%d: error = %v", status, err)
		}
		if s.count() != 1 {
			t.Errorf("%d: POST sent %d times, want exactly 1", status, s.count())
		}
	}
}

func TestRetry_POSTRetriedOn429(t *testing.T) {
	s := newStub(t, failThen(1, http.StatusTooManyRequests, `{"id":"c1"}`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
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
		if _, err := c.Clusters.Create(context.Background(), ClusterCreate{Name: "x"}); err == nil {
			t.Fatal("want an error")
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
}

func TestCheckRetry(t *testing.T) {
	dial := &url.Error{Op: "Post", URL: "http://x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("no route to host")}}
	reset := &url.Error{Op: "Post", URL: "http://x", Err: &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}}
	refused := &url.Error{Op: "Post", URL: "http://x", Err: syscall.ECONNREFUSED}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	cases := []struct {
		name   string
		ctx    context.Context
		method string
		status int // 0: transport error
		err    error
		want   bool
	}{
		{"GET 500", nil, "GET", 500, nil, true},
		{"GET 501", nil, "GET", 501, nil, false},
		{"GET 404", nil, "GET", 404, nil, false},
		{"GET 200", nil, "GET", 200, nil, false},
		{"PUT 502", nil, "PUT", 502, nil, true},
		{"PATCH 504", nil, "PATCH", 504, nil, true},
		{"DELETE 503", nil, "DELETE", 503, nil, true},
		{"POST 500", nil, "POST", 500, nil, false},
		{"POST 503", nil, "POST", 503, nil, false},
		{"POST 429", nil, "POST", 429, nil, true},
		{"POST 422", nil, "POST", 422, nil, false},
		{"POST dial", nil, "POST", 0, dial, true},
		{"POST refused", nil, "POST", 0, refused, true},
		{"POST reset", nil, "POST", 0, reset, false},
		{"GET reset", nil, "GET", 0, reset, true},
		{"DELETE reset", nil, "DELETE", 0, reset, true},
		{"GET scheme mismatch", nil, "GET", 0, &url.Error{Op: "Get", Err: http.ErrSchemeMismatch}, false},
		{"unknown method reset", nil, "", 0, reset, false},
		{"GET canceled", canceled, "GET", 0, context.Canceled, false},
		{"GET 500 canceled", canceled, "GET", 500, nil, false},
		{"POST 429 canceled", canceled, "POST", 429, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			// The method stands for the call: only GET, PUT, PATCH and DELETE are repeatable in these cases.
			ctx = context.WithValue(ctx, repeatableKey{}, tc.method != "" && tc.method != http.MethodPost)
			var resp *http.Response
			if tc.status != 0 {
				resp = &http.Response{StatusCode: tc.status}
			}
			got, err := checkRetry(ctx, resp, tc.err)
			if got != tc.want {
				t.Errorf("retry = %v, want %v", got, tc.want)
			}
			if (tc.ctx != nil) != (err != nil) {
				t.Errorf("err = %v; only cancellation should return one", err)
			}
		})
	}
}

package buildkite

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// TestFirstContact_unreachableFailsAtOnce: a first contact with a service nothing answers for fails on its
// first attempt, naming the address, where any other call retries until its deadline.
func TestFirstContact_unreachableFailsAtOnce(t *testing.T) {
	addr := closedAddr(t)
	ct := &countingTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	c := newTestClient(t, "http://"+addr, func(c *Config) {
		c.MaxRetries = 0 // until the deadline
		c.CallTimeout = time.Minute
		c.HTTPClient = &http.Client{Transport: ct}
	})
	start := time.Now()
	_, err := c.AccessToken.Get(FirstContact(context.Background()))
	if !errors.Is(err, syscall.ECONNREFUSED) || !IsUnreachable(err) || !strings.Contains(err.Error(), addr) {
		t.Fatalf("error = %v, want connection refused naming %s", err, addr)
	}
	if n := ct.n.Load(); n != 1 {
		t.Errorf("%d attempts, want 1", n)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestFirstContact_afterAnAnswerRetries: once the service has answered, a first contact that cannot
// connect retries like any other call: the service may be restarting.
func TestFirstContact_afterAnAnswerRetries(t *testing.T) {
	srv := httptest.NewServer(respond(http.StatusOK, `{"uuid":"t1","scopes":[]}`))
	ct := &countingTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	c := newTestClient(t, srv.URL, func(c *Config) {
		c.MaxRetries = 2
		c.HTTPClient = &http.Client{Transport: ct}
	})
	ctx := FirstContact(context.Background())
	if _, err := c.AccessToken.Get(ctx); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	_, err := c.AccessToken.Get(ctx)
	if !IsUnreachable(err) {
		t.Fatalf("error = %v, want unreachable", err)
	}
	if n := ct.n.Load(); n != 1+3 {
		t.Errorf("%d attempts, want 1 and then 3 (1 + MaxRetries)", n)
	}
}

func TestIsUnreachable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}, true},
		{&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, false},
		{&Error{StatusCode: http.StatusBadGateway}, false},
		{&redirectError{to: "http://x", reason: "no"}, false},
		{nil, false},
	} {
		if got := IsUnreachable(tc.err); got != tc.want {
			t.Errorf("IsUnreachable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestContactCheck: the first-contact check runs once, just before the first request (not when the client
// is built), its own calls pass, a final failure is returned by every call, and another is asked again.
func TestContactCheck(t *testing.T) {
	var checks int
	var answer error
	var c *Client
	ts := httptest.NewServer(fakeserver.New(fakeserver.Options{}))
	t.Cleanup(ts.Close)
	c = newTestClient(t, ts.URL, func(cfg *Config) {
		cfg.Contact = func(ctx context.Context) error {
			checks++
			if _, err := c.AccessToken.Get(ctx); err != nil { // the check's own call passes the gate
				return err
			}
			return answer
		}
	})
	if checks != 0 {
		t.Fatal("the check ran when the client was built")
	}
	ctx := context.Background()
	answer = errors.New("not yet")
	if _, err := c.Organizations.Get(ctx); err == nil || err.Error() != "not yet" {
		t.Fatalf("first call: %v", err)
	}
	answer = FinalContact(errors.New("for good"))
	for range 2 {
		if _, err := c.Clusters.List(ctx); err == nil || err.Error() != "for good" {
			t.Fatalf("after a final failure: %v", err)
		}
	}
	if checks != 2 {
		t.Fatalf("%d checks, want 2 (a transient failure asked again, a final one not)", checks)
	}

	ok := newTestClient(t, ts.URL, func(cfg *Config) { cfg.Contact = func(context.Context) error { checks++; return nil } })
	checks = 0
	for range 3 {
		if _, err := ok.Organizations.Get(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if checks != 1 {
		t.Fatalf("%d checks after success, want 1", checks)
	}
}

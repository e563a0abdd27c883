package buildkite

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"syscall"
	"time"
)

// errAttemptTimeout marks an attempt that got no answer within Config.AttemptTimeout while the call itself
// still had time: the request may have reached the service, so only a repeatable call is sent again.
var errAttemptTimeout = errors.New("no answer within the attempt timeout")

// verdict is what the request path does after one attempt.
type verdict int

const (
	// done: the attempt's result is the call's result (a 2xx, or a status no retry can change).
	done verdict = iota
	// retry: send the call again after a backoff.
	retry
	// unknown: the service may or may not have acted on a call that is not repeatable (a 5xx, or the
	// connection was lost after sending). The call fails with an error isUnknownOutcome recognises, so that
	// createOrAdopt can find out what happened.
	unknown
	// permanent: a transport failure no retry can fix (unknown host, TLS).
	permanent
)

// judge decides what follows an attempt of a call that is repeatable or not, from its status (0 for a
// transport error) and err. The caller has already stopped when the call's context is done.
func judge(repeatable bool, status int, err error) verdict {
	if err != nil {
		switch {
		case isPermanent(err):
			return permanent
		case repeatable || neverConnected(err):
			return retry
		}
		return unknown
	}
	switch {
	case status == http.StatusTooManyRequests:
		// The service refused before acting, so even a create may be sent again.
		return retry
	case status >= 500 && status != http.StatusNotImplemented:
		if repeatable {
			return retry
		}
		return unknown
	}
	return done
}

// neverConnected reports a failure to establish the connection, i.e. before any byte of the request could
// reach the service.
func neverConnected(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// isPermanent reports transport errors that another attempt cannot fix: a host name that does not exist
// (a typo in the URL), every TLS or certificate failure, and a redirect the client refuses to follow.
func isPermanent(err error) bool {
	var (
		redirect         *redirectError
		dns              *net.DNSError
		unknownAuthority x509.UnknownAuthorityError
		invalidCert      x509.CertificateInvalidError
		hostname         x509.HostnameError
		verify           *tls.CertificateVerificationError
		record           tls.RecordHeaderError
		alert            tls.AlertError
	)
	return errors.As(err, &redirect) ||
		(errors.As(err, &dns) && dns.IsNotFound) ||
		errors.As(err, &unknownAuthority) ||
		errors.As(err, &invalidCert) ||
		errors.As(err, &hostname) ||
		errors.As(err, &verify) ||
		errors.As(err, &record) ||
		errors.As(err, &alert) ||
		errors.Is(err, http.ErrSchemeMismatch)
}

// unknownOutcomeError wraps the error of a call that is not repeatable and whose effect is unknown. It adds
// nothing to the message; errors.As still finds an *Error inside.
type unknownOutcomeError struct{ err error }

func (e *unknownOutcomeError) Error() string { return e.err.Error() }
func (e *unknownOutcomeError) Unwrap() error { return e.err }

// isUnknownOutcome reports whether err says the service may have acted on a call that did not get its answer.
func isUnknownOutcome(err error) bool {
	var u *unknownOutcomeError
	return errors.As(err, &u)
}

// backoff is the wait before retry number attempt (0 for the first retry): on 429 until the window resets
// (RateLimit-Reset, then Retry-After), on 503 for Retry-After, otherwise exponentially from minWait. Every
// wait is capped at maxWait. resp is nil after a transport error.
func (c *Client) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		switch resp.StatusCode {
		case http.StatusTooManyRequests:
			if d, ok := c.rateLimitReset(resp.Header); ok {
				return min(d, maxWait)
			}
			if d, ok := c.retryAfter(resp.Header); ok {
				return min(d, maxWait)
			}
		case http.StatusServiceUnavailable:
			if d, ok := c.retryAfter(resp.Header); ok {
				return min(d, maxWait)
			}
		}
	}
	return exponential(minWait, maxWait, attempt)
}

// exponential returns minWait*2^attempt capped at maxWait, without overflowing.
func exponential(minWait, maxWait time.Duration, attempt int) time.Duration {
	d := minWait
	for i := 0; i < attempt && d < maxWait; i++ {
		d *= 2
	}
	return min(d, maxWait)
}

// sleep waits for d or until ctx is done, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// tally counts the attempts of one call that got past the rate-limit gate onto the network; the transport
// finds it in the request's context.
type tally struct {
	start time.Time
	n     atomic.Int32
}

type tallyKey struct{}

// tallyFrom returns the call's tally, or nil for a request sent outside the request path.
func tallyFrom(ctx context.Context) *tally {
	t, _ := ctx.Value(tallyKey{}).(*tally)
	return t
}

// summary says how many attempts were made over how long, for errors: "4 attempts over 30s".
func (t *tally) summary() string {
	n := t.n.Load()
	unit := "attempts"
	if n == 1 {
		unit = "attempt"
	}
	return fmt.Sprintf("%d %s over %s", n, unit, time.Since(t.start).Round(time.Millisecond))
}

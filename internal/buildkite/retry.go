package buildkite

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// checkRetry is the retryablehttp.CheckRetry policy. A call that is not
// repeatable (a create) is only retried when the service cannot have acted on
// it (429, or the connection was never established), because retrying a create
// that did happen makes a duplicate.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	// The caller gave up; returning the context error stops retryablehttp too.
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	repeatable := isRepeatable(ctx)
	if err != nil {
		if repeatable {
			return !isPermanent(err), nil
		}
		return neverConnected(err), nil
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return true, nil
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return repeatable, nil
	}
	return false, nil
}

// neverConnected reports a failure to establish the connection, i.e. before
// any byte of the request could reach the service.
func neverConnected(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// isPermanent reports transport errors that another attempt cannot fix.
func isPermanent(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		invalidCert      x509.CertificateInvalidError
		hostname         x509.HostnameError
		verify           *tls.CertificateVerificationError
	)
	return errors.As(err, &unknownAuthority) ||
		errors.As(err, &invalidCert) ||
		errors.As(err, &hostname) ||
		errors.As(err, &verify) ||
		errors.Is(err, http.ErrSchemeMismatch)
}

// giveUp is the retryablehttp.ErrorHandler. A final response, even a 5xx or
// 429, is passed through so do can turn it into an *Error with the service's
// message; transport errors say how many attempts were made.
func giveUp(resp *http.Response, err error, attempts int) (*http.Response, error) {
	if err == nil && resp != nil {
		return resp, nil
	}
	if resp != nil {
		_ = resp.Body.Close()
	}
	if err == nil {
		err = errors.New("request failed")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || attempts <= 1 {
		return nil, err
	}
	return nil, fmt.Errorf("giving up after %d attempts: %w", attempts, err)
}

// backoff is the retryablehttp.Backoff policy: on 429 wait for the window to
// reset (RateLimit-Reset, then Retry-After), otherwise back off exponentially
// from min. Every wait is capped at max.
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

package buildkite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// gateTransport is the RoundTripper beneath go-retryablehttp: every attempt, first tries and retries alike,
// waits at the rate-limit gate, is counted in its call's tally, is bounded by the attempt timeout and has
// its response read whole, so that the timeout also bounds the body and nothing the library drains or
// discards is lost to the error message or the log.
//
// It has no CloseIdleConnections on purpose: go-retryablehttp calls http.Client.CloseIdleConnections
// whenever it gives up on a call, which would close the pooled connections every other call is about to
// reuse (the base transport is usually the one sharedTransport gives every client of the process).
type gateTransport struct {
	base   http.RoundTripper
	client *Client
}

var _ http.RoundTripper = (*gateTransport)(nil)

// RoundTrip implements http.RoundTripper. The attempt timeout starts after the gate, so a wait for the
// rate-limit window never uses it up.
func (t *gateTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	c := t.client
	gate := c.gateFor(ctx)
	cost, guessed, document := c.costOf(ctx)
	if err := gate.acquireCost(ctx, cost, guessed); err != nil {
		// RoundTrip must close the body even when it does not send it.
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	if n := tallyFrom(ctx); n != nil {
		n.n.Add(1)
	}
	actx, cancel := context.WithTimeoutCause(ctx, c.attemptTimeout, errAttemptTimeout)
	defer cancel()
	resp, err := t.base.RoundTrip(req.WithContext(actx))
	if err != nil {
		gate.releaseCost(window{}, !neverConnected(err), cost)
		return nil, t.attemptError(ctx, actx, err)
	}
	c.answered.Store(true)
	w := c.window(resp)
	gate.releaseCost(w, false, cost)
	if document != "" {
		c.graphCosts.learn(document, w)
	}

	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading %d response: %w", resp.StatusCode, t.attemptError(ctx, actx, err))
	}
	resp.Body = &answerBody{Reader: bytes.NewReader(data), data: data}
	return resp, nil
}

// attemptError names an attempt that ran out of its own time while the call still had some.
func (t *gateTransport) attemptError(ctx, actx context.Context, err error) error {
	if ctx.Err() == nil && errors.Is(context.Cause(actx), errAttemptTimeout) {
		return fmt.Errorf("%w (%s)", errAttemptTimeout, t.client.attemptTimeout)
	}
	return err
}

// answerBody is a response body read whole by the transport; its bytes stay readable by the request path
// after go-retryablehttp has drained the body.
type answerBody struct {
	*bytes.Reader
	data []byte
}

// Close implements io.Closer; the bytes stay.
func (*answerBody) Close() error { return nil }

// bodyOf returns the bytes of a response read by gateTransport, or nil.
func bodyOf(resp *http.Response) []byte {
	if resp == nil {
		return nil
	}
	if b, ok := resp.Body.(*answerBody); ok {
		return b.data
	}
	return nil
}

// gateFor returns the rate-limit gate of the call ctx belongs to: the GraphQL endpoint's window counts
// complexity points apart from the REST window, so its calls wait at a gate of their own.
func (c *Client) gateFor(ctx context.Context) *rateGate {
	if ex := exchangeFrom(ctx); ex != nil && ex.r.graphQL != "" {
		return c.graphGate
	}
	return c.gate
}

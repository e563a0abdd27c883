package buildkite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// The request path. Every call goes through send and do to go-retryablehttp, whose client makes the
// attempts; this file holds what the library calls back:
//
//   - CheckRetry (checkRetry) applies judge's verdicts, stops when the next wait would pass the call's
//     deadline, and retries a bounded number of 2xx answers that do not hold what the call needs;
//   - Backoff (Client.backoff) reads RateLimit-Reset, then Retry-After, then backs off exponentially;
//   - the response handler (exchange.decode) checks and decodes a 2xx answer into the call's out;
//   - RequestLogHook and ResponseLogHook feed the Logger, one line per attempt;
//   - ErrorHandler passes the last answer through, so that outcome turns it into the call's error.
//
// Beneath the library, gateTransport paces every attempt and reads its answer whole.

// send is the one request path of every service: it builds the URL on the REST or the agent origin, and
// sends the call through do.
func (c *Client) send(ctx context.Context, r call) (http.Header, error) {
	origin := c.baseURL
	if r.agentToken != "" {
		origin = c.agentURL
	}
	u, err := endpoint(origin, r.path, r.query)
	if err != nil {
		return nil, err
	}
	h, err := c.do(ctx, r, u)
	c.noteWrite(r)
	return h, err
}

// do sends one call to u: it encodes the body as JSON, authenticates, retries and paces, turns any non-2xx
// status into an *Error and decodes a 2xx body into r.out. The response headers are returned for callers
// that need them (pagination).
//
// The call ends by its context's deadline, or CallTimeout when it has none; each attempt ends by
// AttemptTimeout. Failures are retried as judge says, until the deadline or MaxRetries.
func (c *Client) do(ctx context.Context, r call, u *url.URL) (http.Header, error) {
	if err := c.contacted(ctx, r); err != nil {
		return nil, err
	}
	ex := &exchange{c: c, r: r, method: r.method, path: u.EscapedPath(), tally: &tally{start: time.Now()}}
	if r.graphQL != "" {
		ex.path += " " + r.graphQL // every GraphQL call has the same path: the operation says which it is
	}
	var body any // nil, not an empty []byte: a request without a body must not send one
	var raw []byte
	if r.in != nil {
		b, err := json.Marshal(r.in)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encoding request: %w", ex.method, ex.path, err)
		}
		body, raw = b, b
	}

	ctx, cancel := c.callContext(ctx)
	defer cancel()
	ctx = context.WithValue(ctx, tallyKey{}, ex.tally)
	ctx = context.WithValue(ctx, exchangeKey{}, ex)
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", ex.method, ex.path, err)
	}
	c.authenticate(req.Request, r, raw != nil)
	req.SetResponseHandler(ex.decode)

	c.logRequestBody(ctx, ex.method, ex.path, raw)
	resp, err := c.retry.Do(req)
	return ex.outcome(ctx, resp, err)
}

// authenticate sets the headers of every attempt: the API token (or an agent token for the agent API),
// what we accept and send, and who we are.
func (c *Client) authenticate(req *http.Request, r call, hasBody bool) {
	if r.agentToken != "" {
		req.Header.Set("Authorization", "Token "+r.agentToken)
	} else {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if hasBody {
		req.Header.Set("Content-Type", "application/json")
	}
}

// callContext gives ctx the call deadline, CallTimeout, unless it has one.
func (c *Client) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.callTimeout)
}

// exchange is one call on its way through go-retryablehttp: what the library's callbacks, which all run on
// the goroutine of the call, learn of its attempts.
type exchange struct {
	c            *Client
	r            call
	method, path string
	tally        *tally

	retries      int           // the current attempt's retry number, 0 for the first
	began        time.Time     // when the current attempt began
	last         attemptResult // the last attempt's answer, or its failure
	verdict      verdict       // judge's word on the last attempt
	badAnswers   int           // 2xx answers that did not hold what the call needs
	pastDeadline bool          // retrying stopped because the next wait would pass the deadline
}

type exchangeKey struct{}

// exchangeFrom returns the exchange of the call a request belongs to, or nil for one sent by someone else.
func exchangeFrom(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// attemptResult is one attempt's answer: a status, headers and body, or a transport error.
type attemptResult struct {
	status int
	header http.Header
	data   []byte
	err    error
}

// result reads what an attempt got: the answer read whole by gateTransport, or the error without the
// *url.Error around it.
func result(resp *http.Response, err error) attemptResult {
	res := attemptResult{err: unwrapURLError(err)}
	if resp != nil {
		res.status, res.header, res.data = resp.StatusCode, resp.Header, bodyOf(resp)
	}
	return res
}

// requestLogHook is go-retryablehttp's RequestLogHook: an attempt begins.
func (c *Client) requestLogHook(_ retryablehttp.Logger, req *http.Request, retries int) {
	if ex := exchangeFrom(req.Context()); ex != nil {
		ex.retries, ex.began = retries, time.Now()
	}
}

// responseLogHook is go-retryablehttp's ResponseLogHook: an attempt got an answer the call can use or
// retry. Attempts that end in an error are logged by checkRetry, which alone sees them.
func (c *Client) responseLogHook(_ retryablehttp.Logger, resp *http.Response) {
	ctx := resp.Request.Context()
	if ex := exchangeFrom(ctx); ex != nil {
		c.logAttempt(ctx, ex.method, ex.path, ex.tally.n.Load(), time.Since(ex.began), result(resp, nil))
	}
}

// checkRetry is go-retryablehttp's CheckRetry. It is called after every attempt, and once more when the
// response handler refused a 2xx answer.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	ex := exchangeFrom(ctx)
	if ex == nil {
		return false, nil
	}
	ex.last = result(resp, err)
	if err != nil {
		c.logAttempt(ctx, ex.method, ex.path, ex.tally.n.Load(), time.Since(ex.began), ex.last)
	}
	if err != nil && ctx.Err() != nil {
		return false, nil // the deadline or the caller ended the call in the middle of this attempt
	}
	ex.verdict = ex.judge(ctx)
	if ex.verdict != retry {
		return false, nil
	}
	wait := c.backoff(c.retryWaitMin, c.retryWaitMax, ex.retries, resp)
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		ex.pastDeadline = true // waiting would only run into the deadline: say what the last attempt got now
		return false, nil
	}
	return true, nil
}

// judge is the verdict on the last attempt: judge's, for a call that may be a first contact, and for a
// 2xx answer that did not hold what the call needs (the call's effect is not in hand: a repeatable call
// is sent again, a bounded number of times, and a create's outcome is unknown).
func (ex *exchange) judge(ctx context.Context) verdict {
	var busy *busyError
	if errors.As(ex.last.err, &busy) {
		return retry // a throttle answered before the service acted: even a create may go again
	}
	var bad *badAnswerError
	if errors.As(ex.last.err, &bad) {
		ex.badAnswers++
		switch {
		case !ex.r.repeatable:
			return unknown
		case ex.badAnswers > maxBadAnswers:
			return done
		}
		return retry
	}
	v := judge(ex.r.repeatable, ex.last.status, ex.last.err)
	if v == retry && ex.last.err != nil && neverConnected(ex.last.err) && ex.c.firstContact(ctx) {
		return permanent
	}
	return v
}

// decode is the response handler of every call: a 2xx answer must hold what the call needs, and is
// decoded into its out. Other answers become the call's *Error in outcome.
func (ex *exchange) decode(resp *http.Response) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	if err := hold(ex.r, resp.StatusCode, bodyOf(resp), ex.c.secrets()...); err != nil {
		return err
	}
	return decodeGraphQL(ex.r)
}

// outcome turns what go-retryablehttp returned, and what its callbacks recorded, into the call's result.
func (ex *exchange) outcome(ctx context.Context, resp *http.Response, err error) (http.Header, error) {
	last := ex.last
	if err != nil && ctx.Err() != nil {
		// The context ended during an attempt or a wait between two.
		return nil, ex.c.ended(ctx, ex.method, ex.path, ex.tally, last)
	}
	switch ex.verdict {
	case permanent:
		return nil, fmt.Errorf("%s %s: %w", ex.method, ex.path, last.err)
	case unknown:
		return last.header, &unknownOutcomeError{err: ex.final()}
	case retry: // retries used up (MaxRetries), or the deadline too close for another
		if ex.pastDeadline {
			return last.header, fmt.Errorf("%w; the next retry would pass the deadline: %w", ex.final(), context.DeadlineExceeded)
		}
		return last.header, ex.final()
	}
	if err != nil || last.err != nil || last.status < 200 || last.status > 299 {
		return last.header, ex.final()
	}
	return resp.Header, nil
}

// final turns the last attempt into the call's error: the service's answer as an *Error, or the transport
// error, saying how many attempts were made when there was more than one.
func (ex *exchange) final() error {
	var err error
	if ex.last.err != nil {
		err = fmt.Errorf("%s %s: %w", ex.method, Shorten(ex.path), ex.last.err)
	} else {
		err = newError(ex.method, ex.path, ex.last.status, ex.last.data, ex.c.secrets()...)
	}
	if ex.tally.n.Load() > 1 {
		return fmt.Errorf("%w (after %s)", err, ex.tally.summary())
	}
	return err
}

// ended is the error of a call whose context ended: "GET /x: no answer after 4 attempts over 30s: context
// deadline exceeded", with what the last answer was when there was one.
func (c *Client) ended(ctx context.Context, method, path string, t *tally, last attemptResult) error {
	cause := context.Cause(ctx)
	path = Shorten(path)
	if last.err == nil && last.status != 0 {
		return fmt.Errorf("%s %s: no success after %s (last answer %d): %w", method, path, t.summary(), last.status, cause)
	}
	return fmt.Errorf("%s %s: no answer after %s: %w", method, path, t.summary(), cause)
}

// unwrapURLError drops the *url.Error around a transport error: its text repeats the method and full URL,
// which the call's own error already names by path.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

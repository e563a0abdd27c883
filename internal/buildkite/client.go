// Package buildkite is a small REST client for the parts of the Buildkite API
// the Terraform provider manages. Every call goes through one request path
// (Client.do) so authentication, retries, rate limiting and error decoding
// behave the same for every service.
package buildkite

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	// DefaultBaseURL is the REST origin used when Config.BaseURL is empty.
	DefaultBaseURL = "https://api.buildkite.com"
	// DefaultAgentURL is the agent API origin used when Config.AgentURL is empty.
	DefaultAgentURL = "https://agent.buildkite.com"
	// DefaultUserAgent is sent when Config.UserAgent is empty, so the service
	// can still tell our traffic apart from other clients.
	DefaultUserAgent = "terraform-provider-buildkite"
	// DefaultAttemptTimeout bounds one attempt when Config.AttemptTimeout is 0.
	DefaultAttemptTimeout = 60 * time.Second
	// DefaultListReadTTL is the Config.ListReadTTL for a client that lives as long as one Terraform command:
	// longer than a refresh, short enough that a listing never outlives the run by much.
	DefaultListReadTTL = 5 * time.Minute
	// DefaultCallTimeout bounds a call whose context has no deadline when Config.CallTimeout is 0; it matches
	// the default of the provider's timeouts block.
	DefaultCallTimeout = 3 * time.Minute

	defaultRetryWaitMin = time.Second
	defaultRetryWaitMax = 60 * time.Second

	// maxResponseBytes bounds how much of a response we buffer, so a broken
	// proxy streaming garbage cannot exhaust memory.
	maxResponseBytes = 32 << 20
)

// Config holds everything NewClient needs; zero values select the defaults.
type Config struct {
	BaseURL      string // REST origin, default "https://api.buildkite.com" (no trailing /v2)
	AgentURL     string // agent origin, default "https://agent.buildkite.com"
	Organization string // org slug
	Token        string // bearer token
	UserAgent    string // sent on every request; DefaultUserAgent when empty
	// MaxRetries caps the retries of one call. 0 (the default) retries until the call's deadline, which is
	// what keeps a plan alive through a burst of faults; a positive value stops after that many retries even
	// with time left; a negative value disables retries.
	MaxRetries   int
	RetryWaitMin time.Duration // first backoff, doubled per retry; default 1s (tests set small values)
	RetryWaitMax time.Duration // cap for any single wait, default 60s
	// AttemptTimeout bounds one attempt, from sending to the end of the response body; default 60s. Time
	// spent waiting for the rate-limit window does not count against it.
	AttemptTimeout time.Duration
	// CallTimeout bounds a whole call (every attempt and wait) when its context has no deadline; default 3
	// minutes. A context deadline, such as one from the provider's timeouts block, takes precedence.
	CallTimeout time.Duration
	// ListReadTTL, when positive, lets a read of one object be answered from a listing of its collection
	// fetched within that long, when that costs fewer calls: at most 2·min(R,P)+1 per collection for R
	// objects read and P pages. 0 (the default) reads each object with its own GET, which a long-lived
	// client whose reads must see others' changes at once (a test's checks) needs. The provider sets
	// DefaultListReadTTL on the client of each Terraform command.
	ListReadTTL time.Duration
	HTTPClient  *http.Client // optional base client; copied, never modified
	Logger      Logger       // optional; nil logs nothing
}

// Client talks to the REST API on behalf of one organization. It is safe for
// concurrent use; all goroutines share one rate-limit gate.
type Client struct {
	// Clusters manages clusters.
	Clusters *ClustersService
	// Queues manages cluster queues, including pausing and resuming dispatch.
	Queues *QueuesService
	// ClusterTokens manages cluster agent tokens.
	ClusterTokens *ClusterTokensService

	AccessToken       *AccessTokenService
	Organizations     *OrganizationsService
	Teams             *TeamsService
	TeamMembers       *TeamMembersService
	TeamPipelines     *TeamPipelinesService
	TeamSuites        *TeamSuitesService
	Pipelines         *PipelinesService
	PipelineTemplates *PipelineTemplatesService
	Rules             *RulesService
	Builds            *BuildsService
	TestSuites        *TestSuitesService
	FlakyTests        *FlakyTestsService
	Registries        *RegistriesService
	RegistryTokens    *RegistryTokensService
	Metrics           *MetricsService

	// The services of rest-beyond-spec.md.
	PipelineSchedules  *PipelineSchedulesService
	ClusterSecrets     *ClusterSecretsService
	ClusterMaintainers *ClusterMaintainersService
	Meta               *MetaService

	baseURL   *url.URL // origin plus optional path prefix, no trailing slash
	agentURL  *url.URL
	org       string
	token     string
	userAgent string

	http    *http.Client
	gate    *rateGate
	log     Logger
	lists   collections // what readItem knows of each collection's listing
	listTTL time.Duration

	maxRetries     int // < 0: none; 0: until the deadline
	retryWaitMin   time.Duration
	retryWaitMax   time.Duration
	attemptTimeout time.Duration
	callTimeout    time.Duration

	// resetUnit is the length of one "second" in RateLimit-Reset and
	// Retry-After; only tests change it, to keep rate-limit tests fast.
	resetUnit time.Duration
}

// NewClient validates cfg, fills in defaults and builds a Client.
func NewClient(cfg Config) (*Client, error) {
	return newClient(cfg, time.Second)
}

func newClient(cfg Config, resetUnit time.Duration) (*Client, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("buildkite: an API token is required")
	}
	if strings.TrimSpace(cfg.Organization) == "" {
		return nil, errors.New("buildkite: an organization slug is required")
	}
	base, err := parseOrigin("BaseURL", cfg.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	// People often paste the versioned URL; the paths we build add /v2 themselves.
	base.Path = strings.TrimSuffix(base.Path, "/v2")
	base.RawPath = ""
	agent, err := parseOrigin("AgentURL", cfg.AgentURL, DefaultAgentURL)
	if err != nil {
		return nil, err
	}

	c := &Client{
		baseURL:        base,
		agentURL:       agent,
		org:            cfg.Organization,
		token:          cfg.Token,
		userAgent:      cmp.Or(cfg.UserAgent, DefaultUserAgent),
		gate:           &rateGate{},
		log:            cfg.Logger,
		maxRetries:     cfg.MaxRetries,
		retryWaitMin:   positiveOr(cfg.RetryWaitMin, defaultRetryWaitMin),
		retryWaitMax:   positiveOr(cfg.RetryWaitMax, defaultRetryWaitMax),
		attemptTimeout: positiveOr(cfg.AttemptTimeout, DefaultAttemptTimeout),
		callTimeout:    positiveOr(cfg.CallTimeout, DefaultCallTimeout),
		listTTL:        max(cfg.ListReadTTL, 0),
		resetUnit:      resetUnit,
	}
	c.retryWaitMax = max(c.retryWaitMax, c.retryWaitMin)

	// Copy the caller's client so wrapping its transport cannot affect them.
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	base2 := hc.Transport
	if base2 == nil {
		base2 = http.DefaultTransport
	}
	hc.Transport = &gateTransport{base: base2, client: c}
	c.http = &hc

	c.services()
	return c, nil
}

// positiveOr returns d, or def when d is not positive.
func positiveOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// parseOrigin accepts an http(s) URL and drops a trailing slash so paths can
// be appended verbatim.
func parseOrigin(name, raw, def string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		raw = def
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("buildkite: invalid %s %q: %w", name, raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("buildkite: invalid %s %q: want an absolute http or https URL", name, raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("buildkite: invalid %s %q: must not carry a query or fragment", name, raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// Organization returns the organization slug every path is built with.
func (c *Client) Organization() string { return c.org }

// BaseURL returns the REST origin the client talks to.
func (c *Client) BaseURL() string { return c.baseURL.String() }

// AgentURL returns the agent API origin (used by the metrics endpoint).
func (c *Client) AgentURL() string { return c.agentURL.String() }

// ErrInvalidID is returned, wrapped, when an ID passed to a service method is
// empty or would change the meaning of the path ("." or "..").
var ErrInvalidID = errors.New("buildkite: invalid ID")

// endpoint joins an already-escaped path and a query onto an origin.
func endpoint(origin *url.URL, path string, query url.Values) (*url.URL, error) {
	u, err := url.Parse(origin.String() + path)
	if err != nil {
		return nil, fmt.Errorf("buildkite: building URL for %q: %w", path, err)
	}
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	return u, nil
}

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
// status into an *Error and decodes a non-empty 2xx body into r.out. The response headers are returned for
// callers that need them (pagination).
//
// The call ends by its context's deadline, or CallTimeout when it has none; each attempt ends by
// AttemptTimeout. Failures are retried as judge says, until the deadline or MaxRetries.
func (c *Client) do(ctx context.Context, r call, u *url.URL) (http.Header, error) {
	method, path := r.method, u.EscapedPath()

	var body []byte
	if r.in != nil {
		b, err := json.Marshal(r.in)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encoding request: %w", method, path, err)
		}
		body = b
	}

	ctx, cancel := c.callContext(ctx)
	defer cancel()
	t := &tally{start: time.Now()}
	ctx = context.WithValue(ctx, tallyKey{}, t)

	c.logRequestBody(ctx, method, path, body)
	for retries := 0; ; retries++ {
		began := time.Now()
		res := c.attempt(ctx, r, u, body)
		c.logAttempt(ctx, method, path, t.n.Load(), time.Since(began), res)
		if res.err != nil && ctx.Err() != nil {
			// The deadline or the caller ended the call in the middle of this attempt.
			return nil, c.ended(ctx, method, path, t, res)
		}
		v := judge(r.repeatable, res.status, res.err)
		switch v {
		case done:
			return res.header, c.result(r, method, path, res, t)
		case permanent:
			return nil, fmt.Errorf("%s %s: %w", method, path, res.err)
		case unknown:
			return res.header, &unknownOutcomeError{err: c.final(method, path, res, t)}
		}
		if c.maxRetries < 0 || (c.maxRetries > 0 && retries >= c.maxRetries) {
			return res.header, c.final(method, path, res, t)
		}
		wait := c.backoff(c.retryWaitMin, c.retryWaitMax, retries, res.response())
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			// Waiting would only run into the deadline: say what the last attempt got now.
			return res.header, fmt.Errorf("%w; the next retry would pass the deadline: %w", c.final(method, path, res, t), context.DeadlineExceeded)
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, c.ended(ctx, method, path, t, res)
		}
	}
}

// callContext gives ctx the call deadline, CallTimeout, unless it has one.
func (c *Client) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.callTimeout)
}

// pause waits before retry number tries (0 for the first) of something that is not a single call, such as
// a create repeated after an unknown outcome, and tells when MaxRetries or the deadline forbid it.
func (c *Client) pause(ctx context.Context, tries int) error {
	if c.maxRetries < 0 || (c.maxRetries > 0 && tries >= c.maxRetries) {
		return errors.New("retries used up")
	}
	return sleep(ctx, exponential(c.retryWaitMin, c.retryWaitMax, tries))
}

// result is what a call returns after the attempt judge found final: an *Error for a non-2xx, or the body
// decoded into r.out.
func (c *Client) result(r call, method, path string, res attemptResult, t *tally) error {
	if res.err != nil {
		return c.final(method, path, res, t)
	}
	if res.status < 200 || res.status > 299 {
		return c.final(method, path, res, t)
	}
	if r.out != nil && len(bytes.TrimSpace(res.data)) > 0 {
		if err := json.Unmarshal(res.data, r.out); err != nil {
			return fmt.Errorf("%s %s: decoding %d response: %w", method, path, res.status, err)
		}
	}
	return nil
}

// final turns the last attempt into the call's error: the service's answer as an *Error, or the transport
// error, saying how many attempts were made when there was more than one.
func (c *Client) final(method, path string, res attemptResult, t *tally) error {
	var err error
	if res.err != nil {
		err = fmt.Errorf("%s %s: %w", method, path, res.err)
	} else {
		err = newError(method, path, res.status, res.data)
	}
	if t.n.Load() > 1 {
		return fmt.Errorf("%w (after %s)", err, t.summary())
	}
	return err
}

// ended is the error of a call whose context ended: "GET /x: no answer after 4 attempts over 30s: context
// deadline exceeded", with what the last answer was when there was one.
func (c *Client) ended(ctx context.Context, method, path string, t *tally, last attemptResult) error {
	cause := context.Cause(ctx)
	if last.err == nil && last.status != 0 {
		return fmt.Errorf("%s %s: no success after %s (last answer %d): %w", method, path, t.summary(), last.status, cause)
	}
	return fmt.Errorf("%s %s: no answer after %s: %w", method, path, t.summary(), cause)
}

// attemptResult is one attempt's answer: a status, headers and body, or a transport error.
type attemptResult struct {
	status int
	header http.Header
	data   []byte
	err    error
}

// response rebuilds the parts of an *http.Response that backoff reads.
func (a attemptResult) response() *http.Response {
	if a.err != nil || a.status == 0 {
		return nil
	}
	return &http.Response{StatusCode: a.status, Header: a.header}
}

// attempt sends the call once and reads the whole response, so that the attempt's timeout also bounds the
// body and the connection is free for the next call.
func (c *Client) attempt(ctx context.Context, r call, u *url.URL, body []byte) attemptResult {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), rd)
	if err != nil {
		return attemptResult{err: err}
	}
	if r.agentToken != "" {
		req.Header.Set("Authorization", "Token "+r.agentToken)
	} else {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := c.http.Do(req)
	if err != nil {
		return attemptResult{err: unwrapURLError(err)}
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return attemptResult{status: resp.StatusCode, header: resp.Header,
			err: fmt.Errorf("reading %d response: %w", resp.StatusCode, err)}
	}
	return attemptResult{status: resp.StatusCode, header: resp.Header, data: data}
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

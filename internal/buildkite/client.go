// Package buildkite is a small REST client for the parts of the Buildkite API
// the Terraform provider manages. Every call goes through one request path
// (Client.do) so authentication, retries, rate limiting and error decoding
// behave the same for every service.
package buildkite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

const (
	// DefaultBaseURL is the REST origin used when Config.BaseURL is empty.
	DefaultBaseURL = "https://api.buildkite.com"
	// DefaultAgentURL is the agent API origin used when Config.AgentURL is empty.
	DefaultAgentURL = "https://agent.buildkite.com"
	// DefaultUserAgent is sent when Config.UserAgent is empty, so the service
	// can still tell our traffic apart from other clients.
	DefaultUserAgent = "terraform-provider-buildkite"

	defaultMaxRetries   = 5
	defaultRetryWaitMin = time.Second
	defaultRetryWaitMax = 60 * time.Second

	// maxResponseBytes bounds how much of a response we buffer, so a broken
	// proxy streaming garbage cannot exhaust memory.
	maxResponseBytes = 32 << 20
)

// LeveledLogger receives the retry layer's diagnostics. Its method set matches
// retryablehttp.LeveledLogger, so any adapter written for that works here.
type LeveledLogger interface {
	Error(msg string, keysAndValues ...any)
	Info(msg string, keysAndValues ...any)
	Debug(msg string, keysAndValues ...any)
	Warn(msg string, keysAndValues ...any)
}

// Config holds everything NewClient needs; zero values select the defaults.
type Config struct {
	BaseURL      string        // REST origin, default "https://api.buildkite.com" (no trailing /v2)
	AgentURL     string        // agent origin, default "https://agent.buildkite.com"
	Organization string        // org slug
	Token        string        // bearer token
	UserAgent    string        // sent on every request; DefaultUserAgent when empty
	MaxRetries   int           // default 5 when 0; negative means no retries
	RetryWaitMin time.Duration // default 1s (tests set small values)
	RetryWaitMax time.Duration // cap for any single wait, default 60s
	HTTPClient   *http.Client  // optional base client; copied, never modified
	Logger       LeveledLogger // optional; nil keeps the retry layer silent
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

	baseURL   *url.URL // origin plus optional path prefix, no trailing slash
	agentURL  *url.URL
	org       string
	token     string
	userAgent string

	http *retryablehttp.Client
	gate *rateGate

	// resetUnit is the length of one "second" in RateLimit-Reset and
	// Retry-After; only tests change it, to keep rate-limit tests fast.
	resetUnit    time.Duration
	retryWaitMax time.Duration
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
		baseURL:      base,
		agentURL:     agent,
		org:          cfg.Organization,
		token:        cfg.Token,
		userAgent:    cfg.UserAgent,
		gate:         &rateGate{},
		resetUnit:    resetUnit,
		retryWaitMax: cfg.RetryWaitMax,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}

	waitMin := cfg.RetryWaitMin
	if waitMin <= 0 {
		waitMin = defaultRetryWaitMin
	}
	if c.retryWaitMax <= 0 {
		c.retryWaitMax = defaultRetryWaitMax
	}
	if c.retryWaitMax < waitMin {
		c.retryWaitMax = waitMin
	}
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = defaultMaxRetries
	case retries < 0:
		retries = 0
	}

	// Copy the caller's client so wrapping its transport cannot affect them.
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	} else if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		// A hung server must not hang Terraform; the gate waits happen before
		// this timer starts, so it only bounds the service's own latency.
		t.ResponseHeaderTimeout = 2 * time.Minute
		hc.Transport = t
	}
	base2 := hc.Transport
	if base2 == nil {
		base2 = http.DefaultTransport
	}
	hc.Transport = &gateTransport{base: base2, client: c}

	rc := &retryablehttp.Client{
		HTTPClient:   &hc,
		RetryWaitMin: waitMin,
		RetryWaitMax: c.retryWaitMax,
		RetryMax:     retries,
		CheckRetry:   checkRetry,
		Backoff:      c.backoff,
		ErrorHandler: giveUp,
	}
	if cfg.Logger != nil {
		rc.Logger = cfg.Logger
	}
	c.http = rc

	c.services()
	return c, nil
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
	return c.do(ctx, r, u)
}

// do sends one call to u: it encodes the body as JSON, authenticates, retries and paces, turns any non-2xx
// status into an *Error and decodes a non-empty 2xx body into r.out. The response headers are returned for
// callers that need them (pagination).
func (c *Client) do(ctx context.Context, r call, u *url.URL) (http.Header, error) {
	method, path := r.method, u.EscapedPath()

	// A []byte body lets retryablehttp replay it on every attempt.
	var rawBody any
	if r.in != nil {
		b, err := json.Marshal(r.in)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encoding request: %w", method, path, err)
		}
		rawBody = b
	}

	ctx = context.WithValue(ctx, repeatableKey{}, r.repeatable)
	req, err := retryablehttp.NewRequestWithContext(ctx, method, u.String(), rawBody)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if r.agentToken != "" {
		req.Header.Set("Authorization", "Token "+r.agentToken)
	} else {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if rawBody != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()

	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return resp.Header, fmt.Errorf("%s %s: reading %d response: %w", method, path, resp.StatusCode, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.Header, newError(method, path, resp.StatusCode, data)
	}
	if r.out != nil && len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, r.out); err != nil {
			return resp.Header, fmt.Errorf("%s %s: decoding %d response: %w", method, path, resp.StatusCode, err)
		}
	}
	return resp.Header, nil
}

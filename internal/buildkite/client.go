// Package buildkite is the client of the Buildkite APIs the Terraform provider manages: REST API v2 for
// almost everything, GraphQL (a few typed documents) where only GraphQL serves, and the agent API's
// metrics. It knows nothing of Terraform. Every call goes through one request path (Client.do, on
// go-retryablehttp) so authentication, retries, pacing, redirects and error decoding behave the same for
// every service; DESIGN.md at the repository's root explains it.
package buildkite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
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
	BaseURL  string // REST origin, default "https://api.buildkite.com" (no trailing /v2)
	AgentURL string // agent origin, default "https://agent.buildkite.com"
	// GraphQLURL is the GraphQL endpoint, e.g. DefaultGraphQLURL. Empty: the client has none, and every
	// GraphQL operation fails with ErrNoGraphQLURL without sending anything (the token goes nowhere else).
	GraphQLURL   string
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
	// HTTPClient is an optional base client; it is copied, never modified. Its CheckRedirect is replaced:
	// the client follows redirects only within its origin, and only for reads.
	HTTPClient *http.Client
	Logger     Logger // optional; nil logs nothing
	// Contact, when set, is checked once just before the client's first request (contact.go): a plan that
	// needs no request never reaches the service.
	Contact func(ctx context.Context) error
}

// Client talks to the REST API on behalf of one organization. It is safe for concurrent use; all
// goroutines share one rate-limit gate.
type Client struct {
	Clusters          *ClustersService          // clusters
	Queues            *QueuesService            // cluster queues, and pausing their dispatch
	ClusterTokens     *ClusterTokensService     // cluster agent tokens
	AccessToken       *AccessTokenService       // the token the client authenticates with
	Organizations     *OrganizationsService     // the organization and its members
	Teams             *TeamsService             // teams
	TeamMembers       *TeamMembersService       // the members of teams
	TeamPipelines     *TeamPipelinesService     // teams' access to pipelines
	TeamSuites        *TeamSuitesService        // teams' access to test suites
	TeamRegistries    *TeamRegistriesService    // teams' access to package registries (GraphQL)
	Pipelines         *PipelinesService         // pipelines, archiving, a pipeline's default team
	PipelineTemplates *PipelineTemplatesService // pipeline templates
	Rules             *RulesService             // organization rules
	Builds            *BuildsService            // builds
	TestSuites        *TestSuitesService        // analytics test suites
	FlakyTests        *FlakyTestsService        // the flaky tests of suites
	Registries        *RegistriesService        // package registries
	RegistryTokens    *RegistryTokensService    // the tokens of package registries
	Metrics           *MetricsService           // agent metrics, from the agent API

	PipelineSchedules  *PipelineSchedulesService  // pipelines' build schedules
	ClusterSecrets     *ClusterSecretsService     // clusters' secrets (values are write-only)
	ClusterMaintainers *ClusterMaintainersService // the users and teams that maintain clusters
	Meta               *MetaService               // facts about the service itself (webhook addresses)

	OrgSettings   *OrgSettingsService   // the organization's API settings and banner
	NetworkRanges *NetworkRangesService // the egress networks of clusters' hosted agents

	Portals              *PortalsService              // portals: saved GraphQL queries with a token of their own
	NotificationServices *NotificationServicesService // webhooks, EventBridge, Datadog, OpenTelemetry
	PipelineSettings     *PipelineSettingsService     // the organization's pipeline settings
	CacheRegistries      *CacheRegistriesService      // clusters' cache registries
	Invitations          *InvitationsService          // invitations to join the organization
	AgentTokens          *AgentTokensService          // unclustered agent tokens (GraphQL)

	baseURL  *url.URL // origin plus optional path prefix, no trailing slash
	agentURL *url.URL
	// graphqlURL is the GraphQL endpoint (the whole URL, path included), or nil for none.
	graphqlURL *url.URL
	org        string
	token      string
	userAgent  string
	masks      masker // values never shown in a log or an error (MaskValues)

	retry *retryablehttp.Client // makes the attempts of every call (see do.go)
	gate  *rateGate
	// orgID caches the organization's GraphQL ID (organizationID).
	orgIDMu sync.Mutex
	orgID   string
	// graphGate paces the calls to the GraphQL endpoint, whose window is its own (graphql.go).
	graphGate *rateGate
	// graphCosts is what each GraphQL document costs at graphGate (pacing.go).
	graphCosts graphQLCosts
	answered   atomic.Bool  // the service has answered at least once (see FirstContact)
	contact    contactState // the first-contact check (Config.Contact)
	log        Logger
	lists      collections // what readItem knows of each collection's listing
	looks      looksCache  // what reads of pipelines' looks know of the GraphQL listing (pipeline_looks.go)
	listTTL    time.Duration

	// creates is what this Client's creates returned, to tell what a lost one made (adopt.go).
	creates createLedger

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

	var graphql *url.URL
	if strings.TrimSpace(cfg.GraphQLURL) != "" {
		if graphql, err = parseOrigin("GraphQLURL", cfg.GraphQLURL, ""); err != nil {
			return nil, err
		}
	}

	c := &Client{
		graphqlURL:     graphql,
		graphGate:      &rateGate{},
		baseURL:        base,
		agentURL:       agent,
		org:            cfg.Organization,
		token:          cfg.Token,
		userAgent:      cmp.Or(cfg.UserAgent, DefaultUserAgent),
		gate:           &rateGate{},
		log:            cfg.Logger,
		contact:        contactState{check: cfg.Contact},
		maxRetries:     cfg.MaxRetries,
		retryWaitMin:   positiveOr(cfg.RetryWaitMin, defaultRetryWaitMin),
		retryWaitMax:   positiveOr(cfg.RetryWaitMax, defaultRetryWaitMax),
		attemptTimeout: positiveOr(cfg.AttemptTimeout, DefaultAttemptTimeout),
		callTimeout:    positiveOr(cfg.CallTimeout, DefaultCallTimeout),
		listTTL:        max(cfg.ListReadTTL, 0),
		resetUnit:      resetUnit,
	}
	c.retryWaitMax = max(c.retryWaitMax, c.retryWaitMin)
	c.retry = c.retryClient(cfg.HTTPClient)
	c.services()
	return c, nil
}

// retryClient builds the go-retryablehttp client every call goes through, on a copy of the caller's HTTP
// client (never modified) whose transport is wrapped by the rate-limit gate and whose redirects are
// checked by checkRedirect.
func (c *Client) retryClient(base *http.Client) *retryablehttp.Client {
	hc := http.Client{Transport: sharedTransport()}
	if base != nil {
		hc = *base
	}
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport // what net/http means by a nil Transport
	}
	hc.Transport = &gateTransport{base: rt, client: c}
	hc.CheckRedirect = checkRedirect

	// RetryMax is a count; "until the deadline" is a count no call reaches, and checkRetry stops at the
	// deadline.
	retryMax := c.maxRetries
	switch {
	case retryMax < 0:
		retryMax = 0
	case retryMax == 0:
		retryMax = math.MaxInt32
	}
	return &retryablehttp.Client{
		HTTPClient:      &hc,
		Logger:          nil, // the hooks log, through c.log
		RetryWaitMin:    c.retryWaitMin,
		RetryWaitMax:    c.retryWaitMax,
		RetryMax:        retryMax,
		CheckRetry:      c.checkRetry,
		Backoff:         c.backoff,
		ErrorHandler:    retryablehttp.PassthroughErrorHandler,
		RequestLogHook:  c.requestLogHook,
		ResponseLogHook: c.responseLogHook,
	}
}

// idleConnsPerHost is how many idle connections to the service the shared transport keeps: more than
// Terraform's default parallelism (10) of requests at once.
const idleConnsPerHost = 32

// sharedTransport is the transport of every client built without Config.HTTPClient (a caller's client keeps
// its own): http.DefaultTransport keeps two idle connections per host, so each burst of Terraform's parallel
// operations dialed again (and, against the service, made a TLS handshake) for all but two of its requests.
// One per process, as DefaultTransport is, so that clients share their connections.
var sharedTransport = sync.OnceValue(func() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport // replaced by the program: use what it chose
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = idleConnsPerHost
	return t
})

// services wires every service to c.
func (c *Client) services() {
	c.Clusters = &ClustersService{client: c}
	c.Queues = &QueuesService{client: c}
	c.ClusterTokens = &ClusterTokensService{client: c}
	c.AccessToken = &AccessTokenService{client: c}
	c.Organizations = &OrganizationsService{client: c}
	c.Teams = &TeamsService{client: c}
	c.TeamMembers = &TeamMembersService{client: c}
	c.TeamPipelines = &TeamPipelinesService{client: c}
	c.TeamSuites = &TeamSuitesService{client: c}
	c.TeamRegistries = &TeamRegistriesService{client: c}
	c.Pipelines = &PipelinesService{client: c}
	c.PipelineTemplates = &PipelineTemplatesService{client: c}
	c.Rules = &RulesService{client: c}
	c.Builds = &BuildsService{client: c}
	c.TestSuites = &TestSuitesService{client: c}
	c.FlakyTests = &FlakyTestsService{client: c}
	c.Registries = &RegistriesService{client: c}
	c.RegistryTokens = &RegistryTokensService{client: c}
	c.Metrics = &MetricsService{client: c}
	c.PipelineSchedules = &PipelineSchedulesService{client: c}
	c.ClusterSecrets = &ClusterSecretsService{client: c}
	c.ClusterMaintainers = &ClusterMaintainersService{client: c}
	c.Meta = &MetaService{client: c}
	c.OrgSettings = &OrgSettingsService{client: c}
	c.NetworkRanges = &NetworkRangesService{client: c}
	c.Portals = &PortalsService{client: c}
	c.NotificationServices = &NotificationServicesService{client: c}
	c.PipelineSettings = &PipelineSettingsService{client: c}
	c.CacheRegistries = &CacheRegistriesService{client: c}
	c.Invitations = &InvitationsService{client: c}
	c.AgentTokens = &AgentTokensService{client: c}
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

package fakeserver

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// maxBodyBytes is the largest request body accepted; a larger one is answered 413.
const maxBodyBytes = 1 << 20

// Options configures a Server. The zero value is ready to use.
type Options struct {
	// Org is the slug of the organization the server starts with (default "acme", named "Acme").
	Org string
	// Token is an access token of the default user holding every scope for Org (default "test-token").
	Token string
	// RateLimit is the number of requests per window per token the server allows before answering 429.
	// 0 means not enforced: the RateLimit-* headers are still sent, reporting a limit of 200 with all of it
	// remaining, so a client that throttles itself on those headers never waits on the emulator.
	RateLimit int
	// RateLimitWindow is the rate-limit window (default 1 minute).
	RateLimitWindow time.Duration
	// GraphQLBudget is the complexity points each organization may spend on GraphQL per
	// GraphQLBudgetWindow before its requests are answered 429 (graphql_limits.go); the service's is
	// GraphQLServiceBudget. 0 means not enforced, as for RateLimit: GraphQL answers then report a full
	// allowance of GraphQLServiceBudget.
	GraphQLBudget int
	// GraphQLBudgetWindow is the GraphQL budget's window (default GraphQLServiceBudgetWindow, 5 minutes).
	GraphQLBudgetWindow time.Duration
	// Logf, when set, prints one line per request.
	Logf func(format string, args ...any)
	// Now is the clock for timestamps and rate-limit windows (default time.Now).
	Now func() time.Time
	// DisableTestRoutes turns off the test-only routes under /_fake/ (unauthenticated state changes such as
	// build states and flaky tests): they then answer 404 like any unknown path. In-process tests keep them
	// (the zero value); the standalone command disables them unless --test-routes is given.
	DisableTestRoutes bool
	// Faults injects errors, 429s, latency and dropped creates into API requests, REST and GraphQL, and
	// the faults it aims at single routes and operations (see Faults); the zero value injects nothing. New
	// panics, and Open fails, when an aimed fault is invalid.
	Faults Faults
	// RequestLogSize is how many of the newest requests Server.Requests keeps (default 10,000; negative
	// keeps none). Server.RequestCounts counts every request whatever the size.
	RequestLogSize int
	// Fixtures, when set, is the state the server starts with (see LoadFixtures) instead of Org, Token and
	// their default users, which are then ignored. New panics if hand-built fixtures fail Validate.
	Fixtures *Fixtures
	// StateFile, when set, is where the state lives across restarts (state.go): a server starts from the
	// state in it when it holds one, and then ignores Fixtures, Org and Token, which only seed a new state;
	// otherwise it seeds the state as usual and writes it there at once. Every change is written before
	// its request is answered. Without it the state is in memory only.
	StateFile string
	// SeedDefaults starts every organization of a new state as a new Buildkite organization starts: with a
	// cluster named "Default cluster" whose default queue is "default-queue" (fixtures_defaults.go), and the
	// default team "Everyone" holding all its members (teams.go).
	SeedDefaults bool
	// AdminToken, when set, turns on the controls under /_emulator/ (controls.go) that reset, read and
	// replace the whole state; they then need it as a bearer token. Without it they answer 404. It must
	// differ from Token. GET /_emulator/health needs no token and is always on.
	AdminToken string
	// NoCloneMirror turns off the organizations' clone-mirror feature (on by default): a pipeline's
	// clone_mirror_url is then refused unless blank, and left out of answers while unset.
	NoCloneMirror bool
	// NoExpandedWebhookTriggers leaves the organizations out of expanded webhook triggers (enrolled by
	// default): every /pipelines/{slug}/github-webhooks route then answers 404.
	NoExpandedWebhookTriggers bool
	// NoHostedAgents leaves the organizations without hosted agents: a queue with hostedAgents is then
	// refused (422) and every agent-images route answers 404 (agent_images.go).
	NoHostedAgents bool
	// AgentImageBuildTime is how long an agent image is BUILDING before it is READY or FAILED
	// (default DefaultAgentImageBuildTime, one second; negative builds at once).
	AgentImageBuildTime time.Duration
}

// Server emulates Buildkite's REST API v2. It implements http.Handler.
type Server struct {
	opts    Options
	store   *Store
	mux     *routeMux
	limiter *rateLimiter // REST requests per token
	budget  *rateLimiter // GraphQL complexity points per organization
	log     *requestLog
	faults  *faultInjector
	// resumed is true when the state came from Options.StateFile rather than being seeded.
	resumed bool
	// initial is the state the server started with, which Reset goes back to (controls.go).
	initial []byte
	// unknownRoutes are the unmodelled routes already logged with a hint (unknown_routes.go).
	unknownRoutes unknownRouteLog
	// callerAddr, when set, is the address every request is taken to come from (allowlist.go); guarded
	// by the store's lock.
	callerAddr string
}

// New returns a server holding one organization (opts.Org) and one access token (opts.Token) with every
// scope for it, or, when opts.Fixtures is set, the state the fixtures declare, or, when opts.StateFile holds
// a state, that state. It panics where Open returns an error.
func New(opts Options) *Server {
	s, err := Open(opts)
	if err != nil {
		panic("fakeserver: " + err.Error())
	}
	return s
}

// Open is New for a caller that handles failure: hand-built fixtures that fail Validate, a state file that
// cannot be read or is not one, or one that cannot be written.
func Open(opts Options) (*Server, error) {
	if opts.Org == "" {
		opts.Org = "acme"
	}
	if opts.Token == "" {
		opts.Token = "test-token"
	}
	if opts.RateLimitWindow <= 0 {
		opts.RateLimitWindow = time.Minute
	}
	if opts.GraphQLBudgetWindow <= 0 {
		opts.GraphQLBudgetWindow = GraphQLServiceBudgetWindow
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.AdminToken != "" && opts.AdminToken == opts.Token {
		return nil, errors.New("Options.AdminToken must differ from Options.Token: a client under test must not reach the controls")
	}
	if err := validateAimed(opts.Faults.Aimed); err != nil {
		return nil, fmt.Errorf("Options.Faults.Aimed: %w", err)
	}
	s := &Server{
		opts:    opts,
		store:   newStore(opts.Now),
		limiter: newRateLimiter(opts.RateLimit, opts.RateLimitWindow, opts.Now),
		budget:  newGraphQLBudget(opts.GraphQLBudget, opts.GraphQLBudgetWindow, opts.Now),
		log:     newRequestLog(opts.RequestLogSize),
		faults:  newFaultInjector(opts.Faults),
	}
	s.store.logf = opts.Logf
	s.store.features = orgFeatures{cloneMirrorOff: opts.NoCloneMirror, expandedWebhooksOff: opts.NoExpandedWebhookTriggers,
		hostedAgentsOff: opts.NoHostedAgents, agentImageBuildTime: opts.AgentImageBuildTime}
	if opts.StateFile != "" {
		path, err := resolveStateFile(opts.StateFile) // a link's target is read and written, never the link
		if err != nil {
			return nil, fmt.Errorf("state file: %w", err)
		}
		opts.StateFile, s.opts.StateFile = path, path
		resumed, err := s.store.loadStateFile(opts.StateFile)
		if err != nil {
			return nil, fmt.Errorf("state file: %w", err)
		}
		s.resumed = resumed
	}
	if !s.resumed {
		if err := s.seed(); err != nil {
			return nil, err
		}
		if opts.SeedDefaults {
			s.store.seedDefaults()
		}
	}
	if opts.StateFile != "" {
		s.store.mu.Lock()
		s.store.statePath = opts.StateFile
		err := s.store.save()
		s.store.mu.Unlock()
		if err != nil {
			return nil, fmt.Errorf("state file: %w", err)
		}
	}
	if err := s.startControls(); err != nil {
		return nil, err
	}
	s.mux = s.routes()
	return s, nil
}

// seed gives a new state its organizations, users and tokens: the fixtures', or opts.Org's and
// opts.Token's.
func (s *Server) seed() error {
	if s.opts.Fixtures != nil {
		s.store.mu.Lock()
		defer s.store.mu.Unlock()
		if err := s.store.applyFixtures(s.opts.Fixtures); err != nil {
			return fmt.Errorf("Options.Fixtures: %w", err)
		}
		return nil
	}
	s.store.mu.Lock()
	s.store.addOrg(s.opts.Org, titleCase(s.opts.Org))
	s.store.addMember(s.opts.Org, s.store.defaultUserID, true)
	// A second, non-admin member, so team membership and admin-only behaviour can be exercised.
	s.store.addMember(s.opts.Org, s.store.addUser("Second Member", "second-member@example.com").id, false)
	s.store.mu.Unlock()
	s.store.AddToken(s.opts.Token, []string{s.opts.Org}, AllScopes())
	return nil
}

// Resumed reports whether the server started from the state in Options.StateFile (and so ignored
// Fixtures, Org and Token) rather than seeding a new one.
func (s *Server) Resumed() bool { return s.resumed }

// routes registers every area's endpoints; each area adds one line here and keeps its routes in its file.
func (s *Server) routes() *routeMux {
	mux := &routeMux{ServeMux: http.NewServeMux()}
	s.routeAccessToken(mux)
	s.routeClusters(mux)
	s.routeClusterQueues(mux)
	s.routeClusterTokens(mux)
	s.routeOrganizations(mux)
	s.routeMetrics(mux)
	s.routeTeams(mux)
	s.routeSuites(mux)
	s.routeFlakyTests(mux)
	s.routeTemplates(mux)
	s.routePipelines(mux)
	s.routeRules(mux)
	s.routeBuilds(mux)
	s.routeRegistries(mux)
	s.routeRegistryTokens(mux)
	s.routeSchedules(mux)
	s.routeClusterSecrets(mux)
	s.routeClusterMaintainers(mux)
	s.routeMeta(mux)
	s.routeAPISettings(mux)
	s.routeBanner(mux)
	s.routeNetworkRanges(mux)
	s.routePipelineWebhook(mux)
	s.routePortals(mux)
	s.routeNotificationServices(mux)
	s.routeAgents(mux)
	s.routeBuildOutputs(mux)
	s.routeJobActions(mux)
	s.routeGraphQL(mux)
	s.routePipelineSettings(mux)
	s.routeCacheRegistries(mux)
	s.routeAgentImages(mux)
	s.routeInvitations(mux)
	s.routeRateLimit(mux)
	return mux
}

// Store returns the server's state, for tests to inspect and change.
func (s *Server) Store() *Store { return s.store }

// ServeHTTP answers one request: injected faults, test-route switch, rate limit, body size limit, routing
// (JSON 404 and 405 for unknown paths and methods), then the request log.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isControl(r) { // the emulator's own controls: none of the API's middleware
		s.serveControl(w, r)
		return
	}
	start, at := time.Now(), s.opts.Now()
	if r.Body != nil {
		// Wrapped here, with the server's own writer, so an oversized body also closes the connection.
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
	}
	rec := &statusRecorder{ResponseWriter: w}
	fault, operation, drop := s.serveWithFaults(rec, r)
	switch {
	case drop != nil:
		rec.status = 0 // no answer
	case rec.status == 0:
		rec.status = http.StatusOK
	}

	s.log.add(Request{Method: r.Method, Path: r.URL.Path, Status: rec.status, Fault: fault, Operation: operation,
		Org: s.requestOrg(r), Time: at})
	if drop != nil {
		_ = drop.Close() // only now, so a client that sees the drop finds it counted and logged
	}
	if s.opts.Logf != nil {
		s.opts.Logf("%s %s %d %s", r.Method, r.URL.RequestURI(), rec.status, time.Since(start).Round(time.Microsecond))
	}
}

// testRoutePrefix starts the path of every test-only route.
const testRoutePrefix = "/_fake/"

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.opts.DisableTestRoutes && strings.HasPrefix(r.URL.Path, testRoutePrefix) {
		s.hintUnknownRoute(r, http.StatusNotFound)
		writeError(w, errRouteNotFound())
		return
	}
	if r.URL.Path != graphqlPath { // GraphQL spends its own budget (graphql_limits.go)
		key := ""
		if s.limiter.enforced() {
			key = s.store.rateKey(r)
		}
		if err := s.limiter.take(key).apply(w); err != nil {
			writeError(w, err)
			return
		}
	}
	if r.ContentLength > maxBodyBytes {
		writeError(w, errBodyTooLarge())
		return
	}

	if _, pattern := s.mux.Handler(r); pattern == "" {
		s.unrouted(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// unrouted answers a request no pattern matches. The mux knows whether the path exists with other methods
// (405, with Allow) or not at all (404); its plain-text answer is replaced by the API's JSON.
func (s *Server) unrouted(w http.ResponseWriter, r *http.Request) {
	probe := &probeWriter{header: http.Header{}}
	s.mux.ServeHTTP(probe, r)
	s.hintUnknownRoute(r, probe.status)
	switch probe.status {
	case http.StatusNotFound:
		writeError(w, errRouteNotFound())
	case http.StatusMethodNotAllowed:
		writeError(w, errMethodNotAllowed(probe.header.Get("Allow")))
	default: // a redirect to the cleaned path: pass it on as the mux wrote it
		for k, v := range probe.header {
			w.Header()[k] = v
		}
		w.WriteHeader(probe.status)
		_, _ = w.Write(probe.body)
	}
}

// statusRecorder remembers the status written through it, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records status and passes it on.
func (w *statusRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write records an implicit 200 and passes b on.
func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// probeWriter captures what the mux would answer to an unrouted request.
type probeWriter struct {
	header http.Header
	status int
	body   []byte
}

// Header returns the captured header.
func (p *probeWriter) Header() http.Header { return p.header }

// WriteHeader captures the status.
func (p *probeWriter) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}

// Write captures the body.
func (p *probeWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	p.body = append(p.body, b...)
	return len(b), nil
}

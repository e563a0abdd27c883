// Package fakeserver emulates Buildkite's REST API v2, and the part of its GraphQL API that the provider, the
// official provider and Buildkite's CLI use, closely enough that their clients talk to it unchanged. It is both a library for in-process tests (New returns an http.Handler to mount on
// httptest.NewServer) and, through cmd/fakeserver, a standalone server.
//
// Buildkite's REST reference (https://buildkite.com/docs/apis/rest-api) is the source of every field, status
// and scope; what the real service is seen to do fills in pagination, error bodies and rate limits
// (https://buildkite.com/docs/apis/rest-api/limits).
//
// # Layout
//
//   - server.go: Options, New and Open, ServeHTTP and the middleware (rate limit, body size limit, JSON
//     404/405, the /_fake/ switch), and routes, which calls one route method per area.
//   - emulator.go: the public surface for other modules' tests: Start, StartOn and StartTest serve a Server
//     on a local port (an Emulator: URL, Env, Close); Server.Org, Token and ClientEnv name what a client
//     needs. EMULATOR.md documents the surface; example_test.go runs it, external_module_test.go imports it
//     from a module outside this one.
//   - controls.go: the controls under /_emulator/ (health; reset and the whole state, GET and PUT, behind
//     Options.AdminToken, 404 without one), served before the API's middleware, and Server.State,
//     SetState and Reset behind them; page.go: the page at /_emulator/ (objects, requests, settings; no
//     secret), open without an admin token.
//   - routetable.go: the route table (Server.Routes), kept as areas register their routes; coverage_test.go
//     generates EMULATOR-COVERAGE.md from it.
//   - unknown_routes.go: a route the emulator does not model is logged once (Options.Logf) with a hint.
//   - state.go: Options.StateFile: the Store saved after every change and loaded at start; a file it cannot
//     trust is refused, stale temporary files are removed, and state_lock_unix.go (state_lock_other.go
//     elsewhere) holds an exclusive lock on FILE.lock, so one emulator owns a state file (Server.Close
//     releases it); state_codec.go: the records encoded and decoded by reflection.
//   - ratelimit.go: the REST rate limit, per token (every spelling of a known token's header is one budget;
//     unknown tokens keep no window; ended windows are dropped), and GET .../rate_limit, each scope's use.
//   - limits.go: the length limits on names, descriptions, keys, slugs and configurations (422 beyond);
//     which are the service's and which the emulator's.
//   - requestlog.go: the request log, a ring of the newest requests (with each GraphQL operation name,
//     organization and time) plus counters by status, and GET/DELETE /_emulator/requests.
//   - faults.go: Options.Faults: injected 5xx, 429, latency and creates that act but are dropped, REST
//     and GraphQL; faults_aimed.go: faults aimed at one route or GraphQL operation (Server.AimFault);
//     faults_graphql.go: which operation a POST /v1 asks for, and the GraphQL kinds' answers;
//     faults_controls.go: the controls that arm, list and clear aimed faults.
//   - index.go: the table every area keeps its records in: by ID, by unique names, and in creation
//     order per organization or parent, so no request scans or sorts a whole area.
//   - auth.go: bearer tokens, scopes, and Server.authorize, which the serve helpers of handlers.go call
//     first (Server.authenticate for the endpoints of no one organization).
//   - accesstoken.go: GET and DELETE /v2/access-token, the calling token described or revoked.
//   - errors.go: every error response, built in one place.
//   - json.go: request bodies decoded as JSON objects, telling a missing property from null or empty.
//   - pagination.go: page/per_page and the Link header.
//   - render.go: JSON writing, URLs, timestamps, GraphQL IDs and the user summary.
//   - store.go: the Store (one mutex), organizations, users, access tokens and the Kind registry.
//   - clusters.go: clusters, and clusterState, which holds the tables of all three of its kinds;
//     cluster_queues.go: a cluster's queues (dispatch pause and resume; queues_hosted.go their hosted
//     agents); cluster_tokens.go: a cluster's agent tokens (state, views, routes, handlers in each);
//     agent_images.go: a hosted cluster's custom agent images, which build on the server's clock;
//     cache_registries.go: a cluster's cache registries (the Default one made on first use).
//   - orgs.go, metrics.go: organizations and members; agent metrics at /v3 with agent registration tokens.
//   - agents.go: the agents API (list, get, stop, pause, resume) over the agents metrics.go seeds; build_outputs.go: a
//     build's artifacts, annotations and job logs (seeded by Store.AddArtifact and SetJobLog; annotations
//     also created through the API).
//   - teams.go, team_views.go: teams (state, routes, handlers) and how teams and their links are shown.
//   - team_links.go: a team's links to users, pipelines and suites: one descriptor per association
//     (teamAssociations), one set of handlers for all three.
//   - suites.go: test suites (and suiteState, which holds their flaky tests too); flaky_tests.go: a
//     suite's flaky tests.
//   - templates.go, rules.go: pipeline templates; rules.
//   - pipelines.go: pipelines (state, routes, handlers); pipeline_input.go: create and update bodies and
//     applyPipeline; pipeline_yaml.go: the YAML and the steps builds derive from it; pipeline_views.go: how
//     a pipeline is shown; pipeline_providers.go: source providers and provider_settings;
//     configuration.go: what the service normalises in a stored configuration; pipelines_features.go: the
//     properties that depend on an organization feature, and those REST writes but does not show (emoji,
//     color).
//   - builds.go: builds and jobs (states, state); build_handlers.go: routes and handlers; build_views.go,
//     build_filters.go: how builds are shown and filtered; build_admin.go: the /_fake/ build and job routes;
//     job_actions.go: a job's own endpoints (list, get, retry, reprioritize), by its build or by
//     /organizations/{org}/jobs/{id}; block_jobs.go: block steps' "manual" jobs and unblocking them.
//   - registries.go: package registries (and registryState, which holds their tokens too);
//     registry_tokens.go: a registry's tokens.
//   - schedules.go, cron.go: pipeline schedules and the cronlines they run by (next_build_at);
//     cluster_secrets.go, cluster_maintainers.go: a cluster's secrets and maintainers; meta.go: GET
//     /v2/meta.
//   - portals.go: portals (the token in the create answer only); notification_services.go: notification
//     services (cursor paging, masked and hidden secrets, enable and disable), notification_service_input.go
//     their providers' settings and what a create or update body says.
//   - api_settings.go: the organization's /api-settings (allowlist, token revocation, token creation), with
//     the plan features that gate them; allowlist.go: the allowlist enforced on every request;
//     pipeline_settings.go: the organization's pipeline settings; banner.go: the organization banner; network_ranges.go: a cluster's
//     hosted-agent egress ranges (seeded by Store methods, 503 on demand); pipeline_webhook.go: POST
//     /pipelines/{slug}/webhook and the repository webhooks it makes.
//   - graphql.go: POST /v1, the GraphQL endpoint (https://buildkite.com/docs/apis/graphql-api): the token's
//     graphql scope, the SDL of graphql/schema.graphql (embedded; GraphQLSchema returns it), parsing,
//     validation and variable coercion by gqlparser, the service's error words; graphql_exec.go: the small
//     executor (selections, fragments, aliases, omitted versus null arguments, connections, node IDs) and the
//     registries gqlQueries, gqlMutations and gqlNodes every graphql_<area>.go fills from init: graphql_orgs.go
//     (node, organization, two-factor enforcement), graphql_agent_tokens.go over agent_tokens.go
//     (unclustered agent tokens, kept with revokedAt when revoked), graphql_rules.go (rules, with the REST
//     value checks of rules.go), graphql_pipelines.go (pipelines, their page, emoji, color, clone mirror,
//     repository webhook, pipelineUpdate), graphql_members.go (Organization.members, by e-mail too, and
//     organizationInvitationCreate over invitations.go), graphql_jobs.go (JobTypeCommand, jobTypeCommandCancel, jobTypeCommandRetry), graphql_org_jobs.go (Organization.clusters,
//     Cluster.queues through gqlClusterFields, Organization.jobs),
//     graphql_pipeline_webhook.go (pipelineCreateWebhook, over pipeline_webhook.go),
//     graphql_teams.go (node for teams, suites and a team's links,
//     whose own UUID team_links.go keeps), graphql_team_registries.go (teams' access to package registries,
//     served by GraphQL only), graphql_clusters.go (clusters and their agent tracing service, queues,
//     clusterQueueCreate and clusterQueueUpdate with the macOS settings), graphql_cluster_queues.go (a
//     queue's removal and dispatch), graphql_cluster_tokens.go (cluster agent tokens),
//     graphql_pipeline_templates.go and graphql_pipeline_schedules.go (templates and schedules), graphql_limits.go (the size ceilings checked before
//     parsing, query complexity with its cost headers, stats and the 50,000 refusal, the organization's
//     points budget, Options.GraphQLBudget); graphql_conformance_test.go keeps the subset part of Buildkite's
//     own schema (the repository's testdata/buildkite-schema.graphql).
//   - handlers.go: serveRead, serveReadFor, serveWrite, serveWriteChecked, serveAct and serveDelete, the
//     shapes every organization's handler has (handler_shape_test.go keeps it so).
//   - fixtures.go: state the API cannot create (users, plans, tokens, agents, jobs, flaky tests);
//     fixtures_defaults.go: what a new organization starts with (Options.SeedDefaults): "Default cluster"
//     and its default queue, default-queue, and the team "Everyone".
//
// The controls under /_emulator/ (controls.go) are for whoever runs the emulator, not for the client
// under test: GET /_emulator/health always; POST /_emulator/reset, GET and PUT /_emulator/state, and
// GET /_emulator/faults with POST and DELETE /_emulator/faults/aimed only with Options.AdminToken as a
// bearer token (404 without one configured, 401 without it on the request).
//
// Test-only routes under /_fake/ (no authentication) change what the API cannot: build and job states
// (build_admin.go) and flaky-test records (flaky_tests.go). They are on in process and off in the standalone
// command unless --test-routes (Options.DisableTestRoutes).
//
// # Adding an area
//
// An area (teams, pipelines, ...) lives in one file, or in a few named for what they hold once it grows
// past a few hundred lines (pipelines.go, pipeline_input.go, ...). It declares its records and a state
// struct (for example teamState) of tables (index.go), adds one field of that type to Store and
// initialises it in newStore (the state file then saves it with no more work), adds one call
// s.routeTeams(mux) to Server.routes, and registers its Kinds from an init function with registerKind so
// Store.Exists and Store.Remove know them. Each handler is one call of a serve helper (handlers.go)
// around a function that reads or changes the store:
//
//	func (s *Server) updateTeam(w http.ResponseWriter, r *http.Request) {
//		s.serveWrite(w, r, scopeWriteTeams, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
//			...
//		})
//	}
//
// The helper checks the token and its scope (Server.authorize), reads the body as a JSON object
// (readObject), and runs the function inside one s.store.update (or s.store.view for a read), answering
// what it returns or the *apiError (errors.go) it fails with; so every handler checks in the same order,
// concurrent requests never interleave a write, and every change is saved before it is answered.
// serveRead and serveReadFor answer a GET (serveReadFor when the answer depends on the caller; a listing
// calls paginate inside, which sets the Link header), serveWrite a create or an update with a body,
// serveWriteChecked the same after an area's own rule (the templates' plan), serveAct a change without a
// body (a resume, a delete that answers what it removed) and serveDelete a DELETE answering 204. Read
// strings through jsonObject.String, which applies the length limits of limits.go (name a new long
// property there). TestHandlersOpenThroughServeHelpers fails for a handler that calls s.authorize itself
// unless authorizeByHand lists it with the reason no helper fits. Go methods that
// tests call to seed or change state lock with `defer st.edit()()`. Related kinds of one parent declared
// alike (a team's links) share one descriptor type and one set of handlers (team_links.go).
//
// # The state file
//
// Without Options.StateFile (--state-file of the command) the state is in memory only. With it, Open
// loads the state the file holds, or seeds a new one and writes it; every change is then written, through
// a temporary file renamed over the old one, before its request is answered (Store.update saves before it
// unlocks; the Store's Go methods lock with Store.edit, which saves too), so a kill -9 right after an
// answer loses nothing. A file that holds a state wins over Fixtures, Org and Token, which only seed a new
// state: delete the file to start from them again. The file holds the records themselves, encoded by
// reflection (state_codec.go), so a new area or field needs nothing more than its table and its fields;
// a field of a kind JSON cannot hold makes saving fail, and TestStateRoundTrip with it.
//
// # Fixtures
//
// Options.Fixtures (fixtures.go; read with LoadFixtures or ParseFixtures, or --fixtures FILE of
// cmd/fakeserver) replaces the default organization and token with declared state: organizations
// and their plan, users and their memberships, access tokens with their organizations and scopes, agent
// registration tokens, agents and job counts for the /v3/metrics endpoints (metrics.go), and test suites
// with flaky tests (seeded through suites.go and flaky_tests.go). examples/fakeserver/fixtures.yaml documents the format.
// Tests that need one more object seed it with the Store methods instead (AddOrg, SetOrgPlan, AddUser,
// AddTokenForUser, AddAgentToken, AddAgent, SetAgentState, SetQueueJobs, AddArtifact, SetJobLog,
// AddUnclusteredAgentToken, RevokeUnclusteredAgentToken, SetMembersRequire2FA, SetRuleDescription).
package fakeserver

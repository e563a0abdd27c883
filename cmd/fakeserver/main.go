// Command fakeserver serves the Buildkite REST API emulator (fakeserver) on a TCP address, for
// trying the provider by hand or from another process:
//
//	go run ./cmd/fakeserver --listen 127.0.0.1:8080 --org demo --token demo-token
//	go run ./cmd/fakeserver --fixtures examples/fakeserver/fixtures.yaml
//	go run ./cmd/fakeserver --state-file emulator-state.json
//
// --state-file keeps the state across restarts: loaded at start when the file holds one, written
// (atomically, before each answer) after every change; without it the state is in memory only. The state
// file wins over --fixtures, --org and --token, which only seed a new state. --fixtures loads the organizations, users, tokens, agents and suites the server starts with (see
// examples/fakeserver/fixtures.yaml) in place of --org and --token; a file that does not load is an error.
// The test-only routes under /_fake/ are off unless --test-routes; --faults injects errors, 429s, latency
// and dropped creates, REST and GraphQL, and faults aimed at one route or GraphQL operation (see
// fakeserver.ParseFaults). go run ./cmd/fakeserver --help lists every flag.
//
// Every flag is also an environment variable, BUILDKITE_EMULATOR_<FLAG> (--state-file is
// BUILDKITE_EMULATOR_STATE_FILE), which is how the OCI image (make image) is configured; --admin-token turns
// on the controls under /_emulator/ (reset, state). "fakeserver env" prints the variables a Buildkite client
// reads for the server the same flags start; "fakeserver health" is a container's health check. EMULATOR.md
// at the repository's root documents all of it.
//
// It prints one line on stdout holding the base URL ("fakeserver listening on http://127.0.0.1:8080"),
// logs requests on stderr unless --quiet, and shuts down cleanly on SIGINT or SIGTERM. With
// --listen 127.0.0.1:0 it picks a free port and prints the real one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func main() { os.Exit(exitCode()) }

// exitCode runs the server until SIGINT or SIGTERM and returns the process's exit status.
func exitCode() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	default:
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		return 1
	}
}

// shutdownTimeout bounds how long in-flight requests may take once a signal arrives.
const shutdownTimeout = 5 * time.Second

// usageHeader opens the usage text; the flags' own lines follow it.
const usageHeader = `Usage: fakeserver [flags]
       fakeserver env [--format shell|dotenv] [flags]
       fakeserver health [flags]

Serves the Buildkite REST API emulator on --listen until SIGINT or SIGTERM. The first line on stdout is
"fakeserver listening on <base URL>"; requests are logged on stderr unless --quiet.

The server starts with one organization (--org) and one access token (--token) holding every scope, or
with the state a --fixtures file declares. The state is in memory only, unless --state-file names a file:
the state is then loaded from it at start when it holds one, and written to it after every change, before
the change is answered, so a restart (even after kill -9) keeps every object with its ID. A state file
that holds a state wins: --fixtures, --org and --token only seed a new one (delete the file to start
over). A file that is empty or damaged is refused, not replaced, and so is a file another emulator holds.

The test-only routes under /_fake/ (unauthenticated changes to build and job states and flaky tests)
answer 404 unless --test-routes is given. --faults makes the server misbehave on purpose, repeatably, to
test a client's retries, or loses or half-answers one chosen request (aim=). --admin-token turns on the
controls: POST /_emulator/reset (back to the state the server started with), GET and PUT /_emulator/state
(the whole state, as the --state-file JSON; a state holding the admin token as an access token is
refused), GET /_emulator/faults and POST and DELETE /_emulator/faults/aimed (aimed faults, armed at run
time), each with "Authorization: Bearer <admin token>"; GET /_emulator/health needs none.

"fakeserver env" prints the environment a Buildkite client reads (BUILDKITE_REST_URL,
BUILDKITE_GRAPHQL_URL when served, BUILDKITE_ORGANIZATION_SLUG, BUILDKITE_API_TOKEN, and for Buildkite's
CLI BUILDKITE_REST_API_ENDPOINT and BUILDKITE_GRAPHQL_ENDPOINT) for the server the same
flags start, reached at --listen: eval "$(fakeserver env --listen localhost:8080)", or with --format dotenv
append them to $GITHUB_ENV. It starts nothing. "fakeserver health" asks the server at --listen for
GET /_emulator/health and exits 0 only on 200: a container's health check command.

Every flag can be given as an environment variable instead: BUILDKITE_EMULATOR_ and the flag's name in
capitals with _ for - (--state-file is BUILDKITE_EMULATOR_STATE_FILE); a flag on the command line wins.

Flags:
`

// parseFlags reads the command line into the server's options and the address to listen on.
func parseFlags(args []string, stderr io.Writer) (opts fakeserver.Options, listen string, err error) {
	return parseFlagsWith(args, stderr, nil)
}

// parseFlagsWith is parseFlags for a flag set that extra adds flags to (the env command's).
func parseFlagsWith(args []string, stderr io.Writer, extra func(*flag.FlagSet)) (opts fakeserver.Options, listen string, err error) {
	fs := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		_, _ = fmt.Fprint(fs.Output(), usageHeader)
		fs.PrintDefaults()
	}
	if extra != nil {
		extra(fs)
	}
	fs.StringVar(&listen, "listen", "127.0.0.1:8080", "TCP `address` to listen on; port 0 picks a free port")
	org := fs.String("org", "demo", "`slug` of the organization to serve")
	token := fs.String("token", "demo-token", "API access `token` holding every scope for the organization")
	rateLimit := fs.Int("rate-limit", 0, "`requests` allowed per window per token before 429; 0 disables (the RateLimit-* headers\nare still sent)")
	rateWindow := fs.Duration("rate-limit-window", time.Minute, "rate-limit `window`")
	graphqlBudget := fs.Int("graphql-budget", 0, "GraphQL complexity `points` each organization may spend per window before 429; 0 disables\n(the RateLimit-* headers still report 20000). The service's: 20000 (Buildkite's GraphQL resource limits)")
	graphqlWindow := fs.Duration("graphql-budget-window", fakeserver.GraphQLServiceBudgetWindow, "GraphQL budget `window`")
	quiet := fs.Bool("quiet", false, "do not log requests on stderr")
	fixtures := fs.String("fixtures", "", "YAML or JSON `file` of the state to start with, in place of --org and --token\n(see examples/fakeserver/fixtures.yaml)")
	testRoutes := fs.Bool("test-routes", false, "serve the test-only routes under /_fake/ (unauthenticated state changes)")
	stateFile := fs.String("state-file", "", "JSON `file` the state is kept in across restarts: loaded at start when it holds one (then\n--fixtures, --org and --token are ignored), written after every change")
	seedDefaults := fs.Bool("seed-defaults", false, "start each organization as a new Buildkite organization starts: with a \"Default cluster\"\nwhose default queue is \"default-queue\", and the team \"Everyone\" of all its members")
	faults := fs.String("faults", "", "inject faults: comma-separated `spec`, e.g. \"5xx=0.2,429=0.1,latency=20ms,drop=0.1,seed=42\"\n(5xx, 429: shares of API requests, REST and GraphQL, answered 500/502/503 or 429; latency:\nadded to each; drop: share of creates and GraphQL mutations that act, then drop the connection\nor answer 502; reset: the 429s' RateLimit-Reset, default 1s; seed: makes the faults repeatable;\naim, any number of times: one fault aimed at a route or a GraphQL operation, space-separated,\n\"aim=POST /v2/organizations/{org}/clusters/{cluster}/tokens drop_after skip=1 times=1\" or\n\"aim=agentTokenCreate errors_with_data\"; kinds drop_before, drop_after, server_error,\nrate_limited, and for GraphQL errors_with_data, null_data, not_found)")
	adminToken := fs.String("admin-token", "", "bearer `token` that turns on the controls under /_emulator/ (reset, state); without it they\nanswer 404. GET /_emulator/health is always on")
	noCloneMirror := fs.Bool("no-clone-mirror", false, "turn off the organizations' clone-mirror feature: a pipeline's clone_mirror_url is then refused")
	noExpandedWebhooks := fs.Bool("no-expanded-webhook-triggers", false, "leave the organizations out of expanded webhook triggers: a pipeline's github-webhooks\nroutes then answer 404")
	noHostedAgents := fs.Bool("no-hosted-agents", false, "leave the organizations without hosted agents: a hosted queue is then refused and every\nagent-images route answers 404")
	imageBuildTime := fs.Duration("agent-image-build-time", fakeserver.DefaultAgentImageBuildTime, "how long an agent image is BUILDING before it is READY (or FAILED, for a Dockerfile with\n`RUN false` or `RUN exit <n>`); negative builds at once")
	if err := setFromEnv(fs); err != nil {
		return opts, "", err
	}
	if err := fs.Parse(args); err != nil {
		return opts, "", err
	}
	if fs.NArg() > 0 {
		return opts, "", fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if *org == "" || *token == "" {
		return opts, "", errors.New("--org and --token must not be empty")
	}

	opts = fakeserver.Options{
		Org: *org, Token: *token, RateLimit: *rateLimit, RateLimitWindow: *rateWindow,
		GraphQLBudget: *graphqlBudget, GraphQLBudgetWindow: *graphqlWindow,
		DisableTestRoutes: !*testRoutes, StateFile: *stateFile, SeedDefaults: *seedDefaults,
		AdminToken:    *adminToken,
		NoCloneMirror: *noCloneMirror, NoExpandedWebhookTriggers: *noExpandedWebhooks,
		NoHostedAgents: *noHostedAgents, AgentImageBuildTime: *imageBuildTime,
	}
	if opts.Faults, err = fakeserver.ParseFaults(*faults); err != nil {
		return opts, "", fmt.Errorf("--faults: %w", err)
	}
	if *fixtures != "" {
		// Refuse rather than ignore --org/--token: the user would expect them to take effect.
		explicit := false
		fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "org" || f.Name == "token" })
		if explicit {
			return opts, "", errors.New("--fixtures declares the organizations and tokens: drop --org and --token")
		}
		if opts.Fixtures, err = fakeserver.LoadFixtures(*fixtures); err != nil {
			return opts, "", err
		}
	}
	if !*quiet {
		opts.Logf = log.New(stderr, "fakeserver: ", log.LstdFlags).Printf
	}
	return opts, listen, nil
}

// run serves until ctx is done, then shuts the server down. It writes the listening line to stdout.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "env" {
		return printEnv(args[1:], stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "health" {
		return checkHealth(args[1:], stdout, os.Stderr)
	}
	opts, listen, err := parseFlags(args, os.Stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	handler, err := fakeserver.Open(opts)
	if err != nil {
		return err
	}
	defer func() { _ = handler.Close() }() // releases the state file's lock
	if handler.Resumed() {
		_, _ = fmt.Fprintf(os.Stderr, "fakeserver: state resumed from %s (--fixtures, --org and --token only seed a new state)\n", opts.StateFile)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	if _, err := fmt.Fprintf(stdout, "fakeserver listening on %s\n", baseURL(ln.Addr())); err != nil {
		_ = srv.Close()
		return err
	}
	if f, ok := stdout.(interface{ Flush() error }); ok {
		_ = f.Flush()
	}

	select {
	case err := <-served: // Serve failed before any shutdown was asked for
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// baseURL is the URL clients use for addr; an unspecified host (0.0.0.0, ::) is shown as 127.0.0.1.
func baseURL(addr net.Addr) string { return fakeserver.ListenURL(addr) }

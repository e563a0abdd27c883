package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// envLive switches the acceptance tests from the in-process emulator to the real service.
const envLive = "BUILDKITE_ACC_LIVE"

// TestMain prepares what terraform-plugin-testing needs on these machines: a CLI configuration that exists.
// The acceptance tests (those that start Terraform) run only when TF_ACC is set, as in every provider: a
// plain `go test ./...` is a unit run; make test and make testacc set it. They talk to a local emulator
// unless BUILDKITE_ACC_LIVE is set.
func TestMain(m *testing.M) {
	_ = os.Setenv("CHECKPOINT_DISABLE", "1")
	dir, err := os.MkdirTemp("", "tfacc-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cfg := filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(cfg, []byte("# empty: tests use the provider in-process\n"), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_ = os.Setenv("TF_CLI_CONFIG_FILE", cfg)
	shortLivedChildren()
	// resource.TestMain runs the tests, or with -sweep the sweepers (sweep_kit_test.go), and exits, except
	// after sweeping without a failure.
	resource.TestMain(runThen{m, func() { _ = os.RemoveAll(dir) }})
	_ = os.RemoveAll(dir)
	sweepSummary()
}

// childRuntime is how the Go runtime of each process the tests start runs (Terraform, mostly), unless the
// environment sets GOGC, GOMEMLIMIT or GOMAXPROCS itself. A test starts Terraform about 57 times and each
// command lives a fraction of a second, so it gains nothing from collecting garbage or from spreading over
// both cores while three other tests' processes want them. Measured on two cores, four runs of the team and
// registry _basic tests each: no collection below 384 MiB took 7% less CPU (the pipeline resource's 27
// tests: 254 s to 237 s of user and system time), and one core per process 5.6% less again. The test binary
// read these variables when it started, so this changes only its children.
var childRuntime = []string{"GOGC=off", "GOMEMLIMIT=384MiB", "GOMAXPROCS=1"}

// shortLivedChildren sets childRuntime in the environment the tests' processes inherit, unless the caller
// chose any of its variables.
func shortLivedChildren() {
	for _, kv := range childRuntime {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := os.LookupEnv(k); ok {
			return
		}
	}
	for _, kv := range childRuntime {
		k, v, _ := strings.Cut(kv, "=")
		_ = os.Setenv(k, v)
	}
}

// runThen runs the tests, then after.
type runThen struct {
	m     *testing.M
	after func()
}

func (r runThen) Run() int {
	code := r.m.Run()
	r.after()
	return code
}

// testEnv is where one acceptance test runs: a fresh emulator, or the real service in live mode.
type testEnv struct {
	t      *testing.T
	live   bool
	server *fakeserver.Server
	url    string
	// graphqlURL is the GraphQL endpoint: the emulator's <url>/v1, or in live mode BUILDKITE_GRAPHQL_URL or
	// the provider's choice (graphqlEndpoint).
	graphqlURL string
	org        string
	token      string
	client     *buildkite.Client
	// stableNames makes name return its base as it is, for objects of a committed example.
	stableNames bool
	// leftovers, in live mode, is what the test deletes when it ends (sweep_kit_test.go).
	leftovers *leftovers
	// held names the organization's singletons the test holds (singleton_kit_test.go).
	held map[string]bool
}

// newTestEnv starts a fresh emulator on a random loopback port, closed when the test ends.
func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	return newTestEnvWith(t, fakeserver.Options{})
}

// newTestEnvWith is newTestEnv with emulator options and middleware in front of the emulator, to make it
// answer what the real service might (both ignored in live mode).
func newTestEnvWith(t *testing.T, opts fakeserver.Options, wraps ...func(http.Handler) http.Handler) *testEnv {
	t.Helper()
	e := &testEnv{t: t}
	if os.Getenv(envLive) != "" {
		if len(wraps) > 0 {
			t.Skip("live mode: this test puts middleware in front of the emulator, to make it answer what the real service might; the real service cannot be made to")
		}
		e.live = true
		e.token = os.Getenv(kit.EnvAPIToken)
		e.org = os.Getenv(kit.EnvOrgSlug)
		e.url = os.Getenv(kit.EnvRESTURL)
		e.graphqlURL = graphqlEndpoint(os.Getenv(kit.EnvGraphQLURL), e.url)
		if e.url == "" {
			e.url = kit.DefaultRESTURL
		}
		if e.token == "" || e.org == "" {
			t.Fatalf("%s is set: %s and %s must be set too", envLive, kit.EnvAPIToken, kit.EnvOrgSlug)
		}
	} else {
		if opts.Org == "" {
			opts.Org, opts.Token = "acme", "test-token"
		}
		if len(wraps) == 0 { // the emulator's public surface, as other modules' tests use it
			emu := fakeserver.StartTest(t, opts)
			e.server, e.url, e.org, e.token = emu.Server, emu.URL(), opts.Org, opts.Token
		} else {
			e.server = fakeserver.New(opts)
			var h http.Handler = e.server
			for _, wrap := range wraps {
				h = wrap(h)
			}
			ts := httptest.NewServer(h)
			t.Cleanup(ts.Close)
			e.url, e.org, e.token = ts.URL, opts.Org, opts.Token
		}
		e.graphqlURL = e.url + "/v1"
	}
	cfg := buildkite.Config{BaseURL: e.url, GraphQLURL: e.graphqlURL, Organization: e.org, Token: e.token, UserAgent: "terraform-provider-buildkite/test"}
	if e.live {
		e.leftovers = &leftovers{}
		cfg.HTTPClient = e.leftovers.recordCreates()
	}
	c, err := buildkite.NewClient(cfg)
	if err != nil {
		t.Fatalf("building test client: %v", err)
	}
	e.client = c
	if e.live {
		t.Cleanup(e.removeLeftovers) // registered first, so it runs last
	}
	return e
}

// factories serves the provider in-process to Terraform.
func (e *testEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"buildkite": providerserver.NewProtocol6WithError(New("test")()),
	}
}

// config prefixes a configuration with the provider block for this environment. In live mode the
// provider reads the environment, as a user's would, from an empty block (list blocks name it).
func (e *testEnv) config(body string) string {
	if e.live {
		return "provider \"buildkite\" {}\n" + body
	}
	return fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  graphql_url  = %q
  organization = %q
  api_token    = %q
  max_retries  = 2
}
%s`, e.url, e.graphqlURL, e.org, e.token, body)
}

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// testClientAgent is the User-Agent of the test's own client; the emulator's faults spare it, so that the
// checks see the service as it is.
const testClientAgent = "terraform-provider-buildkite/test"

package acctest

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
const EnvLive = "BUILDKITE_ACC_LIVE"

// Main, called by each test package's TestMain once it has set the hooks (hooks.go), prepares what terraform-plugin-testing needs on these machines: a CLI configuration that exists.
// The acceptance tests (those that start Terraform) run only when TF_ACC is set, as in every provider: a
// plain `go test ./...` is a unit run; make test and make testacc set it. They talk to a local emulator
// unless BUILDKITE_ACC_LIVE is set.
func Main(m *testing.M) {
	registerSweepers()
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
	ShortLivedChildren()
	// resource.TestMain runs the tests, or with -sweep the sweepers (sweep.go), and exits, except
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
var ChildRuntime = []string{"GOGC=off", "GOMEMLIMIT=384MiB", "GOMAXPROCS=1"}

// shortLivedChildren sets childRuntime in the environment the tests' processes inherit, unless the caller
// chose any of its variables.
func ShortLivedChildren() {
	for _, kv := range ChildRuntime {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := os.LookupEnv(k); ok {
			return
		}
	}
	for _, kv := range ChildRuntime {
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
type TestEnv struct {
	T      *testing.T
	Live   bool
	Server *fakeserver.Server
	URL    string
	// graphqlURL is the GraphQL endpoint: the emulator's <url>/v1, or in live mode BUILDKITE_GRAPHQL_URL or
	// the provider's choice (graphqlEndpoint).
	GraphQLURL string
	Org        string
	Token      string
	Client     *buildkite.Client
	// stableNames makes name return its base as it is, for objects of a committed example.
	StableNames bool
	// leftovers, in live mode, is what the test deletes when it ends (sweep.go).
	Leftovers *Leftovers
	// held names the organization's singletons the test holds (singleton.go).
	held map[string]bool
}

// newTestEnv starts a fresh emulator on a random loopback port, closed when the test ends.
func NewTestEnv(t *testing.T) *TestEnv {
	t.Helper()
	return NewTestEnvWith(t, fakeserver.Options{})
}

// newTestEnvWith is newTestEnv with emulator options and middleware in front of the emulator, to make it
// answer what the real service might (both ignored in live mode).
func NewTestEnvWith(t *testing.T, opts fakeserver.Options, wraps ...func(http.Handler) http.Handler) *TestEnv {
	t.Helper()
	e := &TestEnv{T: t}
	if os.Getenv(EnvLive) != "" {
		if len(wraps) > 0 {
			t.Skip("live mode: this test puts middleware in front of the emulator, to make it answer what the real service might; the real service cannot be made to")
		}
		e.Live = true
		e.Token = os.Getenv(kit.EnvAPIToken)
		e.Org = os.Getenv(kit.EnvOrgSlug)
		e.URL = os.Getenv(kit.EnvRESTURL)
		e.GraphQLURL = GraphQLEndpoint(os.Getenv(kit.EnvGraphQLURL), e.URL)
		if e.URL == "" {
			e.URL = kit.DefaultRESTURL
		}
		if e.Token == "" || e.Org == "" {
			t.Fatalf("%s is set: %s and %s must be set too", EnvLive, kit.EnvAPIToken, kit.EnvOrgSlug)
		}
	} else {
		if opts.Org == "" {
			opts.Org, opts.Token = "acme", "test-token"
		}
		if len(wraps) == 0 { // the emulator's public surface, as other modules' tests use it
			emu := fakeserver.StartTest(t, opts)
			e.Server, e.URL, e.Org, e.Token = emu.Server, emu.URL(), opts.Org, opts.Token
		} else {
			e.Server = fakeserver.New(opts)
			var h http.Handler = e.Server
			for _, wrap := range wraps {
				h = wrap(h)
			}
			ts := httptest.NewServer(h)
			t.Cleanup(ts.Close)
			e.URL, e.Org, e.Token = ts.URL, opts.Org, opts.Token
		}
		e.GraphQLURL = e.URL + "/v1"
	}
	cfg := buildkite.Config{BaseURL: e.URL, GraphQLURL: e.GraphQLURL, Organization: e.Org, Token: e.Token, UserAgent: "terraform-provider-buildkite/test"}
	if e.Live {
		e.Leftovers = &Leftovers{}
		cfg.HTTPClient = e.Leftovers.RecordCreates()
	}
	c, err := buildkite.NewClient(cfg)
	if err != nil {
		t.Fatalf("building test client: %v", err)
	}
	e.Client = c
	if e.Live {
		t.Cleanup(e.RemoveLeftovers) // registered first, so it runs last
	}
	return e
}

// factories serves the provider in-process to Terraform.
func (e *TestEnv) Factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"buildkite": providerserver.NewProtocol6WithError(NewProvider("test")()),
	}
}

// config prefixes a configuration with the provider block for this environment. In live mode the
// provider reads the environment, as a user's would, from an empty block (list blocks name it).
func (e *TestEnv) Config(body string) string {
	if e.Live {
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
%s`, e.URL, e.GraphQLURL, e.Org, e.Token, body)
}

func RegexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// testClientAgent is the User-Agent of the test's own client; the emulator's faults spare it, so that the
// checks see the service as it is.
const TestClientAgent = "terraform-provider-buildkite/test"

package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// envLive switches the acceptance tests from the in-process emulator to the real service.
const envLive = "BUILDKITE_ACC_LIVE"

// TestMain prepares what terraform-plugin-testing needs on these machines: acceptance tests enabled (they
// only talk to a local emulator unless BUILDKITE_ACC_LIVE is set) and a CLI configuration that exists.
func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") == "" {
		_ = os.Setenv("TF_ACC", "1")
	}
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
	// resource.TestMain runs the tests, or with -sweep the sweepers (sweep_test.go), and exits, except
	// after sweeping without a failure.
	resource.TestMain(runThen{m, func() { _ = os.RemoveAll(dir) }})
	_ = os.RemoveAll(dir)
	sweepSummary()
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
	org    string
	token  string
	client *buildkite.Client
	// stableNames makes name return its base as it is, for objects of a committed example.
	stableNames bool
	// leftovers, in live mode, is what the test deletes when it ends (sweep_test.go).
	leftovers *leftovers
	// held names the organization's singletons the test holds (singleton_test.go).
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
		e.token = os.Getenv(envAPIToken)
		e.org = os.Getenv(envOrgSlug)
		e.url = os.Getenv(envRESTURL)
		if e.url == "" {
			e.url = defaultRESTURL
		}
		if e.token == "" || e.org == "" {
			t.Fatalf("%s is set: %s and %s must be set too", envLive, envAPIToken, envOrgSlug)
		}
	} else {
		if opts.Org == "" {
			opts.Org, opts.Token = "acme", "test-token"
		}
		e.server = fakeserver.New(opts)
		var h http.Handler = e.server
		for _, wrap := range wraps {
			h = wrap(h)
		}
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		e.url, e.org, e.token = ts.URL, opts.Org, opts.Token
	}
	cfg := buildkite.Config{BaseURL: e.url, Organization: e.org, Token: e.token, UserAgent: "terraform-provider-buildkite/test"}
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
  organization = %q
  api_token    = %q
  max_retries  = 2
}
%s`, e.url, e.org, e.token, body)
}

func TestProvider_configurationErrors(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	body := `resource "buildkite_cluster" "c" { name = "x" }`
	cases := map[string]struct {
		provider string
		want     string
	}{
		"empty token":     {`api_token = "" ` + "\n" + `organization = "acme"` + "\n" + `rest_url = "` + e.url + `"`, `Missing Buildkite API Token`},
		"empty org":       {`api_token = "t"` + "\n" + `organization = ""` + "\n" + `rest_url = "` + e.url + `"`, `Missing Buildkite Organization`},
		"bad rest_url":    {`api_token = "t"` + "\n" + `organization = "acme"` + "\n" + `rest_url = "not a url"`, `Invalid Buildkite rest_url`},
		"retries too big": {`api_token = "t"` + "\n" + `organization = "acme"` + "\n" + `max_retries = 500`, `max_retries`},
		"wrong token": {`api_token = "nope"` + "\n" + `organization = "acme"` + "\n" + `rest_url = "` + e.url + `"` + "\n" + `max_retries = 0`,
			`Invalid Buildkite API Token[\s\S]*401`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				Steps: []resource.TestStep{{
					Config:      "provider \"buildkite\" {\n" + tc.provider + "\n}\n" + body,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// TestAccProvider_rateLimited applies a configuration that needs more requests than the emulator's rate
// limit allows in one window: the client must wait for the window to reset rather than fail.
func TestAccProvider_rateLimited(t *testing.T) {
	t.Parallel()
	const limit = 4
	e := newTestEnvWith(t, fakeserver.Options{RateLimit: limit, RateLimitWindow: 2 * time.Second})
	cfg := `
resource "buildkite_cluster" "test" {
  name = "` + e.name("rate-limited") + `"
}

resource "buildkite_cluster_queue" "q" {
  count      = 6
  cluster_id = buildkite_cluster.test.id
  key        = "q${count.index}"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{{
			Config: e.config(cfg),
			Check: func(*terraform.State) error {
				if e.live {
					return nil
				}
				reqs := e.server.Requests()
				if len(reqs) <= limit {
					return fmt.Errorf("only %d requests: the test no longer exceeds the limit of %d", len(reqs), limit)
				}
				refused := 0
				for _, r := range reqs {
					if r.Status == http.StatusTooManyRequests {
						refused++
					}
				}
				t.Logf("%d requests under a limit of %d per window, %d answered 429 and retried", len(reqs), limit, refused)
				return nil
			},
		}},
	})
}

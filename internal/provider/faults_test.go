package provider

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// demoConfig is the configuration of examples/demo without its terraform and provider blocks, which the
// tests supply.
func demoConfig(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "demo", "*.tf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("reading examples/demo: %v (%d files)", err, len(files))
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	out := regexp.MustCompile(`(?s)terraform \{\s*required_providers \{.*?\n\}\n`).ReplaceAllString(b.String(), "")
	out = regexp.MustCompile(`provider "buildkite" \{\}`).ReplaceAllString(out, "")
	if strings.Contains(out, "required_providers") || strings.Contains(out, `provider "buildkite"`) {
		t.Fatal("examples/demo: could not strip its terraform and provider blocks")
	}
	return out
}

// TestAccProvider_demoConvergesUnderFaults applies examples/demo once against an emulator that answers 20 %
// of requests with a 5xx, 20 % with a 429, and loses the answer of 30 % of creates after acting on them. The
// apply converges, the next plan is empty, and the service holds exactly the objects in state: a lost
// answer neither orphans nor duplicates.
func TestAccProvider_demoConvergesUnderFaults(t *testing.T) {
	t.Parallel()
	// A create whose secret only its answer carries (portals, agent and registry tokens, suites) is re-created
	// once after a lost answer, and a second loss fails the apply with the object tainted (kit/lost_secret.go):
	// only the first create in each such collection meets faults, so that the apply converges.
	var secretCreates sync.Map
	faults := fakeserver.Faults{
		ServerErrors: 0.2, RateLimited: 0.2, DropCreates: 0.3, Seed: 7,
		RateLimitReset: time.Second,
		Except: func(r *http.Request) bool {
			if r.UserAgent() == acctest.TestClientAgent {
				return true
			}
			if p := r.URL.Path; r.Method == http.MethodPost &&
				(strings.HasSuffix(p, "/portals") || strings.HasSuffix(p, "/tokens") || strings.HasSuffix(p, "/suites")) {
				_, seen := secretCreates.LoadOrStore(p, true)
				return seen
			}
			return false
		},
	}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{Faults: faults})
	if e.Live {
		t.Skip("faults are an emulator setting")
	}
	// No max_retries: unset, the provider retries until the operation's timeout, as a user's would. The
	// demo's team registry is served by GraphQL alone, at the emulator's /v1, as make demo sets it.
	cfg := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  graphql_url  = %q
  organization = %q
  api_token    = %q
}
`, e.URL, e.URL+"/v1", e.Org, e.Token) + demoConfig(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(s *terraform.State) error {
				fc := e.Server.FaultCounts()
				if fc.ActedCreates() == 0 || fc.ServerErrors == 0 || fc.RateLimited == 0 {
					return fmt.Errorf("faults injected: %+v; the test no longer exercises lost creates, 5xx and 429", fc)
				}
				t.Logf("converged through %+v", fc)
				return e.CheckServiceMatchesState(s)
			},
		}},
	})
}

package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/fakeserver"
)

// testClientAgent is the User-Agent of the test's own client; the emulator's faults spare it, so that the
// checks see the service as it is.
const testClientAgent = "terraform-provider-buildkite/test"

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
	faults := fakeserver.Faults{
		ServerErrors: 0.2, RateLimited: 0.2, DropCreates: 0.3, Seed: 7,
		RateLimitReset: time.Second,
		Except:         func(r *http.Request) bool { return r.UserAgent() == testClientAgent },
	}
	e := newTestEnvWith(t, fakeserver.Options{Faults: faults})
	if e.live {
		t.Skip("faults are an emulator setting")
	}
	// No max_retries: unset, the provider retries until the operation's timeout, as a user's would.
	cfg := fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  organization = %q
  api_token    = %q
}
`, e.url, e.org, e.token) + demoConfig(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(s *terraform.State) error {
				fc := e.server.FaultCounts()
				if fc.ActedCreates() == 0 || fc.ServerErrors == 0 || fc.RateLimited == 0 {
					return fmt.Errorf("faults injected: %+v; the test no longer exercises lost creates, 5xx and 429", fc)
				}
				t.Logf("converged through %+v", fc)
				return e.checkServiceMatchesState(s)
			},
		}},
	})
}

// checkServiceMatchesState compares, kind by kind, the objects the service lists with those in state.
func (e *testEnv) checkServiceMatchesState(s *terraform.State) error {
	ctx := context.Background()
	c := e.client
	inState := map[string][]string{}
	for addr, rs := range s.RootModule().Resources {
		if strings.HasPrefix(addr, "data.") || !strings.HasPrefix(rs.Type, "buildkite_") {
			continue
		}
		inState[rs.Type] = append(inState[rs.Type], rs.Primary.Attributes["id"])
	}
	listed := map[string][]string{}
	ids := func(typ string, n int, id func(int) string) {
		for i := 0; i < n; i++ {
			listed[typ] = append(listed[typ], id(i))
		}
	}
	clusters, err := c.Clusters.List(ctx)
	if err != nil {
		return err
	}
	ids("buildkite_cluster", len(clusters), func(i int) string { return clusters[i].ID })
	for _, cl := range clusters {
		queues, err := c.Queues.List(ctx, cl.ID)
		if err != nil {
			return err
		}
		ids("buildkite_cluster_queue", len(queues), func(i int) string { return queues[i].ID })
		tokens, err := c.ClusterTokens.List(ctx, cl.ID)
		if err != nil {
			return err
		}
		ids("buildkite_cluster_agent_token", len(tokens), func(i int) string { return tokens[i].ID })
	}
	teams, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
	if err != nil {
		return err
	}
	ids("buildkite_team", len(teams), func(i int) string { return teams[i].ID })
	pipelines, err := c.Pipelines.List(ctx, nil)
	if err != nil {
		return err
	}
	ids("buildkite_pipeline", len(pipelines), func(i int) string { return pipelines[i].ID })
	templates, err := c.PipelineTemplates.List(ctx)
	if err != nil {
		return err
	}
	ids("buildkite_pipeline_template", len(templates), func(i int) string { return templates[i].UUID })
	rules, err := c.Rules.List(ctx)
	if err != nil {
		return err
	}
	ids("buildkite_organization_rule", len(rules), func(i int) string { return rules[i].UUID })
	suites, err := c.TestSuites.List(ctx)
	if err != nil {
		return err
	}
	ids("buildkite_test_suite", len(suites), func(i int) string { return suites[i].ID })
	registries, err := c.Registries.List(ctx)
	if err != nil {
		return err
	}
	ids("buildkite_registry", len(registries), func(i int) string { return registries[i].ID })
	for _, r := range registries {
		tokens, err := c.RegistryTokens.List(ctx, r.Slug)
		if err != nil {
			return err
		}
		ids("buildkite_registry_token", len(tokens), func(i int) string { return tokens[i].ID })
	}

	var problems []string
	for typ, got := range listed {
		want := inState[typ]
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			problems = append(problems, fmt.Sprintf("%s: the service has %d (%v), the state %d (%v)", typ, len(got), got, len(want), want))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("the service and the state disagree:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

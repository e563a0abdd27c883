package clusters_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/clusters"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

const cacheRegistryAddr = "buildkite_cluster_cache_registry.test"

// testAccCacheRegistryConfig declares cluster "<cluster>" and its registry "<name>" with the attributes body.
func testAccCacheRegistryConfig(cluster, name, body string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_cache_registry" "test" {
  cluster_id = buildkite_cluster.test.id
  name       = %q
%s
}
`, cluster, name, body)
}

// checkCachePolicy fails unless the registry in state holds, on the service, a policy meaning want.
func checkCachePolicy(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[cacheRegistryAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", cacheRegistryAddr)
		}
		c, err := e.Client.CacheRegistries.Get(context.Background(), rs.Primary.Attributes["cluster_uuid"], rs.Primary.ID)
		if err != nil {
			return err
		}
		if !clusters.PolicyEquivalentForTest(string(c.Policy), want) {
			return fmt.Errorf("the service holds the policy %s, want %s", c.Policy, want)
		}
		return nil
	}
}

func TestAccClusterCacheRegistryResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("cache")
	name := e.Name("Node Modules")
	// A string action, which the service answers as a list: the configured spelling is kept.
	policy := `{"rules": [{"effect": "allow", "action": "save", "when": "claims.build_branch == 'main'"}, {"effect": "allow", "action": "restore"}]}`
	config := func(name, body string) string { return e.Config(testAccCacheRegistryConfig(cluster, name, body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_cache_registry"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: config(name, fmt.Sprintf("  description = \"npm\"\n  emoji = \":npm:\"\n  policy = jsonencode(%s)", policy)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.CheckExists(cacheRegistryAddr),
					resource.TestCheckResourceAttrPair(cacheRegistryAddr, "id", cacheRegistryAddr, "uuid"),
					resource.TestCheckResourceAttrPair(cacheRegistryAddr, "cluster_uuid", "buildkite_cluster.test", "uuid"),
					resource.TestCheckResourceAttr(cacheRegistryAddr, "slug", kit.SlugOf(name)),
					resource.TestCheckResourceAttr(cacheRegistryAddr, "default", "false"),
					resource.TestCheckResourceAttrSet(cacheRegistryAddr, "graphql_id"),
					checkCachePolicy(e, policy),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(cacheRegistryAddr, acctest.ImportID(cacheRegistryAddr, "cluster_uuid", "id"), "policy"),
			// The official provider's import ID, the GraphQL ID, and the UUID alone.
			acctest.Step(resource.TestStep{ResourceName: cacheRegistryAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: acctest.ImportID(cacheRegistryAddr, "graphql_id"), ImportStateVerifyIgnore: []string{"policy"}}),
			acctest.Step(resource.TestStep{
				// Renamed (a new slug), description cleared, the policy replaced.
				Config: config(name+"-yarn", `  emoji = ":npm:"
  policy = jsonencode({ save = { scopes = { branch = true } }, rules = [{ effect = "allow", action = ["save", "restore"] }] })`),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(cacheRegistryAddr, "slug", kit.SlugOf(name+"-yarn")),
					resource.TestCheckNoResourceAttr(cacheRegistryAddr, "description"),
					checkCachePolicy(e, `{"save":{"scopes":{"branch":true}},"rules":[{"effect":"allow","action":["save","restore"]}]}`),
				),
				ConfigPlanChecks: acctest.InPlace(cacheRegistryAddr),
			}),
			// The policy removed from the configuration stays as it is.
			acctest.Step(resource.TestStep{
				Config:           config(name+"-yarn", `  emoji = ":npm:"`),
				ConfigPlanChecks: acctest.ExpectEmpty(),
				Check:            checkCachePolicy(e, `{"save":{"scopes":{"branch":true}},"rules":[{"effect":"allow","action":["save","restore"]}]}`),
			}),
			// A new cluster replaces the registry.
			acctest.Step(resource.TestStep{
				Config: e.Config(fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster" "other" {
  name = %q
}

resource "buildkite_cluster_cache_registry" "test" {
  cluster_id = buildkite_cluster.other.id
  name       = %q
}
`, cluster, e.Name("cache-other"), name)),
				Check: resource.ComposeAggregateTestCheckFunc(e.CheckExists(cacheRegistryAddr),
					resource.TestCheckResourceAttrPair(cacheRegistryAddr, "cluster_uuid", "buildkite_cluster.other", "uuid")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cacheRegistryAddr, plancheck.ResourceActionDestroyBeforeCreate)}},
			}),
		),
	})
}

func TestAccClusterCacheRegistryResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears(cacheRegistryAddr, testAccCacheRegistryConfig(e.Name("cache"), e.Name("gone"), ""))
}

// TestAccClusterCacheRegistryResource_default: the cluster's Default registry is managed once imported, and
// a destroy of it fails with the service's reason.
func TestAccClusterCacheRegistryResource_default(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	ctx := context.Background()
	cl, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: e.Name("cache-default")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.Clusters.Delete(ctx, cl.ID) })
	all, err := e.Client.CacheRegistries.List(ctx, cl.ID)
	if err != nil || len(all) == 0 {
		t.Fatalf("the cluster's registries: %v, %v", all, err)
	}
	def := all[0]
	cfg := e.Config(fmt.Sprintf(`
import {
  to = buildkite_cluster_cache_registry.test
  id = "%s/%s"
}

resource "buildkite_cluster_cache_registry" "test" {
  cluster_id  = %q
  name        = "Default"
  description = "Everything"
}
`, cl.ID, def.UUID, cl.ID))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttr(cacheRegistryAddr, "default", "true")},
			{Config: cfg, Destroy: true, ExpectError: acctest.Wrapped("The cluster's default cache registry cannot be deleted")},
			{
				Config: e.Config(`
removed {
  from = buildkite_cluster_cache_registry.test
  lifecycle {
    destroy = false
  }
}
`),
			},
		},
	})
}

// heldCachePolicy is the policy swapCachePolicy makes the service hold instead of the one sent.
const heldCachePolicy = `{"rules":[{"effect":"allow","action":["restore"]}]}`

// swapCachePolicy puts heldCachePolicy in place of the policy of every cache registry create and update, as
// a service that stores a policy other than the one sent would.
func swapCachePolicy(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodPost || r.Method == http.MethodPatch) && strings.Contains(r.URL.Path, "/cache-registries") {
			body, _ := io.ReadAll(r.Body)
			var fields map[string]json.RawMessage
			if json.Unmarshal(body, &fields) == nil && fields["policy"] != nil {
				fields["policy"] = json.RawMessage(heldCachePolicy)
				body, _ = json.Marshal(fields)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		next.ServeHTTP(w, r)
	})
}

// TestAccClusterCacheRegistryResource_policyNotApplied: a service that holds another policy than the one sent
// fails the update with "Cache Registry Policy Not Applied", and the state records the policy it holds (so
// the next plan shows the difference).
func TestAccClusterCacheRegistryResource_policyNotApplied(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, swapCachePolicy)
	cluster, name := e.Name("cache"), e.Name("swapped")
	const sent = `{ rules = [{ effect = "allow", action = ["save", "restore"] }] }`
	config := func(body string) string { return e.Config(testAccCacheRegistryConfig(cluster, name, body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_cache_registry"),
		Steps: []resource.TestStep{
			// Created without a policy (a create that fails is tainted by Terraform, so the update is
			// where the state's record shows).
			{Config: config(""), Check: e.CheckExists(cacheRegistryAddr)},
			{
				Config:      config("  policy = jsonencode(" + sent + ")"),
				ExpectError: acctest.Wrapped("Cache Registry Policy Not Applied"),
			},
			// The registry was kept in state, with the policy the service holds: the same policy planned
			// again is a change to it, ...
			{
				Config:             config("  policy = jsonencode(" + sent + ")"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			// ... and with the policy left out of the configuration, state holds the service's policy and the
			// plan is empty.
			{
				Config: config(""),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.CheckExists(cacheRegistryAddr),
					checkCachePolicy(e, heldCachePolicy),
					func(s *terraform.State) error {
						got := s.RootModule().Resources[cacheRegistryAddr].Primary.Attributes["policy"]
						if !clusters.PolicyEquivalentForTest(got, heldCachePolicy) {
							return fmt.Errorf("state holds the policy %s, want the service's %s", got, heldCachePolicy)
						}
						return nil
					},
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cacheRegistryAddr, plancheck.ResourceActionNoop)}},
			},
		},
	})
}

func TestAccClusterCacheRegistryResource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := func(body string) string { return e.Config(testAccCacheRegistryConfig(e.Name("cache"), "x", body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(`  policy = "null"`), ExpectError: acctest.Wrapped("Invalid cache registry policy")},
			{Config: cfg(`  policy = "[1]"`), ExpectError: acctest.Wrapped("Invalid cache registry policy")},
			{Config: cfg(`  policy = "save: {}"`), ExpectError: acctest.Wrapped("policy must be valid JSON")},
			{Config: cfg(`  policy = jsonencode({ rules = [{ effect = "deny", action = "save" }] })`),
				ExpectError: acctest.Wrapped(`rules: effect must be "allow"`)},
			{
				Config:        cfg(""),
				ResourceName:  cacheRegistryAddr,
				ImportState:   true,
				ImportStateId: "not-an-id",
				ExpectError:   acctest.Wrapped("<cluster id>/<registry uuid>"),
			},
		},
	})
}

func TestAccClusterCacheRegistryDataSource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("cache-data")
	body := testAccCacheRegistryConfig(cluster, "Gems", `  emoji = ":gem:"`) + `
data "buildkite_cluster_cache_registry" "by_id" {
  cluster_id = buildkite_cluster.test.graphql_id
  id         = buildkite_cluster_cache_registry.test.graphql_id
}

data "buildkite_cluster_cache_registry" "by_name" {
  cluster_id = buildkite_cluster.test.id
  name       = lower(buildkite_cluster_cache_registry.test.name)
}

data "buildkite_cluster_cache_registry" "default" {
  cluster_id = buildkite_cluster.test.id
  slug       = "default"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(`
data "buildkite_cluster_cache_registry" "both" {
  cluster_id = "` + acctest.UnknownUUID + `"
  name       = "a"
  slug       = "a"
}
`),
				ExpectError: acctest.Wrapped("Invalid Attribute Combination"),
			},
			{
				Config: e.Config(body + `
data "buildkite_cluster_cache_registry" "missing" {
  cluster_id = buildkite_cluster.test.id
  name       = "nothing here"
}
`),
				ExpectError: acctest.Wrapped("has no cache registry with the name"),
			},
			{
				Config: e.Config(body),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair("data.buildkite_cluster_cache_registry.by_id", "uuid", cacheRegistryAddr, "uuid"),
					resource.TestCheckResourceAttr("data.buildkite_cluster_cache_registry.by_id", "emoji", ":gem:"),
					resource.TestCheckResourceAttrPair("data.buildkite_cluster_cache_registry.by_name", "id", cacheRegistryAddr, "id"),
					resource.TestCheckResourceAttr("data.buildkite_cluster_cache_registry.default", "name", "Default"),
					resource.TestCheckResourceAttr("data.buildkite_cluster_cache_registry.default", "default", "true"),
					resource.TestCheckResourceAttrSet("data.buildkite_cluster_cache_registry.default", "policy"),
				),
			},
		},
	})
}

// The rows of buildkite_cluster_cache_registry in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster_cache_registry", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_cluster_cache_registry", Attrs: []string{"cluster_id", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			cluster := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccCacheRegistryConfig(cluster, "Identity", `  description = "Found by its cluster and UUID"`),
				Update: testAccCacheRegistryConfig(cluster, "Identity Renamed", `  description = "Found by its cluster and UUID"`),
			}
		},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster_cache_registry", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		ctx := t.Context()
		a, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-a"})
		if err != nil {
			t.Fatal(err)
		}
		// A second cluster, which has only its Default registry.
		if _, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"}); err != nil {
			t.Fatal(err)
		}
		gems, err := e.Client.CacheRegistries.Create(ctx, a.ID, buildkite.CacheRegistryWrite{Name: acctest.PtrTo("Gems"), Emoji: buildkite.Value(":gem:")})
		if err != nil {
			t.Fatal(err)
		}
		// Each cluster's Default registry is listed too.
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster_cache_registry", "a", fmt.Sprintf("    cluster_id = %q", a.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_cache_registry.all", 3),
				querycheck.ExpectLength("buildkite_cluster_cache_registry.a", 2),
				querycheck.ExpectIdentity("buildkite_cluster_cache_registry.a", acctest.IdentityOf("cluster_id", a.ID, "id", gems.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_cache_registry.all",
					acctest.ByIdentity("cluster_id", a.ID, "id", gems.UUID), knownvalue.StringExact(base+"-a / Gems")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_cache_registry.a", acctest.ByIdentity("cluster_id", a.ID, "id", gems.UUID), []querycheck.KnownValueCheck{
					acctest.Known("slug", knownvalue.StringExact("gems")),
					acctest.Known("emoji", knownvalue.StringExact(":gem:")),
					acctest.Known("default", knownvalue.Bool(false)),
				}),
			},
			Imports: 3,
		}
	}},
})

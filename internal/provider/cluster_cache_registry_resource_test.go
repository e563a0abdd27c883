package provider

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func init() {
	registerTestKind("buildkite_cluster_cache_registry", testKind{
		fake:     fakeserver.KindCacheRegistry,
		storeKey: byParent("cluster_id"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.CacheRegistries.Get(ctx, kit.CanonicalID(a["cluster_id"]), a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.CacheRegistries.Delete(ctx, kit.CanonicalID(a["cluster_id"]), a["id"])
		},
	})
}

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
func (e *testEnv) checkCachePolicy(want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[cacheRegistryAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", cacheRegistryAddr)
		}
		c, err := e.client.CacheRegistries.Get(context.Background(), rs.Primary.Attributes["cluster_uuid"], rs.Primary.ID)
		if err != nil {
			return err
		}
		if !policyEquivalent(string(c.Policy), want) {
			return fmt.Errorf("the service holds the policy %s, want %s", c.Policy, want)
		}
		return nil
	}
}

func TestAccClusterCacheRegistryResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cluster := e.name("cache")
	name := e.name("Node Modules")
	// A string action, which the service answers as a list: the configured spelling is kept.
	policy := `{"rules": [{"effect": "allow", "action": "save", "when": "claims.build_branch == 'main'"}, {"effect": "allow", "action": "restore"}]}`
	config := func(name, body string) string { return e.config(testAccCacheRegistryConfig(cluster, name, body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_cache_registry"),
		Steps: steps(
			step(resource.TestStep{
				Config: config(name, fmt.Sprintf("  description = \"npm\"\n  emoji = \":npm:\"\n  policy = jsonencode(%s)", policy)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkExists(cacheRegistryAddr),
					resource.TestCheckResourceAttrPair(cacheRegistryAddr, "id", cacheRegistryAddr, "uuid"),
					resource.TestCheckResourceAttrPair(cacheRegistryAddr, "cluster_uuid", "buildkite_cluster.test", "uuid"),
					resource.TestCheckResourceAttr(cacheRegistryAddr, "slug", kit.SlugOf(name)),
					resource.TestCheckResourceAttr(cacheRegistryAddr, "default", "false"),
					resource.TestCheckResourceAttrSet(cacheRegistryAddr, "graphql_id"),
					e.checkCachePolicy(policy),
				),
				ConfigPlanChecks: expectEmpty(),
			}),
			importSteps(cacheRegistryAddr, importID(cacheRegistryAddr, "cluster_uuid", "id"), "policy"),
			// The official provider's import ID, the GraphQL ID, and the UUID alone.
			step(resource.TestStep{ResourceName: cacheRegistryAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: importID(cacheRegistryAddr, "graphql_id"), ImportStateVerifyIgnore: []string{"policy"}}),
			step(resource.TestStep{
				// Renamed (a new slug), description cleared, the policy replaced.
				Config: config(name+"-yarn", `  emoji = ":npm:"
  policy = jsonencode({ save = { scopes = { branch = true } }, rules = [{ effect = "allow", action = ["save", "restore"] }] })`),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(cacheRegistryAddr, "slug", kit.SlugOf(name+"-yarn")),
					resource.TestCheckNoResourceAttr(cacheRegistryAddr, "description"),
					e.checkCachePolicy(`{"save":{"scopes":{"branch":true}},"rules":[{"effect":"allow","action":["save","restore"]}]}`),
				),
				ConfigPlanChecks: inPlace(cacheRegistryAddr),
			}),
			// The policy removed from the configuration stays as it is.
			step(resource.TestStep{
				Config:           config(name+"-yarn", `  emoji = ":npm:"`),
				ConfigPlanChecks: expectEmpty(),
				Check:            e.checkCachePolicy(`{"save":{"scopes":{"branch":true}},"rules":[{"effect":"allow","action":["save","restore"]}]}`),
			}),
			// A new cluster replaces the registry.
			step(resource.TestStep{
				Config: e.config(fmt.Sprintf(`
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
`, cluster, e.name("cache-other"), name)),
				Check: resource.ComposeAggregateTestCheckFunc(e.checkExists(cacheRegistryAddr),
					resource.TestCheckResourceAttrPair(cacheRegistryAddr, "cluster_uuid", "buildkite_cluster.other", "uuid")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cacheRegistryAddr, plancheck.ResourceActionDestroyBeforeCreate)}},
			}),
		),
	})
}

func TestAccClusterCacheRegistryResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.disappears(cacheRegistryAddr, testAccCacheRegistryConfig(e.name("cache"), e.name("gone"), ""))
}

// TestAccClusterCacheRegistryResource_default: the cluster's Default registry is managed once imported, and
// a destroy of it fails with the service's reason.
func TestAccClusterCacheRegistryResource_default(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	ctx := context.Background()
	cl, err := e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: e.name("cache-default")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.client.Clusters.Delete(ctx, cl.ID) })
	all, err := e.client.CacheRegistries.List(ctx, cl.ID)
	if err != nil || len(all) == 0 {
		t.Fatalf("the cluster's registries: %v, %v", all, err)
	}
	def := all[0]
	cfg := e.config(fmt.Sprintf(`
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
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttr(cacheRegistryAddr, "default", "true")},
			{Config: cfg, Destroy: true, ExpectError: wrapped("The cluster's default cache registry cannot be deleted")},
			{
				Config: e.config(`
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
	e := newTestEnvWith(t, fakeserver.Options{}, swapCachePolicy)
	cluster, name := e.name("cache"), e.name("swapped")
	const sent = `{ rules = [{ effect = "allow", action = ["save", "restore"] }] }`
	config := func(body string) string { return e.config(testAccCacheRegistryConfig(cluster, name, body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_cache_registry"),
		Steps: []resource.TestStep{
			// Created without a policy (a create that fails is tainted by Terraform, so the update is
			// where the state's record shows).
			{Config: config(""), Check: e.checkExists(cacheRegistryAddr)},
			{
				Config:      config("  policy = jsonencode(" + sent + ")"),
				ExpectError: wrapped("Cache Registry Policy Not Applied"),
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
					e.checkExists(cacheRegistryAddr),
					e.checkCachePolicy(heldCachePolicy),
					func(s *terraform.State) error {
						got := s.RootModule().Resources[cacheRegistryAddr].Primary.Attributes["policy"]
						if !policyEquivalent(got, heldCachePolicy) {
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
	e := newTestEnv(t)
	cfg := func(body string) string { return e.config(testAccCacheRegistryConfig(e.name("cache"), "x", body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: cfg(`  policy = "null"`), ExpectError: wrapped("Invalid cache registry policy")},
			{Config: cfg(`  policy = "[1]"`), ExpectError: wrapped("Invalid cache registry policy")},
			{Config: cfg(`  policy = "save: {}"`), ExpectError: wrapped("policy must be valid JSON")},
			{Config: cfg(`  policy = jsonencode({ rules = [{ effect = "deny", action = "save" }] })`),
				ExpectError: wrapped(`rules: effect must be "allow"`)},
			{
				Config:        cfg(""),
				ResourceName:  cacheRegistryAddr,
				ImportState:   true,
				ImportStateId: "not-an-id",
				ExpectError:   wrapped("<cluster id>/<registry uuid>"),
			},
		},
	})
}

func TestAccClusterCacheRegistryDataSource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cluster := e.name("cache-data")
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
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config: e.config(`
data "buildkite_cluster_cache_registry" "both" {
  cluster_id = "` + unknownUUID + `"
  name       = "a"
  slug       = "a"
}
`),
				ExpectError: wrapped("Invalid Attribute Combination"),
			},
			{
				Config: e.config(body + `
data "buildkite_cluster_cache_registry" "missing" {
  cluster_id = buildkite_cluster.test.id
  name       = "nothing here"
}
`),
				ExpectError: wrapped("has no cache registry with the name"),
			},
			{
				Config: e.config(body),
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

// The rows of buildkite_cluster_cache_registry in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster_cache_registry", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_cluster_cache_registry", attrs: []string{"cluster_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			cluster := e.name("identity")
			return identityConfigs{
				create: testAccCacheRegistryConfig(cluster, "Identity", `  description = "Found by its cluster and UUID"`),
				update: testAccCacheRegistryConfig(cluster, "Identity Renamed", `  description = "Found by its cluster and UUID"`),
			}
		},
	},
	// Cache registries live in clusters, which take theirs along; these are the tests' in other clusters.
	sweeper: &sweeper{"buildkite_cluster_cache_registry", "cache-registries", nil, listCacheRegistries},
	query: &queryCase{resourceType: "buildkite_cluster_cache_registry", run: func(t *testing.T, e *testEnv, base string) queryRow {
		ctx := t.Context()
		a, err := e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-a"})
		if err != nil {
			t.Fatal(err)
		}
		// A second cluster, which has only its Default registry.
		if _, err := e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"}); err != nil {
			t.Fatal(err)
		}
		gems, err := e.client.CacheRegistries.Create(ctx, a.ID, buildkite.CacheRegistryWrite{Name: ptrTo("Gems"), Emoji: buildkite.Value(":gem:")})
		if err != nil {
			t.Fatal(err)
		}
		// Each cluster's Default registry is listed too.
		return queryRow{
			blocks: []string{"buildkite_cluster_cache_registry", "a", fmt.Sprintf("    cluster_id = %q", a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_cache_registry.all", 3),
				querycheck.ExpectLength("buildkite_cluster_cache_registry.a", 2),
				querycheck.ExpectIdentity("buildkite_cluster_cache_registry.a", identityOf("cluster_id", a.ID, "id", gems.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_cache_registry.all",
					byIdentity("cluster_id", a.ID, "id", gems.UUID), knownvalue.StringExact(base+"-a / Gems")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_cache_registry.a", byIdentity("cluster_id", a.ID, "id", gems.UUID), []querycheck.KnownValueCheck{
					known("slug", knownvalue.StringExact("gems")),
					known("emoji", knownvalue.StringExact(":gem:")),
					known("default", knownvalue.Bool(false)),
				}),
			},
			imports: 3,
		}
	}},
})

package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccClusterAgentTokenConfig(cluster, clusterRef, description, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "a" {
  name = "%[1]s-a"
}

resource "buildkite_cluster" "b" {
  name = "%[1]s-b"
}

resource "buildkite_cluster_agent_token" "test" {
  cluster_id  = buildkite_cluster.%[2]s.id
  description = %[3]q
%[4]s
}
`, cluster, clusterRef, description, extra)
}

func TestAccClusterAgentTokenResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cluster := e.name("tokens")
	const addr = "buildkite_cluster_agent_token.test"
	var firstToken string

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_agent_token"),
		Steps: append([]resource.TestStep{
			{
				Config: e.config(testAccClusterAgentTokenConfig(cluster, "a", "Autoscaled agents", `  allowed_ip_addresses = ["10.0.0.0/8"]`)),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr),
					resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
						if v == "" {
							return fmt.Errorf("token is empty: the secret from the create response was not kept")
						}
						firstToken = v
						return nil
					}),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs(addr, tfjsonpath.New("cluster_uuid"), "buildkite_cluster.a", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Autoscaled agents")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("10.0.0.0/8")})),
					statecheck.ExpectSensitiveValue(addr, tfjsonpath.New("token")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: importID(addr, "cluster_id", "id"),
				ImportStateVerify: true,
				// The secret is returned only at creation, so an import cannot know it.
				ImportStateVerifyIgnore: []string{"token"},
			},
			generateConfigStep(addr, importID(addr, "cluster_id", "id")),
		}, e.clusterAgentTokenChangeSteps(cluster, addr, &firstToken)...),
	})
}

// clusterAgentTokenChangeSteps change the token created with the secret firstToken: in place (the secret
// stays), then by replacement (with a new secret).
func (e *testEnv) clusterAgentTokenChangeSteps(cluster, addr string, firstToken *string) []resource.TestStep {
	return []resource.TestStep{
		{
			// Description and network change in place; the secret stays.
			Config: e.config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", `  allowed_ip_addresses = ["192.168.0.0/16", "172.16.0.0/12"]`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
				if v != *firstToken {
					return fmt.Errorf("token changed on an in-place update")
				}
				return nil
			}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Static agents")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("192.168.0.0/16"), knownvalue.StringExact("172.16.0.0/12")})),
			},
		},
		{
			// Dropping the network restriction is an update too.
			Config: e.config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.Null()),
			},
		},
		{
			// An expiry cannot be changed in place: setting one replaces the token.
			Config: e.config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", `  expires_at = "2030-01-01T00:00:00Z"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("expires_at"), knownvalue.StringExact("2030-01-01T00:00:00Z")),
			},
		},
		{
			// Moving to another cluster replaces the token, with a new secret.
			Config: e.config(testAccClusterAgentTokenConfig(cluster, "b", "Static agents", "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttrPair(addr, "cluster_id", "buildkite_cluster.b", "id"),
				resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
					if v == "" || v == *firstToken {
						return fmt.Errorf("replacement token should carry a new secret")
					}
					return nil
				}),
			),
		},
	}
}

func TestAccClusterAgentTokenResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_agent_token.test"
	cfg := e.config(testAccClusterAgentTokenConfig(e.name("gone"), "a", "gone", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_agent_token"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.removeOutside(addr),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: e.checkExists(addr),
			},
		},
	})
}

func TestAccClusterAgentTokenResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccClusterAgentTokenConfig("c", "a", "x", `  allowed_ip_addresses = ["10.0.0.300/8"]`)),
				ExpectError: regexpMust(`"10.0.0.300/8" is not a network in CIDR notation`),
			},
			{
				Config:      e.config(testAccClusterAgentTokenConfig("c", "a", "x", `  allowed_ip_addresses = ["10.0.0.1/8"]`)),
				ExpectError: regexpMust(`"10.0.0.1/8" has host bits set; the network it names[\s]+is "10.0.0.0/8"`),
			},
			{
				Config:      e.config(testAccClusterAgentTokenConfig("c", "a", "x", `  expires_at = "next tuesday"`)),
				ExpectError: regexpMust(`expires_at must be an RFC 3339 timestamp`),
				PlanOnly:    true,
			},
			{
				Config:        e.config(testAccClusterAgentTokenConfig("c", "a", "x", "")),
				ResourceName:  "buildkite_cluster_agent_token.test",
				ImportState:   true,
				ImportStateId: "only-a-cluster",
				ExpectError:   regexpMust(`Expected an import ID of the form "<cluster id>/<token id>"`),
			},
		},
	})
}

func init() {
	registerTestKind("buildkite_cluster_agent_token", testKind{
		fake:     fakeserver.KindClusterToken,
		storeKey: byParent("cluster_id"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.ClusterTokens.Get(ctx, a["cluster_uuid"], a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.ClusterTokens.Delete(ctx, a["cluster_uuid"], a["id"])
		},
	})
}

// The rows of buildkite_cluster_agent_token in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster_agent_token", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_cluster_agent_token", attrs: []string{"cluster_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create: testAccClusterAgentTokenConfig(e.name("identity"), "a", "CI agents", `  allowed_ip_addresses = ["10.0.0.0/8"]`),
				secret: "token",
			}
		},
	},
	migration: []migrationCase{
		{name: "cluster_agent_token", add: (*officialWorkspace).addAgentToken, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_cluster_agent_token.agents", map[string]any{"token": "moved-secret"})
		}},
	},
	query: &queryCase{resourceType: "buildkite_cluster_agent_token", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		tokenA := byIdentity("cluster_id", s.a.ID, "id", s.tokenA.ID)
		return queryRow{
			blocks: []string{"buildkite_cluster_agent_token", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_agent_token.all", 2),
				querycheck.ExpectLength("buildkite_cluster_agent_token.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_agent_token.b", identityOf("cluster_id", s.b.ID, "id", s.tokenB.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_agent_token.all", tokenA, knownvalue.StringExact(base+"-a / CI agents")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_agent_token.all", tokenA, []querycheck.KnownValueCheck{
					known("allowed_ip_addresses", knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("10.0.0.0/8"), knownvalue.StringExact("192.168.1.0/24"),
					})),
					known("expires_at", knownvalue.StringExact("2030-01-01T00:00:00Z")),
					known("token", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	lostSecret: &lostSecretCase{
		name: "cluster agent token", typ: "buildkite_cluster_agent_token", kind: "Cluster Agent Token", secret: "token",
		path: func(r *http.Request) bool {
			return strings.Contains(r.URL.Path, "/clusters/") && strings.HasSuffix(r.URL.Path, "/tokens")
		},
		item: func(p string) bool { return strings.Contains(p, "/clusters/") && strings.Contains(p, "/tokens/") },
		config: func(prefix string, instances ...string) string {
			out := fmt.Sprintf("resource \"buildkite_cluster\" \"a\" {\n  name = %q\n}\n", prefix)
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_cluster_agent_token\" %q {\n  cluster_id  = buildkite_cluster.a.id\n  description = %q\n}\n", in, prefix+"-"+in)
			}
			return out
		},
	},
	upgrade: []upgradeCase{
		{
			name: "agent token, ours at version 0", typeName: "buildkite_cluster_agent_token", version: 0,
			state: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": "T", "cluster_id": testUUID, "description": "d",
				"allowed_ip_addresses": nil, "expires_at": nil, "token": "s", "url": "u"},
			want: map[string]any{"cluster_uuid": testUUID, "token": "s"},
		},
		{
			name: "agent token, the official provider's", typeName: "buildkite_cluster_agent_token", version: 0,
			state: map[string]any{"id": kit.GraphQLID("ClusterToken", otherUUID), "uuid": otherUUID, "cluster_id": clusterGraphQLID,
				"cluster_uuid": testUUID, "description": "d", "allowed_ip_addresses": []any{}, "token": "s"},
			want: map[string]any{"id": otherUUID, "cluster_id": testUUID, "allowed_ip_addresses": nil, "token": "s", "expires_at": nil},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		clusters, err := c.Clusters.List(ctx)
		return childIDs(clusters, err, func(cl buildkite.Cluster) ([]buildkite.ClusterToken, error) { return c.ClusterTokens.List(ctx, cl.ID) },
			func(t buildkite.ClusterToken) string { return t.ID })
	},
	exempt: map[string]string{
		tableSweeper: "A cluster's agent tokens go with their cluster, which the cluster sweeper removes.",
	},
})

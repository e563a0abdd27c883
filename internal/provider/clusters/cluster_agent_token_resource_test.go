package clusters_test

import (
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

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
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
	e := acctest.NewTestEnv(t)
	cluster := e.Name("tokens")
	const addr = "buildkite_cluster_agent_token.test"
	var firstToken string

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_agent_token"),
		Steps: append([]resource.TestStep{
			{
				Config: e.Config(testAccClusterAgentTokenConfig(cluster, "a", "Autoscaled agents", `  allowed_ip_addresses = ["10.0.0.0/8"]`)),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr),
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
				ImportStateIdFunc: acctest.ImportID(addr, "cluster_id", "id"),
				ImportStateVerify: true,
				// The secret is returned only at creation, so an import cannot know it.
				ImportStateVerifyIgnore: []string{"token"},
			},
			acctest.GenerateConfigStep(addr, acctest.ImportID(addr, "cluster_id", "id")),
		}, clusterAgentTokenChangeSteps(e, cluster, addr, &firstToken)...),
	})
}

// clusterAgentTokenChangeSteps change the token created with the secret firstToken: in place (the secret
// stays), then by replacement (with a new secret).
func clusterAgentTokenChangeSteps(e *acctest.TestEnv, cluster, addr string, firstToken *string) []resource.TestStep {
	return []resource.TestStep{
		{
			// Description and network change in place; the secret stays.
			Config: e.Config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", `  allowed_ip_addresses = ["192.168.0.0/16", "172.16.0.0/12"]`)),
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
			Config: e.Config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", "")),
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
			Config: e.Config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", `  expires_at = "2030-01-01T00:00:00Z"`)),
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
			Config: e.Config(testAccClusterAgentTokenConfig(cluster, "b", "Static agents", "")),
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
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_agent_token.test"
	cfg := e.Config(testAccClusterAgentTokenConfig(e.Name("gone"), "a", "gone", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_agent_token"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.RemoveOutside(addr),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: e.CheckExists(addr),
			},
		},
	})
}

func TestAccClusterAgentTokenResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(testAccClusterAgentTokenConfig("c", "a", "x", `  allowed_ip_addresses = ["10.0.0.300/8"]`)),
				ExpectError: acctest.RegexpMust(`"10.0.0.300/8" is not a network in CIDR notation`),
			},
			{
				Config:      e.Config(testAccClusterAgentTokenConfig("c", "a", "x", `  allowed_ip_addresses = ["10.0.0.1/8"]`)),
				ExpectError: acctest.RegexpMust(`"10.0.0.1/8" has host bits set; the network it names[\s]+is "10.0.0.0/8"`),
			},
			{
				Config:      e.Config(testAccClusterAgentTokenConfig("c", "a", "x", `  expires_at = "next tuesday"`)),
				ExpectError: acctest.RegexpMust(`expires_at must be an RFC 3339 timestamp`),
				PlanOnly:    true,
			},
			{
				Config:        e.Config(testAccClusterAgentTokenConfig("c", "a", "x", "")),
				ResourceName:  "buildkite_cluster_agent_token.test",
				ImportState:   true,
				ImportStateId: "only-a-cluster",
				ExpectError:   acctest.RegexpMust(`Expected an import ID of the form "<cluster id>/<token id>"`),
			},
		},
	})
}

// The rows of buildkite_cluster_agent_token in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster_agent_token", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_cluster_agent_token", Attrs: []string{"cluster_id", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{
				Create: testAccClusterAgentTokenConfig(e.Name("identity"), "a", "CI agents", `  allowed_ip_addresses = ["10.0.0.0/8"]`),
				Secret: "token",
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "cluster_agent_token", Add: (*acctest.OfficialWorkspace).AddAgentToken, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_cluster_agent_token.agents", map[string]any{"token": "moved-secret"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster_agent_token", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedClusters(t, base)
		tokenA := acctest.ByIdentity("cluster_id", s.A.ID, "id", s.TokenA.ID)
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster_agent_token", "b", fmt.Sprintf("    cluster_id = %q", s.B.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_agent_token.all", 2),
				querycheck.ExpectLength("buildkite_cluster_agent_token.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_agent_token.b", acctest.IdentityOf("cluster_id", s.B.ID, "id", s.TokenB.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_agent_token.all", tokenA, knownvalue.StringExact(base+"-a / CI agents")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_agent_token.all", tokenA, []querycheck.KnownValueCheck{
					acctest.Known("allowed_ip_addresses", knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("10.0.0.0/8"), knownvalue.StringExact("192.168.1.0/24"),
					})),
					acctest.Known("expires_at", knownvalue.StringExact("2030-01-01T00:00:00Z")),
					acctest.Known("token", knownvalue.Null()),
				}),
			},
			Imports: 2,
		}
	}},
	LostSecret: &acctest.LostSecretCase{
		Name: "cluster agent token", Typ: "buildkite_cluster_agent_token", Kind: "Cluster Agent Token", Secret: "token",
		Path: func(r *http.Request) bool {
			return strings.Contains(r.URL.Path, "/clusters/") && strings.HasSuffix(r.URL.Path, "/tokens")
		},
		Item: func(p string) bool { return strings.Contains(p, "/clusters/") && strings.Contains(p, "/tokens/") },
		Config: func(prefix string, instances ...string) string {
			out := fmt.Sprintf("resource \"buildkite_cluster\" \"a\" {\n  name = %q\n}\n", prefix)
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_cluster_agent_token\" %q {\n  cluster_id  = buildkite_cluster.a.id\n  description = %q\n}\n", in, prefix+"-"+in)
			}
			return out
		},
	},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "agent token, ours at version 0", TypeName: "buildkite_cluster_agent_token", Version: 0,
			State: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "graphql_id": "T", "cluster_id": acctest.TestUUID, "description": "d",
				"allowed_ip_addresses": nil, "expires_at": nil, "token": "s", "url": "u"},
			Want: map[string]any{"cluster_uuid": acctest.TestUUID, "token": "s"},
		},
		{
			Name: "agent token, the official provider's", TypeName: "buildkite_cluster_agent_token", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("ClusterToken", acctest.OtherUUID), "uuid": acctest.OtherUUID, "cluster_id": acctest.ClusterGraphQLID,
				"cluster_uuid": acctest.TestUUID, "description": "d", "allowed_ip_addresses": []any{}, "token": "s"},
			Want: map[string]any{"id": acctest.OtherUUID, "cluster_id": acctest.TestUUID, "allowed_ip_addresses": nil, "token": "s", "expires_at": nil},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A cluster's agent tokens go with their cluster, which the cluster sweeper removes.",
	},
})

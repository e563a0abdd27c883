package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/fakeserver"
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
	cluster := e.uniqueName("tokens")
	const addr = "buildkite_cluster_agent_token.test"
	var firstToken string

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_agent_token", fakeserver.KindClusterToken, "cluster_id"),
		Steps: []resource.TestStep{
			{
				Config: e.config(testAccClusterAgentTokenConfig(cluster, "a", "Autoscaled agents", `  allowed_ip_addresses = "10.0.0.0/8"`)),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr, fakeserver.KindClusterToken, "cluster_id"),
					resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
						if v == "" {
							return fmt.Errorf("token is empty: the secret from the create response was not kept")
						}
						firstToken = v
						return nil
					}),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Autoscaled agents")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.StringExact("10.0.0.0/8")),
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
			{
				// Description and network change in place; the secret stays.
				Config: e.config(testAccClusterAgentTokenConfig(cluster, "a", "Static agents", `  allowed_ip_addresses = "192.168.0.0/16"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
					if v != firstToken {
						return fmt.Errorf("token changed on an in-place update")
					}
					return nil
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Static agents")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.StringExact("192.168.0.0/16")),
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
				// Moving to another cluster replaces the token, with a new secret.
				Config: e.config(testAccClusterAgentTokenConfig(cluster, "b", "Static agents", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "cluster_id", "buildkite_cluster.b", "id"),
					resource.TestCheckResourceAttrWith(addr, "token", func(v string) error {
						if v == "" || v == firstToken {
							return fmt.Errorf("replacement token should carry a new secret")
						}
						return nil
					}),
				),
			},
		},
	})
}

func TestAccClusterAgentTokenResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_agent_token.test"
	cfg := e.config(testAccClusterAgentTokenConfig(e.uniqueName("gone"), "a", "gone", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_agent_token", fakeserver.KindClusterToken, "cluster_id"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.removeOutside(addr, fakeserver.KindClusterToken, "cluster_id"),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: e.checkExists(addr, fakeserver.KindClusterToken, "cluster_id"),
			},
		},
	})
}

func TestAccClusterAgentTokenResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccClusterAgentTokenConfig("c", "a", "x", `  allowed_ip_addresses = "10.0.0.300/8"`)),
				ExpectError: regexpMust(`"10.0.0.300/8" is not a network in CIDR notation`),
				PlanOnly:    true,
			},
			{
				Config:        e.config(testAccClusterAgentTokenConfig("c", "a", "x", "")),
				ResourceName:  "buildkite_cluster_agent_token.test",
				ImportState:   true,
				ImportStateId: "only-a-cluster",
				ExpectError:   regexpMust(`Expected "<cluster id>/<token id>"`),
			},
		},
	})
}

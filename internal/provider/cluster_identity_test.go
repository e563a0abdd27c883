package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Import by identity (Terraform 1.12+) of the cluster resources; `make testacc-next` runs these.

func TestAccClusterResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster"),
		Steps: steps(
			step(resource.TestStep{
				Config:            e.config(testAccClusterConfig(e.name("identity"), `  description = "Found by its ID"`)),
				ConfigStateChecks: expectIdentity(addr, "id"),
			}),
			identityImportSteps(addr),
		),
	})
}

func TestAccClusterQueueResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	cluster := e.name("identity")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  description = "Linux agents"`)),
				ConfigStateChecks: append(expectIdentity(addr, "cluster_id", "key"),
					statecheck.ExpectIdentityValue(addr, tfjsonpath.New("key"), knownvalue.StringExact("linux"))),
			}),
			identityImportSteps(addr),
			// The identity stays with the queue through an update in place.
			step(resource.TestStep{
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  dispatch_paused = true`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(addr, "cluster_id", "key"),
			}),
		),
	})
}

// TestAccClusterQueueResource_identityInvalid imports with identities that cannot name a queue: each is
// refused at plan time, naming the attribute.
func TestAccClusterQueueResource_identityInvalid(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	importBlock := func(clusterID, key string) string {
		return e.config(`
import {
  to       = buildkite_cluster_queue.test
  identity = {
    cluster_id = "` + clusterID + `"
    key        = "` + key + `"
  }
}

resource "buildkite_cluster_queue" "test" {
  cluster_id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"
  key        = "` + key + `"
}
`)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      importBlock("Q2x1c3Rlci0tLWFiYw==", "linux"),
				PlanOnly:    true,
				ExpectError: wrapped(`cluster_id (<cluster id>) "Q2x1c3Rlci0tLWFiYw==" is not a UUID`),
			},
			{
				Config:      importBlock("0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b", "linux"),
				PlanOnly:    true,
				ExpectError: wrapped(`Unable to Import Cluster Queue`),
			},
		},
	})
}

func TestAccClusterAgentTokenResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_agent_token.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_agent_token"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccClusterAgentTokenConfig(e.name("identity"), "a", "CI agents",
					`  allowed_ip_addresses = ["10.0.0.0/8"]`)),
				ConfigStateChecks: expectIdentity(addr, "cluster_id", "id"),
			}),
			// The secret is not returned after creation, so an imported token has none.
			step(resource.TestStep{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectKnownValue(addr, tfjsonpath.New("token"), knownvalue.Null())},
				},
			}),
			step(resource.TestStep{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				GenerateConfig:  true,
			}),
		),
	})
}

func TestAccClusterDefaultQueueResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDefaultQueueDestroyed,
		Steps: steps(
			step(resource.TestStep{
				Config:            e.config(testAccClusterDefaultQueueConfig(e.name("identity"), "a", "a1")),
				ConfigStateChecks: expectIdentity(addr, "cluster_id"),
			}),
			identityImportSteps(addr),
		),
	})
}

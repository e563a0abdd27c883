package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestAccImportByStateID imports every type of the cluster and registry areas with the `id` Terraform holds
// for it (an import step without an ID of its own, as the official provider's tests write them): objects of a
// cluster, and registry tokens, find their parent by asking each one. Other clusters stand beside the one
// that holds them, so the search has to pass over some.
func TestAccImportByStateID(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("byid")
	cfg := e.Config(`
resource "buildkite_cluster" "empty" {
  name = "` + name + `-empty"
}

resource "buildkite_cluster" "test" {
  name        = "` + name + `"
  description = "Imported by ID"
}

resource "buildkite_cluster_queue" "test" {
  cluster_id  = buildkite_cluster.test.id
  key         = "linux"
  description = "Linux agents"
}

resource "buildkite_cluster_default_queue" "test" {
  cluster_id = buildkite_cluster.test.id
  queue_id   = buildkite_cluster_queue.test.id
}

resource "buildkite_cluster_agent_token" "test" {
  cluster_id  = buildkite_cluster.test.id
  description = "agents"
}

resource "buildkite_cluster_secret" "test" {
  cluster_id  = buildkite_cluster.test.id
  key         = "DEPLOY_KEY"
  value       = "s3cret"
  description = "Deploys"
}

resource "buildkite_team" "test" {
  name                = "` + name + `"
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}

resource "buildkite_cluster_maintainer" "test" {
  cluster_uuid = buildkite_cluster.test.uuid
  team_uuid    = buildkite_team.test.uuid
}

resource "buildkite_registry" "other" {
  name      = "` + name + `-other"
  ecosystem = "ruby"
}

resource "buildkite_registry" "test" {
  name      = "` + name + `"
  ecosystem = "java"
}

resource "buildkite_registry_token" "test" {
  registry_id = buildkite_registry.test.id
  description = "CI"
}
`)
	byID := func(address string, ignore ...string) resource.TestStep {
		return resource.TestStep{ResourceName: address, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: ignore}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: acctest.ExpectEmpty()},
			byID("buildkite_cluster.test"),
			byID("buildkite_cluster_queue.test"),
			byID("buildkite_cluster_default_queue.test"),
			byID("buildkite_cluster_agent_token.test", "token"),
			byID("buildkite_cluster_secret.test", "value"),
			byID("buildkite_cluster_maintainer.test"),
			byID("buildkite_registry.test", "team_ids"),
			byID("buildkite_registry_token.test", "token"),
			{
				ResourceName: "buildkite_cluster_queue.test", ImportState: true, ImportStateId: acctest.UnknownUUID,
				ExpectError: regexp.MustCompile(`Cannot Import Cluster Queue`),
			},
		},
	})
}

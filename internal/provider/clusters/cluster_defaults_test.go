package clusters_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestAccClusterDataSources_newOrganization runs against an emulator that starts as a new Buildkite
// organization does (SeedDefaults): configurations written against the real service find its "Default
// cluster" and that cluster's default queue, "default-queue", and can add queues to it.
func TestAccClusterDataSources_newOrganization(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{SeedDefaults: true})
	if e.Live {
		t.Skip("the live organization is not new")
	}
	cfg := e.Config(`
data "buildkite_clusters" "all" {}

data "buildkite_cluster" "default" {
  name = "Default cluster"
}

resource "buildkite_cluster_queue" "extra" {
  cluster_id = data.buildkite_cluster.default.id
  key        = "extra"
}
`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.buildkite_clusters.all", tfjsonpath.New("clusters"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue("data.buildkite_clusters.all", tfjsonpath.New("clusters").AtSliceIndex(0).AtMapKey("name"),
					knownvalue.StringExact(fakeserver.DefaultClusterName)),
				statecheck.ExpectKnownValue("data.buildkite_cluster.default", tfjsonpath.New("default_queue").AtMapKey("key"),
					knownvalue.StringExact(fakeserver.DefaultQueueKey)),
				statecheck.ExpectKnownValue("data.buildkite_cluster.default", tfjsonpath.New("default_queue_id"), knownvalue.NotNull()),
			},
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

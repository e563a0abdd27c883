package clusters_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func TestAccClusterResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("platform")
	const addr = "buildkite_cluster.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(acctest.ClusterConfig(name, `  description = "Runs the platform's builds"
  emoji       = ":rocket:"
  color       = "#A8D5FF"`)),
				Check: e.CheckExists(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Runs the platform's builds")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji"), knownvalue.StringExact(":rocket:")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("color"), knownvalue.StringExact("#A8D5FF")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("url"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			acctest.GenerateConfigStep(addr, acctest.ImportID(addr, "id")),
			{
				// Update in place: rename, change the color, drop the emoji and description.
				Config: e.Config(acctest.ClusterConfig(name+"-2", `  color = "#000000"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name+"-2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("color"), knownvalue.StringExact("#000000")),
				},
			},
		},
	})
}

func TestAccClusterResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster.test"
	cfg := e.Config(acctest.ClusterConfig(e.Name("gone"), ""))

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.CheckExists(addr), e.RemoveOutside(addr)),
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

func TestAccClusterResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(acctest.ClusterConfig("", "")),
				ExpectError: acctest.RegexpMust(`name must contain a character other than white space`),
				PlanOnly:    true,
			},
			{
				Config:      e.Config(acctest.ClusterConfig("   ", "")),
				ExpectError: acctest.RegexpMust(`name must contain a character other than white space`),
				PlanOnly:    true,
			},
		},
	})
}

func TestAccClusterResource_importUnknown(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:        e.Config(acctest.ClusterConfig("x", "")),
			ResourceName:  "buildkite_cluster.test",
			ImportState:   true,
			ImportStateId: "00000000-0000-0000-0000-000000000000",
			ExpectError:   acctest.RegexpMust(`Cannot import non-existent remote object`),
		}},
	})
}

// The rows of buildkite_cluster in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_cluster", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{Create: acctest.ClusterConfig(e.Name("identity"), `  description = "Found by its ID"`)}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "cluster", Add: (*acctest.OfficialWorkspace).AddCluster, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			a := w.StateAttributes("buildkite_cluster.main")
			if a["id"] != a["uuid"] || !kit.IsUUID(fmt.Sprint(a["id"])) {
				t.Errorf("after the move id = %v, uuid = %v: want both the UUID", a["id"], a["uuid"])
			}
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "Cluster" {
				t.Errorf("after the move graphql_id = %v, want the cluster's GraphQL ID", a["graphql_id"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedClusters(t, base)
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster", "named", fmt.Sprintf("    name = %q", base+"-A")},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster.all", 2),
				querycheck.ExpectLength("buildkite_cluster.named", 1),
				querycheck.ExpectIdentity("buildkite_cluster.named", acctest.IdentityOf("id", s.A.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster.all", acctest.ByIdentity("id", s.B.ID), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", acctest.ByIdentity("id", s.A.ID), []querycheck.KnownValueCheck{
					acctest.Known("name", knownvalue.StringExact(base+"-a")),
					acctest.Known("emoji", knownvalue.StringExact(":rocket:")),
					acctest.Known("color", knownvalue.StringExact("#A8D5FF")),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", acctest.ByIdentity("id", s.B.ID),
					[]querycheck.KnownValueCheck{acctest.Known("description", knownvalue.Null())}),
			},
			Imports: 2,
		}
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "cluster, ours at version 0", TypeName: "buildkite_cluster", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": acctest.ClusterGraphQLID, "name": "c",
				"description": nil, "emoji": nil, "color": nil, "url": "u", "web_url": "w"},
			Want: map[string]any{"id": acctest.TestUUID, "graphql_id": acctest.ClusterGraphQLID, "url": "u", "description": nil},
		},
		{
			Name: "cluster, the official provider's", TypeName: "buildkite_cluster", Version: 0,
			State: map[string]any{"id": acctest.ClusterGraphQLID, "uuid": acctest.TestUUID, "name": "c", "description": "d",
				"emoji": nil, "color": ""},
			Want: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": acctest.ClusterGraphQLID, "description": "d", "color": nil, "url": nil},
		},
		{
			Name: "cluster, the official provider's without uuid", TypeName: "buildkite_cluster", Version: 0,
			State: map[string]any{"id": acctest.ClusterGraphQLID, "name": "c"},
			Want:  map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": acctest.ClusterGraphQLID},
		},
	},
})

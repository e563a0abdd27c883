package provider

import (
	"context"
	"fmt"
	"testing"

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

func testAccClusterConfig(name, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
%s
}
`, name, extra)
}

func TestAccClusterResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	name := e.name("platform")
	const addr = "buildkite_cluster.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config: e.config(testAccClusterConfig(name, `  description = "Runs the platform's builds"
  emoji       = ":rocket:"
  color       = "#A8D5FF"`)),
				Check: e.checkExists(addr),
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
			generateConfigStep(addr, importID(addr, "id")),
			{
				// Update in place: rename, change the color, drop the emoji and description.
				Config: e.config(testAccClusterConfig(name+"-2", `  color = "#000000"`)),
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
	e := newTestEnv(t)
	const addr = "buildkite_cluster.test"
	cfg := e.config(testAccClusterConfig(e.name("gone"), ""))

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.checkExists(addr), e.removeOutside(addr)),
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

func TestAccClusterResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccClusterConfig("", "")),
				ExpectError: regexpMust(`name must contain a character other than white space`),
				PlanOnly:    true,
			},
			{
				Config:      e.config(testAccClusterConfig("   ", "")),
				ExpectError: regexpMust(`name must contain a character other than white space`),
				PlanOnly:    true,
			},
		},
	})
}

func TestAccClusterResource_importUnknown(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config:        e.config(testAccClusterConfig("x", "")),
			ResourceName:  "buildkite_cluster.test",
			ImportState:   true,
			ImportStateId: "00000000-0000-0000-0000-000000000000",
			ExpectError:   regexpMust(`Cannot import non-existent remote object`),
		}},
	})
}

func init() {
	registerTestKind("buildkite_cluster", testKind{
		fake:     fakeserver.KindCluster,
		storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Clusters.Get(ctx, a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Clusters.Delete(ctx, a["id"])
		},
	})
}

// The rows of buildkite_cluster in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_cluster", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{create: testAccClusterConfig(e.name("identity"), `  description = "Found by its ID"`)}
		},
	},
	migration: []migrationCase{
		{name: "cluster", add: (*officialWorkspace).addCluster, check: func(t *testing.T, w *cliWorkdir) {
			a := w.stateAttributes("buildkite_cluster.main")
			if a["id"] != a["uuid"] || !kit.IsUUID(fmt.Sprint(a["id"])) {
				t.Errorf("after the move id = %v, uuid = %v: want both the UUID", a["id"], a["uuid"])
			}
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "Cluster" {
				t.Errorf("after the move graphql_id = %v, want the cluster's GraphQL ID", a["graphql_id"])
			}
		}},
	},
	sweeper: &sweeper{"buildkite_cluster", "clusters", []string{"buildkite_pipeline", "buildkite_notification_service", "buildkite_cluster_cache_registry",
		"buildkite_hosted_agent_image"}, listClusters},
	query: &queryCase{resourceType: "buildkite_cluster", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		return queryRow{
			blocks: []string{"buildkite_cluster", "named", fmt.Sprintf("    name = %q", base+"-A")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster.all", 2),
				querycheck.ExpectLength("buildkite_cluster.named", 1),
				querycheck.ExpectIdentity("buildkite_cluster.named", identityOf("id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster.all", byIdentity("id", s.b.ID), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", byIdentity("id", s.a.ID), []querycheck.KnownValueCheck{
					known("name", knownvalue.StringExact(base+"-a")),
					known("emoji", knownvalue.StringExact(":rocket:")),
					known("color", knownvalue.StringExact("#A8D5FF")),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", byIdentity("id", s.b.ID),
					[]querycheck.KnownValueCheck{known("description", knownvalue.Null())}),
			},
			imports: 2,
		}
	}},
	upgrade: []upgradeCase{
		{
			name: "cluster, ours at version 0", typeName: "buildkite_cluster", version: 0,
			state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "name": "c",
				"description": nil, "emoji": nil, "color": nil, "url": "u", "web_url": "w"},
			want: map[string]any{"id": testUUID, "graphql_id": clusterGraphQLID, "url": "u", "description": nil},
		},
		{
			name: "cluster, the official provider's", typeName: "buildkite_cluster", version: 0,
			state: map[string]any{"id": clusterGraphQLID, "uuid": testUUID, "name": "c", "description": "d",
				"emoji": nil, "color": ""},
			want: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "description": "d", "color": nil, "url": nil},
		},
		{
			name: "cluster, the official provider's without uuid", typeName: "buildkite_cluster", version: 0,
			state: map[string]any{"id": clusterGraphQLID, "name": "c"},
			want:  map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Clusters.List(ctx)
		return serviceIDs(all, err, func(cl buildkite.Cluster) string { return cl.ID })
	},
})

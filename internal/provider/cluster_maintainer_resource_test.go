package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The maintainer's life cycle (create, import, replacement, deletion outside Terraform) is its row of
// associationCases; this file has its test kind and what is particular to it.

func init() {
	registerTestKind("buildkite_cluster_maintainer", testKind{
		fake:     fakeserver.KindClusterMaintainer,
		storeKey: byParent("cluster_uuid"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.ClusterMaintainers.Get(ctx, a["cluster_uuid"], a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.ClusterMaintainers.Delete(ctx, a["cluster_uuid"], a["id"])
		},
	})
}

// testAccClusterMaintainerConfig makes team "<team>" a maintainer of cluster "<cluster>".
func testAccClusterMaintainerConfig(cluster, team string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_team" "test" {
  name                = %q
  privacy             = "visible"
  default_team        = false
  default_member_role = "member"
}

resource "buildkite_cluster_maintainer" "test" {
  cluster_uuid = buildkite_cluster.test.uuid
  team_uuid    = buildkite_team.test.id
}
`, cluster, team)
}

// TestAccClusterMaintainerResource_team makes a team a maintainer: the actor attributes are the team's
// (a slug, no e-mail address) and user_uuid stays null; import by ID reads the same back.
func TestAccClusterMaintainerResource_team(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_maintainer.test"
	team := e.name("maintainers")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_maintainer"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccClusterMaintainerConfig(e.name("maintained"), team)),
				Check: resource.ComposeTestCheckFunc(e.checkExists(addr),
					resource.TestCheckResourceAttrPair(addr, "actor_uuid", "buildkite_team.test", "id"),
					resource.TestCheckResourceAttrPair(addr, "actor_slug", "buildkite_team.test", "slug"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actor_type"), knownvalue.StringExact("team")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actor_name"), knownvalue.StringExact(team)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actor_email"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_uuid"), knownvalue.Null()),
				},
				ConfigPlanChecks: expectEmpty(),
			}),
			importSteps(addr, importID(addr, "cluster_uuid", "id")),
		),
	})
}

func TestAccClusterMaintainerResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	body := func(actors string) string {
		return e.config(`
resource "buildkite_cluster_maintainer" "test" {
  cluster_uuid = "` + unknownUUID + `"
` + actors + `
}
`)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: body(""), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*Either user_uuid or team_uuid must be specified`)},
			{Config: body(`  user_uuid = ""`), PlanOnly: true, ExpectError: regexp.MustCompile(`Either user_uuid or team_uuid must be specified`)},
			{Config: body(`  user_uuid = "` + unknownUUID + `"
  team_uuid = "` + unknownUUID + `"`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*Only one of user_uuid or team_uuid can be specified`)},
			{Config: body(`  team_uuid = "platform"`), PlanOnly: true, ExpectError: wrapped(`must be a UUID`)},
			{
				Config: body(`  team_uuid = "` + unknownUUID + `"`), ResourceName: "buildkite_cluster_maintainer.test",
				ImportState: true, ImportStateId: unknownUUID,
				ExpectError: wrapped(`Expected an import ID of the form "<cluster id>/<maintainer id>"`),
			},
		},
	})
}

// The rows of buildkite_cluster_maintainer in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster_maintainer", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_cluster_maintainer", attrs: []string{"cluster_uuid", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{create: testAccClusterMaintainerConfig(e.name("identity"), e.name("identity-team"))}
		},
	},
	migration: []migrationCase{
		{name: "cluster_maintainer", add: (*officialWorkspace).addMaintainer, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_cluster_maintainer.platform", map[string]any{"actor_type": "team", "user_uuid": nil})
		}},
	},
	exempt: map[string]string{
		tableSweeper: "A cluster's maintainers go with their cluster, which the cluster sweeper removes.",
	},
})

package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
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
	query: &queryCase{resourceType: "buildkite_cluster_maintainer", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedBeyondSpec(t, base)
		assignment := func(c *buildkite.Cluster, m *buildkite.ClusterMaintainer) queryfilter.QueryFilter {
			return byIdentity("cluster_uuid", c.ID, "id", m.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_cluster_maintainer", "a", fmt.Sprintf("    cluster_uuid = %q", s.a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_maintainer.all", 3),
				querycheck.ExpectLength("buildkite_cluster_maintainer.a", 2),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_maintainer.all", assignment(s.b, s.teamOfB), knownvalue.StringExact(base+"-b / "+s.team.Name)),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_maintainer.a", assignment(s.a, s.userOfA), []querycheck.KnownValueCheck{
					known("user_uuid", knownvalue.StringExact(s.member.ID)),
					known("team_uuid", knownvalue.Null()),
					known("actor_email", knownvalue.StringExact(s.member.Email)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_maintainer.a", assignment(s.a, s.teamOfA), []querycheck.KnownValueCheck{
					known("team_uuid", knownvalue.StringExact(s.team.ID)),
					known("actor_slug", knownvalue.StringExact(s.team.Slug)),
				}),
			},
			refused: []queryRefusal{{fmt.Sprintf(unknownUUIDFilter, "cluster_uuid"), wrapped(`No cluster matches the ID "` + unknownUUID + `"`)}},
			imports: 3,
		}
	}},
	association: &associationCase{
		// An assignment with an ID of its own, which nothing changes in place: every change replaces it.
		resourceType: "buildkite_cluster_maintainer",
		importAttrs:  []string{"cluster_uuid", "id"},
		values:       []string{"user"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			clusters := twoClusters(e, "assoc-maintainer")
			email := e.secondMemberEmail()
			return func(parent, _ string) string {
				return clusters + fmt.Sprintf(`
data "buildkite_organization_member" "m" {
  email = %q
}

resource "buildkite_cluster_maintainer" "test" {
  cluster_uuid = buildkite_cluster.%s.uuid
  user_uuid    = data.buildkite_organization_member.m.id
}
`, email, parent)
			}
		},
	},
	upgrade: []upgradeCase{
		{
			name: "maintainer, the official provider's at version 1", typeName: "buildkite_cluster_maintainer", version: 1,
			state: map[string]any{"id": otherUUID, "cluster_uuid": testUUID, "user_uuid": nil, "team_uuid": otherUUID,
				"actor_uuid": otherUUID, "actor_type": "team", "actor_name": "Ops", "actor_email": nil, "actor_slug": "ops"},
			want: map[string]any{"id": otherUUID, "uuid": otherUUID, "cluster_uuid": testUUID, "team_uuid": otherUUID,
				"user_uuid": nil, "actor_slug": "ops"},
		},
		{
			name: "maintainer, the official provider's at version 0", typeName: "buildkite_cluster_maintainer", version: 0,
			state: map[string]any{"id": otherUUID, "cluster_id": testUUID, "user_id": otherUUID, "team_id": nil,
				"actor_id": otherUUID, "actor_type": "user", "actor_name": "Ann", "actor_email": "ann@example.com", "actor_slug": nil},
			want: map[string]any{"id": otherUUID, "uuid": otherUUID, "cluster_uuid": testUUID, "user_uuid": otherUUID,
				"team_uuid": nil, "actor_uuid": otherUUID, "actor_email": "ann@example.com"},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A cluster's maintainers go with their cluster, which the cluster sweeper removes.",
	},
})

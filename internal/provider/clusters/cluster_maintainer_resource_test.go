package clusters_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The maintainer's life cycle (create, import, replacement, deletion outside Terraform) is its row of
// associationCases; this file has its test kind and what is particular to it.

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
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_maintainer.test"
	team := e.Name("maintainers")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_maintainer"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccClusterMaintainerConfig(e.Name("maintained"), team)),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(addr),
					resource.TestCheckResourceAttrPair(addr, "actor_uuid", "buildkite_team.test", "id"),
					resource.TestCheckResourceAttrPair(addr, "actor_slug", "buildkite_team.test", "slug"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actor_type"), knownvalue.StringExact("team")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actor_name"), knownvalue.StringExact(team)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actor_email"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_uuid"), knownvalue.Null()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "cluster_uuid", "id")),
		),
	})
}

func TestAccClusterMaintainerResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	body := func(actors string) string {
		return e.Config(`
resource "buildkite_cluster_maintainer" "test" {
  cluster_uuid = "` + acctest.UnknownUUID + `"
` + actors + `
}
`)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: body(""), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*Either user_uuid or team_uuid must be specified`)},
			{Config: body(`  user_uuid = ""`), PlanOnly: true, ExpectError: regexp.MustCompile(`Either user_uuid or team_uuid must be specified`)},
			{Config: body(`  user_uuid = "` + acctest.UnknownUUID + `"
  team_uuid = "` + acctest.UnknownUUID + `"`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*Only one of user_uuid or team_uuid can be specified`)},
			{Config: body(`  team_uuid = "platform"`), PlanOnly: true, ExpectError: acctest.Wrapped(`must be a UUID`)},
			{
				Config: body(`  team_uuid = "` + acctest.UnknownUUID + `"`), ResourceName: "buildkite_cluster_maintainer.test",
				ImportState: true, ImportStateId: acctest.UnknownUUID,
				ExpectError: acctest.Wrapped(`Expected an import ID of the form "<cluster id>/<maintainer id>"`),
			},
		},
	})
}

// The rows of buildkite_cluster_maintainer in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster_maintainer", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_cluster_maintainer", Attrs: []string{"cluster_uuid", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{Create: testAccClusterMaintainerConfig(e.Name("identity"), e.Name("identity-team"))}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "cluster_maintainer", Add: (*acctest.OfficialWorkspace).AddMaintainer, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_cluster_maintainer.platform", map[string]any{"actor_type": "team", "user_uuid": nil})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster_maintainer", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedBeyondSpec(t, base)
		assignment := func(c *buildkite.Cluster, m *buildkite.ClusterMaintainer) queryfilter.QueryFilter {
			return acctest.ByIdentity("cluster_uuid", c.ID, "id", m.ID)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster_maintainer", "a", fmt.Sprintf("    cluster_uuid = %q", s.A.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_maintainer.all", 3),
				querycheck.ExpectLength("buildkite_cluster_maintainer.a", 2),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_maintainer.all", assignment(s.B, s.TeamOfB), knownvalue.StringExact(base+"-b / "+s.Team.Name)),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_maintainer.a", assignment(s.A, s.UserOfA), []querycheck.KnownValueCheck{
					acctest.Known("user_uuid", knownvalue.StringExact(s.Member.ID)),
					acctest.Known("team_uuid", knownvalue.Null()),
					acctest.Known("actor_email", knownvalue.StringExact(s.Member.Email)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_maintainer.a", assignment(s.A, s.TeamOfA), []querycheck.KnownValueCheck{
					acctest.Known("team_uuid", knownvalue.StringExact(s.Team.ID)),
					acctest.Known("actor_slug", knownvalue.StringExact(s.Team.Slug)),
				}),
			},
			Refused: []acctest.QueryRefusal{{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "cluster_uuid"), Message: acctest.Wrapped(`No cluster matches the ID "` + acctest.UnknownUUID + `"`)}},
			Imports: 3,
		}
	}},
	Association: &acctest.AssociationCase{
		// An assignment with an ID of its own, which nothing changes in place: every change replaces it.
		ResourceType: "buildkite_cluster_maintainer",
		ImportAttrs:  []string{"cluster_uuid", "id"},
		Values:       []string{"user"},
		Setup: func(t *testing.T, e *acctest.TestEnv) func(string, string) string {
			clusters := acctest.TwoClusters(e, "assoc-maintainer")
			email := e.SecondMemberEmail()
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
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "maintainer, the official provider's at version 1", TypeName: "buildkite_cluster_maintainer", Version: 1,
			State: map[string]any{"id": acctest.OtherUUID, "cluster_uuid": acctest.TestUUID, "user_uuid": nil, "team_uuid": acctest.OtherUUID,
				"actor_uuid": acctest.OtherUUID, "actor_type": "team", "actor_name": "Ops", "actor_email": nil, "actor_slug": "ops"},
			Want: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "cluster_uuid": acctest.TestUUID, "team_uuid": acctest.OtherUUID,
				"user_uuid": nil, "actor_slug": "ops"},
		},
		{
			Name: "maintainer, the official provider's at version 0", TypeName: "buildkite_cluster_maintainer", Version: 0,
			State: map[string]any{"id": acctest.OtherUUID, "cluster_id": acctest.TestUUID, "user_id": acctest.OtherUUID, "team_id": nil,
				"actor_id": acctest.OtherUUID, "actor_type": "user", "actor_name": "Ann", "actor_email": "ann@example.com", "actor_slug": nil},
			Want: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "cluster_uuid": acctest.TestUUID, "user_uuid": acctest.OtherUUID,
				"team_uuid": nil, "actor_uuid": acctest.OtherUUID, "actor_email": "ann@example.com"},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A cluster's maintainers go with their cluster, which the cluster sweeper removes.",
	},
})

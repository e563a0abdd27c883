package teams_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkMemberRole asks the service for the role of buildkite_team_member.test.
func checkMemberRole(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_team_member.test"].Primary.Attributes
		m, err := e.Client.TeamMembers.Get(context.Background(), a["team_id"], a["user_id"])
		if err != nil {
			return err
		}
		if m.Role != want {
			return fmt.Errorf("role on the service = %q, want %q", m.Role, want)
		}
		return nil
	}
}

func TestAccTeamMemberResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	team, other := e.Name("members"), e.Name("members-other")
	email := e.SecondMemberEmail()
	const addr = "buildkite_team_member.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_member"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(acctest.TeamMemberConfig(team, email, "MEMBER")),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr),
					checkMemberRole(e, "member"),
					resource.TestCheckResourceAttrPair(addr, "team_id", "buildkite_team.test", "id"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
					resource.TestCheckResourceAttrPair(addr, "user_name", "data.buildkite_organization_member.m", "name"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "team_id", "user_id")),
			acctest.Step(resource.TestStep{
				// The team by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" +
						s.RootModule().Resources[addr].Primary.Attributes["user_id"], nil
				},
			}),
			acctest.Step(resource.TestStep{
				// The role, in place, in the official provider's spelling.
				Config: e.Config(acctest.TeamMemberConfig(team, email, "MAINTAINER")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkMemberRole(e, "maintainer"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact("MAINTAINER")),
				},
			}),
			acctest.Step(resource.TestStep{
				// After an import the upper-case configuration plans a no-op. The ID is the graphql_id the
				// state holds: the membership's GraphQL ID, which the official provider's state has as id.
				Config: e.Config(acctest.TeamMemberConfig(team, email, "MAINTAINER")), ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
			}),
			acctest.Step(resource.TestStep{
				// Another team replaces the membership.
				Config: e.Config(acctest.TeamMemberConfigIn(team, "buildkite_team.other", email, "MAINTAINER") + fmt.Sprintf(`
resource "buildkite_team" "other" {
  name                = %q
  privacy             = "visible"
  default_team        = false
  default_member_role = "member"
}
`, other)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: e.CheckExists(addr),
			}),
		),
	})
}

func TestAccTeamMemberResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team_member.test"
	cfg := e.Config(acctest.TeamMemberConfig(e.Name("members-gone"), e.SecondMemberEmail(), "member"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_member"),
		Steps: []resource.TestStep{
			{
				Config: cfg, Check: e.RemoveOutside(addr), ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{Config: cfg, Check: e.CheckExists(addr)},
		},
	})
}

// A role changed outside Terraform is planned back and corrected by the next apply.
func TestAccTeamMemberResource_roleDrift(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team_member.test"
	cfg := e.Config(acctest.TeamMemberConfig(e.Name("members-drift"), e.SecondMemberEmail(), "member"))
	var teamID, userID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_team_member"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					a := s.RootModule().Resources[addr].Primary.Attributes
					teamID, userID = a["team_id"], a["user_id"]
					return nil
				},
			},
			{
				PreConfig: func() {
					if _, err := e.Client.TeamMembers.Update(context.Background(), teamID, userID, "maintainer"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkMemberRole(e, "member"),
			},
		},
	})
}

func TestAccTeamMemberResource_importErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_team_member.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(acctest.TeamMemberConfig(e.Name("members-imp"), e.SecondMemberEmail(), "member"))},
			{
				ResourceName: addr, ImportState: true, ImportStateId: "some-team",
				ExpectError: regexp.MustCompile(`Invalid Import ID(?s).*<team id or slug>/<user id>`),
			},
			{
				ResourceName: addr, ImportState: true, ImportStateId: "some-team/not-a-uuid",
				ExpectError: regexp.MustCompile(`Invalid Import ID(?s).*not a UUID`),
			},
			{
				// The official provider's import ID names the membership itself, which GraphQL resolves; this one is
				// of none (association_graphql_import_test.go imports real ones).
				ResourceName: addr, ImportState: true, ImportStateId: kit.GraphQLID("TeamMember", acctest.UnknownUUID),
				ExpectError: regexp.MustCompile(`Cannot import non-existent remote object`),
			},
			{
				// Another association's GraphQL ID is still refused by the ID rule.
				ResourceName: addr, ImportState: true, ImportStateId: kit.GraphQLID("TeamPipeline", acctest.UnknownUUID),
				ExpectError: acctest.Wrapped("the official provider's ID of a team's access to a pipeline (buildkite_pipeline_team)"),
			},
		},
	})
}

// The rows of buildkite_team_member in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_team_member", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_team_member", Attrs: []string{"team_id", "user_id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			team, email := e.Name("identity"), e.SecondMemberEmail()
			return acctest.IdentityConfigs{
				Create: acctest.TeamMemberConfig(team, email, "member"),
				Update: acctest.TeamMemberConfig(team, email, "maintainer"),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_team_member",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			team := e.SeedTeam(e.Name("identity-invalid"))
			member := func(userID string) string {
				return acctest.ImportByIdentity("buildkite_team_member", `  team_id = "`+team.ID+`"
  user_id = "`+acctest.UnknownUUID+`"
  role    = "member"`, "team_id", team.ID, "user_id", userID)
			}
			return []acctest.InvalidIdentity{
				{Config: member("someone"), Message: `user_id (<user id>) "someone" is not a UUID`},
				{Config: member(""), Message: `user_id (<user id>) is empty`},
				{Config: member(acctest.UnknownUUID), Message: `Unable to Import Team Member`}, // a user who is not in the team
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "team_member", Add: (*acctest.OfficialWorkspace).AddTeamMember, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_team_member.second", map[string]any{"role": "MAINTAINER"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_team_member", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedTeams(t, base)
		membership := func(tm *buildkite.Team) queryfilter.QueryFilter {
			return acctest.ByIdentity("team_id", tm.ID, "user_id", s.Member.ID)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_team_member", "b", fmt.Sprintf("    team_id = %q", s.B.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team_member.all", 2),
				querycheck.ExpectLength("buildkite_team_member.b", 1),
				querycheck.ExpectIdentity("buildkite_team_member.b", acctest.IdentityOf("team_id", s.B.ID, "user_id", s.Member.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team_member.all", membership(s.A), knownvalue.StringExact(base+"-a / "+s.Member.Name)),
				querycheck.ExpectResourceKnownValues("buildkite_team_member.all", membership(s.A), []querycheck.KnownValueCheck{
					acctest.Known("id", knownvalue.StringExact(s.A.ID+"/"+s.Member.ID)),
					acctest.Known("role", knownvalue.StringExact("MAINTAINER")),
					acctest.Known("user_name", knownvalue.StringExact(s.Member.Name)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_team_member.b", membership(s.B),
					[]querycheck.KnownValueCheck{acctest.Known("role", knownvalue.StringExact("MEMBER"))}),
			},
			Refused: []acctest.QueryRefusal{
				{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "team_id"), Message: acctest.Wrapped(`No team matches the ID "` + acctest.UnknownUUID + `"`)},
				// A slug is refused at once rather than matching nothing.
				{Body: fmt.Sprintf("    team_id = %q", s.A.Slug), Message: regexp.MustCompile(`(?s)team_id.*must be a UUID`)},
			},
			Imports: 2,
		}
	}},
	Association: &acctest.AssociationCase{
		ResourceType: "buildkite_team_member",
		ImportAttrs:  []string{"team_id", "user_id"},
		Values:       []string{"MEMBER", "maintainer"},
		Setup: func(t *testing.T, e *acctest.TestEnv) func(string, string) string {
			teams := acctest.TwoTeams(e, "assoc-member")
			email := e.SecondMemberEmail()
			return func(parent, role string) string {
				return teams + fmt.Sprintf(`
data "buildkite_organization_member" "m" {
  email = %q
}

resource "buildkite_team_member" "test" {
  team_id = buildkite_team.%s.id
  user_id = data.buildkite_organization_member.m.id
  role    = %q
}
`, email, parent, role)
			}
		},
	},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "team member, the official provider's", TypeName: "buildkite_team_member", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("TeamMember", acctest.TestUUID), "uuid": acctest.TestUUID, "team_id": kit.GraphQLID("Team", acctest.OtherUUID),
				"user_id": kit.GraphQLID("User", acctest.TestUUID), "role": "MEMBER"},
			Want: map[string]any{"id": acctest.OtherUUID + "/" + acctest.TestUUID, "uuid": acctest.OtherUUID + "/" + acctest.TestUUID, "team_id": acctest.OtherUUID,
				"user_id": acctest.TestUUID, "graphql_id": kit.GraphQLID("TeamMember", acctest.TestUUID), "role": "MEMBER"},
		},
		{
			Name: "team member, ours at version 0", TypeName: "buildkite_team_member", Version: 0,
			State: map[string]any{"id": acctest.OtherUUID + "/" + acctest.TestUUID, "uuid": acctest.OtherUUID + "/" + acctest.TestUUID, "graphql_id": nil,
				"team_id": acctest.OtherUUID, "user_id": acctest.TestUUID, "role": "member", "user_name": "u"},
			Want: map[string]any{"id": acctest.OtherUUID + "/" + acctest.TestUUID, "team_id": acctest.OtherUUID, "user_name": "u"},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A team's members go with the team, which the team sweeper removes; the users stay, as they must.",
	},
})

package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func init() {
	registerTestKind("buildkite_team_member", testKind{
		fake: fakeserver.KindTeamMember, storeKey: byID, // the ID is "<team id>/<user id>", the emulator's key
		get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamMembers.Get(ctx, attrs["team_id"], attrs["user_id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.TeamMembers.Delete(ctx, attrs["team_id"], attrs["user_id"])
		},
	})
}

// testAccTeamMemberConfig is a team named team with the member of email in role.
func testAccTeamMemberConfig(team, email, role string) string {
	return testAccTeamMemberConfigIn(team, "buildkite_team.test", email, role)
}

// testAccTeamMemberConfigIn is testAccTeamMemberConfig with a second team, "other", and the membership in
// the team at teamAddr.
func testAccTeamMemberConfigIn(team, teamAddr, email, role string) string {
	return testAccTeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
data "buildkite_organization_member" "m" {
  email = %q
}

resource "buildkite_team_member" "test" {
  team_id = %s.id
  user_id = data.buildkite_organization_member.m.id
  role    = %q
}
`, email, teamAddr, role)
}

// checkMemberRole asks the service for the role of buildkite_team_member.test.
func (e *testEnv) checkMemberRole(want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_team_member.test"].Primary.Attributes
		m, err := e.client.TeamMembers.Get(context.Background(), a["team_id"], a["user_id"])
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
	e := newTestEnv(t)
	team, other := e.name("members"), e.name("members-other")
	email := e.secondMemberEmail()
	const addr = "buildkite_team_member.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_member"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccTeamMemberConfig(team, email, "MEMBER")),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr),
					e.checkMemberRole("member"),
					resource.TestCheckResourceAttrPair(addr, "team_id", "buildkite_team.test", "id"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
					resource.TestCheckResourceAttrPair(addr, "user_name", "data.buildkite_organization_member.m", "name"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			importSteps(addr, importID(addr, "team_id", "user_id")),
			step(resource.TestStep{
				// The team by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" +
						s.RootModule().Resources[addr].Primary.Attributes["user_id"], nil
				},
			}),
			step(resource.TestStep{
				// The role, in place, in the official provider's spelling.
				Config: e.config(testAccTeamMemberConfig(team, email, "MAINTAINER")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkMemberRole("maintainer"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact("MAINTAINER")),
				},
			}),
			step(resource.TestStep{
				// After an import the upper-case configuration plans a no-op. The ID is the graphql_id the
				// state holds: the membership's GraphQL ID, which the official provider's state has as id.
				Config: e.config(testAccTeamMemberConfig(team, email, "MAINTAINER")), ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: importID(addr, "graphql_id"),
			}),
			step(resource.TestStep{
				// Another team replaces the membership.
				Config: e.config(testAccTeamMemberConfigIn(team, "buildkite_team.other", email, "MAINTAINER") + fmt.Sprintf(`
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
				Check: e.checkExists(addr),
			}),
		),
	})
}

func TestAccTeamMemberResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team_member.test"
	cfg := e.config(testAccTeamMemberConfig(e.name("members-gone"), e.secondMemberEmail(), "member"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_member"),
		Steps: []resource.TestStep{
			{
				Config: cfg, Check: e.removeOutside(addr), ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{Config: cfg, Check: e.checkExists(addr)},
		},
	})
}

// A role changed outside Terraform is planned back and corrected by the next apply.
func TestAccTeamMemberResource_roleDrift(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team_member.test"
	cfg := e.config(testAccTeamMemberConfig(e.name("members-drift"), e.secondMemberEmail(), "member"))
	var teamID, userID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_team_member"),
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
					if _, err := e.client.TeamMembers.Update(context.Background(), teamID, userID, "maintainer"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkMemberRole("member"),
			},
		},
	})
}

func TestAccTeamMemberResource_importErrors(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_team_member.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: e.config(testAccTeamMemberConfig(e.name("members-imp"), e.secondMemberEmail(), "member"))},
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
				ResourceName: addr, ImportState: true, ImportStateId: kit.GraphQLID("TeamMember", unknownUUID),
				ExpectError: regexp.MustCompile(`Cannot import non-existent remote object`),
			},
			{
				// Another association's GraphQL ID is still refused by the ID rule.
				ResourceName: addr, ImportState: true, ImportStateId: kit.GraphQLID("TeamPipeline", unknownUUID),
				ExpectError: wrapped("the official provider's ID of a team's access to a pipeline (buildkite_pipeline_team)"),
			},
		},
	})
}

// The rows of buildkite_team_member in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_team_member", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_team_member", attrs: []string{"team_id", "user_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			team, email := e.name("identity"), e.secondMemberEmail()
			return identityConfigs{
				create: testAccTeamMemberConfig(team, email, "member"),
				update: testAccTeamMemberConfig(team, email, "maintainer"),
			}
		},
	},
	invalidIdentity: &invalidIdentityCase{
		resourceType: "buildkite_team_member",
		setup: func(e *testEnv) []invalidIdentity {
			team := e.seedTeam(e.name("identity-invalid"))
			member := func(userID string) string {
				return importByIdentity("buildkite_team_member", `  team_id = "`+team.ID+`"
  user_id = "`+unknownUUID+`"
  role    = "member"`, "team_id", team.ID, "user_id", userID)
			}
			return []invalidIdentity{
				{member("someone"), `user_id (<user id>) "someone" is not a UUID`},
				{member(""), `user_id (<user id>) is empty`},
				{member(unknownUUID), `Unable to Import Team Member`}, // a user who is not in the team
			}
		},
	},
	migration: []migrationCase{
		{name: "team_member", add: (*officialWorkspace).addTeamMember, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_team_member.second", map[string]any{"role": "MAINTAINER"})
		}},
	},
	query: &queryCase{resourceType: "buildkite_team_member", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		membership := func(tm *buildkite.Team) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "user_id", s.member.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_team_member", "b", fmt.Sprintf("    team_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team_member.all", 2),
				querycheck.ExpectLength("buildkite_team_member.b", 1),
				querycheck.ExpectIdentity("buildkite_team_member.b", identityOf("team_id", s.b.ID, "user_id", s.member.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team_member.all", membership(s.a), knownvalue.StringExact(base+"-a / "+s.member.Name)),
				querycheck.ExpectResourceKnownValues("buildkite_team_member.all", membership(s.a), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.a.ID+"/"+s.member.ID)),
					known("role", knownvalue.StringExact("MAINTAINER")),
					known("user_name", knownvalue.StringExact(s.member.Name)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_team_member.b", membership(s.b),
					[]querycheck.KnownValueCheck{known("role", knownvalue.StringExact("MEMBER"))}),
			},
			refused: []queryRefusal{
				{fmt.Sprintf(unknownUUIDFilter, "team_id"), wrapped(`No team matches the ID "` + unknownUUID + `"`)},
				// A slug is refused at once rather than matching nothing.
				{fmt.Sprintf("    team_id = %q", s.a.Slug), regexp.MustCompile(`(?s)team_id.*must be a UUID`)},
			},
			imports: 2,
		}
	}},
	association: &associationCase{
		resourceType: "buildkite_team_member",
		importAttrs:  []string{"team_id", "user_id"},
		values:       []string{"MEMBER", "maintainer"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-member")
			email := e.secondMemberEmail()
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
	upgrade: []upgradeCase{
		{
			name: "team member, the official provider's", typeName: "buildkite_team_member", version: 0,
			state: map[string]any{"id": kit.GraphQLID("TeamMember", testUUID), "uuid": testUUID, "team_id": kit.GraphQLID("Team", otherUUID),
				"user_id": kit.GraphQLID("User", testUUID), "role": "MEMBER"},
			want: map[string]any{"id": otherUUID + "/" + testUUID, "uuid": otherUUID + "/" + testUUID, "team_id": otherUUID,
				"user_id": testUUID, "graphql_id": kit.GraphQLID("TeamMember", testUUID), "role": "MEMBER"},
		},
		{
			name: "team member, ours at version 0", typeName: "buildkite_team_member", version: 0,
			state: map[string]any{"id": otherUUID + "/" + testUUID, "uuid": otherUUID + "/" + testUUID, "graphql_id": nil,
				"team_id": otherUUID, "user_id": testUUID, "role": "member", "user_name": "u"},
			want: map[string]any{"id": otherUUID + "/" + testUUID, "team_id": otherUUID, "user_name": "u"},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A team's members go with the team, which the team sweeper removes; the users stay, as they must.",
	},
})

package provider

import (
	"context"
	"fmt"
	"reflect"
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
	registerTestKind("buildkite_test_suite_team", testKind{
		fake: fakeserver.KindTeamSuite, storeKey: byID, // "<team id>/<suite id>"
		get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamSuites.Get(ctx, attrs["team_id"], attrs["test_suite_id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.TeamSuites.Delete(ctx, attrs["team_id"], attrs["test_suite_id"])
		},
	})
}

// testAccTestSuiteTeamConfig gives a team named team access to the suite suiteID.
func testAccTestSuiteTeamConfig(team, suiteID, level string) string {
	return testAccTeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
resource "buildkite_test_suite_team" "test" {
  team_id       = buildkite_team.test.id
  test_suite_id = %q
  access_level  = %q
}
`, suiteID, level)
}

// checkSuiteAccess asks the service for the access of buildkite_test_suite_team.test.
func (e *testEnv) checkSuiteAccess(want ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_test_suite_team.test"].Primary.Attributes
		ts, err := e.client.TeamSuites.Get(context.Background(), a["team_id"], a["test_suite_id"])
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(ts.AccessLevel, want) {
			return fmt.Errorf("access on the service = %q, want %q", ts.AccessLevel, want)
		}
		return nil
	}
}

func TestAccTestSuiteTeamResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	owner := e.seedTeam(e.name("sut-owner"))
	s1, s2 := e.seedSuite(e.name("sut-one"), owner.ID), e.seedSuite(e.name("sut-two"), owner.ID)
	team := e.name("sut")
	const addr = "buildkite_test_suite_team.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite_team"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteTeamConfig(team, s1.ID, "READ_ONLY")),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr), e.checkSuiteAccess("read"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			step(resource.TestStep{
				// After an import the upper-case configuration plans a no-op.
				Config: e.config(testAccTestSuiteTeamConfig(team, s1.ID, "READ_ONLY")), ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: importID(addr, "team_id", "test_suite_id"),
			}),
			step(resource.TestStep{
				// The import command fills in the official spelling. The ID is the graphql_id the state holds:
				// the link's GraphQL ID, which the official provider's state has as id.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importID(addr, "graphql_id"),
				ImportStateVerify: true,
			}),
			step(generateConfigStep(addr, importID(addr, "team_id", "test_suite_id"))),
			step(resource.TestStep{
				// Team and suite by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" + s1.Slug, nil
				},
			}),
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteTeamConfig(team, s1.ID, "MANAGE_AND_READ")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkSuiteAccess("read", "edit"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_level"), knownvalue.StringExact("MANAGE_AND_READ")),
				},
			}),
			importSteps(addr, importID(addr, "team_id", "test_suite_id")),
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteTeamConfig(team, s2.ID, "manage_and_read")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: e.checkExists(addr),
			}),
		),
	})
}

func TestAccTestSuiteTeamResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite_team.test"
	owner := e.seedTeam(e.name("sut-gone-owner"))
	cfg := e.config(testAccTestSuiteTeamConfig(e.name("sut-gone"), e.seedSuite(e.name("sut-gone"), owner.ID).ID, "read_only"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite_team"),
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

// Access changed outside Terraform, to a level the configuration's values cannot name (only "edit"), is
// shown in the plan as "EDIT" and corrected by the next apply.
func TestAccTestSuiteTeamResource_accessDrift(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite_team.test"
	owner := e.seedTeam(e.name("sut-drift-owner"))
	suite := e.seedSuite(e.name("sut-drift"), owner.ID)
	cfg := e.config(testAccTestSuiteTeamConfig(e.name("sut-drift"), suite.ID, "READ_ONLY"))
	var teamID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite_team"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(addr, "team_id", func(v string) error { teamID = v; return nil })},
			{
				PreConfig: func() {
					if _, err := e.client.TeamSuites.Update(context.Background(), teamID, suite.ID, []string{"edit"}); err != nil {
						t.Fatal(err)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              resource.TestCheckResourceAttr(addr, "access_level", "EDIT"),
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkSuiteAccess("read"),
			},
		},
	})
}

// A suite created with an owning team gives that team read and edit; a buildkite_test_suite_team for the
// pair takes the access over.
func TestAccTestSuiteTeamResource_takesOverOwner(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	owner := e.seedTeam(e.name("sut-take"))
	suite := e.seedSuite(e.name("sut-take"), owner.ID)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite_team"),
		Steps: []resource.TestStep{{
			Config: e.config(fmt.Sprintf(`
resource "buildkite_test_suite_team" "test" {
  team_id       = %q
  test_suite_id = %q
  access_level  = "read_only"
}
`, owner.ID, suite.ID)),
			Check: e.checkSuiteAccess("read"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// The shape the official provider's users write: an owning team, another team, the suite and the other
// team's access in one configuration; the level changed in place, then imported back by the id in state.
func TestAccTestSuiteTeamResource_withSuiteAndTeams(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite_team.ts"
	base := e.name("sut-together")
	cfg := func(level string) string {
		return e.config(fmt.Sprintf(`
resource "buildkite_team" "owner" {
  name                = "%[1]s-owner"
  default_team        = false
  privacy             = "VISIBLE"
  default_member_role = "MAINTAINER"
}

resource "buildkite_team" "other" {
  name                = "%[1]s-other"
  default_team        = false
  privacy             = "VISIBLE"
  default_member_role = "MAINTAINER"
}

resource "buildkite_test_suite" "s" {
  name           = "%[1]s"
  default_branch = "main"
  team_owner_id  = buildkite_team.owner.id
}

resource "buildkite_test_suite_team" "ts" {
  test_suite_id = buildkite_test_suite.s.id
  team_id       = buildkite_team.other.id
  access_level  = %[2]q
}
`, base, level))
	}
	check := func(level string) resource.TestCheckFunc {
		return resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttr(addr, "access_level", level),
			resource.TestCheckResourceAttrPair(addr, "test_suite_id", "buildkite_test_suite.s", "id"),
			resource.TestCheckResourceAttrPair(addr, "team_id", "buildkite_team.other", "id"),
			resource.TestCheckResourceAttrPair("buildkite_test_suite.s", "team_owner_id", "buildkite_team.owner", "id"),
		)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite_team"),
		Steps: []resource.TestStep{
			{Config: cfg("READ_ONLY"), Check: check("READ_ONLY")},
			// The suite too, while its owner is the one team that may manage it: the owner is found again, and
			// its API token is the one thing no read shows.
			{ResourceName: "buildkite_test_suite.s", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"api_token"}},
			{
				Config: cfg("MANAGE_AND_READ"), Check: check("MANAGE_AND_READ"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				// With two teams that may manage it, the import names no owner, so that the configured one is only
				// recorded and no apply takes the other team's access away.
				ResourceName: "buildkite_test_suite.s", ImportState: true, ImportStateIdFunc: importID("buildkite_test_suite.s", "id"),
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("imported %d instances, want 1", len(states))
					}
					if owner := states[0].Attributes["team_owner_id"]; owner != "" {
						return fmt.Errorf("imported team_owner_id = %q, want none while two teams may manage the suite", owner)
					}
					return nil
				},
			},
		},
	})
}

// The rows of buildkite_test_suite_team in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_test_suite_team", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_test_suite_team", attrs: []string{"team_id", "test_suite_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			suite := e.seedSuite(e.name("identity-suite"), e.team("identity-owner"))
			team := e.name("identity")
			return identityConfigs{
				create: testAccTestSuiteTeamConfig(team, suite.ID, "manage_and_read"),
				update: testAccTestSuiteTeamConfig(team, suite.ID, "read_only"),
			}
		},
	},
	migration: []migrationCase{
		{name: "test_suite_team", add: (*officialWorkspace).addTestSuiteTeam, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_test_suite_team.e2e", map[string]any{"access_level": "MANAGE_AND_READ"})
		}},
	},
	query: &queryCase{resourceType: "buildkite_test_suite_team", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		access := func(tm *buildkite.Team) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "test_suite_id", s.suite.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_test_suite_team", "a", fmt.Sprintf("    team_id = %q", s.a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite_team.all", 2),
				querycheck.ExpectLength("buildkite_test_suite_team.a", 1),
				querycheck.ExpectIdentity("buildkite_test_suite_team.a", identityOf("team_id", s.a.ID, "test_suite_id", s.suite.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite_team.all", access(s.b), knownvalue.StringExact(base+"-b / "+s.suite.Slug)),
				// The owner's access, which creating the suite gave it, is found like any other.
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.a", access(s.a),
					[]querycheck.KnownValueCheck{known("access_level", knownvalue.StringExact("MANAGE_AND_READ"))}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.all", access(s.b), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.b.ID+"/"+s.suite.ID)),
					known("access_level", knownvalue.StringExact("READ_ONLY")),
				}),
			},
			imports: 2,
		}
	}},
	association: &associationCase{
		resourceType: "buildkite_test_suite_team",
		importAttrs:  []string{"team_id", "test_suite_id"},
		values:       []string{"READ_ONLY", "manage_and_read"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-suite")
			suite := e.seedSuite(e.name("assoc-suite"), e.team("assoc-suite-owner"))
			return func(parent, level string) string {
				return teams + fmt.Sprintf(`
resource "buildkite_test_suite_team" "test" {
  team_id       = buildkite_team.%s.id
  test_suite_id = %q
  access_level  = %q
}
`, parent, suite.ID, level)
			}
		},
	},
	upgrade: []upgradeCase{
		{
			name: "test suite team, the official provider's", typeName: "buildkite_test_suite_team", version: 0,
			state: map[string]any{"id": kit.GraphQLID("TeamSuite", testUUID), "uuid": testUUID, "team_id": kit.GraphQLID("Team", otherUUID),
				"test_suite_id": kit.GraphQLID("Suite", testUUID), "access_level": "MANAGE_AND_READ"},
			want: map[string]any{"id": otherUUID + "/" + testUUID, "test_suite_id": testUUID},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A team's access to a suite goes with the team or the suite, which their sweepers remove.",
	},
})

package suites_test

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

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccTestSuiteTeamConfig gives a team named team access to the suite suiteID.
func testAccTestSuiteTeamConfig(team, suiteID, level string) string {
	return acctest.TeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
resource "buildkite_test_suite_team" "test" {
  team_id       = buildkite_team.test.id
  test_suite_id = %q
  access_level  = %q
}
`, suiteID, level)
}

// checkSuiteAccess asks the service for the access of buildkite_test_suite_team.test.
func checkSuiteAccess(e *acctest.TestEnv, want ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_test_suite_team.test"].Primary.Attributes
		ts, err := e.Client.TeamSuites.Get(context.Background(), a["team_id"], a["test_suite_id"])
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
	e := acctest.NewTestEnv(t)
	owner := e.SeedTeam(e.Name("sut-owner"))
	s1, s2 := e.SeedSuite(e.Name("sut-one"), owner.ID), e.SeedSuite(e.Name("sut-two"), owner.ID)
	team := e.Name("sut")
	const addr = "buildkite_test_suite_team.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite_team"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccTestSuiteTeamConfig(team, s1.ID, "READ_ONLY")),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr), checkSuiteAccess(e, "read"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.Step(resource.TestStep{
				// After an import the upper-case configuration plans a no-op.
				Config: e.Config(testAccTestSuiteTeamConfig(team, s1.ID, "READ_ONLY")), ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: acctest.ImportID(addr, "team_id", "test_suite_id"),
			}),
			acctest.Step(resource.TestStep{
				// The import command fills in the official spelling. The ID is the graphql_id the state holds:
				// the link's GraphQL ID, which the official provider's state has as id.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
				ImportStateVerify: true,
			}),
			acctest.Step(acctest.GenerateConfigStep(addr, acctest.ImportID(addr, "team_id", "test_suite_id"))),
			acctest.Step(resource.TestStep{
				// Team and suite by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" + s1.Slug, nil
				},
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccTestSuiteTeamConfig(team, s1.ID, "MANAGE_AND_READ")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkSuiteAccess(e, "read", "edit"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_level"), knownvalue.StringExact("MANAGE_AND_READ")),
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "team_id", "test_suite_id")),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccTestSuiteTeamConfig(team, s2.ID, "manage_and_read")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: e.CheckExists(addr),
			}),
		),
	})
}

func TestAccTestSuiteTeamResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_test_suite_team.test"
	owner := e.SeedTeam(e.Name("sut-gone-owner"))
	cfg := e.Config(testAccTestSuiteTeamConfig(e.Name("sut-gone"), e.SeedSuite(e.Name("sut-gone"), owner.ID).ID, "read_only"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite_team"),
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

// Access changed outside Terraform, to a level the configuration's values cannot name (only "edit"), is
// shown in the plan as "EDIT" and corrected by the next apply.
func TestAccTestSuiteTeamResource_accessDrift(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_test_suite_team.test"
	owner := e.SeedTeam(e.Name("sut-drift-owner"))
	suite := e.SeedSuite(e.Name("sut-drift"), owner.ID)
	cfg := e.Config(testAccTestSuiteTeamConfig(e.Name("sut-drift"), suite.ID, "READ_ONLY"))
	var teamID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite_team"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(addr, "team_id", func(v string) error { teamID = v; return nil })},
			{
				PreConfig: func() {
					if _, err := e.Client.TeamSuites.Update(context.Background(), teamID, suite.ID, []string{"edit"}); err != nil {
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
				Check: checkSuiteAccess(e, "read"),
			},
		},
	})
}

// A suite created with an owning team gives that team read and edit; a buildkite_test_suite_team for the
// pair takes the access over.
func TestAccTestSuiteTeamResource_takesOverOwner(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	owner := e.SeedTeam(e.Name("sut-take"))
	suite := e.SeedSuite(e.Name("sut-take"), owner.ID)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite_team"),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
resource "buildkite_test_suite_team" "test" {
  team_id       = %q
  test_suite_id = %q
  access_level  = "read_only"
}
`, owner.ID, suite.ID)),
			Check: checkSuiteAccess(e, "read"),
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
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_test_suite_team.ts"
	base := e.Name("sut-together")
	cfg := func(level string) string {
		return e.Config(fmt.Sprintf(`
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
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite_team"),
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
				ResourceName: "buildkite_test_suite.s", ImportState: true, ImportStateIdFunc: acctest.ImportID("buildkite_test_suite.s", "id"),
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

// The rows of buildkite_test_suite_team in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_test_suite_team", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_test_suite_team", Attrs: []string{"team_id", "test_suite_id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			suite := e.SeedSuite(e.Name("identity-suite"), e.Team("identity-owner"))
			team := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccTestSuiteTeamConfig(team, suite.ID, "manage_and_read"),
				Update: testAccTestSuiteTeamConfig(team, suite.ID, "read_only"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "test_suite_team", Add: (*acctest.OfficialWorkspace).AddTestSuiteTeam, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_test_suite_team.e2e", map[string]any{"access_level": "MANAGE_AND_READ"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_test_suite_team", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedTeams(t, base)
		access := func(tm *buildkite.Team) queryfilter.QueryFilter {
			return acctest.ByIdentity("team_id", tm.ID, "test_suite_id", s.Suite.ID)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_test_suite_team", "a", fmt.Sprintf("    team_id = %q", s.A.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite_team.all", 2),
				querycheck.ExpectLength("buildkite_test_suite_team.a", 1),
				querycheck.ExpectIdentity("buildkite_test_suite_team.a", acctest.IdentityOf("team_id", s.A.ID, "test_suite_id", s.Suite.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite_team.all", access(s.B), knownvalue.StringExact(base+"-b / "+s.Suite.Slug)),
				// The owner's access, which creating the suite gave it, is found like any other.
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.a", access(s.A),
					[]querycheck.KnownValueCheck{acctest.Known("access_level", knownvalue.StringExact("MANAGE_AND_READ"))}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.all", access(s.B), []querycheck.KnownValueCheck{
					acctest.Known("id", knownvalue.StringExact(s.B.ID+"/"+s.Suite.ID)),
					acctest.Known("access_level", knownvalue.StringExact("READ_ONLY")),
				}),
			},
			Imports: 2,
		}
	}},
	Association: &acctest.AssociationCase{
		ResourceType: "buildkite_test_suite_team",
		ImportAttrs:  []string{"team_id", "test_suite_id"},
		Values:       []string{"READ_ONLY", "manage_and_read"},
		Setup: func(t *testing.T, e *acctest.TestEnv) func(string, string) string {
			teams := acctest.TwoTeams(e, "assoc-suite")
			suite := e.SeedSuite(e.Name("assoc-suite"), e.Team("assoc-suite-owner"))
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
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "test suite team, the official provider's", TypeName: "buildkite_test_suite_team", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("TeamSuite", acctest.TestUUID), "uuid": acctest.TestUUID, "team_id": kit.GraphQLID("Team", acctest.OtherUUID),
				"test_suite_id": kit.GraphQLID("Suite", acctest.TestUUID), "access_level": "MANAGE_AND_READ"},
			Want: map[string]any{"id": acctest.OtherUUID + "/" + acctest.TestUUID, "test_suite_id": acctest.TestUUID},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A team's access to a suite goes with the team or the suite, which their sweepers remove.",
	},
})

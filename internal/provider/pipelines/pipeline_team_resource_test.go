package pipelines_test

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

// testAccPipelineTeamConfig gives a team named team access to the pipeline pipelineID.
func testAccPipelineTeamConfig(team, pipelineID, level string) string {
	return acctest.TeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = buildkite_team.test.id
  pipeline_id  = %q
  access_level = %q
}
`, pipelineID, level)
}

// checkPipelineAccess asks the service for the access level of buildkite_pipeline_team.test.
func checkPipelineAccess(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_pipeline_team.test"].Primary.Attributes
		tp, err := e.Client.TeamPipelines.Get(context.Background(), a["team_id"], a["pipeline_id"])
		if err != nil {
			return err
		}
		if tp.AccessLevel != want {
			return fmt.Errorf("access level on the service = %q, want %q", tp.AccessLevel, want)
		}
		return nil
	}
}

func TestAccPipelineTeamResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	team := e.Name("pt")
	p1, p2 := e.PipelineNamed(e.Name("pt-one")), e.PipelineNamed(e.Name("pt-two"))
	const addr = "buildkite_pipeline_team.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_team"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config:      e.Config(testAccPipelineTeamConfig(team, p1.ID, "admin")),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*access_level\s+value\s+must\s+be\s+one\s+of:\s+\["READ_ONLY"\s+"BUILD_AND_READ"\s+"MANAGE_BUILD_AND_READ"\].*"read_only"/"READ_ONLY"`),
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineTeamConfig(team, p1.ID, "READ_ONLY")),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr), checkPipelineAccess(e, "read_only"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "team_id", "pipeline_id")),
			acctest.Step(resource.TestStep{
				// Team and pipeline by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" + p1.Slug, nil
				},
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineTeamConfig(team, p1.ID, "BUILD_AND_READ")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkPipelineAccess(e, "build_and_read"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_level"), knownvalue.StringExact("BUILD_AND_READ")),
				},
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineTeamConfig(team, p1.ID, "BUILD_AND_READ")), ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: acctest.ImportID(addr, "team_id", "pipeline_id"),
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineTeamConfig(team, p2.ID, "manage_build_and_read")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(e.CheckExists(addr), checkPipelineAccess(e, "manage_build_and_read")),
			}),
		),
	})
}

func TestAccPipelineTeamResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_pipeline_team.test"
	cfg := e.Config(testAccPipelineTeamConfig(e.Name("pt-gone"), e.PipelineNamed(e.Name("pt-gone")).ID, "read_only"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_team"),
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

// An access level changed outside Terraform is planned back and corrected by the next apply.
func TestAccPipelineTeamResource_accessDrift(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_pipeline_team.test"
	p := e.PipelineNamed(e.Name("pt-drift"))
	cfg := e.Config(testAccPipelineTeamConfig(e.Name("pt-drift"), p.ID, "READ_ONLY"))
	var teamID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_team"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(addr, "team_id", func(v string) error { teamID = v; return nil })},
			{
				PreConfig: func() {
					if _, err := e.Client.TeamPipelines.Update(context.Background(), teamID, p.ID, "manage_build_and_read"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkPipelineAccess(e, "read_only"),
			},
		},
	})
}

// A pipeline created with a team (the pipeline's default_team_id) already gives it access: the
// buildkite_pipeline_team for the pair takes that access over and sets its own level, and destroying it
// removes the access.
func TestAccPipelineTeamResource_takesOverDefaultTeam(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	team := e.SeedTeam(e.Name("pt-default"))
	p := e.SeedPipeline(buildkite.PipelineCreate{Name: e.Name("pt-default"), Teams: map[string]string{team.ID: "manage_build_and_read"}})
	cfg := e.Config(fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = %q
  pipeline_id  = %q
  access_level = "read_only"
}
`, team.ID, p.ID))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_team"),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check:  checkPipelineAccess(e, "read_only"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// The shape the official provider's users write: the pipeline, the team and the access in one configuration,
// the access imported back by the id in state and verified attribute by attribute.
func TestAccPipelineTeamResource_withPipelineAndTeam(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_pipeline_team.pt"
	name := e.Name("pt-together")
	cfg := e.Config(fmt.Sprintf(`
resource "buildkite_pipeline" "p" {
  name       = %q
  repository = "https://github.com/buildkite/terraform-provider-buildkite.git"
  steps      = "steps:\n- label: ':pipeline: Pipeline Upload'\n  command: buildkite-agent pipeline upload"
}

resource "buildkite_team" "t" {
  name                         = %q
  privacy                      = "VISIBLE"
  default_team                 = true
  default_member_role          = "MEMBER"
  members_can_create_pipelines = true
}

resource "buildkite_pipeline_team" "pt" {
  access_level = "BUILD_AND_READ"
  team_id      = buildkite_team.t.id
  pipeline_id  = buildkite_pipeline.p.id
}
`, name, name))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_team"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrSet(addr, "id"),
					resource.TestCheckResourceAttrSet(addr, "uuid"),
					resource.TestCheckResourceAttrPair(addr, "team_id", "buildkite_team.t", "id"),
					resource.TestCheckResourceAttrPair(addr, "pipeline_id", "buildkite_pipeline.p", "id"),
					resource.TestCheckResourceAttr(addr, "access_level", "BUILD_AND_READ"),
					resource.TestCheckResourceAttr("buildkite_team.t", "description", ""),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{ResourceName: "buildkite_team.t", ImportState: true, ImportStateVerify: true},
			// Two resources for one pair, created in one run: the second is refused as the service refuses a
			// duplicate, not taken over (as access that was there before the run would be).
			{
				Config: cfg + fmt.Sprintf(`
resource "buildkite_pipeline" "p2" {
  name       = %q
  repository = "https://github.com/buildkite/terraform-provider-buildkite.git"
}

resource "buildkite_pipeline_team" "first" {
  access_level = "READ_ONLY"
  team_id      = buildkite_team.t.id
  pipeline_id  = buildkite_pipeline.p2.id
}

resource "buildkite_pipeline_team" "duplicate" {
  access_level = "READ_ONLY"
  team_id      = buildkite_team.t.id
  pipeline_id  = buildkite_pipeline.p2.id
  depends_on   = [buildkite_pipeline_team.first]
}
`, name+"-2"),
				ExpectError: regexp.MustCompile(`already been added(?s:.*)remove the duplicate`),
			},
		},
	})
}

// The rows of buildkite_pipeline_team in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_pipeline_team", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_pipeline_team", Attrs: []string{"team_id", "pipeline_id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			team, p := e.Name("identity"), e.PipelineNamed(e.Name("identity-pipeline"))
			return acctest.IdentityConfigs{
				Create: testAccPipelineTeamConfig(team, p.ID, "build_and_read"),
				Update: testAccPipelineTeamConfig(team, p.ID, "read_only"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "pipeline_team", Add: (*acctest.OfficialWorkspace).AddPipelineTeam, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_pipeline_team.website", map[string]any{"access_level": "BUILD_AND_READ"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_pipeline_team", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedTeams(t, base)
		access := func(tm *buildkite.Team, p *buildkite.Pipeline) queryfilter.QueryFilter {
			return acctest.ByIdentity("team_id", tm.ID, "pipeline_id", p.ID)
		}
		level := func(v string) []querycheck.KnownValueCheck {
			return []querycheck.KnownValueCheck{acctest.Known("access_level", knownvalue.StringExact(v))}
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_pipeline_team", "b", fmt.Sprintf("    team_id = %q", s.B.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_team.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_team.b", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_team.all", access(s.B, s.P2), knownvalue.StringExact(base+"-b / "+s.P2.Slug)),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.all", access(s.A, s.P1),
					append(level("BUILD_AND_READ"), acctest.Known("id", knownvalue.StringExact(s.A.ID+"/"+s.P1.ID)))),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.B, s.P1), level("READ_ONLY")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.B, s.P2), level("MANAGE_BUILD_AND_READ")),
			},
			Imports: 3,
		}
	}},
	Association: &acctest.AssociationCase{
		ResourceType: "buildkite_pipeline_team",
		ImportAttrs:  []string{"team_id", "pipeline_id"},
		Values:       []string{"READ_ONLY", "build_and_read"},
		Setup: func(t *testing.T, e *acctest.TestEnv) func(string, string) string {
			teams := acctest.TwoTeams(e, "assoc-pipeline")
			p := e.PipelineNamed(e.Name("assoc-pipeline"))
			return func(parent, level string) string {
				return teams + fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = buildkite_team.%s.id
  pipeline_id  = %q
  access_level = %q
}
`, parent, p.ID, level)
			}
		},
	},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "pipeline team, the official provider's", TypeName: "buildkite_pipeline_team", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("TeamPipeline", acctest.TestUUID), "uuid": acctest.TestUUID, "team_id": kit.GraphQLID("Team", acctest.OtherUUID),
				"pipeline_id": kit.GraphQLID("Pipeline", acctest.TestUUID), "access_level": "READ_ONLY"},
			Want: map[string]any{"id": acctest.OtherUUID + "/" + acctest.TestUUID, "pipeline_id": acctest.TestUUID, "access_level": "READ_ONLY"},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A team's access to a pipeline goes with the team or the pipeline, which their sweepers remove.",
	},
})

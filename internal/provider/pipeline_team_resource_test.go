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
	registerTestKind("buildkite_pipeline_team", testKind{
		fake: fakeserver.KindTeamPipeline, storeKey: byID, // "<team id>/<pipeline id>"
		get: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			_, err := c.TeamPipelines.Get(ctx, attrs["team_id"], attrs["pipeline_id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, attrs map[string]string) error {
			return c.TeamPipelines.Delete(ctx, attrs["team_id"], attrs["pipeline_id"])
		},
	})
}

// testAccPipelineTeamConfig gives a team named team access to the pipeline pipelineID.
func testAccPipelineTeamConfig(team, pipelineID, level string) string {
	return testAccTeamConfig(team, "visible", "member", false, "") + fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = buildkite_team.test.id
  pipeline_id  = %q
  access_level = %q
}
`, pipelineID, level)
}

// checkPipelineAccess asks the service for the access level of buildkite_pipeline_team.test.
func (e *testEnv) checkPipelineAccess(want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_pipeline_team.test"].Primary.Attributes
		tp, err := e.client.TeamPipelines.Get(context.Background(), a["team_id"], a["pipeline_id"])
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
	e := newTestEnv(t)
	team := e.name("pt")
	p1, p2 := e.pipelineNamed(e.name("pt-one")), e.pipelineNamed(e.name("pt-two"))
	const addr = "buildkite_pipeline_team.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_team"),
		Steps: steps(
			step(resource.TestStep{
				Config:      e.config(testAccPipelineTeamConfig(team, p1.ID, "admin")),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*access_level\s+value\s+must\s+be\s+one\s+of:\s+\["READ_ONLY"\s+"BUILD_AND_READ"\s+"MANAGE_BUILD_AND_READ"\].*"read_only"/"READ_ONLY"`),
			}),
			step(resource.TestStep{
				Config: e.config(testAccPipelineTeamConfig(team, p1.ID, "READ_ONLY")),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr), e.checkPipelineAccess("read_only"),
					resource.TestCheckResourceAttrPair(addr, "uuid", addr, "id"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			importSteps(addr, importID(addr, "team_id", "pipeline_id")),
			step(resource.TestStep{
				// Team and pipeline by slug.
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_team.test"].Primary.Attributes["slug"] + "/" + p1.Slug, nil
				},
			}),
			step(resource.TestStep{
				Config: e.config(testAccPipelineTeamConfig(team, p1.ID, "BUILD_AND_READ")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkPipelineAccess("build_and_read"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_level"), knownvalue.StringExact("BUILD_AND_READ")),
				},
			}),
			step(resource.TestStep{
				Config: e.config(testAccPipelineTeamConfig(team, p1.ID, "BUILD_AND_READ")), ResourceName: addr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: importID(addr, "team_id", "pipeline_id"),
			}),
			step(resource.TestStep{
				Config: e.config(testAccPipelineTeamConfig(team, p2.ID, "manage_build_and_read")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(e.checkExists(addr), e.checkPipelineAccess("manage_build_and_read")),
			}),
		),
	})
}

func TestAccPipelineTeamResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_pipeline_team.test"
	cfg := e.config(testAccPipelineTeamConfig(e.name("pt-gone"), e.pipelineNamed(e.name("pt-gone")).ID, "read_only"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_team"),
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

// An access level changed outside Terraform is planned back and corrected by the next apply.
func TestAccPipelineTeamResource_accessDrift(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_pipeline_team.test"
	p := e.pipelineNamed(e.name("pt-drift"))
	cfg := e.config(testAccPipelineTeamConfig(e.name("pt-drift"), p.ID, "READ_ONLY"))
	var teamID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_team"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttrWith(addr, "team_id", func(v string) error { teamID = v; return nil })},
			{
				PreConfig: func() {
					if _, err := e.client.TeamPipelines.Update(context.Background(), teamID, p.ID, "manage_build_and_read"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: e.checkPipelineAccess("read_only"),
			},
		},
	})
}

// A pipeline created with a team (the pipeline's default_team_id) already gives it access: the
// buildkite_pipeline_team for the pair takes that access over and sets its own level, and destroying it
// removes the access.
func TestAccPipelineTeamResource_takesOverDefaultTeam(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	team := e.seedTeam(e.name("pt-default"))
	p := e.seedPipeline(buildkite.PipelineCreate{Name: e.name("pt-default"), Teams: map[string]string{team.ID: "manage_build_and_read"}})
	cfg := e.config(fmt.Sprintf(`
resource "buildkite_pipeline_team" "test" {
  team_id      = %q
  pipeline_id  = %q
  access_level = "read_only"
}
`, team.ID, p.ID))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_team"),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check:  e.checkPipelineAccess("read_only"),
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
	e := newTestEnv(t)
	const addr = "buildkite_pipeline_team.pt"
	name := e.name("pt-together")
	cfg := e.config(fmt.Sprintf(`
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
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_team"),
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

// The rows of buildkite_pipeline_team in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_pipeline_team", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_pipeline_team", attrs: []string{"team_id", "pipeline_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			team, p := e.name("identity"), e.pipelineNamed(e.name("identity-pipeline"))
			return identityConfigs{
				create: testAccPipelineTeamConfig(team, p.ID, "build_and_read"),
				update: testAccPipelineTeamConfig(team, p.ID, "read_only"),
			}
		},
	},
	migration: []migrationCase{
		{name: "pipeline_team", add: (*officialWorkspace).addPipelineTeam, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_pipeline_team.website", map[string]any{"access_level": "BUILD_AND_READ"})
		}},
	},
	query: &queryCase{resourceType: "buildkite_pipeline_team", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedTeams(t, base)
		access := func(tm *buildkite.Team, p *buildkite.Pipeline) queryfilter.QueryFilter {
			return byIdentity("team_id", tm.ID, "pipeline_id", p.ID)
		}
		level := func(v string) []querycheck.KnownValueCheck {
			return []querycheck.KnownValueCheck{known("access_level", knownvalue.StringExact(v))}
		}
		return queryRow{
			blocks: []string{"buildkite_pipeline_team", "b", fmt.Sprintf("    team_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_team.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_team.b", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_team.all", access(s.b, s.p2), knownvalue.StringExact(base+"-b / "+s.p2.Slug)),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.all", access(s.a, s.p1),
					append(level("BUILD_AND_READ"), known("id", knownvalue.StringExact(s.a.ID+"/"+s.p1.ID)))),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.b, s.p1), level("READ_ONLY")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.b, s.p2), level("MANAGE_BUILD_AND_READ")),
			},
			imports: 3,
		}
	}},
	association: &associationCase{
		resourceType: "buildkite_pipeline_team",
		importAttrs:  []string{"team_id", "pipeline_id"},
		values:       []string{"READ_ONLY", "build_and_read"},
		setup: func(t *testing.T, e *testEnv) func(string, string) string {
			teams := twoTeams(e, "assoc-pipeline")
			p := e.pipelineNamed(e.name("assoc-pipeline"))
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
	upgrade: []upgradeCase{
		{
			name: "pipeline team, the official provider's", typeName: "buildkite_pipeline_team", version: 0,
			state: map[string]any{"id": kit.GraphQLID("TeamPipeline", testUUID), "uuid": testUUID, "team_id": kit.GraphQLID("Team", otherUUID),
				"pipeline_id": kit.GraphQLID("Pipeline", testUUID), "access_level": "READ_ONLY"},
			want: map[string]any{"id": otherUUID + "/" + testUUID, "pipeline_id": testUUID, "access_level": "READ_ONLY"},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A team's access to a pipeline goes with the team or the pipeline, which their sweepers remove.",
	},
})

package pipelines_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
)

const scheduleAddr = "buildkite_pipeline_schedule.test"

// testAccScheduleConfig declares pipelines "a" and "b" named after base and a schedule of the pipeline
// pipelineRef names (an expression), with the attributes body.
func testAccScheduleConfig(base, pipelineRef, body string) string {
	return fmt.Sprintf(`
resource "buildkite_pipeline" "a" {
  name       = "%[1]s-a"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_pipeline" "b" {
  name       = "%[1]s-b"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_pipeline_schedule" "test" {
  pipeline_id = %[2]s
  label       = "Nightly"
  branch      = "main"
%[3]s
}
`, base, pipelineRef, body)
}

// scheduleImportBySlug is the import ID "<pipeline a's slug>/<schedule id>".
func scheduleImportBySlug(s *terraform.State) (string, error) {
	p, ok := s.RootModule().Resources["buildkite_pipeline.a"]
	if !ok {
		return "", fmt.Errorf("buildkite_pipeline.a is not in state")
	}
	return p.Primary.Attributes["slug"] + "/" + s.RootModule().Resources[scheduleAddr].Primary.ID, nil
}

// scheduleValue checks one attribute of the schedule in state.
func scheduleValue(attr string, value knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(scheduleAddr, tfjsonpath.New(attr), value)
}

// noChange checks that the step plans nothing.
func noChange() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

func TestAccPipelineScheduleResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	base := e.Name("schedules")
	config := func(ref, body string) string { return e.Config(testAccScheduleConfig(base, ref, body)) }
	const nightly = `  cronline = "0 3 * * 1-5 Europe/Berlin"`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_schedule"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: config("buildkite_pipeline.a.id", nightly+"\n  env = {}"),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(scheduleAddr),
					resource.TestCheckResourceAttrPair(scheduleAddr, "pipeline_id", "buildkite_pipeline.a", "id"),
					resource.TestCheckResourceAttrPair(scheduleAddr, "uuid", scheduleAddr, "id")),
				ConfigStateChecks: []statecheck.StateCheck{
					scheduleValue("commit", knownvalue.StringExact("HEAD")),
					scheduleValue("enabled", knownvalue.Bool(true)),
					scheduleValue("env", knownvalue.MapExact(map[string]knownvalue.Check{})),
					scheduleValue("message", knownvalue.Null()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(scheduleAddr, acctest.ImportID(scheduleAddr, "pipeline_id", "id")),
			// The id in state alone, and the GraphQL ID the official provider imports by: the pipeline is found
			// through the pipelines' schedule listings.
			acctest.ImportSteps(scheduleAddr, acctest.ImportID(scheduleAddr, "id")),
			acctest.ImportSteps(scheduleAddr, acctest.ImportID(scheduleAddr, "graphql_id")),
			acctest.Step(acctest.GenerateConfigStep(scheduleAddr, scheduleImportBySlug)),
			// No env and env = {} are the same.
			acctest.Step(resource.TestStep{Config: config("buildkite_pipeline.a.id", nightly), ConfigPlanChecks: noChange()}),
			acctest.Step(resource.TestStep{
				Config: config("buildkite_pipeline.a.id", `  cronline = "@daily"
  message  = "Nightly build"
  commit   = "0123456789abcdef0123456789abcdef01234567"
  enabled  = false
  env      = { DEPLOY = "false" }`),
				ConfigPlanChecks: acctest.InPlace(scheduleAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					scheduleValue("cronline", knownvalue.StringExact("@daily")),
					scheduleValue("message", knownvalue.StringExact("Nightly build")),
					scheduleValue("enabled", knownvalue.Bool(false)),
					scheduleValue("env", knownvalue.MapExact(map[string]knownvalue.Check{"DEPLOY": knownvalue.StringExact("false")})),
				},
			}),
			// The same pipeline by slug or by GraphQL ID is no change, and state keeps the UUID.
			acctest.Step(resource.TestStep{Config: config("buildkite_pipeline.a.slug", nightly), ConfigPlanChecks: acctest.InPlace(scheduleAddr),
				ConfigStateChecks: []statecheck.StateCheck{scheduleValue("env", knownvalue.MapExact(map[string]knownvalue.Check{}))}}),
			acctest.Step(resource.TestStep{Config: config("buildkite_pipeline.a.graphql_id", nightly), ConfigPlanChecks: noChange(),
				Check: resource.TestCheckResourceAttrPair(scheduleAddr, "pipeline_id", "buildkite_pipeline.a", "id")}),
			// Another pipeline, named by its GraphQL ID as the official provider stores it, replaces the schedule.
			acctest.Step(resource.TestStep{
				Config: config("buildkite_pipeline.b.graphql_id", nightly),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(scheduleAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(checkScheduleIn(e, "buildkite_pipeline.b"),
					resource.TestCheckResourceAttrPair(scheduleAddr, "pipeline_id", "buildkite_pipeline.b", "graphql_id")),
			}),
		),
	})
}

// checkScheduleIn checks that the service lists the schedule in state among the pipeline's at address.
func checkScheduleIn(e *acctest.TestEnv, pipelineAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		slug := s.RootModule().Resources[pipelineAddr].Primary.Attributes["slug"]
		all, err := e.Client.PipelineSchedules.List(context.Background(), slug)
		if err != nil {
			return err
		}
		id := s.RootModule().Resources[scheduleAddr].Primary.ID
		for _, sc := range all {
			if sc.ID == id {
				return nil
			}
		}
		return fmt.Errorf("schedule %s is not among the %d schedules of pipeline %s", id, len(all), slug)
	}
}

func TestAccPipelineScheduleResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears(scheduleAddr, testAccScheduleConfig(e.Name("schedules-gone"), "buildkite_pipeline.a.id", `  cronline = "@hourly"`))
}

// TestAccPipelineScheduleResource_pipelineRenamedOutside: a schedule whose configuration names its
// pipeline by a slug the pipeline no longer has (renamed outside Terraform) is still found, and nothing
// changes.
func TestAccPipelineScheduleResource_pipelineRenamedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	p := e.PipelineNamed(e.Name("renamed"))
	cfg := e.Config(fmt.Sprintf(`
resource "buildkite_pipeline_schedule" "test" {
  pipeline_id = %q
  label       = "Hourly"
  cronline    = "@hourly"
  branch      = "main"
}
`, p.Slug))
	rename := func(*terraform.State) error {
		name := p.Name + " moved"
		_, err := e.Client.Pipelines.Update(context.Background(), p.Slug, buildkite.PipelineUpdate{Name: &name})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_schedule"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: rename},
			{Config: cfg, ConfigPlanChecks: noChange(), ConfigStateChecks: []statecheck.StateCheck{
				scheduleValue("pipeline_id", knownvalue.StringExact(p.Slug)),
			}},
		},
	})
}

func TestAccPipelineScheduleResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	config := func(pipeline, cronline string) string {
		return e.Config(fmt.Sprintf(`
resource "buildkite_pipeline_schedule" "test" {
  pipeline_id = %q
  label       = "L"
  cronline    = %q
  branch      = "main"
}
`, pipeline, cronline))
	}
	var plans []resource.TestStep
	for cronline, want := range map[string]string{
		"":                       `it is empty`,
		"0 3 * *":                `it has 4 fields, and five are needed`,
		"60 3 * * *":             `the minute field "60": 60 is outside 0-59`,
		"0 3 * * mon-sun":        `the day of week field "mon-sun": the range mon-sun ends before it starts`,
		"*/0 * * * *":            `the minute field "*/0": the step "0" is not a whole number of 1 or more`,
		"0 3 * * * Mars/Olympus": `"Mars/Olympus" is not a time zone of the IANA database`,
		"@fortnightly":           `"@fortnightly" is not one of @yearly, @annually`,
		"@daily UTC":             `@daily takes no time zone or anything else after it`,
	} {
		plans = append(plans, resource.TestStep{Config: config("app", cronline), PlanOnly: true,
			ExpectError: acctest.Wrapped(fmt.Sprintf("cronline %q is not a cronline the service accepts: %s", cronline, want))})
	}
	plans = append(plans,
		resource.TestStep{Config: config(kit.GraphQLID("Cluster", acctest.UnknownUUID), "@daily"), PlanOnly: true,
			ExpectError: acctest.Wrapped(`is the GraphQL ID of a Cluster (` + acctest.UnknownUUID + `), not of a Pipeline`)},
		resource.TestStep{
			Config: config("app", "@daily"), ResourceName: scheduleAddr, ImportState: true, ImportStateId: "app/not-a-uuid",
			ExpectError: acctest.Wrapped(`Expected an import ID of the form "<pipeline slug or id>/<schedule id>"`),
		})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: plans})
}

// TestCheckCronline accepts what the service does.
func TestCheckCronline(t *testing.T) {
	for _, line := range []string{
		"@daily", "@HOURLY", "@annually", "@midnight", "* * * * *", "*/15 9-17 * * 1-5", "0 0 1,15 JAN-jun,dec *",
		"5/10 0 * * SUN", "0 3 * * 7 Europe/Berlin", "30 2 29 2 * America/Argentina/Buenos_Aires", "0 0 * * * UTC",
		"  0   3  *  *  *  ",
	} {
		if err := kit.CheckCronline(line); err != nil {
			t.Errorf("checkCronline(%q) = %v", line, err)
		}
	}
	if err := kit.CheckCronline(strings.Repeat("* ", 7)); err == nil {
		t.Error("seven fields accepted")
	}
}

// TestPipelineScheduleModel_scheduleID reads the REST ID from a state the official provider wrote (a
// GraphQL ID in id, the UUID in uuid) as from one of ours: the kind addresses a schedule by id, or by
// uuid where id holds no ID of a schedule (its KeyOr, read with kit.IDOr).
func TestPipelineScheduleModel_scheduleID(t *testing.T) {
	const id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"
	for _, m := range []pipelines.PipelineScheduleModelForTest{
		{ID: types.StringValue(id), UUID: types.StringValue(id)},
		{ID: types.StringValue(kit.GraphQLID("PipelineSchedule", id)), UUID: types.StringValue(id)},
		{ID: types.StringValue(kit.GraphQLID("PipelineSchedule", id)), UUID: types.StringNull()},
		{ID: types.StringValue("not an id"), UUID: types.StringValue(id)},
	} {
		if got := kit.IDOr(pipelines.PipelineScheduleKindForTest.Name, m.ID.ValueString(), m.UUID.ValueString()); got != id {
			t.Errorf("scheduleID of id %s, uuid %s = %q, want %q", m.ID, m.UUID, got, id)
		}
	}
}

// TestAccPipelineScheduleResource_importByIDErrors: a schedule ID no pipeline has, and a GraphQL ID of
// another type, are refused with what was asked for.
func TestAccPipelineScheduleResource_importByIDErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	for id, want := range map[string]string{
		acctest.UnknownUUID: "No pipeline of the organization has a schedule with ID " + acctest.UnknownUUID,
		kit.GraphQLID("PipelineSchedule", acctest.UnknownUUID): "No pipeline of the organization has a schedule with ID " + acctest.UnknownUUID,
		acctest.ClusterGraphQLID:                               "is the GraphQL ID of a Cluster",
		"not-a-uuid":                                           "is not a UUID",
	} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: e.Factories(),
			Steps: []resource.TestStep{{
				Config:        e.Config(testAccScheduleConfig(e.Name("imp"), "buildkite_pipeline.a.id", `  cronline = "@daily"`)),
				ResourceName:  scheduleAddr,
				ImportState:   true,
				ImportStateId: id,
				ExpectError:   acctest.Wrapped(want),
			}},
		})
	}
}

// The rows of buildkite_pipeline_schedule in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_pipeline_schedule", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// Named by its pipeline as the configuration names it, and its ID.
		ResourceType: "buildkite_pipeline_schedule", Attrs: []string{"pipeline_id", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			base := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccScheduleConfig(base, "buildkite_pipeline.a.id", `  cronline = "@daily"`),
				Update: testAccScheduleConfig(base, "buildkite_pipeline.a.id", `  cronline = "@hourly"`),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_pipeline_schedule",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			schedule := func(pipeline, id string) string {
				return acctest.ImportByIdentity("buildkite_pipeline_schedule", `  pipeline_id = "no-such-pipeline"
  label       = "Nightly"
  cronline    = "@daily"
  branch      = "main"`, "pipeline_id", pipeline, "id", id)
			}
			return []acctest.InvalidIdentity{
				{Config: schedule("no-such-pipeline", "nightly"), Message: `id (<schedule id>) "nightly" is not a UUID`},
				{Config: schedule("no-such-pipeline", acctest.UnknownUUID), Message: `Unable to Import Pipeline Schedule`},
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "pipeline_schedule", Add: (*acctest.OfficialWorkspace).AddSchedule, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_pipeline_schedule.nightly", map[string]any{"cronline": "0 2 * * *", "commit": "HEAD"})
			a := w.StateAttributes("buildkite_pipeline_schedule.nightly")
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "PipelineSchedule" {
				t.Errorf("after the move graphql_id = %v, want the schedule's GraphQL ID", a["graphql_id"])
			}
			if env, ok := a["env"].(map[string]any); !ok || len(env) != 0 {
				t.Errorf("after the move env = %#v, want {} for no variables", a["env"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_pipeline_schedule", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedBeyondSpec(t, base)
		schedule := func(p *buildkite.Pipeline, sc *buildkite.PipelineSchedule) queryfilter.QueryFilter {
			return acctest.ByIdentity("pipeline_id", p.ID, "id", sc.ID)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_pipeline_schedule", "p1", fmt.Sprintf("    pipeline_id = %q", s.P1.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_schedule.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_schedule.p1", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_schedule.all", schedule(s.P2, s.Other), knownvalue.StringExact(s.P2.Name+" / Weekly")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_schedule.p1", schedule(s.P1, s.Nightly), []querycheck.KnownValueCheck{
					acctest.Known("cronline", knownvalue.StringExact("0 3 * * 1-5 Europe/Berlin")),
					acctest.Known("message", knownvalue.StringExact("Nightly build")),
					acctest.Known("enabled", knownvalue.Bool(false)),
					acctest.Known("env", knownvalue.MapExact(map[string]knownvalue.Check{"DEPLOY": knownvalue.StringExact("false")})),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_schedule.p1", schedule(s.P1, s.Hourly), []querycheck.KnownValueCheck{
					acctest.Known("message", knownvalue.Null()),
					acctest.Known("env", knownvalue.MapExact(map[string]knownvalue.Check{})),
					acctest.Known("commit", knownvalue.StringExact("HEAD")),
				}),
			},
			Refused: []acctest.QueryRefusal{{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "pipeline_id"), Message: acctest.Wrapped(`No pipeline matches the ID "` + acctest.UnknownUUID + `"`)}},
			Imports: 3,
		}
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "schedule, the official provider's", TypeName: "buildkite_pipeline_schedule", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("PipelineSchedule", acctest.OtherUUID), "uuid": acctest.OtherUUID,
				"pipeline_id": kit.GraphQLID("Pipeline", acctest.TestUUID), "label": "Nightly", "cronline": "@daily", "branch": "main",
				"commit": "HEAD", "message": nil, "env": nil, "enabled": true},
			Want: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "graphql_id": kit.GraphQLID("PipelineSchedule", acctest.OtherUUID),
				"pipeline_id": acctest.TestUUID, "env": map[string]any{}, "commit": "HEAD", "message": nil},
		},
		{
			Name: "schedule, the official provider's with env", TypeName: "buildkite_pipeline_schedule", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("PipelineSchedule", acctest.OtherUUID), "uuid": acctest.OtherUUID,
				"pipeline_id": kit.GraphQLID("Pipeline", acctest.TestUUID), "label": "Nightly", "cronline": "@daily", "branch": "main",
				"commit": "HEAD", "env": map[string]any{"FULL": "1"}, "enabled": false},
			Want: map[string]any{"id": acctest.OtherUUID, "env": map[string]any{"FULL": "1"}, "enabled": false},
		},
		{
			Name: "schedule, ours at version 0", TypeName: "buildkite_pipeline_schedule", Version: 0,
			State: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "graphql_id": "S", "pipeline_id": "website",
				"label": "Nightly", "cronline": "@daily", "branch": "main", "commit": "HEAD", "message": nil,
				"env": map[string]any{}, "enabled": true},
			Want: map[string]any{"id": acctest.OtherUUID, "graphql_id": "S", "pipeline_id": "website", "env": map[string]any{}},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A pipeline's schedules go with their pipeline, which the pipeline sweeper removes.",
	},
})

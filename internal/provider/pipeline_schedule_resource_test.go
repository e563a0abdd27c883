package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func init() {
	registerTestKind("buildkite_pipeline_schedule", testKind{
		fake:     fakeserver.KindPipelineSchedule,
		storeKey: byParent("pipeline_id"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			p, err := kit.FindPipeline(ctx, c, a["pipeline_id"])
			if err == nil {
				_, err = c.PipelineSchedules.Get(ctx, p.Slug, a["id"])
			}
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			p, err := kit.FindPipeline(ctx, c, a["pipeline_id"])
			if err == nil {
				err = c.PipelineSchedules.Delete(ctx, p.Slug, a["id"])
			}
			return err
		},
	})
}

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
	e := newTestEnv(t)
	base := e.name("schedules")
	config := func(ref, body string) string { return e.config(testAccScheduleConfig(base, ref, body)) }
	const nightly = `  cronline = "0 3 * * 1-5 Europe/Berlin"`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_schedule"),
		Steps: steps(
			step(resource.TestStep{
				Config: config("buildkite_pipeline.a.id", nightly+"\n  env = {}"),
				Check: resource.ComposeTestCheckFunc(e.checkExists(scheduleAddr),
					resource.TestCheckResourceAttrPair(scheduleAddr, "pipeline_id", "buildkite_pipeline.a", "id"),
					resource.TestCheckResourceAttrPair(scheduleAddr, "uuid", scheduleAddr, "id")),
				ConfigStateChecks: []statecheck.StateCheck{
					scheduleValue("commit", knownvalue.StringExact("HEAD")),
					scheduleValue("enabled", knownvalue.Bool(true)),
					scheduleValue("env", knownvalue.MapExact(map[string]knownvalue.Check{})),
					scheduleValue("message", knownvalue.Null()),
				},
				ConfigPlanChecks: expectEmpty(),
			}),
			importSteps(scheduleAddr, importID(scheduleAddr, "pipeline_id", "id")),
			// The id in state alone, and the GraphQL ID the official provider imports by: the pipeline is found
			// through the pipelines' schedule listings.
			importSteps(scheduleAddr, importID(scheduleAddr, "id")),
			importSteps(scheduleAddr, importID(scheduleAddr, "graphql_id")),
			step(generateConfigStep(scheduleAddr, scheduleImportBySlug)),
			// No env and env = {} are the same.
			step(resource.TestStep{Config: config("buildkite_pipeline.a.id", nightly), ConfigPlanChecks: noChange()}),
			step(resource.TestStep{
				Config: config("buildkite_pipeline.a.id", `  cronline = "@daily"
  message  = "Nightly build"
  commit   = "0123456789abcdef0123456789abcdef01234567"
  enabled  = false
  env      = { DEPLOY = "false" }`),
				ConfigPlanChecks: inPlace(scheduleAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					scheduleValue("cronline", knownvalue.StringExact("@daily")),
					scheduleValue("message", knownvalue.StringExact("Nightly build")),
					scheduleValue("enabled", knownvalue.Bool(false)),
					scheduleValue("env", knownvalue.MapExact(map[string]knownvalue.Check{"DEPLOY": knownvalue.StringExact("false")})),
				},
			}),
			// The same pipeline by slug or by GraphQL ID is no change, and state keeps the UUID.
			step(resource.TestStep{Config: config("buildkite_pipeline.a.slug", nightly), ConfigPlanChecks: inPlace(scheduleAddr),
				ConfigStateChecks: []statecheck.StateCheck{scheduleValue("env", knownvalue.MapExact(map[string]knownvalue.Check{}))}}),
			step(resource.TestStep{Config: config("buildkite_pipeline.a.graphql_id", nightly), ConfigPlanChecks: noChange(),
				Check: resource.TestCheckResourceAttrPair(scheduleAddr, "pipeline_id", "buildkite_pipeline.a", "id")}),
			// Another pipeline, named by its GraphQL ID as the official provider stores it, replaces the schedule.
			step(resource.TestStep{
				Config: config("buildkite_pipeline.b.graphql_id", nightly),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(scheduleAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(e.checkScheduleIn("buildkite_pipeline.b"),
					resource.TestCheckResourceAttrPair(scheduleAddr, "pipeline_id", "buildkite_pipeline.b", "graphql_id")),
			}),
		),
	})
}

// checkScheduleIn checks that the service lists the schedule in state among the pipeline's at address.
func (e *testEnv) checkScheduleIn(pipelineAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		slug := s.RootModule().Resources[pipelineAddr].Primary.Attributes["slug"]
		all, err := e.client.PipelineSchedules.List(context.Background(), slug)
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
	e := newTestEnv(t)
	e.disappears(scheduleAddr, testAccScheduleConfig(e.name("schedules-gone"), "buildkite_pipeline.a.id", `  cronline = "@hourly"`))
}

// TestAccPipelineScheduleResource_pipelineRenamedOutside: a schedule whose configuration names its
// pipeline by a slug the pipeline no longer has (renamed outside Terraform) is still found, and nothing
// changes.
func TestAccPipelineScheduleResource_pipelineRenamedOutside(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	p := e.pipelineNamed(e.name("renamed"))
	cfg := e.config(fmt.Sprintf(`
resource "buildkite_pipeline_schedule" "test" {
  pipeline_id = %q
  label       = "Hourly"
  cronline    = "@hourly"
  branch      = "main"
}
`, p.Slug))
	rename := func(*terraform.State) error {
		name := p.Name + " moved"
		_, err := e.client.Pipelines.Update(context.Background(), p.Slug, buildkite.PipelineUpdate{Name: &name})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_schedule"),
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
	e := newTestEnv(t)
	config := func(pipeline, cronline string) string {
		return e.config(fmt.Sprintf(`
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
			ExpectError: wrapped(fmt.Sprintf("cronline %q is not a cronline the service accepts: %s", cronline, want))})
	}
	plans = append(plans,
		resource.TestStep{Config: config(kit.GraphQLID("Cluster", unknownUUID), "@daily"), PlanOnly: true,
			ExpectError: wrapped(`is the GraphQL ID of a Cluster (` + unknownUUID + `), not of a Pipeline`)},
		resource.TestStep{
			Config: config("app", "@daily"), ResourceName: scheduleAddr, ImportState: true, ImportStateId: "app/not-a-uuid",
			ExpectError: wrapped(`Expected an import ID of the form "<pipeline slug or id>/<schedule id>"`),
		})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.factories(), Steps: plans})
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
	for _, m := range []pipelineScheduleModel{
		{ID: types.StringValue(id), UUID: types.StringValue(id)},
		{ID: types.StringValue(kit.GraphQLID("PipelineSchedule", id)), UUID: types.StringValue(id)},
		{ID: types.StringValue(kit.GraphQLID("PipelineSchedule", id)), UUID: types.StringNull()},
		{ID: types.StringValue("not an id"), UUID: types.StringValue(id)},
	} {
		if got := kit.IDOr(pipelineScheduleKind.Name, m.ID.ValueString(), m.UUID.ValueString()); got != id {
			t.Errorf("scheduleID of id %s, uuid %s = %q, want %q", m.ID, m.UUID, got, id)
		}
	}
}

// TestAccPipelineScheduleResource_importByIDErrors: a schedule ID no pipeline has, and a GraphQL ID of
// another type, are refused with what was asked for.
func TestAccPipelineScheduleResource_importByIDErrors(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for id, want := range map[string]string{
		unknownUUID: "No pipeline of the organization has a schedule with ID " + unknownUUID,
		kit.GraphQLID("PipelineSchedule", unknownUUID): "No pipeline of the organization has a schedule with ID " + unknownUUID,
		clusterGraphQLID: "is the GraphQL ID of a Cluster",
		"not-a-uuid":     "is not a UUID",
	} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: e.factories(),
			Steps: []resource.TestStep{{
				Config:        e.config(testAccScheduleConfig(e.name("imp"), "buildkite_pipeline.a.id", `  cronline = "@daily"`)),
				ResourceName:  scheduleAddr,
				ImportState:   true,
				ImportStateId: id,
				ExpectError:   wrapped(want),
			}},
		})
	}
}

// The rows of buildkite_pipeline_schedule in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_pipeline_schedule", typeTests{
	identity: &identityCase{
		// Named by its pipeline as the configuration names it, and its ID.
		resourceType: "buildkite_pipeline_schedule", attrs: []string{"pipeline_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			base := e.name("identity")
			return identityConfigs{
				create: testAccScheduleConfig(base, "buildkite_pipeline.a.id", `  cronline = "@daily"`),
				update: testAccScheduleConfig(base, "buildkite_pipeline.a.id", `  cronline = "@hourly"`),
			}
		},
	},
	invalidIdentity: &invalidIdentityCase{
		resourceType: "buildkite_pipeline_schedule",
		setup: func(e *testEnv) []invalidIdentity {
			schedule := func(pipeline, id string) string {
				return importByIdentity("buildkite_pipeline_schedule", `  pipeline_id = "no-such-pipeline"
  label       = "Nightly"
  cronline    = "@daily"
  branch      = "main"`, "pipeline_id", pipeline, "id", id)
			}
			return []invalidIdentity{
				{schedule("no-such-pipeline", "nightly"), `id (<schedule id>) "nightly" is not a UUID`},
				{schedule("no-such-pipeline", unknownUUID), `Unable to Import Pipeline Schedule`},
			}
		},
	},
	migration: []migrationCase{
		{name: "pipeline_schedule", add: (*officialWorkspace).addSchedule, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_pipeline_schedule.nightly", map[string]any{"cronline": "0 2 * * *", "commit": "HEAD"})
			a := w.stateAttributes("buildkite_pipeline_schedule.nightly")
			if typ, _, ok := kit.DecodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "PipelineSchedule" {
				t.Errorf("after the move graphql_id = %v, want the schedule's GraphQL ID", a["graphql_id"])
			}
			if env, ok := a["env"].(map[string]any); !ok || len(env) != 0 {
				t.Errorf("after the move env = %#v, want {} for no variables", a["env"])
			}
		}},
	},
	query: &queryCase{resourceType: "buildkite_pipeline_schedule", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedBeyondSpec(t, base)
		schedule := func(p *buildkite.Pipeline, sc *buildkite.PipelineSchedule) queryfilter.QueryFilter {
			return byIdentity("pipeline_id", p.ID, "id", sc.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_pipeline_schedule", "p1", fmt.Sprintf("    pipeline_id = %q", s.p1.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_schedule.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_schedule.p1", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_schedule.all", schedule(s.p2, s.other), knownvalue.StringExact(s.p2.Name+" / Weekly")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_schedule.p1", schedule(s.p1, s.nightly), []querycheck.KnownValueCheck{
					known("cronline", knownvalue.StringExact("0 3 * * 1-5 Europe/Berlin")),
					known("message", knownvalue.StringExact("Nightly build")),
					known("enabled", knownvalue.Bool(false)),
					known("env", knownvalue.MapExact(map[string]knownvalue.Check{"DEPLOY": knownvalue.StringExact("false")})),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_schedule.p1", schedule(s.p1, s.hourly), []querycheck.KnownValueCheck{
					known("message", knownvalue.Null()),
					known("env", knownvalue.MapExact(map[string]knownvalue.Check{})),
					known("commit", knownvalue.StringExact("HEAD")),
				}),
			},
			refused: []queryRefusal{{fmt.Sprintf(unknownUUIDFilter, "pipeline_id"), wrapped(`No pipeline matches the ID "` + unknownUUID + `"`)}},
			imports: 3,
		}
	}},
	upgrade: []upgradeCase{
		{
			name: "schedule, the official provider's", typeName: "buildkite_pipeline_schedule", version: 0,
			state: map[string]any{"id": kit.GraphQLID("PipelineSchedule", otherUUID), "uuid": otherUUID,
				"pipeline_id": kit.GraphQLID("Pipeline", testUUID), "label": "Nightly", "cronline": "@daily", "branch": "main",
				"commit": "HEAD", "message": nil, "env": nil, "enabled": true},
			want: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": kit.GraphQLID("PipelineSchedule", otherUUID),
				"pipeline_id": testUUID, "env": map[string]any{}, "commit": "HEAD", "message": nil},
		},
		{
			name: "schedule, the official provider's with env", typeName: "buildkite_pipeline_schedule", version: 0,
			state: map[string]any{"id": kit.GraphQLID("PipelineSchedule", otherUUID), "uuid": otherUUID,
				"pipeline_id": kit.GraphQLID("Pipeline", testUUID), "label": "Nightly", "cronline": "@daily", "branch": "main",
				"commit": "HEAD", "env": map[string]any{"FULL": "1"}, "enabled": false},
			want: map[string]any{"id": otherUUID, "env": map[string]any{"FULL": "1"}, "enabled": false},
		},
		{
			name: "schedule, ours at version 0", typeName: "buildkite_pipeline_schedule", version: 0,
			state: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": "S", "pipeline_id": "website",
				"label": "Nightly", "cronline": "@daily", "branch": "main", "commit": "HEAD", "message": nil,
				"env": map[string]any{}, "enabled": true},
			want: map[string]any{"id": otherUUID, "graphql_id": "S", "pipeline_id": "website", "env": map[string]any{}},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A pipeline's schedules go with their pipeline, which the pipeline sweeper removes.",
	},
})

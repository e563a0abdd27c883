package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
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

// testAccRuleConfig is two pipelines and a rule of type between them; value is HCL.
func testAccRuleConfig(name, typ, value string) string {
	return fmt.Sprintf(`
resource "buildkite_pipeline" "source" {
  name       = "%[1]s-source"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_pipeline" "target" {
  name       = "%[1]s-target"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_organization_rule" "test" {
  type  = %[2]q
  value = %[3]s
}
`, name, typ, value)
}

func TestAccOrganizationRuleResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	name := e.name("rule")
	byUUID := `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`
	bySlug := `jsonencode({
    target_pipeline = buildkite_pipeline.target.slug
    source_pipeline = buildkite_pipeline.source.slug
  })`
	var firstID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", byUUID)),
				Check: resource.ComposeTestCheckFunc(e.checkExists(ruleAddr),
					resource.TestCheckResourceAttrPair(ruleAddr, "source_uuid", "buildkite_pipeline.source", "id"),
					resource.TestCheckResourceAttrPair(ruleAddr, "target_uuid", "buildkite_pipeline.target", "id"),
					func(s *terraform.State) error { firstID = s.RootModule().Resources[ruleAddr].Primary.ID; return nil }),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("action"), knownvalue.StringExact("TRIGGER_BUILD")),
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("effect"), knownvalue.StringExact("ALLOW")),
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("source_type"), knownvalue.StringExact("PIPELINE")),
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("target_type"), knownvalue.StringExact("PIPELINE")),
				},
				ConfigPlanChecks: expectEmpty(),
			}),
			importSteps(ruleAddr, importID(ruleAddr, "id")),
			step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: ruleAddr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(ruleAddr, "graphql_id"),
			}),
			step(resource.TestStep{
				// The same pipelines by slug, in another order: the same rule, no change.
				Config: e.config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", bySlug)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(ruleAddr, plancheck.ResourceActionNoop)},
				},
			}),
			step(resource.TestStep{
				// A description, which only the GraphQL API sets: applied in place (ruleUpdate) and read back.
				Config:           e.config(strings.Replace(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", byUUID), "type  =", "description = \"Deploys trigger releases\"\n  type  =", 1)),
				ConfigPlanChecks: inPlace(ruleAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
				},
				Check: e.checkRuleDetails("Deploys trigger releases", nil),
			}),
			step(resource.TestStep{
				// Another type replaces the rule.
				Config: e.config(testAccRuleConfig(name, "pipeline.artifacts_read.pipeline", bySlug)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(ruleAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("action"), knownvalue.StringExact("ARTIFACTS_READ")),
				},
				Check: func(s *terraform.State) error {
					if s.RootModule().Resources[ruleAddr].Primary.ID == firstID {
						return fmt.Errorf("the rule was not replaced")
					}
					return nil
				},
			}),
			step(resource.TestStep{
				// Other pipelines are an update in place: source and target swapped, the same rule.
				Config: e.config(testAccRuleConfig(name, "pipeline.artifacts_read.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.target.slug
    target_pipeline = buildkite_pipeline.source.slug
  })`)),
				ConfigPlanChecks: inPlace(ruleAddr),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(ruleAddr, "source_uuid", "buildkite_pipeline.target", "id"),
					resource.TestCheckResourceAttrPair(ruleAddr, "target_uuid", "buildkite_pipeline.source", "id")),
			}),
		),
	})
}

func TestAccOrganizationRuleResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cfg := e.config(testAccRuleConfig(e.name("gone"), "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.checkExists(ruleAddr), e.removeOutside(ruleAddr)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(ruleAddr, plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}

func TestAccOrganizationRuleResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: e.config(testAccRuleConfig("x", "trigger", `"{}"`)), ExpectError: regexpMust(`<source>.<action>.<target>`), PlanOnly: true},
			{Config: e.config(testAccRuleConfig("x", "pipeline.trigger_build.pipeline", `"{not json"`)), ExpectError: regexpMust(`value must be valid JSON`), PlanOnly: true},
			{Config: e.config(testAccRuleConfig("x", "pipeline.trigger_build.pipeline", `"[1, 2]"`)), ExpectError: regexpMust(`Invalid organization rule value`), PlanOnly: true},
			{
				// Known at plan: a pipeline rule without its source is refused before anything is sent.
				Config:      e.config(testAccRuleConfig("x", "pipeline.artifacts_read.pipeline", `jsonencode({ target_pipeline = "`+unknownUUID+`" })`)),
				ExpectError: regexp.MustCompile(`(?s)Invalid organization rule value.*pipeline.artifacts_read.pipeline: missing source_pipeline`),
				PlanOnly:    true,
			},
		},
	})
}

// TestAccOrganizationRuleResource_refusals: a pipeline slug that names no pipeline is refused at plan
// (official summary, and the service's words on a line of their own); what the service refuses at apply
// (a malformed pipeline, a condition naming no variable, an unknown type) shows its message as it gives it.
func TestAccOrganizationRuleResource_refusals(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	name := e.name("refused")
	literal := func(typ, source, target string) string {
		return e.config(testAccRuleConfig(name, typ, fmt.Sprintf(`jsonencode({
    source_pipeline = %q
    target_pipeline = %q
  })`, source, target)))
	}
	withConditions := func(conditions string) string {
		return e.config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
    conditions      = [`+conditions+`]
  })`))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				Config:      literal("pipeline.trigger_build.pipeline", "no-such-pipeline", unknownUUID),
				ExpectError: regexp.MustCompile(`(?s)Unable to resolve pipeline slug.*Pipeline not found for source_pipeline.*pipeline.trigger_build.pipeline: source_pipeline not found`),
			},
			{
				Config:      literal("pipeline.trigger_build.pipeline", unknownUUID, "Not_A_Slug"),
				ExpectError: regexp.MustCompile(`(?s)Unable to resolve pipeline slug.*pipeline.trigger_build.pipeline: target_pipeline is an invalid UUID\.`),
			},
			{
				Config:      withConditions(`"source.build.branch == 'main'", "source.nonexistent_condition includes 'x'"`),
				ExpectError: regexp.MustCompile("(?s)Unable to create organization rule.*pipeline.trigger_build.pipeline: conditional is invalid:.*`source.nonexistent_condition` is not a variable"),
			},
			{
				Config: e.config(testAccRuleConfig(name, "pipeline.non_existent_action.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`)),
				ExpectError: regexp.MustCompile(`input: Rule type is unknown`),
			},
			{
				Config: e.config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    target_pipeline = buildkite_pipeline.target.uuid
  })`)),
				ExpectError: regexp.MustCompile(`pipeline.trigger_build.pipeline: missing source_pipeline`),
			},
			{
				// The documented conditions pass, and the stored forms are the official provider's.
				Config: withConditions(`"source.build.creator.teams includes 'deploy'", "source.build.branch == 'main'"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("action"), knownvalue.StringExact("TRIGGER_BUILD")),
				},
				ConfigPlanChecks: expectEmpty(),
			},
		},
	})
}

func init() {
	registerTestKind("buildkite_organization_rule", testKind{
		fake:     fakeserver.KindRule,
		storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Rules.Get(ctx, a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Rules.Delete(ctx, a["id"])
		},
	})
}

// ruleWithDescription is testAccRuleConfig's rule between its two pipelines, with a description.
func ruleWithDescription(e *testEnv, name, description string) string {
	return e.config(strings.Replace(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`), "type  =", fmt.Sprintf("description = %q\n  type  =", description), 1))
}

// TestAccOrganizationRuleResource_graphQLPartKept: a rule with a description, read over REST, whose
// description GraphQL answers null, then "not found", on refresh: the refresh fails and the rule stays in
// state; with the fault cleared the plan is empty. Its description set at create with an answer that carries
// errors and the rule is recorded.
func TestAccOrganizationRuleResource_graphQLPartKept(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	cfg := ruleWithDescription(e, e.name("rule-part"), "Deploys trigger releases")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.aim(fakeserver.AimedFault{Operation: "updateOrganizationRule", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1),
					e.checkRuleDetails("Deploys trigger releases", nil)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ruleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
				},
				ConfigPlanChecks: expectEmpty(),
			},
			e.partKept("getOrganizationRule", fakeserver.FaultNullData, "Unable to Read Rule"),
			e.partKept("getOrganizationRule", fakeserver.FaultNotFound, "Unable to Read Rule"),
			{
				PreConfig: e.server.ClearAimedFaults,
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultNullData, 1),
					e.checkFaultsMet(fakeserver.FaultNotFound, 1), e.checkExists(ruleAddr)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccOrganizationRulesDataSource_graphQLNull: a rule REST lists whose details GraphQL answers null is an
// error, not a rule without description or value.
func TestAccOrganizationRulesDataSource_graphQLNull(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	rule := ruleWithDescription(e, e.name("rules-null"), "Deploys trigger releases")
	withData := rule + "\ndata \"buildkite_organization_rules\" \"all\" {\n  depends_on = [buildkite_organization_rule.test]\n}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{Config: rule},
			{
				PreConfig:   e.aim(fakeserver.AimedFault{Operation: "getOrganizationRules", Kind: fakeserver.FaultNullData}),
				Config:      withData,
				ExpectError: regexp.MustCompile(`Unable to Read Rules[\s\S]*GraphQL answered null for rule`),
			},
			{
				PreConfig: e.server.ClearAimedFaults,
				Config:    withData,
				Check:     e.checkFaultsMet(fakeserver.FaultNullData, 1),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.buildkite_organization_rules.all",
					tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("description"), knownvalue.StringExact("Deploys trigger releases"))},
			},
		},
	})
}

// The rows of buildkite_organization_rule in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_organization_rule", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_organization_rule", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{create: testAccRuleConfig(e.name("identity"), "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.slug
    target_pipeline = buildkite_pipeline.target.uuid
  })`)}
		},
	},
	migration: []migrationCase{
		{name: "organization_rule", add: (*officialWorkspace).addRule, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_organization_rule.trigger", map[string]any{"description": "Deploys trigger releases"})
		}},
	},
	// Rules name pipelines by UUID and have no name: theirs are the names of those pipelines. They go first.
	sweeper: &sweeper{"buildkite_organization_rule", "rules", nil, listRules},
	query: &queryCase{resourceType: "buildkite_organization_rule", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedPipelines(t, base)
		byID := func(r *buildkite.Rule) queryfilter.QueryFilter { return byIdentity("id", r.UUID) }
		return queryRow{
			blocks: []string{
				"buildkite_organization_rule", "triggers", `    type = "pipeline.trigger_build.pipeline"`,
				"buildkite_organization_rule", "templated", fmt.Sprintf("    pipeline_id = %q", s.templated.ID),
				"buildkite_organization_rule", "api", fmt.Sprintf("    pipeline_id = %q", s.api.ID),
			},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_organization_rule.all", 2),
				querycheck.ExpectLength("buildkite_organization_rule.triggers", 1),
				querycheck.ExpectIdentity("buildkite_organization_rule.triggers", identityOf("id", s.trigger.UUID)),
				querycheck.ExpectLength("buildkite_organization_rule.templated", 1),
				querycheck.ExpectIdentity("buildkite_organization_rule.templated", identityOf("id", s.artifacts.UUID)),
				querycheck.ExpectLength("buildkite_organization_rule.api", 2),
				querycheck.ExpectResourceDisplayName("buildkite_organization_rule.all", byID(s.trigger),
					knownvalue.StringExact("pipeline.trigger_build.pipeline: "+base+"-web -> "+base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_organization_rule.all", byID(s.artifacts), []querycheck.KnownValueCheck{
					known("source_uuid", knownvalue.StringExact(s.api.ID)),
					known("target_uuid", knownvalue.StringExact(s.templated.ID)),
					known("action", knownvalue.StringExact("ARTIFACTS_READ")),
				}),
			},
			refused: []queryRefusal{{`    type = "trigger_build"`, wrapped(`must have the form <source>.<action>.<target>`)}},
			imports: 2,
		}
	}},
	taken: &takenCase{resourceType: "buildkite_organization_rule", setup: func(t *testing.T, e *testEnv) (string, string) {
		source, target := e.pipelineNamed(e.name("taken-source")), e.pipelineNamed(e.name("taken-target"))
		value, _ := json.Marshal(map[string]string{"source_pipeline": source.ID, "target_pipeline": target.ID})
		rule, err := e.client.Rules.Create(context.Background(), buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
		if err != nil {
			t.Fatal(err)
		}
		// The configuration names the source by slug, as people write it.
		return fmt.Sprintf(`
resource "buildkite_organization_rule" "test" {
  type  = "pipeline.trigger_build.pipeline"
  value = jsonencode({ source_pipeline = %q, target_pipeline = %q })
}
`, source.Slug, target.ID), rule.UUID
	}},
	upgrade: []upgradeCase{
		{
			name: "rule, the official provider's", typeName: "buildkite_organization_rule", version: 0,
			state: map[string]any{"id": kit.GraphQLID("Rule", testUUID), "uuid": testUUID, "type": "pipeline.trigger_build.pipeline",
				"value": `{"source_pipeline":"a","target_pipeline":"b"}`, "description": "d", "effect": "allow"},
			want: map[string]any{"id": testUUID, "value": `{"source_pipeline":"a","target_pipeline":"b"}`, "description": "d"},
		},
		{
			name: "rule, ours at version 0", typeName: "buildkite_organization_rule", version: 0,
			state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "R", "type": "pipeline.trigger_build.pipeline",
				"value": `{"source_pipeline":"a","target_pipeline":"b"}`, "url": "u", "created_at": "c"},
			want: map[string]any{"id": testUUID, "description": nil, "url": "u"},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Rules.List(ctx)
		return serviceIDs(all, err, func(r buildkite.Rule) string { return r.UUID })
	},
})

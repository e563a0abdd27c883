package organization_test

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
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
	e := acctest.NewTestEnv(t)
	name := e.Name("rule")
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
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", byUUID)),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(acctest.RuleAddr),
					resource.TestCheckResourceAttrPair(acctest.RuleAddr, "source_uuid", "buildkite_pipeline.source", "id"),
					resource.TestCheckResourceAttrPair(acctest.RuleAddr, "target_uuid", "buildkite_pipeline.target", "id"),
					func(s *terraform.State) error {
						firstID = s.RootModule().Resources[acctest.RuleAddr].Primary.ID
						return nil
					}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("action"), knownvalue.StringExact("TRIGGER_BUILD")),
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("effect"), knownvalue.StringExact("ALLOW")),
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("source_type"), knownvalue.StringExact("PIPELINE")),
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("target_type"), knownvalue.StringExact("PIPELINE")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(acctest.RuleAddr, acctest.ImportID(acctest.RuleAddr, "id")),
			acctest.Step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: acctest.RuleAddr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(acctest.RuleAddr, "graphql_id"),
			}),
			acctest.Step(resource.TestStep{
				// The same pipelines by slug, in another order: the same rule, no change.
				Config: e.Config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", bySlug)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.RuleAddr, plancheck.ResourceActionNoop)},
				},
			}),
			acctest.Step(resource.TestStep{
				// A description, which only the GraphQL API sets: applied in place (ruleUpdate) and read back.
				Config:           e.Config(strings.Replace(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", byUUID), "type  =", "description = \"Deploys trigger releases\"\n  type  =", 1)),
				ConfigPlanChecks: acctest.InPlace(acctest.RuleAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
				},
				Check: e.CheckRuleDetails("Deploys trigger releases", nil),
			}),
			acctest.Step(resource.TestStep{
				// Another type replaces the rule.
				Config: e.Config(testAccRuleConfig(name, "pipeline.artifacts_read.pipeline", bySlug)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.RuleAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("action"), knownvalue.StringExact("ARTIFACTS_READ")),
				},
				Check: func(s *terraform.State) error {
					if s.RootModule().Resources[acctest.RuleAddr].Primary.ID == firstID {
						return fmt.Errorf("the rule was not replaced")
					}
					return nil
				},
			}),
			acctest.Step(resource.TestStep{
				// Other pipelines are an update in place: source and target swapped, the same rule.
				Config: e.Config(testAccRuleConfig(name, "pipeline.artifacts_read.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.target.slug
    target_pipeline = buildkite_pipeline.source.slug
  })`)),
				ConfigPlanChecks: acctest.InPlace(acctest.RuleAddr),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(acctest.RuleAddr, "source_uuid", "buildkite_pipeline.target", "id"),
					resource.TestCheckResourceAttrPair(acctest.RuleAddr, "target_uuid", "buildkite_pipeline.source", "id")),
			}),
		),
	})
}

func TestAccOrganizationRuleResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := e.Config(testAccRuleConfig(e.Name("gone"), "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.CheckExists(acctest.RuleAddr), e.RemoveOutside(acctest.RuleAddr)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.RuleAddr, plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}

func TestAccOrganizationRuleResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccRuleConfig("x", "trigger", `"{}"`)), ExpectError: acctest.RegexpMust(`<source>.<action>.<target>`), PlanOnly: true},
			{Config: e.Config(testAccRuleConfig("x", "pipeline.trigger_build.pipeline", `"{not json"`)), ExpectError: acctest.RegexpMust(`value must be valid JSON`), PlanOnly: true},
			{Config: e.Config(testAccRuleConfig("x", "pipeline.trigger_build.pipeline", `"[1, 2]"`)), ExpectError: acctest.RegexpMust(`Invalid organization rule value`), PlanOnly: true},
			{
				// Known at plan: a pipeline rule without its source is refused before anything is sent.
				Config:      e.Config(testAccRuleConfig("x", "pipeline.artifacts_read.pipeline", `jsonencode({ target_pipeline = "`+acctest.UnknownUUID+`" })`)),
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
	e := acctest.NewTestEnv(t)
	name := e.Name("refused")
	literal := func(typ, source, target string) string {
		return e.Config(testAccRuleConfig(name, typ, fmt.Sprintf(`jsonencode({
    source_pipeline = %q
    target_pipeline = %q
  })`, source, target)))
	}
	withConditions := func(conditions string) string {
		return e.Config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
    conditions      = [`+conditions+`]
  })`))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				Config:      literal("pipeline.trigger_build.pipeline", "no-such-pipeline", acctest.UnknownUUID),
				ExpectError: regexp.MustCompile(`(?s)Unable to resolve pipeline slug.*Pipeline not found for source_pipeline.*pipeline.trigger_build.pipeline: source_pipeline not found`),
			},
			{
				Config:      literal("pipeline.trigger_build.pipeline", acctest.UnknownUUID, "Not_A_Slug"),
				ExpectError: regexp.MustCompile(`(?s)Unable to resolve pipeline slug.*pipeline.trigger_build.pipeline: target_pipeline is an invalid UUID\.`),
			},
			{
				Config:      withConditions(`"source.build.branch == 'main'", "source.nonexistent_condition includes 'x'"`),
				ExpectError: regexp.MustCompile("(?s)Unable to create organization rule.*pipeline.trigger_build.pipeline: conditional is invalid:.*`source.nonexistent_condition` is not a variable"),
			},
			{
				Config: e.Config(testAccRuleConfig(name, "pipeline.non_existent_action.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.uuid
    target_pipeline = buildkite_pipeline.target.uuid
  })`)),
				ExpectError: regexp.MustCompile(`input: Rule type is unknown`),
			},
			{
				Config: e.Config(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
    target_pipeline = buildkite_pipeline.target.uuid
  })`)),
				ExpectError: regexp.MustCompile(`pipeline.trigger_build.pipeline: missing source_pipeline`),
			},
			{
				// The documented conditions pass, and the stored forms are the official provider's.
				Config: withConditions(`"source.build.creator.teams includes 'deploy'", "source.build.branch == 'main'"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("action"), knownvalue.StringExact("TRIGGER_BUILD")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

// ruleWithDescription is testAccRuleConfig's rule between its two pipelines, with a description.
func ruleWithDescription(e *acctest.TestEnv, name, description string) string {
	return e.Config(strings.Replace(testAccRuleConfig(name, "pipeline.trigger_build.pipeline", `jsonencode({
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
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	cfg := ruleWithDescription(e, e.Name("rule-part"), "Deploys trigger releases")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.Aim(fakeserver.AimedFault{Operation: "updateOrganizationRule", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 1),
					e.CheckRuleDetails("Deploys trigger releases", nil)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.RuleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Deploys trigger releases")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			e.PartKept("getOrganizationRule", fakeserver.FaultNullData, "Unable to Read Rule"),
			e.PartKept("getOrganizationRule", fakeserver.FaultNotFound, "Unable to Read Rule"),
			{
				PreConfig: e.Server.ClearAimedFaults,
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultNullData, 1),
					e.CheckFaultsMet(fakeserver.FaultNotFound, 1), e.CheckExists(acctest.RuleAddr)),
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
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	rule := ruleWithDescription(e, e.Name("rules-null"), "Deploys trigger releases")
	withData := rule + "\ndata \"buildkite_organization_rules\" \"all\" {\n  depends_on = [buildkite_organization_rule.test]\n}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_organization_rule"),
		Steps: []resource.TestStep{
			{Config: rule},
			{
				PreConfig:   e.Aim(fakeserver.AimedFault{Operation: "getOrganizationRules", Kind: fakeserver.FaultNullData}),
				Config:      withData,
				ExpectError: regexp.MustCompile(`Unable to Read Rules[\s\S]*GraphQL answered null for rule`),
			},
			{
				PreConfig: e.Server.ClearAimedFaults,
				Config:    withData,
				Check:     e.CheckFaultsMet(fakeserver.FaultNullData, 1),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.buildkite_organization_rules.all",
					tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("description"), knownvalue.StringExact("Deploys trigger releases"))},
			},
		},
	})
}

// The rows of buildkite_organization_rule in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_organization_rule", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_organization_rule", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{Create: testAccRuleConfig(e.Name("identity"), "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.slug
    target_pipeline = buildkite_pipeline.target.uuid
  })`)}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "organization_rule", Add: (*acctest.OfficialWorkspace).AddRule, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_organization_rule.trigger", map[string]any{"description": "Deploys trigger releases"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_organization_rule", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedPipelines(t, base)
		byID := func(r *buildkite.Rule) queryfilter.QueryFilter { return acctest.ByIdentity("id", r.UUID) }
		return acctest.QueryRow{
			Blocks: []string{
				"buildkite_organization_rule", "triggers", `    type = "pipeline.trigger_build.pipeline"`,
				"buildkite_organization_rule", "templated", fmt.Sprintf("    pipeline_id = %q", s.Templated.ID),
				"buildkite_organization_rule", "api", fmt.Sprintf("    pipeline_id = %q", s.API.ID),
			},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_organization_rule.all", 2),
				querycheck.ExpectLength("buildkite_organization_rule.triggers", 1),
				querycheck.ExpectIdentity("buildkite_organization_rule.triggers", acctest.IdentityOf("id", s.Trigger.UUID)),
				querycheck.ExpectLength("buildkite_organization_rule.templated", 1),
				querycheck.ExpectIdentity("buildkite_organization_rule.templated", acctest.IdentityOf("id", s.Artifacts.UUID)),
				querycheck.ExpectLength("buildkite_organization_rule.api", 2),
				querycheck.ExpectResourceDisplayName("buildkite_organization_rule.all", byID(s.Trigger),
					knownvalue.StringExact("pipeline.trigger_build.pipeline: "+base+"-web -> "+base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_organization_rule.all", byID(s.Artifacts), []querycheck.KnownValueCheck{
					acctest.Known("source_uuid", knownvalue.StringExact(s.API.ID)),
					acctest.Known("target_uuid", knownvalue.StringExact(s.Templated.ID)),
					acctest.Known("action", knownvalue.StringExact("ARTIFACTS_READ")),
				}),
			},
			Refused: []acctest.QueryRefusal{{Body: `    type = "trigger_build"`, Message: acctest.Wrapped(`must have the form <source>.<action>.<target>`)}},
			Imports: 2,
		}
	}},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_organization_rule", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		source, target := e.PipelineNamed(e.Name("taken-source")), e.PipelineNamed(e.Name("taken-target"))
		value, _ := json.Marshal(map[string]string{"source_pipeline": source.ID, "target_pipeline": target.ID})
		rule, err := e.Client.Rules.Create(context.Background(), buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
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
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "rule, the official provider's", TypeName: "buildkite_organization_rule", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("Rule", acctest.TestUUID), "uuid": acctest.TestUUID, "type": "pipeline.trigger_build.pipeline",
				"value": `{"source_pipeline":"a","target_pipeline":"b"}`, "description": "d", "effect": "allow"},
			Want: map[string]any{"id": acctest.TestUUID, "value": `{"source_pipeline":"a","target_pipeline":"b"}`, "description": "d"},
		},
		{
			Name: "rule, ours at version 0", TypeName: "buildkite_organization_rule", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": "R", "type": "pipeline.trigger_build.pipeline",
				"value": `{"source_pipeline":"a","target_pipeline":"b"}`, "url": "u", "created_at": "c"},
			Want: map[string]any{"id": acctest.TestUUID, "description": nil, "url": "u"},
		},
	},
})

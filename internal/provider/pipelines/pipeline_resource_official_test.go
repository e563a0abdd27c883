package pipelines_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tfacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
)

// The behaviours the official provider's users rely on (its documentation,
// https://registry.terraform.io/providers/buildkite/buildkite/latest/docs/resources/pipeline, and its source):
// what state holds when attributes are unset, removed or imported, the plan of steps and slug, and the
// refusals at plan time with the official summaries.

// TestAccPipelineResource_officialDefaults: a pipeline of only name and repository holds the official
// provider's values for what is unset (empty strings, zero timeouts, no tags, PRIVATE, the default steps),
// imports by its GraphQL ID and its id verifying every attribute, and on removal keeps the service's
// description, timeouts and visibility, resets allow_rebuilds and clears tags.
func TestAccPipelineResource_officialDefaults(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("defaults")
	bare := e.Config(testAccPipelineConfig(name, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: bare,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckNoResourceAttr(acctest.PipelineAddr, "branch_configuration"),
					resource.TestCheckNoResourceAttr(acctest.PipelineAddr, "cluster_id"),
					resource.TestCheckNoResourceAttr(acctest.PipelineAddr, "cluster_name"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "allow_rebuilds", "true"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "cancel_intermediate_builds", "false"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "cancel_intermediate_builds_branch_filter", ""),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "skip_intermediate_builds", "false"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "skip_intermediate_builds_branch_filter", ""),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "default_branch", ""),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "description", ""),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "default_timeout_in_minutes", "0"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "maximum_timeout_in_minutes", "0"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "slug", strings.ToLower(name)),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "steps", buildkite.DefaultSteps),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "visibility", "PRIVATE"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "tags.#", "0"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "archived", "false"),
					e.CheckPipeline(func(p *buildkite.Pipeline) error {
						if p.DefaultBranch != "" || p.DefaultCommandStepTimeout != nil || p.Visibility != "private" ||
							kit.Deref(p.Configuration) != buildkite.DefaultSteps || !p.AllowRebuilds {
							return fmt.Errorf("service has %+v", p)
						}
						return nil
					}),
				),
			}),
			acctest.ImportSteps(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "graphql_id")),
			acctest.ImportSteps(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "id")),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineConfig(name, `
  description                = "Builds the app"
  default_timeout_in_minutes = 20
  maximum_timeout_in_minutes = 30
  visibility                 = "PUBLIC"
  allow_rebuilds             = false
  cancel_intermediate_builds = true
  tags                       = ["llama"]
  branch_configuration       = "main"`)),
				ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr),
			}),
			acctest.Step(resource.TestStep{
				// Removed: description, timeouts, visibility and the flags keep the service's values;
				// allow_rebuilds returns to its default, tags and branch_configuration are cleared.
				Config:           bare,
				ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "description", "Builds the app"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "default_timeout_in_minutes", "20"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "maximum_timeout_in_minutes", "30"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "visibility", "PUBLIC"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "cancel_intermediate_builds", "true"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "allow_rebuilds", "true"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "tags.#", "0"),
					resource.TestCheckNoResourceAttr(acctest.PipelineAddr, "branch_configuration"),
					e.CheckPipeline(func(p *buildkite.Pipeline) error {
						if len(p.Tags) != 0 || !p.AllowRebuilds || kit.Deref(p.BranchConfiguration) != "" || p.Visibility != "public" {
							return fmt.Errorf("service has %+v", p)
						}
						return nil
					}),
				),
			}),
		),
	})
}

// TestAccPipelineResource_visibilityForms: visibility is stored upper case however it came: computed,
// configured upper case, imported; a change plans an update.
func TestAccPipelineResource_visibilityForms(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("vis")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config:            e.Config(testAccPipelineConfig(name, `  visibility = "PRIVATE"`)),
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("visibility", knownvalue.StringExact("PRIVATE"))},
			}),
			acctest.Step(resource.TestStep{
				Config:            e.Config(testAccPipelineConfig(name, `  visibility = "PUBLIC"`)),
				ConfigPlanChecks:  acctest.InPlace(acctest.PipelineAddr),
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("visibility", knownvalue.StringExact("PUBLIC"))},
			}),
			acctest.ImportSteps(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "slug")),
		),
	})
}

// TestAccPipelineResource_slugRemoved: removing a slug the configuration set plans the slug derived from the
// name, as the service derives it, and applies it; a configured slug is applied and kept.
func TestAccPipelineResource_slugRemoved(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	suffix := tfacctest.RandString(8)
	name := "TesT --- PipeLine - " + suffix
	withSlug := e.Config(testAccPipelineConfig(name, `  slug = "custom-`+strings.ToLower(suffix)+`"`))
	derived := "test-pipeline-" + strings.ToLower(suffix)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config:            withSlug,
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("slug", knownvalue.StringExact("custom-"+strings.ToLower(suffix)))},
			},
			{
				Config: e.Config(testAccPipelineConfig(name, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("slug"), knownvalue.StringExact(derived)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("slug", knownvalue.StringExact(derived))},
				Check: e.CheckPipeline(func(p *buildkite.Pipeline) error {
					if p.Slug != derived {
						return fmt.Errorf("service has slug %q, want %q", p.Slug, derived)
					}
					return nil
				}),
			},
			{
				// Derived now, the slug stays put while nothing else changes.
				Config:           e.Config(testAccPipelineConfig(name, `  description = "x"`)),
				ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("slug", knownvalue.StringExact(derived)),
				},
			},
		},
	})
}

// TestAccPipelineResource_templateMode: with a template, steps is null in state, a change of the template's
// configuration leaves the pipeline alone, and leaving template mode gives the configured or the default
// steps; steps and a template together are refused at plan.
func TestAccPipelineResource_templateMode(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("tmode")
	template := func(configuration string) string {
		return fmt.Sprintf(`
resource "buildkite_pipeline_template" "t" {
  name          = "%s-template"
  configuration = %q
  available     = true
}
`, name, configuration)
	}
	templated := `  pipeline_template_id = buildkite_pipeline_template.t.id`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(template("steps: []") + testAccPipelineConfig(name, templated)),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckNoResourceAttr(acctest.PipelineAddr, "steps"),
					resource.TestCheckResourceAttrSet(acctest.PipelineAddr, "pipeline_template_id"),
				),
			},
			{
				Config: e.Config(template("steps: [command: echo hello]") + testAccPipelineConfig(name, templated)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("buildkite_pipeline_template.t", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionNoop),
				}},
			},
			{
				Config:      e.Config(template("steps: []") + testAccPipelineConfig(name, templated+"\n  steps = \"steps: []\"")),
				ExpectError: acctest.Wrapped("Invalid Attribute Combination"),
			},
			{
				Config: e.Config(template("steps: []") + testAccPipelineConfig(name, "")),
				Check:  resource.TestCheckResourceAttr(acctest.PipelineAddr, "steps", buildkite.DefaultSteps),
			},
			{
				Config: e.Config(template("steps: []") + testAccPipelineConfig(name, templated)),
				Check:  resource.TestCheckNoResourceAttr(acctest.PipelineAddr, "steps"),
			},
			{
				Config: e.Config(template("steps: []") + testAccPipelineConfig(name, `  steps = "steps: []"`)),
				Check:  resource.TestCheckResourceAttr(acctest.PipelineAddr, "steps", "steps: []"),
			},
		},
	})
}

// TestAccPipelineResource_officialRefusals: what the official provider refuses at plan, with its summaries
// and details: conditionals in branch filters, unclosed regular expressions in filter_condition, an unknown
// visibility, a bad color or slug; patterns and closed expressions pass.
func TestAccPipelineResource_officialRefusals(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	refused := func(body, want string) resource.TestStep {
		return resource.TestStep{Config: e.Config(testAccPipelineConfig("x", body)), ExpectError: acctest.Wrapped(want), PlanOnly: true}
	}
	passes := func(body string) resource.TestStep {
		return resource.TestStep{Config: e.Config(testAccPipelineConfig("x", body)), PlanOnly: true, ExpectNonEmptyPlan: true}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			refused(`  cancel_intermediate_builds_branch_filter = "build.branch !~ foo"`, "Invalid branch filter pattern"),
			refused(`  skip_intermediate_builds_branch_filter = "build.branch =~ /bar/"`, "Invalid branch filter pattern"),
			refused(`  branch_configuration = "build.branch == 'main'"`, "Invalid branch filter pattern"),
			refused(`  provider_settings = { pull_request_branch_filter_configuration = "a && b" }`, "Invalid branch filter pattern"),
			refused(`  provider_settings = { filter_condition = "build.branch =~ feature" }`, "Invalid regex pattern syntax"),
			refused(`  provider_settings = { filter_condition = "build.branch =~ /feature" }`, "Invalid regex pattern syntax"),
			refused(`  visibility = "INVALID"`, `Attribute visibility value must be one of: ["PUBLIC" "PRIVATE"]`),
			refused(`  color = "ebd8f0"`, "must be a valid color hex code (#000000)"),
			refused(`  slug = "Upper"`, "can only contain lowercase characters, numbers and hyphens"),
			refused(`  provider_settings = { issue_comment_match_mode = "EXACT" }`, "Invalid Attribute Value Match"),
			passes(`
  cancel_intermediate_builds_branch_filter = "!main !develop"
  skip_intermediate_builds_branch_filter   = "feature/* bugfix/*"
  branch_configuration                     = "*-staging *-production"
  color                                    = "#ebd8f0"
  visibility                               = "public"
  provider_settings = {
    filter_condition = "build.branch =~ /^feature\\/.*/ && build.tag !~ /^v/"
  }`),
			passes(`  provider_settings = { filter_condition = "build.branch == 'main'" }`),
			{
				// A filter with trigger_mode "none" applies to no build: a warning, not a refusal.
				Config: e.Config(testAccPipelineConfig("x", `  provider_settings = {
    trigger_mode     = "none"
    filter_enabled   = true
    filter_condition = "build.branch == 'main'"
  }`)),
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}

func TestUnclosedRegex(t *testing.T) {
	for cond, ok := range map[string]bool{
		"":                                 true,
		"build.branch == 'main'":           true,
		`build.branch =~ /^feature\/.*/`:   true,
		"build.branch !~/x/ && a =~ /y/":   true,
		"build.branch =~ feature":          false,
		"build.branch =~ /open":            false,
		"a =~ /x/ && b !~ y":               false,
		`build.branch =~ /escaped\/ only`:  false,
		"build.message =~ /a/i":            true,
		"build.branch =~ /a/ || x =~ //":   true,
		"build.branch=~   /spaced/":        true,
		"build.branch =~\t/tabbed/ && b=1": true,
	} {
		if _, got := pipelines.UnclosedRegexForTest(cond); got != ok {
			t.Errorf("unclosedRegex(%q) = %v, want %v", cond, got, ok)
		}
	}
}

// TestAccPipelineResource_allAttributes: a bare pipeline updated in place to every attribute the official
// provider's users set (cluster, flags, filters, timeouts, emoji and color, tags, provider settings) holds
// them all and re-plans empty; then emptied provider_settings keep the service's settings with no change.
func TestAccPipelineResource_allAttributes(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("all")
	all := `
  cluster_id                               = buildkite_cluster.ci.id
  allow_rebuilds                           = false
  cancel_intermediate_builds               = true
  cancel_intermediate_builds_branch_filter = "!main"
  color                                    = "#ebd8f0"
  branch_configuration                     = "main"
  default_branch                           = "main"
  default_timeout_in_minutes               = 20
  emoji                                    = ":buildkite:"
  maximum_timeout_in_minutes               = 30
  description                              = "terraform test"
  skip_intermediate_builds                 = true
  skip_intermediate_builds_branch_filter   = "!main"
  tags                                     = ["llama"]
  provider_settings = {
    trigger_mode                                  = "code"
    build_pull_requests                           = true
    skip_builds_for_existing_commits              = true
    build_branches                                = true
    build_tags                                    = true
    build_pull_request_ready_for_review           = true
    build_pull_request_labels_changed             = true
    build_pull_request_base_branch_changed        = true
    cancel_deleted_branch_builds                  = true
    filter_enabled                                = true
    filter_condition                              = "true"
    publish_commit_status                         = true
    publish_blocked_as_pending                    = true
    publish_commit_status_per_step                = true
    separate_pull_request_statuses                = true
    ignore_default_branch_pull_requests           = true
    build_merge_group_checks_requested            = true
    cancel_when_merge_group_destroyed             = true
    use_merge_group_base_commit_for_git_diff_base = true
  }`
	setting := func(key, value string) resource.TestCheckFunc {
		return resource.TestCheckResourceAttr(acctest.PipelineAddr, "provider_settings."+key, value)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccPipelineConfig(name, ""))},
			{
				Config:           e.Config(testAccPipelineConfig(name, all)),
				ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(acctest.PipelineAddr, "cluster_id", "buildkite_cluster.ci", "id"),
					resource.TestCheckResourceAttrPair(acctest.PipelineAddr, "cluster_name", "buildkite_cluster.ci", "name"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "tags.0", "llama"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "allow_rebuilds", "false"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "cancel_intermediate_builds_branch_filter", "!main"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "branch_configuration", "main"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "color", "#ebd8f0"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "default_branch", "main"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "default_timeout_in_minutes", "20"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "maximum_timeout_in_minutes", "30"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "description", "terraform test"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "emoji", ":buildkite:"),
					resource.TestCheckResourceAttr(acctest.PipelineAddr, "skip_intermediate_builds", "true"),
					setting("trigger_mode", "code"),
					setting("filter_condition", "true"),
					setting("build_pull_request_labels_changed", "true"),
					setting("ignore_default_branch_pull_requests", "true"),
					setting("use_merge_group_base_commit_for_git_diff_base", "true"),
				),
			},
			{
				Config: e.Config(testAccPipelineConfig(name, `  provider_settings = { trigger_mode = "none" }`)),
				Check:  setting("trigger_mode", "none"),
			},
			{
				Config: e.Config(testAccPipelineConfig(name, "  cluster_id = buildkite_cluster.ci.id\n  provider_settings = {}")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(), plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionNoop),
				}},
				Check: setting("trigger_mode", "none"),
			},
		},
	})
}

func TestWarnFilterWithoutCode(t *testing.T) {
	settings := func(values map[string]attr.Value) types.Object {
		all := map[string]attr.Value{}
		for k, typ := range pipelines.SettingsAttrTypesForTest() {
			if typ == types.StringType {
				all[k] = types.StringNull()
			} else {
				all[k] = types.BoolNull()
			}
		}
		for k, v := range values {
			all[k] = v
		}
		return types.ObjectValueMust(pipelines.SettingsAttrTypesForTest(), all)
	}
	for _, tc := range []struct {
		name         string
		config, plan types.Object
		warn         bool
	}{
		{"condition with none", settings(map[string]attr.Value{"filter_condition": types.StringValue("x")}),
			settings(map[string]attr.Value{"trigger_mode": types.StringValue("none")}), true},
		{"enabled with none", settings(map[string]attr.Value{"filter_enabled": types.BoolValue(true)}),
			settings(map[string]attr.Value{"trigger_mode": types.StringValue("none")}), true},
		{"condition with code", settings(map[string]attr.Value{"filter_condition": types.StringValue("x")}),
			settings(map[string]attr.Value{"trigger_mode": types.StringValue("code")}), false},
		{"no filter with none", settings(nil), settings(map[string]attr.Value{"trigger_mode": types.StringValue("none")}), false},
		{"no settings", types.ObjectNull(pipelines.SettingsAttrTypesForTest()), settings(map[string]attr.Value{"trigger_mode": types.StringValue("none")}), false},
	} {
		var diags diag.Diagnostics
		pipelines.WarnFilterWithoutCodeForTest(tc.config, tc.plan, &diags)
		if got := diags.WarningsCount() == 1; got != tc.warn || diags.HasError() {
			t.Errorf("%s: diagnostics %v, want a warning: %v", tc.name, diags, tc.warn)
		}
	}
}

// checkServiceSettings fails unless the service holds the pipeline's provider settings as want says.
func checkServiceSettings(e *acctest.TestEnv, want map[string]any) resource.TestCheckFunc {
	return e.CheckPipeline(func(p *buildkite.Pipeline) error {
		for k, v := range want {
			if got := p.Provider.Settings[k]; got != v {
				return fmt.Errorf("the service holds provider_settings.%s = %v, want %v", k, got, v)
			}
		}
		return nil
	})
}

// TestAccPipelineResource_emptyProviderSettings: `provider_settings = {}` at create holds every key blank,
// as the official provider's test "create pipeline with empty attributes" expects, sends nothing (the
// service keeps its settings) and re-plans empty after refresh; dropping the block reads the service's
// values, keys set after it are all sent (false included), and an empty block then keeps what state holds.
func TestAccPipelineResource_emptyProviderSettings(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("empty-settings")
	setting := func(key, value string) resource.TestCheckFunc {
		return resource.TestCheckResourceAttr(acctest.PipelineAddr, "provider_settings."+key, value)
	}
	empty := e.Config(testAccPipelineConfig(name, "  tags = []\n  provider_settings = {}"))
	blank := resource.ComposeAggregateTestCheckFunc(
		setting("trigger_mode", ""),
		setting("build_pull_requests", "false"),
		setting("skip_pull_request_builds_for_existing_commits", "false"),
		setting("build_branches", "false"),
		setting("publish_commit_status", "false"),
		setting("use_step_key_as_commit_status", "false"),
		checkServiceSettings(e, map[string]any{"trigger_mode": "code", "build_branches": true}),
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: empty, Check: blank, ConfigPlanChecks: acctest.ExpectEmpty()},
			// Re-applied: the refresh keeps the blanks, nothing is planned.
			{Config: empty, Check: blank, ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			}},
			{
				// Without the block the service's values come back.
				Config:           e.Config(testAccPipelineConfig(name, "  tags = []")),
				ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr),
				Check:            resource.ComposeAggregateTestCheckFunc(setting("trigger_mode", "code"), setting("build_branches", "true")),
			},
			{Config: empty, ConfigPlanChecks: acctest.ExpectEmpty(), Check: setting("trigger_mode", "code")},
		},
	})
	// Blank, then keys: each configured key is sent, even one whose blank it equals.
	name = e.Name("empty-then-set")
	empty = e.Config(testAccPipelineConfig(name, "  provider_settings = {}"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: empty, Check: setting("trigger_mode", ""), ConfigPlanChecks: acctest.ExpectEmpty()},
			{
				Config:           e.Config(testAccPipelineConfig(name, "  provider_settings = {\n    trigger_mode   = \"none\"\n    build_branches = false\n  }")),
				ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr),
				Check: resource.ComposeAggregateTestCheckFunc(
					setting("trigger_mode", "none"), setting("build_branches", "false"), setting("build_pull_requests", "true"),
					checkServiceSettings(e, map[string]any{"trigger_mode": "none", "build_branches": false, "build_pull_requests": true}),
				),
			},
			// An empty block now keeps the state's values (the official "can be removed without state change").
			{
				Config:           empty,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeAggregateTestCheckFunc(setting("trigger_mode", "none"), setting("build_branches", "false")),
			},
		},
	})
}

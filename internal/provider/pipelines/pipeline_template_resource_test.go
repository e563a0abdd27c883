package pipelines_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccPipelineTemplateConfig(name, configuration, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_pipeline_template" "test" {
  name          = %q
  configuration = %q
%s
}
`, name, configuration, extra)
}

func TestAccPipelineTemplateResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("template")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_template"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				// CRLF and a byte-order mark: stored normalised by the service, no diff here (#853).
				Config: e.Config(testAccPipelineTemplateConfig(name, "\ufeffsteps:\r\n  - command: make\r\n", `  description = "Standard build"
  available   = true`)),
				Check: e.CheckExists(acctest.TemplateAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TemplateAddr, tfjsonpath.New("available"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(acctest.TemplateAddr, tfjsonpath.New("uuid"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(acctest.TemplateAddr, tfjsonpath.New("updated_at"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(acctest.TemplateAddr, acctest.ImportID(acctest.TemplateAddr, "id"), "configuration"),
			acctest.Step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: acctest.TemplateAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: acctest.ImportID(acctest.TemplateAddr, "graphql_id"), ImportStateVerifyIgnore: []string{"configuration"},
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineTemplateConfig(name+"-2", "steps:\n  - command: make test\n", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.TemplateAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TemplateAddr, tfjsonpath.New("name"), knownvalue.StringExact(name+"-2")),
					statecheck.ExpectKnownValue(acctest.TemplateAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(acctest.TemplateAddr, tfjsonpath.New("available"), knownvalue.Bool(false)),
				},
			}),
		),
	})
}

func TestAccPipelineTemplateResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := e.Config(testAccPipelineTemplateConfig(e.Name("gone"), "steps: []\n", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline_template"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.CheckExists(acctest.TemplateAddr), e.RemoveOutside(acctest.TemplateAddr)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.TemplateAddr, plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}

// TestAccPipelineTemplateResource_pipeline: a pipeline using a template runs the template's steps, holds
// null steps in state as the official provider does, and plans empty, also when imported with generated
// configuration; deleting the template while a pipeline uses it fails with an error naming the pipeline;
// steps together with a template are refused at plan time.
func TestAccPipelineTemplateResource_pipeline(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("templated")
	e.LeaveNoneNamed("buildkite_pipeline", name) // removed from state without destroying
	const yaml = "steps:\n  - label: from the template\n    command: make\n"
	withPipeline := testAccPipelineTemplateConfig(name, yaml, "") + fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name                 = %q
  repository           = "https://github.com/acme/app.git"
  pipeline_template_id = buildkite_pipeline_template.test.id
}
`, name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(withPipeline),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("steps"), knownvalue.Null()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.Step(acctest.GenerateConfigStep(acctest.PipelineAddr, acctest.ImportID(acctest.PipelineAddr, "slug"))),
			acctest.Step(resource.TestStep{
				// The template's configuration changes: the pipeline follows without a diff of its own.
				Config:           e.Config(strings.Replace(withPipeline, yaml, "steps:\n  - command: make all\n", 1)),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(withPipeline + `
resource "buildkite_pipeline" "conflict" {
  name                 = "` + name + `-conflict"
  repository           = "https://github.com/acme/app.git"
  pipeline_template_id = buildkite_pipeline_template.test.id
  steps                = "steps:\n  - command: something else\n"
}`),
				ExpectError: acctest.Wrapped("Invalid Attribute Combination"),
			}),
			acctest.Step(resource.TestStep{
				// Only the template is left in the configuration: its delete is refused while the pipeline,
				// now outside Terraform's care, still uses it.
				Config: e.Config(testAccPipelineTemplateConfig(name, yaml, "") + `
removed {
  from = buildkite_pipeline.test
  lifecycle {
    destroy = false
  }
}`),
			}),
			acctest.Step(resource.TestStep{
				Config:      e.Config(`# nothing`),
				ExpectError: acctest.RegexpMust(`(?s)assigned to pipeline\s+"` + name + `"`),
			}),
			acctest.Step(resource.TestStep{
				// Free the template so the test can clean up.
				Config: e.Config(testAccPipelineTemplateConfig(name, yaml, "")),
				PreConfig: func() {
					p, err := e.Client.Pipelines.Get(context.Background(), name)
					if err == nil {
						_, err = e.Client.Pipelines.Update(context.Background(), p.Slug, buildkite.PipelineUpdate{PipelineTemplateUUID: buildkite.Cleared[string](), Configuration: acctest.PtrTo(buildkite.DefaultSteps)})
					}
					if err != nil {
						t.Fatal(err)
					}
				},
			}),
		),
	})
}

// TestAccPipelineTemplateResource_notEnterprise: on an organization without the enterprise plan the error
// says so.
func TestAccPipelineTemplateResource_notEnterprise(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: needs an organization without the Enterprise plan, which the emulator's store sets")
	}
	if err := e.Server.Store().SetOrgPlan(e.Org, false, true); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(testAccPipelineTemplateConfig("x", "steps: []\n", "")),
			ExpectError: acctest.RegexpMust(`(?s)Unable to Create Pipeline Template.*Enterprise`),
		}},
	})
}

// The rows of buildkite_pipeline_template in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_pipeline_template", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// The identity stays with the template through a rename.
		ResourceType: "buildkite_pipeline_template", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			name := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccPipelineTemplateConfig(name, "steps:\n  - command: make\n", `  description = "Found by its ID"
  available   = true`),
				Update: testAccPipelineTemplateConfig(name+"-2", "steps:\n  - command: make\n", ""),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_pipeline_template",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			return []acctest.InvalidIdentity{{Config: acctest.ImportByIdentity("buildkite_pipeline_template", `  name          = "standard"
  configuration = "steps: []"`, "id", "standard"), Message: `id (<pipeline template UUID>) "standard" is not a UUID`}}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "pipeline_template", Add: (*acctest.OfficialWorkspace).AddTemplate, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_pipeline_template.standard", map[string]any{"available": true})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_pipeline_template", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedPipelines(t, base)
		byID := func(tpl *buildkite.PipelineTemplate) queryfilter.QueryFilter {
			return acctest.ByIdentity("id", tpl.UUID)
		}
		return acctest.QueryRow{
			Blocks: []string{
				"buildkite_pipeline_template", "named", fmt.Sprintf("    name = %q", base+"-STANDARD"),
				"buildkite_pipeline_template", "none", `    name = "standard"`,
			},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_template.all", 2),
				querycheck.ExpectLength("buildkite_pipeline_template.named", 1),
				querycheck.ExpectLength("buildkite_pipeline_template.none", 0),
				querycheck.ExpectIdentity("buildkite_pipeline_template.named", acctest.IdentityOf("id", s.Standard.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_template.all", byID(s.Other), knownvalue.StringExact(base+"-other")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.Standard), []querycheck.KnownValueCheck{
					acctest.Known("configuration", knownvalue.StringExact("steps:\n  - command: make ci\n")),
					acctest.Known("description", knownvalue.StringExact("The standard build")),
					acctest.Known("available", knownvalue.Bool(false)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.Other), []querycheck.KnownValueCheck{
					acctest.Known("description", knownvalue.Null()),
					acctest.Known("available", knownvalue.Bool(true)),
				}),
			},
			Imports: 2,
		}
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "pipeline template, the official provider's", TypeName: "buildkite_pipeline_template", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("PipelineTemplate", acctest.TestUUID), "uuid": acctest.TestUUID, "name": "t",
				"configuration": "steps: []", "description": nil, "available": true},
			Want: map[string]any{"id": acctest.TestUUID, "available": true, "updated_at": nil},
		},
	},
})

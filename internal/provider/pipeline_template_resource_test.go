package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
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
	e := newTestEnv(t)
	name := e.name("template")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_template"),
		Steps: steps(
			step(resource.TestStep{
				// CRLF and a byte-order mark: stored normalised by the service, no diff here (#853).
				Config: e.config(testAccPipelineTemplateConfig(name, "\ufeffsteps:\r\n  - command: make\r\n", `  description = "Standard build"
  available   = true`)),
				Check: e.checkExists(templateAddr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(templateAddr, tfjsonpath.New("available"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(templateAddr, tfjsonpath.New("uuid"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(templateAddr, tfjsonpath.New("updated_at"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: expectEmpty(),
			}),
			importSteps(templateAddr, importID(templateAddr, "id"), "configuration"),
			step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: templateAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: importID(templateAddr, "graphql_id"), ImportStateVerifyIgnore: []string{"configuration"},
			}),
			step(resource.TestStep{
				Config: e.config(testAccPipelineTemplateConfig(name+"-2", "steps:\n  - command: make test\n", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(templateAddr, tfjsonpath.New("name"), knownvalue.StringExact(name+"-2")),
					statecheck.ExpectKnownValue(templateAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(templateAddr, tfjsonpath.New("available"), knownvalue.Bool(false)),
				},
			}),
		),
	})
}

func TestAccPipelineTemplateResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cfg := e.config(testAccPipelineTemplateConfig(e.name("gone"), "steps: []\n", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_template"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              resource.ComposeTestCheckFunc(e.checkExists(templateAddr), e.removeOutside(templateAddr)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateAddr, plancheck.ResourceActionCreate)},
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
	e := newTestEnv(t)
	name := e.name("templated")
	e.leaveNoneNamed("buildkite_pipeline", name) // removed from state without destroying
	const yaml = "steps:\n  - label: from the template\n    command: make\n"
	withPipeline := testAccPipelineTemplateConfig(name, yaml, "") + fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name                 = %q
  repository           = "https://github.com/acme/app.git"
  pipeline_template_id = buildkite_pipeline_template.test.id
}
`, name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(withPipeline),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("steps"), knownvalue.Null()),
				},
				ConfigPlanChecks: expectEmpty(),
			}),
			step(generateConfigStep(pipelineAddr, importID(pipelineAddr, "slug"))),
			step(resource.TestStep{
				// The template's configuration changes: the pipeline follows without a diff of its own.
				Config:           e.config(strings.Replace(withPipeline, yaml, "steps:\n  - command: make all\n", 1)),
				ConfigPlanChecks: expectEmpty(),
			}),
			step(resource.TestStep{
				Config: e.config(withPipeline + `
resource "buildkite_pipeline" "conflict" {
  name                 = "` + name + `-conflict"
  repository           = "https://github.com/acme/app.git"
  pipeline_template_id = buildkite_pipeline_template.test.id
  steps                = "steps:\n  - command: something else\n"
}`),
				ExpectError: wrapped("Invalid Attribute Combination"),
			}),
			step(resource.TestStep{
				// Only the template is left in the configuration: its delete is refused while the pipeline,
				// now outside Terraform's care, still uses it.
				Config: e.config(testAccPipelineTemplateConfig(name, yaml, "") + `
removed {
  from = buildkite_pipeline.test
  lifecycle {
    destroy = false
  }
}`),
			}),
			step(resource.TestStep{
				Config:      e.config(`# nothing`),
				ExpectError: regexpMust(`(?s)assigned to pipeline\s+"` + name + `"`),
			}),
			step(resource.TestStep{
				// Free the template so the test can clean up.
				Config: e.config(testAccPipelineTemplateConfig(name, yaml, "")),
				PreConfig: func() {
					p, err := e.client.Pipelines.Get(context.Background(), name)
					if err == nil {
						_, err = e.client.Pipelines.Update(context.Background(), p.Slug, buildkite.PipelineUpdate{PipelineTemplateUUID: buildkite.Cleared[string](), Configuration: ptrTo(buildkite.DefaultSteps)})
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: needs an organization without the Enterprise plan, which the emulator's store sets")
	}
	if err := e.server.Store().SetOrgPlan(e.org, false, true); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config:      e.config(testAccPipelineTemplateConfig("x", "steps: []\n", "")),
			ExpectError: regexpMust(`(?s)Unable to Create Pipeline Template.*Enterprise`),
		}},
	})
}

func init() {
	registerTestKind("buildkite_pipeline_template", testKind{
		fake:     fakeserver.KindPipelineTemplate,
		storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.PipelineTemplates.Get(ctx, a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.PipelineTemplates.Delete(ctx, a["id"])
		},
	})
}

// The rows of buildkite_pipeline_template in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_pipeline_template", typeTests{
	identity: &identityCase{
		// The identity stays with the template through a rename.
		resourceType: "buildkite_pipeline_template", attrs: []string{"id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			name := e.name("identity")
			return identityConfigs{
				create: testAccPipelineTemplateConfig(name, "steps:\n  - command: make\n", `  description = "Found by its ID"
  available   = true`),
				update: testAccPipelineTemplateConfig(name+"-2", "steps:\n  - command: make\n", ""),
			}
		},
	},
	invalidIdentity: &invalidIdentityCase{
		resourceType: "buildkite_pipeline_template",
		setup: func(e *testEnv) []invalidIdentity {
			return []invalidIdentity{{importByIdentity("buildkite_pipeline_template", `  name          = "standard"
  configuration = "steps: []"`, "id", "standard"), `id (<pipeline template UUID>) "standard" is not a UUID`}}
		},
	},
	migration: []migrationCase{
		{name: "pipeline_template", add: (*officialWorkspace).addTemplate, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_pipeline_template.standard", map[string]any{"available": true})
		}},
	},
	sweeper: &sweeper{"buildkite_pipeline_template", "pipeline-templates", []string{"buildkite_pipeline"}, listTemplates},
	query: &queryCase{resourceType: "buildkite_pipeline_template", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedPipelines(t, base)
		byID := func(tpl *buildkite.PipelineTemplate) queryfilter.QueryFilter { return byIdentity("id", tpl.UUID) }
		return queryRow{
			blocks: []string{
				"buildkite_pipeline_template", "named", fmt.Sprintf("    name = %q", base+"-STANDARD"),
				"buildkite_pipeline_template", "none", `    name = "standard"`,
			},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_template.all", 2),
				querycheck.ExpectLength("buildkite_pipeline_template.named", 1),
				querycheck.ExpectLength("buildkite_pipeline_template.none", 0),
				querycheck.ExpectIdentity("buildkite_pipeline_template.named", identityOf("id", s.standard.UUID)),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_template.all", byID(s.other), knownvalue.StringExact(base+"-other")),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.standard), []querycheck.KnownValueCheck{
					known("configuration", knownvalue.StringExact("steps:\n  - command: make ci\n")),
					known("description", knownvalue.StringExact("The standard build")),
					known("available", knownvalue.Bool(false)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_template.all", byID(s.other), []querycheck.KnownValueCheck{
					known("description", knownvalue.Null()),
					known("available", knownvalue.Bool(true)),
				}),
			},
			imports: 2,
		}
	}},
	upgrade: []upgradeCase{
		{
			name: "pipeline template, the official provider's", typeName: "buildkite_pipeline_template", version: 0,
			state: map[string]any{"id": kit.GraphQLID("PipelineTemplate", testUUID), "uuid": testUUID, "name": "t",
				"configuration": "steps: []", "description": nil, "available": true},
			want: map[string]any{"id": testUUID, "available": true, "updated_at": nil},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.PipelineTemplates.List(ctx)
		return serviceIDs(all, err, func(t buildkite.PipelineTemplate) string { return t.UUID })
	},
})

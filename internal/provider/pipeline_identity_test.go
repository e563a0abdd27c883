package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Import by identity (Terraform 1.12+) of the pipeline resources; `make testacc-next` runs these.

// TestAccPipelineResource_identity imports a pipeline by its slug, and shows the identity following the
// slug through a rename in Terraform and one outside it.
func TestAccPipelineResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	name := e.name("identity")
	slugIs := func(slug string) statecheck.StateCheck {
		return statecheck.ExpectIdentityValue(pipelineAddr, tfjsonpath.New("slug"), knownvalue.StringExact(slug))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccPipelineConfig(name, `  cluster_id = buildkite_cluster.ci.id
  tags       = ["identity"]
  steps      = "steps:\n  - command: make\n"`)),
				ConfigStateChecks: append(expectIdentity(pipelineAddr, "slug"), slugIs(name)),
			}),
			identityImportSteps(pipelineAddr),
			// Renamed in Terraform without a slug: the service derives a new slug, and the identity follows it.
			step(resource.TestStep{
				Config: e.config(testAccPipelineConfig(name+" Renamed", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: append(expectIdentity(pipelineAddr, "slug"), slugIs(name+"-renamed")),
			}),
			// Renamed outside Terraform to what the configuration now says: Read finds it by its UUID and keeps
			// the identity current, with nothing to change in the pipeline (its cluster's name follows the
			// configuration's).
			step(resource.TestStep{
				PreConfig: func() {
					other := name + " Moved"
					if _, err := e.client.Pipelines.Update(context.Background(), name+"-renamed",
						buildkite.PipelineUpdate{Name: &other}); err != nil {
						t.Fatalf("renaming outside Terraform: %v", err)
					}
				},
				Config: e.config(testAccPipelineConfig(name+" Moved", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionNoop)},
				},
				ConfigStateChecks: append(expectIdentity(pipelineAddr, "slug"), slugIs(name+"-moved")),
			}),
			identityImportSteps(pipelineAddr),
		),
	})
}

// TestAccPipelineResource_identityInvalid imports with an identity that names no pipeline: refused at plan
// time.
func TestAccPipelineResource_identityInvalid(t *testing.T) {
	identityImportRefused(t, `
import {
  to       = buildkite_pipeline.test
  identity = {
    slug = "no-such-pipeline"
  }
}

resource "buildkite_pipeline" "test" {
  name       = "No such pipeline"
  repository = "https://github.com/acme/app.git"
}
`, `Unable to Import Pipeline`)
}

func TestAccPipelineTemplateResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	name := e.name("identity")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline_template"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccPipelineTemplateConfig(name, "steps:\n  - command: make\n", `  description = "Found by its ID"
  available   = true`)),
				ConfigStateChecks: expectIdentity(templateAddr, "id"),
			}),
			identityImportSteps(templateAddr),
			// The identity stays with the template through a rename.
			step(resource.TestStep{
				Config: e.config(testAccPipelineTemplateConfig(name+"-2", "steps:\n  - command: make\n", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(templateAddr, "id"),
			}),
		),
	})
}

// TestAccPipelineTemplateResource_identityInvalid: an identity whose id is not a UUID is refused, naming it.
func TestAccPipelineTemplateResource_identityInvalid(t *testing.T) {
	identityImportRefused(t, `
import {
  to       = buildkite_pipeline_template.test
  identity = {
    id = "standard"
  }
}

resource "buildkite_pipeline_template" "test" {
  name          = "standard"
  configuration = "steps: []"
}
`, `id (<pipeline template UUID>) "standard" is not a UUID`)
}

// identityImportRefused plans config, whose import block names an identity, and expects the error
// message.
func identityImportRefused(t *testing.T, config, message string) {
	t.Helper()
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config:      e.config(config),
			PlanOnly:    true,
			ExpectError: wrapped(message),
		}},
	})
}

func TestAccOrganizationRuleResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_organization_rule"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccRuleConfig(e.name("identity"), "pipeline.trigger_build.pipeline", `jsonencode({
    source_pipeline = buildkite_pipeline.source.slug
    target_pipeline = buildkite_pipeline.target.uuid
  })`)),
				ConfigStateChecks: expectIdentity(ruleAddr, "id"),
			}),
			identityImportSteps(ruleAddr),
		),
	})
}

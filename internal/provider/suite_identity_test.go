package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Import by identity (Terraform 1.12+) of test suites, registries and registry tokens; `make testacc-next`
// runs these.

// TestAccTestSuiteResource_identity names a suite by its slug, and keeps the identity current when Terraform
// renames the suite: the identity is mutable.
func TestAccTestSuiteResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite.test"
	owner := e.team("owners")
	name := e.name("identity")
	slug := func(s string) []statecheck.StateCheck {
		return append(expectIdentity(addr, "slug"),
			statecheck.ExpectIdentityValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(s)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteConfig(name, owner, `  emoji            = ":test_tube:"
  application_name = "web"`)),
				ConfigStateChecks: slug(name),
			}),
			// The configuration names the owning team, which no read reports: importing only records it, an
			// update in place that changes nothing on the service, and the API token stays unknown to Terraform.
			step(resource.TestStep{
				ResourceName:       addr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("team_owner_id"), knownvalue.StringExact(owner)),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("api_token"), knownvalue.Null()),
					},
				},
			}),
			step(resource.TestStep{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				GenerateConfig:  true,
			}),
			// Renamed by Terraform: the slug, and so the identity, follows the name.
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteConfig(name+"-2", owner, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: slug(name + "-2"),
			}),
		),
	})
}

// TestAccTestSuiteResource_identityRenamedOutside refreshes a suite renamed outside Terraform: Read finds it
// by ID and the identity takes its new slug (an immutable identity would fail the refresh instead).
func TestAccTestSuiteResource_identityRenamedOutside(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite.test"
	name := e.name("identity")
	owner := e.team("owners")
	cfg := e.config(testAccTestSuiteConfig(name, owner, ""))
	renameOutside := func(s *terraform.State) error {
		elsewhere := name + "-elsewhere"
		_, err := e.client.TestSuites.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
			buildkite.TestSuiteUpdate{Name: &elsewhere})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: renameOutside, ExpectNonEmptyPlan: true},
			// The configuration takes the new name: nothing to change, and the identity has the new slug.
			{
				Config: e.config(testAccTestSuiteConfig(name+"-elsewhere", owner, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(expectIdentity(addr, "slug"),
					statecheck.ExpectIdentityValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name+"-elsewhere"))),
			},
		},
	})
}

// TestAccRegistryResource_identity names a registry by its slug, which follows a rename.
func TestAccRegistryResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_registry.test"
	name := e.name("identity")
	slug := func(s string) []statecheck.StateCheck {
		return append(expectIdentity(addr, "slug"),
			statecheck.ExpectIdentityValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(s)))
	}
	renameOutside := func(s *terraform.State) error {
		elsewhere := name + "-elsewhere"
		_, err := e.client.Registries.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
			buildkite.RegistryUpdate{Name: &elsewhere})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccRegistryConfig(name, "ruby", `  description = "Gems"
  oidc_policy = "- iss: https://agent.buildkite.com"`)),
				ConfigStateChecks: slug(name),
			}),
			identityImportSteps(addr),
			step(resource.TestStep{
				Config: e.config(testAccRegistryConfig(name+"-2", "ruby", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: slug(name + "-2"),
				Check:             renameOutside,
				// Renamed outside Terraform after the apply, so the refresh plans the name back.
				ExpectNonEmptyPlan: true,
			}),
			// Read finds it by ID: with the configuration taking the new name there is nothing to change, and
			// the identity has the new slug.
			step(resource.TestStep{
				Config: e.config(testAccRegistryConfig(name+"-elsewhere", "ruby", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: slug(name + "-elsewhere"),
			}),
		),
	})
}

// TestAccRegistryTokenResource_identity names a token by its registry's ID and its own; the secret cannot be
// read back, so an imported token has none.
func TestAccRegistryTokenResource_identity(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_registry_token.test"
	name := e.name("identity")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry_token"),
		Steps: steps(
			step(resource.TestStep{
				Config:            e.config(testAccRegistryTokenConfig(name, "a", "CI")),
				ConfigStateChecks: expectIdentity(addr, "registry_id", "id"),
			}),
			step(resource.TestStep{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectKnownValue(addr, tfjsonpath.New("token"), knownvalue.Null())},
				},
			}),
			step(resource.TestStep{
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				GenerateConfig:  true,
			}),
			// The identity stays with the token through an update in place and a rename of its registry.
			step(resource.TestStep{
				Config: e.config(testAccRegistryTokenConfig(name+"-renamed", "a", "CI agents")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: expectIdentity(addr, "registry_id", "id"),
			}),
		),
	})
}

// TestAccRegistryTokenResource_identityInvalid imports with identities that cannot name a token: each is
// refused at plan time, naming the attribute or the registry.
func TestAccRegistryTokenResource_identityInvalid(t *testing.T) {
	requireCLI(t, identityCLI)
	t.Parallel()
	e := newTestEnv(t)
	importBlock := func(registryID, id string) string {
		return e.config(`
import {
  to       = buildkite_registry_token.test
  identity = {
    registry_id = "` + registryID + `"
    id          = "` + id + `"
  }
}

resource "buildkite_registry_token" "test" {
  registry_id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"
  description = "CI"
}
`)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      importBlock("0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b", "not-a-token"),
				PlanOnly:    true,
				ExpectError: wrapped(`id (<token id>) "not-a-token" is not a UUID`),
			},
			{
				Config:      importBlock("0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b", "1c2d3e4f-5a6b-4e5f-8a9b-0b5e7c1a2f3d"),
				PlanOnly:    true,
				ExpectError: wrapped(`Unable to Import Registry Token`),
			},
		},
	})
}

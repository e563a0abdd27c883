package registries_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
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
)

func testAccRegistryConfig(name, ecosystem, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_registry" "test" {
  name      = %q
  ecosystem = %q
%s
}
`, name, ecosystem, extra)
}

func TestAccRegistryResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("gems")
	const addr = "buildkite_registry.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_registry"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccRegistryConfig(name, "ruby", `  description = "Shared gems"
  emoji       = ":gem:"
  color       = "#FFE0E0"
  oidc_policy = "- iss: https://agent.buildkite.com"`)),
				Check: e.CheckExists(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ecosystem"), knownvalue.StringExact("ruby")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Shared gems")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("public"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.StringExact("- iss: https://agent.buildkite.com")),
					statecheck.CompareValuePairs(addr, tfjsonpath.New("id"), addr, tfjsonpath.New("uuid"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_type"), knownvalue.StringExact("source")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			acctest.ImportSteps(addr, acctest.ImportID(addr, "slug")),
			acctest.Step(resource.TestStep{
				// By GraphQL ID.
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
			}),
			acctest.Step(resource.TestStep{
				// Rename (a new slug) and clear the optional attributes: in place.
				Config: e.Config(testAccRegistryConfig(name+"-2", "ruby", `  color = "#000000"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name+"-2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("color"), knownvalue.StringExact("#000000")),
				},
			}),
			acctest.Step(resource.TestStep{
				// The ecosystem cannot change: refused at plan, never a replacement that deletes the packages.
				Config:      e.Config(testAccRegistryConfig(name+"-2", "python", `  color = "#000000"`)),
				ExpectError: regexp.MustCompile(`Ecosystem change detected`),
			}),
		),
	})
}

// The teams a registry was created for cannot change: refused at plan with the official summary. The same
// teams by GraphQL ID are no change, and removing them from the configuration changes nothing. An import
// reads them from the service.
func TestAccRegistryResource_teamIDsRefused(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_registry.test"
	name := e.Name("teams")
	cfg := func(teams string) string {
		return e.Config(fmt.Sprintf(`
resource "buildkite_team" "a" {
  name                = %[1]q
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}
resource "buildkite_team" "b" {
  name                = "%[1]s-b"
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MEMBER"
}
`, name) + testAccRegistryConfig(name, "java", teams))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_registry"),
		Steps: []resource.TestStep{
			{Config: cfg(`  team_ids = [buildkite_team.a.id]`)},
			// An import takes the teams the service reports, as the official provider does, so the imported
			// state matches the one that created the registry.
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "slug")},
			{
				Config: cfg(`  team_ids = [buildkite_team.a.graphql_id]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
				},
			},
			{Config: cfg(`  team_ids = [buildkite_team.b.id]`), ExpectError: regexp.MustCompile(`Team IDs change detected`)},
			{Config: cfg(`  team_ids = [buildkite_team.a.id, buildkite_team.b.id]`), ExpectError: regexp.MustCompile(`Team IDs change detected`)},
			{
				Config: cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
			},
		},
	})
}

func TestAccRegistryResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears("buildkite_registry.test", testAccRegistryConfig(e.Name("gone"), "javascript", ""))
}

func TestAccRegistryResource_renamedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_registry.test"
	name := e.Name("renamed")
	cfg := e.Config(testAccRegistryConfig(name, "ruby", ""))
	renameOutside := func(s *terraform.State) error {
		elsewhere := name + "-elsewhere"
		_, err := e.Client.Registries.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
			buildkite.RegistryUpdate{Name: &elsewhere})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_registry"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: renameOutside, ExpectNonEmptyPlan: true},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name)),
				},
			},
		},
	})
}

// TestAccRegistryResource_teamIDsByGraphQLID: the teams named by GraphQL ID, as the official provider's
// configurations may, are the same teams: no change, no replacement.
func TestAccRegistryResource_teamIDsByGraphQLID(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	team := e.SeedTeam(e.Name("registry-team"))
	const addr = "buildkite_registry.test"
	name := e.Name("teams")
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_registry"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccRegistryConfig(name, "ruby", fmt.Sprintf(`  team_ids = [%q]`, team.GraphQLID))),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("team_ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(team.GraphQLID)})),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{Config: e.Config(testAccRegistryConfig(name, "ruby", fmt.Sprintf(`  team_ids = [%q]`, team.ID))), ConfigPlanChecks: empty},
		},
	})
}

func TestAccRegistryResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(testAccRegistryConfig("  ", "ruby", "")),
				ExpectError: acctest.RegexpMust(`name must contain a character other than white space`),
				PlanOnly:    true,
			},
			{
				Config:      e.Config(testAccRegistryConfig("x", "ruby", `  team_ids = ["Platform"]`)),
				ExpectError: acctest.RegexpMust(`must be a UUID`),
				PlanOnly:    true,
			},
		},
	})
}

// The rows of buildkite_registry in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_registry", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// Named by its slug, which follows a rename in Terraform and one outside it (Read finds it by ID).
		ResourceType: "buildkite_registry", Attrs: []string{"slug"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			const addr = "buildkite_registry.test"
			name := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccRegistryConfig(name, "ruby", `  description = "Gems"
  oidc_policy = "- iss: https://agent.buildkite.com"`),
				Checks:       []statecheck.StateCheck{acctest.IdentityValue(addr, "slug", name)},
				Update:       testAccRegistryConfig(name+"-2", "ruby", ""),
				UpdateChecks: []statecheck.StateCheck{acctest.IdentityValue(addr, "slug", name+"-2")},
				More: acctest.Step(resource.TestStep{
					PreConfig: func() {
						elsewhere := name + "-elsewhere"
						if _, err := e.Client.Registries.Update(context.Background(), name+"-2",
							buildkite.RegistryUpdate{Name: &elsewhere}); err != nil {
							t.Fatalf("renaming outside Terraform: %v", err)
						}
					},
					Config: e.Config(testAccRegistryConfig(name+"-elsewhere", "ruby", "")),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					ConfigStateChecks: append(acctest.ExpectIdentity(addr, "slug"), acctest.IdentityValue(addr, "slug", name+"-elsewhere")),
				}),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "registry", Add: (*acctest.OfficialWorkspace).AddRegistry, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_registry.gems", map[string]any{"oidc_policy": acctest.OfficialOIDCPolicy, "registry_type": "source"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_registry", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedSuites(t, base)
		registry := func(r *buildkite.Registry) queryfilter.QueryFilter { return acctest.ByIdentity("slug", r.Slug) }
		return acctest.QueryRow{
			Blocks: []string{"buildkite_registry", "named", fmt.Sprintf("    name = %q", base+"-PyPI")},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry.all", 2),
				querycheck.ExpectLength("buildkite_registry.named", 1),
				querycheck.ExpectIdentity("buildkite_registry.named", acctest.IdentityOf("slug", s.Pypi.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_registry.all", registry(s.Gems), knownvalue.StringExact(base+"-gems")),
				querycheck.ExpectResourceKnownValues("buildkite_registry.all", registry(s.Gems), []querycheck.KnownValueCheck{
					acctest.Known("ecosystem", knownvalue.StringExact("ruby")),
					acctest.Known("description", knownvalue.StringExact("Internal gems")),
					acctest.Known("oidc_policy", knownvalue.StringExact(*s.Gems.OIDCPolicy)),
					acctest.Known("team_ids", knownvalue.Null()),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_registry.named", registry(s.Pypi), []querycheck.KnownValueCheck{
					acctest.Known("id", knownvalue.StringExact(s.Pypi.ID)),
					acctest.Known("description", knownvalue.Null()),
				}),
			},
			Imports: 2,
		}
	}},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_registry", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		reg, err := e.Client.Registries.Create(context.Background(), buildkite.RegistryCreate{Name: e.Name("taken"), Ecosystem: "ruby"})
		if err != nil {
			t.Fatal(err)
		}
		return testAccRegistryConfig(reg.Name, "ruby", ""), reg.Slug
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "registry, the official provider's", TypeName: "buildkite_registry", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("Registry", acctest.TestUUID), "uuid": acctest.TestUUID, "name": "g", "slug": "g",
				"ecosystem": "ruby", "public": false, "registry_type": "PACKAGE", "team_ids": []any{acctest.OtherUUID}, "description": nil},
			Want: map[string]any{"id": acctest.TestUUID, "registry_type": "PACKAGE", "team_ids": []any{acctest.OtherUUID}, "graphql_id": kit.GraphQLID("Registry", acctest.TestUUID)},
		},
		{
			Name: "registry, ours at version 0", TypeName: "buildkite_registry", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": "G", "name": "g", "slug": "g",
				"ecosystem": "ruby", "public": false, "team_ids": nil, "url": "u", "web_url": "w"},
			Want: map[string]any{"id": acctest.TestUUID, "registry_type": nil, "team_ids": nil},
		},
	},
})

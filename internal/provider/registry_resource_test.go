package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
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
	e := newTestEnv(t)
	name := e.name("gems")
	const addr = "buildkite_registry.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccRegistryConfig(name, "ruby", `  description = "Shared gems"
  emoji       = ":gem:"
  color       = "#FFE0E0"
  oidc_policy = "- iss: https://agent.buildkite.com"`)),
				Check: e.checkExists(addr),
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
			importSteps(addr, importID(addr, "slug")),
			step(resource.TestStep{
				// By GraphQL ID.
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(addr, "graphql_id"),
			}),
			step(resource.TestStep{
				// Rename (a new slug) and clear the optional attributes: in place.
				Config: e.config(testAccRegistryConfig(name+"-2", "ruby", `  color = "#000000"`)),
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
			step(resource.TestStep{
				// The ecosystem cannot change: refused at plan, never a replacement that deletes the packages.
				Config:      e.config(testAccRegistryConfig(name+"-2", "python", `  color = "#000000"`)),
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
	e := newTestEnv(t)
	const addr = "buildkite_registry.test"
	name := e.name("teams")
	cfg := func(teams string) string {
		return e.config(fmt.Sprintf(`
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
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry"),
		Steps: []resource.TestStep{
			{Config: cfg(`  team_ids = [buildkite_team.a.id]`)},
			// An import takes the teams the service reports, as the official provider does, so the imported
			// state matches the one that created the registry.
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(addr, "slug")},
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
	e := newTestEnv(t)
	e.disappears("buildkite_registry.test", testAccRegistryConfig(e.name("gone"), "javascript", ""))
}

func TestAccRegistryResource_renamedOutside(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_registry.test"
	name := e.name("renamed")
	cfg := e.config(testAccRegistryConfig(name, "ruby", ""))
	renameOutside := func(s *terraform.State) error {
		elsewhere := name + "-elsewhere"
		_, err := e.client.Registries.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
			buildkite.RegistryUpdate{Name: &elsewhere})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry"),
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
	e := newTestEnv(t)
	team := e.seedTeam(e.name("registry-team"))
	const addr = "buildkite_registry.test"
	name := e.name("teams")
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry"),
		Steps: []resource.TestStep{
			{
				Config: e.config(testAccRegistryConfig(name, "ruby", fmt.Sprintf(`  team_ids = [%q]`, team.GraphQLID))),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("team_ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(team.GraphQLID)})),
				},
				ConfigPlanChecks: expectEmpty(),
			},
			{Config: e.config(testAccRegistryConfig(name, "ruby", fmt.Sprintf(`  team_ids = [%q]`, team.ID))), ConfigPlanChecks: empty},
		},
	})
}

func TestAccRegistryResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccRegistryConfig("  ", "ruby", "")),
				ExpectError: regexpMust(`name must contain a character other than white space`),
				PlanOnly:    true,
			},
			{
				Config:      e.config(testAccRegistryConfig("x", "ruby", `  team_ids = ["Platform"]`)),
				ExpectError: regexpMust(`must be a UUID`),
				PlanOnly:    true,
			},
		},
	})
}

func init() {
	registerTestKind("buildkite_registry", testKind{
		fake:     fakeserver.KindRegistry,
		storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Registries.GetByID(ctx, a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Registries.Delete(ctx, a["slug"])
		},
	})
}

// The rows of buildkite_registry in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_registry", typeTests{
	identity: &identityCase{
		// Named by its slug, which follows a rename in Terraform and one outside it (Read finds it by ID).
		resourceType: "buildkite_registry", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			const addr = "buildkite_registry.test"
			name := e.name("identity")
			return identityConfigs{
				create: testAccRegistryConfig(name, "ruby", `  description = "Gems"
  oidc_policy = "- iss: https://agent.buildkite.com"`),
				checks:       []statecheck.StateCheck{identityValue(addr, "slug", name)},
				update:       testAccRegistryConfig(name+"-2", "ruby", ""),
				updateChecks: []statecheck.StateCheck{identityValue(addr, "slug", name+"-2")},
				more: step(resource.TestStep{
					PreConfig: func() {
						elsewhere := name + "-elsewhere"
						if _, err := e.client.Registries.Update(context.Background(), name+"-2",
							buildkite.RegistryUpdate{Name: &elsewhere}); err != nil {
							t.Fatalf("renaming outside Terraform: %v", err)
						}
					},
					Config: e.config(testAccRegistryConfig(name+"-elsewhere", "ruby", "")),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					ConfigStateChecks: append(expectIdentity(addr, "slug"), identityValue(addr, "slug", name+"-elsewhere")),
				}),
			}
		},
	},
	migration: []migrationCase{
		{name: "registry", add: (*officialWorkspace).addRegistry, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_registry.gems", map[string]any{"oidc_policy": officialOIDCPolicy, "registry_type": "source"})
		}},
	},
	sweeper: &sweeper{"buildkite_registry", "registries", nil, listRegistries},
	query: &queryCase{resourceType: "buildkite_registry", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedSuites(t, base)
		registry := func(r *buildkite.Registry) queryfilter.QueryFilter { return byIdentity("slug", r.Slug) }
		return queryRow{
			blocks: []string{"buildkite_registry", "named", fmt.Sprintf("    name = %q", base+"-PyPI")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry.all", 2),
				querycheck.ExpectLength("buildkite_registry.named", 1),
				querycheck.ExpectIdentity("buildkite_registry.named", identityOf("slug", s.pypi.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_registry.all", registry(s.gems), knownvalue.StringExact(base+"-gems")),
				querycheck.ExpectResourceKnownValues("buildkite_registry.all", registry(s.gems), []querycheck.KnownValueCheck{
					known("ecosystem", knownvalue.StringExact("ruby")),
					known("description", knownvalue.StringExact("Internal gems")),
					known("oidc_policy", knownvalue.StringExact(*s.gems.OIDCPolicy)),
					known("team_ids", knownvalue.Null()),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_registry.named", registry(s.pypi), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.pypi.ID)),
					known("description", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	taken: &takenCase{resourceType: "buildkite_registry", setup: func(t *testing.T, e *testEnv) (string, string) {
		reg, err := e.client.Registries.Create(context.Background(), buildkite.RegistryCreate{Name: e.name("taken"), Ecosystem: "ruby"})
		if err != nil {
			t.Fatal(err)
		}
		return testAccRegistryConfig(reg.Name, "ruby", ""), reg.Slug
	}},
	upgrade: []upgradeCase{
		{
			name: "registry, the official provider's", typeName: "buildkite_registry", version: 0,
			state: map[string]any{"id": kit.GraphQLID("Registry", testUUID), "uuid": testUUID, "name": "g", "slug": "g",
				"ecosystem": "ruby", "public": false, "registry_type": "PACKAGE", "team_ids": []any{otherUUID}, "description": nil},
			want: map[string]any{"id": testUUID, "registry_type": "PACKAGE", "team_ids": []any{otherUUID}, "graphql_id": kit.GraphQLID("Registry", testUUID)},
		},
		{
			name: "registry, ours at version 0", typeName: "buildkite_registry", version: 0,
			state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "G", "name": "g", "slug": "g",
				"ecosystem": "ruby", "public": false, "team_ids": nil, "url": "u", "web_url": "w"},
			want: map[string]any{"id": testUUID, "registry_type": nil, "team_ids": nil},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.Registries.List(ctx)
		return serviceIDs(all, err, func(r buildkite.Registry) string { return r.ID })
	},
})

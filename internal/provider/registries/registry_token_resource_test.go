package registries_test

import (
	"fmt"
	"regexp"
	"testing"

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
)

// testAccRegistryTokenConfig is two registries and a token of the one named by registry ("a" or "b").
func testAccRegistryTokenConfig(name, registry, description string) string {
	return fmt.Sprintf(`
resource "buildkite_registry" "a" {
  name      = "%[1]s-a"
  ecosystem = "ruby"
}

resource "buildkite_registry" "b" {
  name      = "%[1]s-b"
  ecosystem = "python"
}

resource "buildkite_registry_token" "test" {
  registry_id = buildkite_registry.%[2]s.id
  description = %[3]q
}
`, name, registry, description)
}

func TestAccRegistryTokenResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("tokens")
	const addr = "buildkite_registry_token.test"
	var secret string
	keepSecret := func(s *terraform.State) error {
		secret = s.RootModule().Resources[addr].Primary.Attributes["token"]
		return nil
	}
	sameSecret := func(s *terraform.State) error {
		if got := s.RootModule().Resources[addr].Primary.Attributes["token"]; got != secret {
			return fmt.Errorf("token changed from %q to %q on an update in place", secret, got)
		}
		return nil
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_registry_token"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccRegistryTokenConfig(name, "a", "CI")),
				Check:  resource.ComposeTestCheckFunc(e.CheckExists(addr), keepSecret),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			// By registry ID, then by registry slug: the secret cannot be read back.
			acctest.ImportSteps(addr, acctest.ImportID(addr, "registry_id", "id"), "token"),
			acctest.Step(resource.TestStep{
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"token"},
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_registry.a"].Primary.Attributes["slug"] + "/" +
						s.RootModule().Resources[addr].Primary.ID, nil
				},
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccRegistryTokenConfig(name, "a", "Deploys")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: sameSecret,
			}),
			acctest.Step(resource.TestStep{
				// Renaming the registry keeps the token: it names the registry by ID.
				Config: e.Config(testAccRegistryTokenConfig(name+"-renamed", "a", "Deploys")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
				},
				Check: resource.ComposeTestCheckFunc(e.CheckExists(addr), sameSecret),
			}),
			acctest.Step(resource.TestStep{
				// Another registry: a new token.
				Config: e.Config(testAccRegistryTokenConfig(name+"-renamed", "b", "Deploys")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
				Check: e.CheckExists(addr),
			}),
		),
	})
}

func TestAccRegistryTokenResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears("buildkite_registry_token.test", testAccRegistryTokenConfig(e.Name("gone"), "a", "CI"))
}

func TestAccRegistryTokenResource_importErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := e.Config(testAccRegistryTokenConfig(e.Name("imports"), "a", "CI"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg, ResourceName: "buildkite_registry_token.test", ImportState: true,
				ImportStateId: "only-one-part",
				ExpectError:   acctest.RegexpMust(`(?s)Invalid Import ID.*<registry slug or id>/<token id>`),
			},
			{
				Config: cfg, ResourceName: "buildkite_registry_token.test", ImportState: true,
				ImportStateId: "no-such-registry/01234567-89ab-cdef-0123-456789abcdef",
				ExpectError:   acctest.RegexpMust(`(?s)Unable to Import Registry Token`),
			},
		},
	})
}

// The rows of buildkite_registry_token in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_registry_token", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// The identity stays with the token through an update in place and a rename of its registry.
		ResourceType: "buildkite_registry_token", Attrs: []string{"registry_id", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			name := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccRegistryTokenConfig(name, "a", "CI"),
				Secret: "token",
				Update: testAccRegistryTokenConfig(name+"-renamed", "a", "CI agents"),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_registry_token",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			token := func(id string) string {
				return acctest.ImportByIdentity("buildkite_registry_token", `  registry_id = "`+acctest.UnknownUUID+`"
  description = "CI"`, "registry_id", acctest.UnknownUUID, "id", id)
			}
			return []acctest.InvalidIdentity{
				{Config: token("not-a-token"), Message: `id (<token id>) "not-a-token" is not a UUID`},
				{Config: token("1c2d3e4f-5a6b-4e5f-8a9b-0b5e7c1a2f3d"), Message: `Unable to Import Registry Token`},
			}
		},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_registry_token", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedSuites(t, base)
		token := func(r *buildkite.Registry, tok *buildkite.RegistryToken) queryfilter.QueryFilter {
			return acctest.ByIdentity("registry_id", r.ID, "id", tok.ID)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_registry_token", "pypi", fmt.Sprintf("    registry_id = %q", s.Pypi.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry_token.all", 3),
				querycheck.ExpectLength("buildkite_registry_token.pypi", 1),
				querycheck.ExpectIdentity("buildkite_registry_token.pypi", acctest.IdentityOf("registry_id", s.Pypi.ID, "id", s.ReaderOfPypi.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_registry_token.all", token(s.Gems, s.Deploy), knownvalue.StringExact(base+"-gems / Deploys")),
				querycheck.ExpectResourceKnownValues("buildkite_registry_token.all", token(s.Gems, s.CI), []querycheck.KnownValueCheck{
					acctest.Known("description", knownvalue.StringExact("CI")),
					acctest.Known("created_at", knownvalue.NotNull()),
					acctest.Known("token", knownvalue.Null()), // returned only on creation
				}),
			},
			Refused: []acctest.QueryRefusal{
				{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "registry_id"), Message: acctest.Wrapped(`No registry matches the ID "` + acctest.UnknownUUID + `"`)},
				{Body: fmt.Sprintf("    registry_id = %q", s.Pypi.Slug), Message: regexp.MustCompile(`registry_id`)},
			},
			Imports: 3,
		}
	}},
	Exempt: map[string]string{
		acctest.TableSweeper: "A registry's tokens go with their registry, which the registry sweeper removes.",
		acctest.TableLostSecret: "Its create answers 200, not the 201 whose loss this table injects; " +
			"TestAccLostCreate_registryTokenAnswerLost (lost_create_test.go) loses its answer instead.",
	},
})

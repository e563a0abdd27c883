package provider

import (
	"context"
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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
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
	e := newTestEnv(t)
	name := e.name("tokens")
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
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_registry_token"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccRegistryTokenConfig(name, "a", "CI")),
				Check:  resource.ComposeTestCheckFunc(e.checkExists(addr), keepSecret),
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
			importSteps(addr, importID(addr, "registry_id", "id"), "token"),
			step(resource.TestStep{
				ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"token"},
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["buildkite_registry.a"].Primary.Attributes["slug"] + "/" +
						s.RootModule().Resources[addr].Primary.ID, nil
				},
			}),
			step(resource.TestStep{
				Config: e.config(testAccRegistryTokenConfig(name, "a", "Deploys")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: sameSecret,
			}),
			step(resource.TestStep{
				// Renaming the registry keeps the token: it names the registry by ID.
				Config: e.config(testAccRegistryTokenConfig(name+"-renamed", "a", "Deploys")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
				},
				Check: resource.ComposeTestCheckFunc(e.checkExists(addr), sameSecret),
			}),
			step(resource.TestStep{
				// Another registry: a new token.
				Config: e.config(testAccRegistryTokenConfig(name+"-renamed", "b", "Deploys")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
				Check: e.checkExists(addr),
			}),
		),
	})
}

func TestAccRegistryTokenResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.disappears("buildkite_registry_token.test", testAccRegistryTokenConfig(e.name("gone"), "a", "CI"))
}

func TestAccRegistryTokenResource_importErrors(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cfg := e.config(testAccRegistryTokenConfig(e.name("imports"), "a", "CI"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg, ResourceName: "buildkite_registry_token.test", ImportState: true,
				ImportStateId: "only-one-part",
				ExpectError:   regexpMust(`(?s)Invalid Import ID.*<registry slug or id>/<token id>`),
			},
			{
				Config: cfg, ResourceName: "buildkite_registry_token.test", ImportState: true,
				ImportStateId: "no-such-registry/01234567-89ab-cdef-0123-456789abcdef",
				ExpectError:   regexpMust(`(?s)Unable to Import Registry Token`),
			},
		},
	})
}

func init() {
	registerTestKind("buildkite_registry_token", testKind{
		fake:     fakeserver.KindRegistryToken,
		storeKey: byParent("registry_id"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			reg, err := c.Registries.GetByID(ctx, a["registry_id"])
			if err == nil {
				_, err = c.RegistryTokens.Get(ctx, reg.Slug, a["id"])
			}
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			reg, err := c.Registries.GetByID(ctx, a["registry_id"])
			if err == nil {
				err = c.RegistryTokens.Delete(ctx, reg.Slug, a["id"])
			}
			return err
		},
	})
}

// The rows of buildkite_registry_token in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_registry_token", typeTests{
	identity: &identityCase{
		// The identity stays with the token through an update in place and a rename of its registry.
		resourceType: "buildkite_registry_token", attrs: []string{"registry_id", "id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			name := e.name("identity")
			return identityConfigs{
				create: testAccRegistryTokenConfig(name, "a", "CI"),
				secret: "token",
				update: testAccRegistryTokenConfig(name+"-renamed", "a", "CI agents"),
			}
		},
	},
	invalidIdentity: &invalidIdentityCase{
		resourceType: "buildkite_registry_token",
		setup: func(e *testEnv) []invalidIdentity {
			token := func(id string) string {
				return importByIdentity("buildkite_registry_token", `  registry_id = "`+unknownUUID+`"
  description = "CI"`, "registry_id", unknownUUID, "id", id)
			}
			return []invalidIdentity{
				{token("not-a-token"), `id (<token id>) "not-a-token" is not a UUID`},
				{token("1c2d3e4f-5a6b-4e5f-8a9b-0b5e7c1a2f3d"), `Unable to Import Registry Token`},
			}
		},
	},
	query: &queryCase{resourceType: "buildkite_registry_token", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedSuites(t, base)
		token := func(r *buildkite.Registry, tok *buildkite.RegistryToken) queryfilter.QueryFilter {
			return byIdentity("registry_id", r.ID, "id", tok.ID)
		}
		return queryRow{
			blocks: []string{"buildkite_registry_token", "pypi", fmt.Sprintf("    registry_id = %q", s.pypi.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_registry_token.all", 3),
				querycheck.ExpectLength("buildkite_registry_token.pypi", 1),
				querycheck.ExpectIdentity("buildkite_registry_token.pypi", identityOf("registry_id", s.pypi.ID, "id", s.readerOfPypi.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_registry_token.all", token(s.gems, s.deploy), knownvalue.StringExact(base+"-gems / Deploys")),
				querycheck.ExpectResourceKnownValues("buildkite_registry_token.all", token(s.gems, s.ci), []querycheck.KnownValueCheck{
					known("description", knownvalue.StringExact("CI")),
					known("created_at", knownvalue.NotNull()),
					known("token", knownvalue.Null()), // returned only on creation
				}),
			},
			refused: []queryRefusal{
				{fmt.Sprintf(unknownUUIDFilter, "registry_id"), wrapped(`No registry matches the ID "` + unknownUUID + `"`)},
				{fmt.Sprintf("    registry_id = %q", s.pypi.Slug), regexp.MustCompile(`registry_id`)},
			},
			imports: 3,
		}
	}},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		registries, err := c.Registries.List(ctx)
		return childIDs(registries, err, func(r buildkite.Registry) ([]buildkite.RegistryToken, error) {
			return c.RegistryTokens.List(ctx, r.Slug)
		},
			func(t buildkite.RegistryToken) string { return t.ID })
	},
	exempt: map[string]string{
		tableSweeper: "A registry's tokens go with their registry, which the registry sweeper removes.",
		tableLostSecret: "Its create answers 200, not the 201 whose loss this table injects; " +
			"TestAccLostCreate_registryTokenAnswerLost (lost_create_test.go) loses its answer instead.",
	},
})

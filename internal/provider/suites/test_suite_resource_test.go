package suites_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/suites"
)

func TestAccTestSuiteResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	owner, other := e.Team("owners"), e.Team("others")
	name := e.Name("suite")
	const addr = "buildkite_test_suite.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(acctest.TestSuiteConfig(name, owner, `  emoji            = ":test_tube:"
  color            = "#E0F1FF"
  application_name = "web"`)),
				Check: e.CheckExists(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji"), knownvalue.StringExact(":test_tube:")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("application_name"), knownvalue.StringExact("web")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("api_token"), knownvalue.NotNull()),
					statecheck.CompareValuePairs(addr, tfjsonpath.New("id"), addr, tfjsonpath.New("uuid"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("graphql_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("web_url"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}),
			// The API token is in no read: an import has none. The owning team is found as the official
			// provider finds it: the first team that may manage the suite.
			acctest.ImportSteps(addr, acctest.ImportID(addr, "slug"), "api_token"),
			acctest.Step(resource.TestStep{
				ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, "id"),
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"api_token"},
			}),
			acctest.Step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id"),
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"api_token"},
			}),
			acctest.Step(resource.TestStep{
				// The owner by GraphQL ID names the same team: no change, nothing replaced. The OIDC policy is set.
				Config: e.Config(acctest.TestSuiteConfig(name, kit.GraphQLID("Team", owner), `  emoji            = ":test_tube:"
  color            = "#E0F1FF"
  application_name = "web"
  oidc_policy      = "- iss: https://agent.buildkite.com"`)),
				ConfigPlanChecks: acctest.InPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("team_owner_id"), knownvalue.StringExact(owner)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.StringExact("- iss: https://agent.buildkite.com")),
				},
			}),
			acctest.Step(resource.TestStep{
				// Rename (a new slug), recolor, drop the emoji and the application name: in place, the token kept.
				// The emoji is cleared; the application name and the OIDC policy, left out, are kept as the official
				// provider keeps them.
				Config: e.Config(acctest.TestSuiteConfig(name+"-2", owner, `  color = "#000000"`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(name+"-2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("application_name"), knownvalue.StringExact("web")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.StringExact("- iss: https://agent.buildkite.com")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("color"), knownvalue.StringExact("#000000")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("api_token"), knownvalue.NotNull()),
				},
				Check: checkSuiteOnService(e, addr, nil, acctest.PtrTo("web"), acctest.PtrTo("#000000")),
			}),
			acctest.Step(resource.TestStep{
				// Left out too, the color is kept; "" clears the application name, and state keeps "".
				Config: e.Config(acctest.TestSuiteConfig(name+"-2", owner, `  application_name = ""`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("application_name"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("color"), knownvalue.StringExact("#000000")),
				},
				Check: checkSuiteOnService(e, addr, nil, nil, acctest.PtrTo("#000000")),
			}),
			acctest.Step(resource.TestStep{
				// Another owning team is set in place, as the official provider does: the new team gets
				// manage_and_read access and the old one loses its access; the suite and its token stay.
				Config: e.Config(acctest.TestSuiteConfig(name+"-2", other, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(e.CheckExists(addr), checkSuiteOwners(e, addr, other, owner)),
			}),
		),
	})
}

// checkSuiteOnService compares the suite's emoji, application name and color on the service with the wanted
// ones (nil: none).
func checkSuiteOnService(e *acctest.TestEnv, addr string, emoji, app, color *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		su, err := e.Client.TestSuites.Get(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"])
		if err != nil {
			return err
		}
		show := func(p *string) string {
			if p == nil || *p == "" {
				return "none"
			}
			return *p
		}
		got := fmt.Sprintf("emoji=%s application_name=%s color=%s", show(su.Emoji), show(su.ApplicationName), show(su.Color))
		if want := fmt.Sprintf("emoji=%s application_name=%s color=%s", show(emoji), show(app), show(color)); got != want {
			return fmt.Errorf("suite on the service: %s, want %s", got, want)
		}
		return nil
	}
}

// checkSuiteOwners checks on the service that team owner has manage_and_read access to the suite at addr and
// team former has none.
func checkSuiteOwners(e *acctest.TestEnv, addr, owner, former string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[addr].Primary.ID
		ts, err := e.Client.TeamSuites.Get(context.Background(), owner, id)
		if err != nil {
			return fmt.Errorf("the new owner's access: %w", err)
		}
		if got := suites.SuiteAccessFromAPIForTest(ts.AccessLevel); got != "manage_and_read" {
			return fmt.Errorf("the new owner's access is %q, want manage_and_read", got)
		}
		switch _, err := e.Client.TeamSuites.Get(context.Background(), former, id); {
		case err == nil:
			return fmt.Errorf("the former owner %s still has access", former)
		case !buildkite.IsNotFound(err):
			return fmt.Errorf("the former owner's access: %w", err)
		}
		return nil
	}
}

// The official provider's users replace the owning team (taint, or a new team resource) and expect the suite
// to follow it in place, its API token kept.
func TestAccTestSuiteResource_ownerTeamReplaced(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_test_suite.test"
	cfg := e.Config(fmt.Sprintf(`
resource "buildkite_team" "owner" {
  name                = %q
  privacy             = "VISIBLE"
  default_team        = false
  default_member_role = "MAINTAINER"
}

resource "buildkite_test_suite" "test" {
  name           = %q
  default_branch = "main"
  team_owner_id  = buildkite_team.owner.id
}
`, e.Name("suite-owner"), e.Name("suite-follows")))
	var suiteID, token, firstTeam string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", func(v string) error { suiteID = v; return nil }),
					resource.TestCheckResourceAttrWith(addr, "api_token", func(v string) error { token = v; return nil }),
					resource.TestCheckResourceAttrWith("buildkite_team.owner", "id", func(v string) error { firstTeam = v; return nil }),
				),
			},
			{
				Config: cfg,
				Taint:  []string{"buildkite_team.owner"},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "team_owner_id", "buildkite_team.owner", "id"),
					resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
						if v != suiteID {
							return fmt.Errorf("suite id %s, want %s: the suite was replaced", v, suiteID)
						}
						return nil
					}),
					resource.TestCheckResourceAttrWith(addr, "api_token", func(v string) error {
						if v != token {
							return fmt.Errorf("the API token changed")
						}
						return nil
					}),
					func(s *terraform.State) error {
						return checkSuiteOwners(e, addr, s.RootModule().Resources["buildkite_team.owner"].Primary.ID, firstTeam)(s)
					},
				),
			},
		},
	})
}

func TestAccTestSuiteResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears("buildkite_test_suite.test", acctest.TestSuiteConfig(e.Name("gone"), e.Team("owners"), ""))
}

// A suite renamed outside Terraform has a new slug; it is found again by its ID and renamed back in place.
func TestAccTestSuiteResource_renamedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_test_suite.test"
	name := e.Name("renamed")
	cfg := e.Config(acctest.TestSuiteConfig(name, e.Team("owners"), ""))
	renameOutside := func(s *terraform.State) error {
		slug := s.RootModule().Resources[addr].Primary.Attributes["slug"]
		elsewhere := name + "-elsewhere"
		_, err := e.Client.TestSuites.Update(context.Background(), slug, buildkite.TestSuiteUpdate{Name: &elsewhere})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite"),
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
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("api_token"), knownvalue.NotNull()),
				},
			},
		},
	})
}

// Where teams are enabled a suite needs a team; without team_owner_id the error says so.
func TestAccTestSuiteResource_teamRequired(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("whether the organization has teams enabled is the emulator's setting")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(`
resource "buildkite_test_suite" "test" {
  name           = "no-team"
  default_branch = "main"
}
`),
			ExpectError: acctest.RegexpMust(`(?s)teams enabled.*set\s+team_owner_id\s+to\s+the\s+ID\s+of\s+a\s+team`),
		}},
	})
}

func TestAccTestSuiteResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(acctest.TestSuiteConfig("x", "VGVhbS0tLWFiYw==", "")),
				ExpectError: acctest.RegexpMust(`team_owner_id must be a UUID`),
				PlanOnly:    true,
			},
			{
				Config:        e.Config(acctest.TestSuiteConfig("x", "01234567-89ab-cdef-0123-456789abcdef", "")),
				ResourceName:  "buildkite_test_suite.test",
				ImportState:   true,
				ImportStateId: "a/b",
				ExpectError:   acctest.RegexpMust(`Invalid Import ID`),
			},
		},
	})
}

// The rows of buildkite_test_suite in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_test_suite", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// Named by its slug, which follows a rename: the identity is mutable.
		ResourceType: "buildkite_test_suite", Attrs: []string{"slug"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			const addr = "buildkite_test_suite.test"
			owner, name := e.Team("owners"), e.Name("identity")
			return acctest.IdentityConfigs{
				Create: acctest.TestSuiteConfig(name, owner, `  emoji            = ":test_tube:"
  application_name = "web"`),
				Checks: []statecheck.StateCheck{acctest.IdentityValue(addr, "slug", name)},
				// No read reports the owning team: the import finds it as the official provider does (the first
				// team that may manage the suite), so importing changes nothing; the API token stays unknown to
				// Terraform.
				ImportSteps: []resource.TestStep{
					{
						ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
						ImportPlanChecks: resource.ImportPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
								plancheck.ExpectKnownValue(addr, tfjsonpath.New("team_owner_id"), knownvalue.StringExact(owner)),
								plancheck.ExpectKnownValue(addr, tfjsonpath.New("api_token"), knownvalue.Null()),
							},
						},
					},
					{ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity, GenerateConfig: true},
				},
				Update:       acctest.TestSuiteConfig(name+"-2", owner, ""),
				UpdateChecks: []statecheck.StateCheck{acctest.IdentityValue(addr, "slug", name+"-2")},
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "test_suite", Add: (*acctest.OfficialWorkspace).AddTestSuite, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_test_suite.specs", map[string]any{"api_token": "moved-suite-token", "oidc_policy": acctest.OfficialOIDCPolicy})
		}},
		{Name: "test_suite_unmanaged_fields", Add: (*acctest.OfficialWorkspace).AddTestSuiteUnmanagedFields, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			// Left out of the configuration, the color and application name are the service's, kept.
			acctest.ExpectMoved(t, w, "buildkite_test_suite.ui", map[string]any{"color": "#BADA55", "application_name": "web",
				"oidc_policy": acctest.OfficialOIDCPolicy})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_test_suite", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedSuites(t, base)
		suite := func(ts *buildkite.TestSuite) queryfilter.QueryFilter { return acctest.ByIdentity("slug", ts.Slug) }
		return acctest.QueryRow{
			Blocks: []string{"buildkite_test_suite", "named", fmt.Sprintf("    name = %q", base+"-WEB")},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite.all", 2),
				querycheck.ExpectLength("buildkite_test_suite.named", 1),
				querycheck.ExpectIdentity("buildkite_test_suite.named", acctest.IdentityOf("slug", s.Web.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite.all", suite(s.API), knownvalue.StringExact(base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.Web), []querycheck.KnownValueCheck{
					acctest.Known("id", knownvalue.StringExact(s.Web.ID)),
					acctest.Known("emoji", knownvalue.StringExact(":test_tube:")),
					acctest.Known("application_name", knownvalue.StringExact("web")),
					// Returned only on creation.
					acctest.Known("api_token", knownvalue.Null()),
					// What an import reads: the one team that may manage the suite.
					acctest.Known("team_owner_id", knownvalue.StringExact(s.Team)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.API), []querycheck.KnownValueCheck{
					acctest.Known("default_branch", knownvalue.StringExact("trunk")),
					acctest.Known("color", knownvalue.Null()),
				}),
			},
			Imports: 2,
		}
	}},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_test_suite", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		owner := e.Team("taken-owner")
		suite := e.SeedSuite(e.Name("taken"), owner)
		return acctest.TestSuiteConfig(suite.Name, owner, ""), suite.Slug
	}},
	LostSecret: &acctest.LostSecretCase{
		Name: "test suite", Typ: "buildkite_test_suite", Kind: "Test Suite", Secret: "api_token",
		Path: func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/suites") },
		Item: func(p string) bool { return strings.Contains(p, "/suites/") },
		Config: func(prefix string, instances ...string) string {
			out := fmt.Sprintf("resource \"buildkite_team\" \"owners\" {\n  name                = %q\n  privacy             = \"VISIBLE\"\n  default_member_role = \"MEMBER\"\n  default_team        = false\n}\n", prefix)
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_test_suite\" %q {\n  name           = %q\n  default_branch = \"main\"\n  team_owner_id  = buildkite_team.owners.id\n}\n", in, prefix+"-"+in)
			}
			return out
		},
	},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "test suite, the official provider's", TypeName: "buildkite_test_suite", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("Suite", acctest.TestUUID), "uuid": acctest.TestUUID, "name": "s", "slug": "s",
				"default_branch": "main", "team_owner_id": kit.GraphQLID("Team", acctest.OtherUUID), "color": "", "application_name": nil,
				"oidc_policy": "p", "api_token": "t"},
			// color is Optional+Computed, as the official provider's: its "" (cleared) is kept, not turned into null.
			Want: map[string]any{"id": acctest.TestUUID, "team_owner_id": acctest.OtherUUID, "color": "", "oidc_policy": "p", "api_token": "t"},
		},
		{
			Name: "test suite, ours at version 0", TypeName: "buildkite_test_suite", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": "S", "name": "s", "slug": "s",
				"default_branch": "main", "team_owner_id": acctest.OtherUUID, "api_token": "t", "url": "u", "web_url": "w"},
			Want: map[string]any{"team_owner_id": acctest.OtherUUID, "oidc_policy": nil, "api_token": "t"},
		},
	},
})

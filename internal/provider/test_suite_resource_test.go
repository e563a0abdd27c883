package provider

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

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccTestSuiteConfig(name, teamID, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_test_suite" "test" {
  name           = %q
  default_branch = "main"
  team_owner_id  = %q
%s
}
`, name, teamID, extra)
}

func TestAccTestSuiteResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	owner, other := e.team("owners"), e.team("others")
	name := e.name("suite")
	const addr = "buildkite_test_suite.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite"),
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccTestSuiteConfig(name, owner, `  emoji            = ":test_tube:"
  color            = "#E0F1FF"
  application_name = "web"`)),
				Check: e.checkExists(addr),
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
			importSteps(addr, importID(addr, "slug"), "api_token"),
			step(resource.TestStep{
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importID(addr, "id"),
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"api_token"},
			}),
			step(resource.TestStep{
				// By GraphQL ID, the official provider's import ID.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importID(addr, "graphql_id"),
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"api_token"},
			}),
			step(resource.TestStep{
				// The owner by GraphQL ID names the same team: no change, nothing replaced. The OIDC policy is set.
				Config: e.config(testAccTestSuiteConfig(name, kit.GraphQLID("Team", owner), `  emoji            = ":test_tube:"
  color            = "#E0F1FF"
  application_name = "web"
  oidc_policy      = "- iss: https://agent.buildkite.com"`)),
				ConfigPlanChecks: inPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("team_owner_id"), knownvalue.StringExact(owner)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.StringExact("- iss: https://agent.buildkite.com")),
				},
			}),
			step(resource.TestStep{
				// Rename (a new slug), recolor, drop the emoji and the application name: in place, the token kept.
				// The emoji is cleared; the application name and the OIDC policy, left out, are kept as the official
				// provider keeps them.
				Config: e.config(testAccTestSuiteConfig(name+"-2", owner, `  color = "#000000"`)),
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
				Check: e.checkSuiteOnService(addr, nil, ptrTo("web"), ptrTo("#000000")),
			}),
			step(resource.TestStep{
				// Left out too, the color is kept; "" clears the application name, and state keeps "".
				Config: e.config(testAccTestSuiteConfig(name+"-2", owner, `  application_name = ""`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("application_name"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("color"), knownvalue.StringExact("#000000")),
				},
				Check: e.checkSuiteOnService(addr, nil, nil, ptrTo("#000000")),
			}),
			step(resource.TestStep{
				// Another owning team is set in place, as the official provider does: the new team gets
				// manage_and_read access and the old one loses its access; the suite and its token stay.
				Config: e.config(testAccTestSuiteConfig(name+"-2", other, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(e.checkExists(addr), e.checkSuiteOwners(addr, other, owner)),
			}),
		),
	})
}

// checkSuiteOnService compares the suite's emoji, application name and color on the service with the wanted
// ones (nil: none).
func (e *testEnv) checkSuiteOnService(addr string, emoji, app, color *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		su, err := e.client.TestSuites.Get(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"])
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
func (e *testEnv) checkSuiteOwners(addr, owner, former string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[addr].Primary.ID
		ts, err := e.client.TeamSuites.Get(context.Background(), owner, id)
		if err != nil {
			return fmt.Errorf("the new owner's access: %w", err)
		}
		if got := suiteAccessFromAPI(ts.AccessLevel); got != "manage_and_read" {
			return fmt.Errorf("the new owner's access is %q, want manage_and_read", got)
		}
		switch _, err := e.client.TeamSuites.Get(context.Background(), former, id); {
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
	e := newTestEnv(t)
	const addr = "buildkite_test_suite.test"
	cfg := e.config(fmt.Sprintf(`
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
`, e.name("suite-owner"), e.name("suite-follows")))
	var suiteID, token, firstTeam string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite"),
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
						return e.checkSuiteOwners(addr, s.RootModule().Resources["buildkite_team.owner"].Primary.ID, firstTeam)(s)
					},
				),
			},
		},
	})
}

func TestAccTestSuiteResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.disappears("buildkite_test_suite.test", testAccTestSuiteConfig(e.name("gone"), e.team("owners"), ""))
}

// A suite renamed outside Terraform has a new slug; it is found again by its ID and renamed back in place.
func TestAccTestSuiteResource_renamedOutside(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_test_suite.test"
	name := e.name("renamed")
	cfg := e.config(testAccTestSuiteConfig(name, e.team("owners"), ""))
	renameOutside := func(s *terraform.State) error {
		slug := s.RootModule().Resources[addr].Primary.Attributes["slug"]
		elsewhere := name + "-elsewhere"
		_, err := e.client.TestSuites.Update(context.Background(), slug, buildkite.TestSuiteUpdate{Name: &elsewhere})
		return err
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite"),
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("whether the organization has teams enabled is the emulator's setting")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config: e.config(`
resource "buildkite_test_suite" "test" {
  name           = "no-team"
  default_branch = "main"
}
`),
			ExpectError: regexpMust(`(?s)teams enabled.*set\s+team_owner_id\s+to\s+the\s+ID\s+of\s+a\s+team`),
		}},
	})
}

func TestAccTestSuiteResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccTestSuiteConfig("x", "VGVhbS0tLWFiYw==", "")),
				ExpectError: regexpMust(`team_owner_id must be a UUID`),
				PlanOnly:    true,
			},
			{
				Config:        e.config(testAccTestSuiteConfig("x", "01234567-89ab-cdef-0123-456789abcdef", "")),
				ResourceName:  "buildkite_test_suite.test",
				ImportState:   true,
				ImportStateId: "a/b",
				ExpectError:   regexpMust(`Invalid Import ID`),
			},
		},
	})
}

func init() {
	registerTestKind("buildkite_test_suite", testKind{
		fake:     fakeserver.KindSuite,
		storeKey: byID,
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.TestSuites.GetByID(ctx, a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.TestSuites.Delete(ctx, a["slug"])
		},
	})
}

// The rows of buildkite_test_suite in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_test_suite", typeTests{
	identity: &identityCase{
		// Named by its slug, which follows a rename: the identity is mutable.
		resourceType: "buildkite_test_suite", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			const addr = "buildkite_test_suite.test"
			owner, name := e.team("owners"), e.name("identity")
			return identityConfigs{
				create: testAccTestSuiteConfig(name, owner, `  emoji            = ":test_tube:"
  application_name = "web"`),
				checks: []statecheck.StateCheck{identityValue(addr, "slug", name)},
				// No read reports the owning team: the import finds it as the official provider does (the first
				// team that may manage the suite), so importing changes nothing; the API token stays unknown to
				// Terraform.
				importSteps: []resource.TestStep{
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
				update:       testAccTestSuiteConfig(name+"-2", owner, ""),
				updateChecks: []statecheck.StateCheck{identityValue(addr, "slug", name+"-2")},
			}
		},
	},
	migration: []migrationCase{
		{name: "test_suite", add: (*officialWorkspace).addTestSuite, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_test_suite.specs", map[string]any{"api_token": "moved-suite-token", "oidc_policy": officialOIDCPolicy})
		}},
		{name: "test_suite_unmanaged_fields", add: (*officialWorkspace).addTestSuiteUnmanagedFields, check: func(t *testing.T, w *cliWorkdir) {
			// Left out of the configuration, the color and application name are the service's, kept.
			expectMoved(t, w, "buildkite_test_suite.ui", map[string]any{"color": "#BADA55", "application_name": "web",
				"oidc_policy": officialOIDCPolicy})
		}},
	},
	sweeper: &sweeper{"buildkite_test_suite", "suites", nil, listSuites},
	query: &queryCase{resourceType: "buildkite_test_suite", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedSuites(t, base)
		suite := func(ts *buildkite.TestSuite) queryfilter.QueryFilter { return byIdentity("slug", ts.Slug) }
		return queryRow{
			blocks: []string{"buildkite_test_suite", "named", fmt.Sprintf("    name = %q", base+"-WEB")},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite.all", 2),
				querycheck.ExpectLength("buildkite_test_suite.named", 1),
				querycheck.ExpectIdentity("buildkite_test_suite.named", identityOf("slug", s.web.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite.all", suite(s.api), knownvalue.StringExact(base+"-api")),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.web), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.web.ID)),
					known("emoji", knownvalue.StringExact(":test_tube:")),
					known("application_name", knownvalue.StringExact("web")),
					// Returned only on creation.
					known("api_token", knownvalue.Null()),
					// What an import reads: the one team that may manage the suite.
					known("team_owner_id", knownvalue.StringExact(s.team)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite.all", suite(s.api), []querycheck.KnownValueCheck{
					known("default_branch", knownvalue.StringExact("trunk")),
					known("color", knownvalue.Null()),
				}),
			},
			imports: 2,
		}
	}},
	taken: &takenCase{resourceType: "buildkite_test_suite", setup: func(t *testing.T, e *testEnv) (string, string) {
		owner := e.team("taken-owner")
		suite := e.seedSuite(e.name("taken"), owner)
		return testAccTestSuiteConfig(suite.Name, owner, ""), suite.Slug
	}},
	lostSecret: &lostSecretCase{
		name: "test suite", typ: "buildkite_test_suite", kind: "Test Suite", secret: "api_token",
		path: func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/suites") },
		item: func(p string) bool { return strings.Contains(p, "/suites/") },
		config: func(prefix string, instances ...string) string {
			out := fmt.Sprintf("resource \"buildkite_team\" \"owners\" {\n  name                = %q\n  privacy             = \"VISIBLE\"\n  default_member_role = \"MEMBER\"\n  default_team        = false\n}\n", prefix)
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_test_suite\" %q {\n  name           = %q\n  default_branch = \"main\"\n  team_owner_id  = buildkite_team.owners.id\n}\n", in, prefix+"-"+in)
			}
			return out
		},
	},
	upgrade: []upgradeCase{
		{
			name: "test suite, the official provider's", typeName: "buildkite_test_suite", version: 0,
			state: map[string]any{"id": kit.GraphQLID("Suite", testUUID), "uuid": testUUID, "name": "s", "slug": "s",
				"default_branch": "main", "team_owner_id": kit.GraphQLID("Team", otherUUID), "color": "", "application_name": nil,
				"oidc_policy": "p", "api_token": "t"},
			// color is Optional+Computed, as the official provider's: its "" (cleared) is kept, not turned into null.
			want: map[string]any{"id": testUUID, "team_owner_id": otherUUID, "color": "", "oidc_policy": "p", "api_token": "t"},
		},
		{
			name: "test suite, ours at version 0", typeName: "buildkite_test_suite", version: 0,
			state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": "S", "name": "s", "slug": "s",
				"default_branch": "main", "team_owner_id": otherUUID, "api_token": "t", "url": "u", "web_url": "w"},
			want: map[string]any{"team_owner_id": otherUUID, "oidc_policy": nil, "api_token": "t"},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		all, err := c.TestSuites.List(ctx)
		return serviceIDs(all, err, func(s buildkite.TestSuite) string { return s.ID })
	},
})

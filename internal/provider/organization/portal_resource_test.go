package organization_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccPortalConfig(slug, name, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_portal" "test" {
  slug  = %q
  name  = %q
  query = "{ viewer { user { name } } }"
%s
}
`, slug, name, extra)
}

// portalOnService checks what the service holds for the portal in state.
func portalOnService(e *acctest.TestEnv, address string, check func(*buildkite.Portal) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		p, err := e.Client.Portals.Get(context.Background(), rs.Primary.Attributes["slug"])
		if err != nil {
			return err
		}
		return check(p)
	}
}

func TestAccPortalResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	slug := e.Name("portal")
	const addr = "buildkite_portal.test"
	importBySlug := acctest.ImportID(addr, "slug")

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_portal"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPortalConfig(slug, "Build stats", `  description          = "Numbers"
  allowed_ip_addresses = "10.0.0.0/8 192.168.0.0/16"
  user_invokable       = false`)),
				Check: e.CheckExists(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(slug)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Numbers")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.StringExact("10.0.0.0/8 192.168.0.0/16")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_invokable"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token"), knownvalue.StringRegexp(regexp.MustCompile(`^bkpt_`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("uuid"), knownvalue.StringRegexp(kit.UuidPattern)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_by").AtMapKey("name"), knownvalue.StringExact("Test User")),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.Step(resource.TestStep{
				// By slug, the official provider's import ID: the token cannot be read back, so it is null.
				ResourceName: addr, ImportState: true, ImportStateIdFunc: importBySlug,
				ImportStateVerify: true, ImportStateVerifyIdentifierAttribute: "slug", ImportStateVerifyIgnore: []string{"token"},
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("%d states imported", len(states))
					}
					if tok, ok := states[0].Attributes["token"]; ok && tok != "" {
						return fmt.Errorf("token %q after import, want null", tok)
					}
					return nil
				},
			}),
			acctest.Step(acctest.GenerateConfigStep(addr, importBySlug)),
			acctest.Step(resource.TestStep{
				// Remove description and allowed_ip_addresses: in place, and cleared on the service.
				Config:           e.Config(testAccPortalConfig(slug, "Build numbers", `  user_invokable = true`)),
				ConfigPlanChecks: acctest.InPlace(addr),
				Check: portalOnService(e, addr, func(p *buildkite.Portal) error {
					if p.Description != nil || p.AllowedIPAddresses != nil || !p.UserInvokable || p.Name != "Build numbers" {
						return fmt.Errorf("service holds %+v", p)
					}
					return nil
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_invokable"), knownvalue.Bool(true)),
					// The token from the create answer is kept through updates.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("token"), knownvalue.StringRegexp(regexp.MustCompile(`^bkpt_`))),
				},
			}),
			acctest.Step(resource.TestStep{
				// user_invokable left out keeps the service's value rather than resetting it; CIDRs are kept as
				// written, though the service normalises their spacing (the plan after apply is empty).
				Config:           e.Config(testAccPortalConfig(slug, "Build numbers 2", `  allowed_ip_addresses = "10.0.0.0/8   10.1.0.0/16"`)),
				ConfigPlanChecks: acctest.InPlace(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_invokable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_ip_addresses"), knownvalue.StringExact("10.0.0.0/8   10.1.0.0/16")),
				},
			}),
			acctest.Step(resource.TestStep{
				// A new slug replaces the portal.
				Config: e.Config(testAccPortalConfig(slug+"-2", "Build numbers 2", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact(slug+"-2")),
				},
			}),
		),
	})
}

func TestAccPortalResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.Disappears("buildkite_portal.test", testAccPortalConfig(e.Name("gone"), "Gone", ""))
}

func TestAccPortalResource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				// The service refuses what it cannot parse; nothing is left in state.
				Config:      e.Config(testAccPortalConfig(e.Name("bad"), "Bad", `  allowed_ip_addresses = "10.0.0.0/99"`)),
				ExpectError: acctest.Wrapped("10.0.0.0/99 is not a valid CIDR"),
			},
			{
				Config:      e.Config(testAccPortalConfig("", "Blank", "")),
				ExpectError: regexp.MustCompile(`slug`),
				PlanOnly:    true,
			},
			{
				Config:        e.Config(testAccPortalConfig("imported", "Imported", "")),
				ResourceName:  "buildkite_portal.test",
				ImportState:   true,
				ImportStateId: "no-such-portal",
				ExpectError:   regexp.MustCompile(`Cannot import non-existent remote object`),
			},
		},
	})
}

func TestAccPortalDataSources(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	slug := e.Name("seen")
	seeded := seededSlugs(e, 104)
	// More than one page of 100: buildkite_portals reads them all.
	seed := func() {
		for i := range 104 {
			if _, err := e.Client.Portals.Create(context.Background(), buildkite.PortalWrite{
				Name: seeded[i], Slug: seeded[i], Query: "{ viewer { user { name } } }",
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			PreConfig: seed,
			Config: e.Config(testAccPortalConfig(slug, "Seen", `  description = "Shown"`) + `
data "buildkite_portal" "one" {
  slug = buildkite_portal.test.slug
}
data "buildkite_portals" "all" {
  depends_on = [buildkite_portal.test]
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.buildkite_portal.one", tfjsonpath.New("name"), knownvalue.StringExact("Seen")),
				statecheck.ExpectKnownValue("data.buildkite_portal.one", tfjsonpath.New("description"), knownvalue.StringExact("Shown")),
				statecheck.ExpectKnownValue("data.buildkite_portal.one", tfjsonpath.New("user_invokable"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.buildkite_portal.one", tfjsonpath.New("allowed_ip_addresses"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.buildkite_portal.one", tfjsonpath.New("created_at"), knownvalue.NotNull()),
				// Every page: the 104 seeded and the one Terraform made (on the real service, among others).
				statecheck.ExpectKnownValue("data.buildkite_portals.all", tfjsonpath.New("portals"),
					e.Ours(105, "slug", append(seeded, slug)...)),
			},
		}},
	})
}

func TestAccPortalDataSource_notFound(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.Config(`data "buildkite_portal" "x" { slug = "nope" }`),
			ExpectError: regexp.MustCompile(`Portal not found[\s\S]*Could\s+not\s+find\s+portal\s+with\s+slug`),
		}},
	})
}

// seededSlugs are the names and slugs of the portals TestAccPortalDataSources makes through the client, with
// the test prefix, so that a live run's clean-up and the sweepers find them.
func seededSlugs(e *acctest.TestEnv, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = e.Name(fmt.Sprintf("seeded-%d", i))
	}
	return out
}

// TestAccPortalResource_recreatedOutside: a portal deleted and made again outside Terraform under the same
// slug is another portal (another UUID, another token): the one in state is gone, and the plan creates it
// instead of keeping the dead portal's token.
func TestAccPortalResource_recreatedOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_portal.test"
	slug := e.Name("recreated")
	cfg := e.Config(testAccPortalConfig(slug, slug, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_portal"),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: acctest.ExpectEmpty()},
			{
				PreConfig: func() {
					ctx := context.Background()
					if err := e.Client.Portals.Delete(ctx, slug); err != nil {
						t.Fatal(err)
					}
					if _, err := e.Client.Portals.Create(ctx, buildkite.PortalWrite{Name: slug, Slug: slug, Query: "{ viewer { user { name } } }"}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
				// The slug is taken by the new portal: the create is refused, naming it.
				ExpectError: regexp.MustCompile(`(?i)taken|import`),
			},
			{
				// Cleaned up outside, so that destroy and CheckDestroy find nothing of this test's.
				PreConfig: func() { _ = e.Client.Portals.Delete(context.Background(), slug) },
				Config:    cfg,
				Check:     resource.TestCheckResourceAttrSet(addr, "token"),
			},
		},
	})
}

// The rows of buildkite_portal in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_portal", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// Named by its slug, which cannot change in place; no id attribute, as in the official provider.
		ResourceType: "buildkite_portal", Attrs: []string{"slug"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			slug := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccPortalConfig(slug, "Identity", `  description = "Named by its slug"`),
				Checks: []statecheck.StateCheck{acctest.IdentityValue("buildkite_portal.test", "slug", slug)},
				Secret: "token",
				Update: testAccPortalConfig(slug, "Identity renamed", ""),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_portal",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			return []acctest.InvalidIdentity{{Config: acctest.ImportByIdentity("buildkite_portal", `  name  = "Missing"
  query = "{ viewer { user { name } } }"
  slug  = "no-such-portal"`, "slug", "no-such-portal"), Message: `Cannot import non-existent remote object`}}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "portal", Add: (*acctest.OfficialWorkspace).AddPortal, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			// No id: a portal is named by its slug, here as in the official provider.
			a := w.StateAttributes("buildkite_portal.stats")
			if _, has := a["id"]; has || a["token"] != "moved-portal-token" || a["allowed_ip_addresses"] != "10.0.0.0/8" {
				t.Errorf("after the move %v", a)
			}
			if by, _ := a["created_by"].(map[string]any); by == nil || !kit.IsUUID(fmt.Sprint(by["uuid"])) {
				t.Errorf("after the move created_by = %v, want the creator's UUID filled in", a["created_by"])
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_portal", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		seed := func(name, slug string, desc *string) *buildkite.Portal {
			p, err := e.Client.Portals.Create(t.Context(), buildkite.PortalWrite{
				Name: name, Slug: slug, Query: "{ viewer { user { name } } }", Description: desc,
			})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		desc := "Build numbers"
		stats, other := seed(base+"-Stats", base+"-stats", &desc), seed(base+"-Other", base+"-other", nil)
		return acctest.QueryRow{
			Blocks: []string{"buildkite_portal", "named", fmt.Sprintf("    name = %q", base+"-stats")},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_portal.all", 2),
				querycheck.ExpectLength("buildkite_portal.named", 1),
				querycheck.ExpectIdentity("buildkite_portal.named", acctest.IdentityOf("slug", stats.Slug)),
				querycheck.ExpectResourceDisplayName("buildkite_portal.all", acctest.ByIdentity("slug", other.Slug), knownvalue.StringExact(base+"-Other")),
				querycheck.ExpectResourceKnownValues("buildkite_portal.all", acctest.ByIdentity("slug", stats.Slug), []querycheck.KnownValueCheck{
					acctest.Known("uuid", knownvalue.StringExact(stats.UUID)),
					acctest.Known("description", knownvalue.StringExact(desc)),
					// Returned only on creation.
					acctest.Known("token", knownvalue.Null()),
				}),
			},
			Imports: 2,
		}
	}},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_portal", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		p, err := e.Client.Portals.Create(context.Background(), buildkite.PortalWrite{
			Name: "Taken", Slug: e.Name("taken"), Query: "{ viewer { user { name } } }",
		})
		if err != nil {
			t.Fatal(err)
		}
		return testAccPortalConfig(p.Slug, "Taken", ""), p.Slug
	}},
	LostSecret: &acctest.LostSecretCase{
		Name: "portal", Typ: "buildkite_portal", Kind: "Portal", Secret: "token",
		Path: func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/portals") },
		Item: func(p string) bool { return strings.Contains(p, "/portals/") },
		Config: func(prefix string, instances ...string) string {
			out := ""
			for _, in := range instances {
				out += fmt.Sprintf("\nresource \"buildkite_portal\" %q {\n  slug  = %q\n  name  = %q\n  query = \"{ viewer { user { name } } }\"\n}\n", in, prefix+"-"+in, in)
			}
			return out
		},
	},
})

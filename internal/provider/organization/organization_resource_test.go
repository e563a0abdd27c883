package organization_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccOrganizationConfig is a buildkite_organization with the given attribute lines.
func testAccOrganizationConfig(lines ...string) string {
	return "resource \"buildkite_organization\" \"test\" {\n  " + strings.Join(lines, "\n  ") + "\n}\n"
}

// checkAPISettings fails unless the service holds the allowlist (joined by spaces, "" for none), the
// revocation interval in days (0 for never) and the token restriction.
func checkAPISettings(e *acctest.TestEnv, ips string, days int64, restrict bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, err := e.Client.OrgSettings.GetAPISettings(context.Background())
		if err != nil {
			return err
		}
		if got := strings.Join(s.AllowedIPs(), " "); got != ips {
			return fmt.Errorf("allowlist on the service is %q, want %q", got, ips)
		}
		if got := kit.Deref(s.RevokeInactiveTokensAfterDays); got != days {
			return fmt.Errorf("revocation on the service is %d days, want %d", got, days)
		}
		if s.RestrictUserAPITokenCreation != restrict {
			return fmt.Errorf("restrict_user_api_token_creation on the service is %v, want %v", s.RestrictUserAPITokenCreation, restrict)
		}
		return nil
	}
}

// check2FAState fails unless the state's enforce_2fa at addr is what the service enforces.
func check2FAState(e *acctest.TestEnv, addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		got, err := e.Client.Organizations.TwoFactorEnforced(context.Background())
		if err != nil {
			return err
		}
		return resource.TestCheckResourceAttr(addr, "enforce_2fa", fmt.Sprint(got))(s)
	}
}

func TestAccOrganizationResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepAPISettings()
	e.HoldSingleton("two-factor") // it reads enforce_2fa
	const addr = "buildkite_organization.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0", "1.1.1.1/32", "1.0.0.1/32"))),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "0.0.0.0/0 1.1.1.1/32 1.0.0.1/32", 0, false),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "3"),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.1", "1.1.1.1/32"),
					resource.TestCheckResourceAttr(addr, "slug", e.Org),
					resource.TestCheckResourceAttrPair(addr, "id", addr, "uuid"),
					resource.TestCheckResourceAttrSet(addr, "graphql_id"),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "NEVER"),
					resource.TestCheckResourceAttr(addr, "restrict_user_api_token_creation", "false"),
					// Left out, it is read (never written), as import reads it.
					check2FAState(e, addr),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			// The slug, the UUID (id) and the official provider's GraphQL ID all import it.
			acctest.ImportSteps(addr, acctest.ImportID(addr, "slug")),
			acctest.Step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true}),
			acctest.Step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "graphql_id")}),
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0", "4.4.4.4/32"))),
				Check:            checkAPISettings(e, "0.0.0.0/0 4.4.4.4/32", 0, false),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			// [""] is "no allowlist", kept as written.
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig(acctest.AllowlistLine(""))),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 0, false),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "1"),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.0", ""),
				),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/1", "128.0.0.0/1"))),
				Check:            checkAPISettings(e, "0.0.0.0/1 128.0.0.0/1", 0, false),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			// Removing the attribute the configuration set removes the allowlist, as the official provider does
			// (its acceptance test "updates an organization by removing the allowed API IP address list property").
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig()),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 0, false),
					resource.TestCheckNoResourceAttr(addr, "allowed_api_ip_addresses"),
				),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/1", "128.0.0.0/1"))),
				Check:            checkAPISettings(e, "0.0.0.0/1 128.0.0.0/1", 0, false),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			// [] removes it.
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig(`allowed_api_ip_addresses = []`)),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 0, false),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "0"),
				),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`, `revoke_inactive_tokens_after = "DAYS_90"`)),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 90, true),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_90"),
					resource.TestCheckNoResourceAttr(addr, "allowed_api_ip_addresses"),
				),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			// Left out, the token settings are left alone.
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig()),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 90, true),
					resource.TestCheckResourceAttr(addr, "restrict_user_api_token_creation", "true"),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_90"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			// The days spelling sets the interval.
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig(`revoke_inactive_tokens_after_days = 365`, `restrict_user_api_token_creation = false`)),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 365, false),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_365"),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after_days", "365"),
				),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
			// Removing it stops managing the interval: the service keeps it.
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccOrganizationConfig()),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "", 365, false),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_365"),
					resource.TestCheckNoResourceAttr(addr, "revoke_inactive_tokens_after_days"),
				),
				ConfigPlanChecks: acctest.InPlace(addr),
			}),
		),
	})
}

// TestAccOrganizationResource_drift: an allowlist changed outside Terraform shows in the plan and is put back.
func TestAccOrganizationResource_drift(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("changes the organization's settings behind the API's back through the emulator's store")
	}
	e.KeepAPISettings()
	const addr = "buildkite_organization.test"
	cfg := e.Config(testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0")))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					e.Server.Store().SetAPISettings(e.Org, "192.0.2.0/24", 30, true)
					e.Server.SetCallerAddress("192.0.2.7") // inside it: the emulator enforces the allowlist
					return nil
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config:           cfg,
				ConfigPlanChecks: acctest.InPlace(addr),
				// Only the allowlist is managed: the token settings keep what was set outside.
				Check: checkAPISettings(e, "0.0.0.0/0", 30, true),
			},
		},
	})
}

// TestAccOrganizationResource_enforce2FAKept: enforce_2fa set, then left out (kept, nothing changes), then
// changed, never touches the REST API settings (organization_2fa_test.go covers the GraphQL side).
func TestAccOrganizationResource_enforce2FAKept(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepAPISettings()
	const addr = "buildkite_organization.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: []resource.TestStep{
			{
				Config:           e.Config(testAccOrganizationConfig(`enforce_2fa = true`)),
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			// Imported (the official examples import it by slug), it holds the service's value, so that the
			// configuration that sets it plans no change.
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "slug")},
			{
				Config:           e.Config(testAccOrganizationConfig()),
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           e.Config(testAccOrganizationConfig(`enforce_2fa = false`)),
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "false"),
				ConfigPlanChecks: acctest.InPlace(addr),
			},
		},
	})
	if !e.Live {
		for _, r := range e.Server.Requests() {
			if r.Method == http.MethodPatch {
				t.Errorf("a change of enforce_2fa alone sent %s %s", r.Method, r.Path)
			}
		}
	}
}

// TestAccOrganizationResource_planFeatures: a setting the organization's plan lacks is refused with an error
// that says so.
func TestAccOrganizationResource_planFeatures(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("turns the plan's features off in the emulator's store")
	}
	e.Server.Store().SetAPISettingsFeatures(e.Org, false, false)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(testAccOrganizationConfig(`revoke_inactive_tokens_after = "DAYS_30"`)),
				ExpectError: acctest.Wrapped("Inactive API token revocation is not available on this organization's plan"),
			},
			{
				Config:      e.Config(testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0"))),
				ExpectError: acctest.Wrapped("The API IP allowlist is not available on this organization's plan"),
			},
			{
				// What the plan has still works, and the allowlist is never named.
				Config:           e.Config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`)),
				Check:            checkAPISettings(e, "", 0, true),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

func TestAccOrganizationResource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_organization.test"
	for name, tc := range map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"days":          {testAccOrganizationConfig(`revoke_inactive_tokens_after_days = 45`), regexp.MustCompile(`must\s+be\s+one\s+of`)},
		"interval":      {testAccOrganizationConfig(`revoke_inactive_tokens_after = "DAYS_45"`), regexp.MustCompile(`must\s+be\s+one\s+of`)},
		"both":          {testAccOrganizationConfig(`revoke_inactive_tokens_after_days = 30`, `revoke_inactive_tokens_after = "DAYS_30"`), regexp.MustCompile(`cannot\s+be\s+configured|Invalid\s+Attribute\s+Combination`)},
		"not a network": {testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0", "nowhere")), acctest.Wrapped("must each be one IP network in CIDR notation")},
		// Two networks in one element would come back as two elements: an inconsistent result on every apply.
		"two in one": {testAccOrganizationConfig(acctest.AllowlistLine("10.0.0.0/8 192.168.0.0/16")), acctest.Wrapped("It holds 2 networks: write each as its own element")},
	} {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps:                    []resource.TestStep{{Config: e.Config(tc.config), ExpectError: tc.want}},
			})
		})
	}
	// Another organization is not this provider's to import.
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:        e.Config(testAccOrganizationConfig()),
			ResourceName:  addr,
			ImportState:   true,
			ImportStateId: "someone-else",
			ExpectError:   acctest.Wrapped(`"someone-else" does not name organization ` + e.Org),
		}},
	})
}

// TestAccOrganizationResource_notAdministrator: a token whose user is not an administrator cannot read or
// change the settings; the error says what it needs.
func TestAccOrganizationResource_notAdministrator(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("seeds a member's token in the emulator")
	}
	member := e.Server.Store().AddUser(e.Org, "Member", "member@example.com", false)
	if err := e.Server.Store().AddTokenForUser("member-token", member, []string{e.Org}, fakeserver.AllScopes()); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = \"member-token\"\n}\n", e.URL, e.Org) +
		testAccOrganizationConfig(`restrict_user_api_token_creation = true`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: acctest.Wrapped("The token's user must be an administrator"),
		}},
	})
	if _, _, restrict := e.Server.Store().APISettings(e.Org); restrict {
		t.Error("a member's token changed the settings")
	}
}

// TestAccOrganizationResource_daysUnknownAtPlan: an interval and an enforce_2fa known only at apply are
// still applied.
func TestAccOrganizationResource_daysUnknownAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepAPISettings()
	e.HoldSingleton("two-factor")
	e.Keep2FA()
	const addr = "buildkite_organization.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: []resource.TestStep{{
			Config: e.Config(`
resource "terraform_data" "days" {
  input = 180
}

resource "terraform_data" "enforce" {
  input = true
}
` + testAccOrganizationConfig(`revoke_inactive_tokens_after_days = terraform_data.days.output`, `enforce_2fa = terraform_data.enforce.output`)),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkAPISettings(e, "", 180, false),
				resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_180"),
				resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"),
				check2FAState(e, addr), // and so the service enforces it
			),
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

// TestAccOrganizationResource_allowlistSetOutside: an allowlist set in the web interface, under a
// buildkite_organization that does not configure one, is read (the first apply records it, no inconsistent
// result), never written (no plan removes it, a change outside plans nothing) and left by destroy.
func TestAccOrganizationResource_allowlistSetOutside(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("sets the allowlist behind the API's back through the emulator's store")
	}
	e.Server.Store().SetAPISettings(e.Org, "192.0.2.0/24", 0, false)
	e.Server.SetCallerAddress("192.0.2.7")
	const addr = "buildkite_organization.test"
	cfg := e.Config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy: func(*terraform.State) error {
			// Destroy leaves what the configuration did not manage; restrict stays too (never undone).
			if ips, _, _ := e.Server.Store().APISettings(e.Org); ips != "192.0.2.0/24 198.51.100.0/24" {
				return fmt.Errorf("destroy changed the allowlist it did not manage: now %q", ips)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "192.0.2.0/24", 0, true),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "1"),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.0", "192.0.2.0/24"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				// Changed outside again: read, and nothing planned.
				PreConfig:        func() { e.Server.Store().SetAPISettings(e.Org, "192.0.2.0/24 198.51.100.0/24", 0, true) },
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAPISettings(e, "192.0.2.0/24 198.51.100.0/24", 0, true),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "2"),
				),
			},
		},
	})
}

// TestAccOrganizationResource_lockedOut: an allowlist set outside Terraform that leaves out the address
// Terraform calls from refuses every call; the plan fails with an error naming the allowlist, and nothing
// leaves state (the next plan, once the address is allowed again, is empty).
func TestAccOrganizationResource_lockedOut(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("locks the caller out through the emulator's store")
	}
	e.Server.Store().SetAPISettings(e.Org, "192.0.2.0/24", 0, false)
	e.Server.SetCallerAddress("192.0.2.7")
	name := e.Name("locked")
	cfg := e.Config(testAccOrganizationConfig(`allowed_api_ip_addresses = ["192.0.2.0/24"]`) +
		fmt.Sprintf("resource \"buildkite_cluster\" \"test\" {\n  name = %q\n}\n", name))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: acctest.ExpectEmpty()},
			{
				PreConfig:   func() { e.Server.SetCallerAddress("203.0.113.9") },
				Config:      cfg,
				ExpectError: acctest.Wrapped("API IP allowlist"),
			},
			{
				// Allowed again: both are still in state, and nothing is planned.
				PreConfig:        func() { e.Server.SetCallerAddress("192.0.2.7") },
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrSet("buildkite_cluster.test", "id"),
					resource.TestCheckResourceAttr("buildkite_organization.test", "allowed_api_ip_addresses.0", "192.0.2.0/24"),
				),
			},
		},
	})
}

// TestAccOrganizationResource_enforce2FAAnsweredWithErrors: enforce_2fa set with an answer that carries
// errors and the organization's new value is applied: the apply succeeds and the plan after is empty.
func TestAccOrganizationResource_enforce2FAAnsweredWithErrors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	e.KeepAPISettings()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: []resource.TestStep{{
			PreConfig: e.Aim(fakeserver.AimedFault{Operation: "setOrganization2FA", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
			Config:    e.Config(testAccOrganizationConfig(`enforce_2fa = true`)),
			Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 1),
				resource.TestCheckResourceAttr("buildkite_organization.test", "enforce_2fa", "true")),
			ConfigPlanChecks: acctest.ExpectEmpty(),
		}},
	})
}

// The rows of buildkite_organization in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_organization", acctest.TypeTests{
	// Organization settings, the banner and pipeline webhooks (issue 25).
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_organization", Attrs: []string{"slug"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			e.KeepAPISettings()
			return acctest.IdentityConfigs{
				Create:    testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0")),
				Update:    testAccOrganizationConfig(acctest.AllowlistLine("0.0.0.0/0", "192.0.2.0/24")),
				Destroyed: e.CheckAllowlistRemoved,
			}
		},
	},
	Migration: []acctest.MigrationCase{
		// Organization settings and the banner (issue 25).
		{Name: "organization", Add: (*acctest.OfficialWorkspace).AddOrganization, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_organization.settings", map[string]any{"enforce_2fa": true, "revoke_inactive_tokens_after": "DAYS_90"})
			// enforce_2fa is applied and read through GraphQL now: no warning.
			acctest.ExpectQuietPlan(t, w)
		}},
		{Name: "organization_v1_38", Add: (*acctest.OfficialWorkspace).AddOrganizationV138, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_organization.settings", map[string]any{"allowed_api_ip_addresses": nil, "enforce_2fa": false,
				"revoke_inactive_tokens_after": "NEVER", "restrict_user_api_token_creation": false})
		}},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "The organization's settings are a singleton the tests hold and put back (acctest/singleton.go): there is nothing to remove.",
	},
})

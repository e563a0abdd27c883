package provider

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccOrganizationConfig is a buildkite_organization with the given attribute lines.
func testAccOrganizationConfig(lines ...string) string {
	return "resource \"buildkite_organization\" \"test\" {\n  " + strings.Join(lines, "\n  ") + "\n}\n"
}

// checkAPISettings fails unless the service holds the allowlist (joined by spaces, "" for none), the
// revocation interval in days (0 for never) and the token restriction.
func (e *testEnv) checkAPISettings(ips string, days int64, restrict bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, err := e.client.OrgSettings.GetAPISettings(context.Background())
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
func (e *testEnv) check2FAState(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		got, err := e.client.Organizations.TwoFactorEnforced(context.Background())
		if err != nil {
			return err
		}
		return resource.TestCheckResourceAttr(addr, "enforce_2fa", fmt.Sprint(got))(s)
	}
}

func TestAccOrganizationResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.keepAPISettings()
	e.holdSingleton("two-factor") // it reads enforce_2fa
	const addr = "buildkite_organization.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAllowlistRemoved,
		Steps: steps(
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig(allowlistLine("0.0.0.0/0", "1.1.1.1/32", "1.0.0.1/32"))),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("0.0.0.0/0 1.1.1.1/32 1.0.0.1/32", 0, false),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "3"),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.1", "1.1.1.1/32"),
					resource.TestCheckResourceAttr(addr, "slug", e.org),
					resource.TestCheckResourceAttrPair(addr, "id", addr, "uuid"),
					resource.TestCheckResourceAttrSet(addr, "graphql_id"),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "NEVER"),
					resource.TestCheckResourceAttr(addr, "restrict_user_api_token_creation", "false"),
					// Left out, it is read (never written), as import reads it.
					e.check2FAState(addr),
				),
				ConfigPlanChecks: expectEmpty(),
			}),
			// The slug, the UUID (id) and the official provider's GraphQL ID all import it.
			importSteps(addr, importID(addr, "slug")),
			step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true}),
			step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(addr, "graphql_id")}),
			step(resource.TestStep{
				Config:           e.config(testAccOrganizationConfig(allowlistLine("0.0.0.0/0", "4.4.4.4/32"))),
				Check:            e.checkAPISettings("0.0.0.0/0 4.4.4.4/32", 0, false),
				ConfigPlanChecks: inPlace(addr),
			}),
			// [""] is "no allowlist", kept as written.
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig(allowlistLine(""))),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 0, false),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "1"),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.0", ""),
				),
				ConfigPlanChecks: inPlace(addr),
			}),
			step(resource.TestStep{
				Config:           e.config(testAccOrganizationConfig(allowlistLine("0.0.0.0/1", "128.0.0.0/1"))),
				Check:            e.checkAPISettings("0.0.0.0/1 128.0.0.0/1", 0, false),
				ConfigPlanChecks: inPlace(addr),
			}),
			// Removing the attribute the configuration set removes the allowlist, as the official provider does
			// (its acceptance test "updates an organization by removing the allowed API IP address list property").
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig()),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 0, false),
					resource.TestCheckNoResourceAttr(addr, "allowed_api_ip_addresses"),
				),
				ConfigPlanChecks: inPlace(addr),
			}),
			step(resource.TestStep{
				Config:           e.config(testAccOrganizationConfig(allowlistLine("0.0.0.0/1", "128.0.0.0/1"))),
				Check:            e.checkAPISettings("0.0.0.0/1 128.0.0.0/1", 0, false),
				ConfigPlanChecks: inPlace(addr),
			}),
			// [] removes it.
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig(`allowed_api_ip_addresses = []`)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 0, false),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "0"),
				),
				ConfigPlanChecks: inPlace(addr),
			}),
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`, `revoke_inactive_tokens_after = "DAYS_90"`)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 90, true),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_90"),
					resource.TestCheckNoResourceAttr(addr, "allowed_api_ip_addresses"),
				),
				ConfigPlanChecks: inPlace(addr),
			}),
			// Left out, the token settings are left alone.
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig()),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 90, true),
					resource.TestCheckResourceAttr(addr, "restrict_user_api_token_creation", "true"),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_90"),
				),
				ConfigPlanChecks: expectEmpty(),
			}),
			// The days spelling sets the interval.
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig(`revoke_inactive_tokens_after_days = 365`, `restrict_user_api_token_creation = false`)),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 365, false),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_365"),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after_days", "365"),
				),
				ConfigPlanChecks: inPlace(addr),
			}),
			// Removing it stops managing the interval: the service keeps it.
			step(resource.TestStep{
				Config: e.config(testAccOrganizationConfig()),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("", 365, false),
					resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_365"),
					resource.TestCheckNoResourceAttr(addr, "revoke_inactive_tokens_after_days"),
				),
				ConfigPlanChecks: inPlace(addr),
			}),
		),
	})
}

// TestAccOrganizationResource_drift: an allowlist changed outside Terraform shows in the plan and is put back.
func TestAccOrganizationResource_drift(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("changes the organization's settings behind the API's back through the emulator's store")
	}
	e.keepAPISettings()
	const addr = "buildkite_organization.test"
	cfg := e.config(testAccOrganizationConfig(allowlistLine("0.0.0.0/0")))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAllowlistRemoved,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					e.server.Store().SetAPISettings(e.org, "192.0.2.0/24", 30, true)
					e.server.SetCallerAddress("192.0.2.7") // inside it: the emulator enforces the allowlist
					return nil
				},
				ExpectNonEmptyPlan: true,
			},
			{
				Config:           cfg,
				ConfigPlanChecks: inPlace(addr),
				// Only the allowlist is managed: the token settings keep what was set outside.
				Check: e.checkAPISettings("0.0.0.0/0", 30, true),
			},
		},
	})
}

// TestAccOrganizationResource_enforce2FAKept: enforce_2fa set, then left out (kept, nothing changes), then
// changed, never touches the REST API settings (organization_2fa_test.go covers the GraphQL side).
func TestAccOrganizationResource_enforce2FAKept(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.keepAPISettings()
	const addr = "buildkite_organization.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAllowlistRemoved,
		Steps: []resource.TestStep{
			{
				Config:           e.config(testAccOrganizationConfig(`enforce_2fa = true`)),
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"),
				ConfigPlanChecks: expectEmpty(),
			},
			// Imported (the official examples import it by slug), it holds the service's value, so that the
			// configuration that sets it plans no change.
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(addr, "slug")},
			{
				Config:           e.config(testAccOrganizationConfig()),
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           e.config(testAccOrganizationConfig(`enforce_2fa = false`)),
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "false"),
				ConfigPlanChecks: inPlace(addr),
			},
		},
	})
	if !e.live {
		for _, r := range e.server.Requests() {
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("turns the plan's features off in the emulator's store")
	}
	e.server.Store().SetAPISettingsFeatures(e.org, false, false)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccOrganizationConfig(`revoke_inactive_tokens_after = "DAYS_30"`)),
				ExpectError: wrapped("Inactive API token revocation is not available on this organization's plan"),
			},
			{
				Config:      e.config(testAccOrganizationConfig(allowlistLine("0.0.0.0/0"))),
				ExpectError: wrapped("The API IP allowlist is not available on this organization's plan"),
			},
			{
				// What the plan has still works, and the allowlist is never named.
				Config:           e.config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`)),
				Check:            e.checkAPISettings("", 0, true),
				ConfigPlanChecks: expectEmpty(),
			},
		},
	})
}

func TestAccOrganizationResource_badInput(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_organization.test"
	for name, tc := range map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"days":          {testAccOrganizationConfig(`revoke_inactive_tokens_after_days = 45`), regexp.MustCompile(`must\s+be\s+one\s+of`)},
		"interval":      {testAccOrganizationConfig(`revoke_inactive_tokens_after = "DAYS_45"`), regexp.MustCompile(`must\s+be\s+one\s+of`)},
		"both":          {testAccOrganizationConfig(`revoke_inactive_tokens_after_days = 30`, `revoke_inactive_tokens_after = "DAYS_30"`), regexp.MustCompile(`cannot\s+be\s+configured|Invalid\s+Attribute\s+Combination`)},
		"not a network": {testAccOrganizationConfig(allowlistLine("0.0.0.0/0", "nowhere")), wrapped("must each be one IP network in CIDR notation")},
		// Two networks in one element would come back as two elements: an inconsistent result on every apply.
		"two in one": {testAccOrganizationConfig(allowlistLine("10.0.0.0/8 192.168.0.0/16")), wrapped("It holds 2 networks: write each as its own element")},
	} {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				Steps:                    []resource.TestStep{{Config: e.config(tc.config), ExpectError: tc.want}},
			})
		})
	}
	// Another organization is not this provider's to import.
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config:        e.config(testAccOrganizationConfig()),
			ResourceName:  addr,
			ImportState:   true,
			ImportStateId: "someone-else",
			ExpectError:   wrapped(`"someone-else" does not name organization ` + e.org),
		}},
	})
}

// TestAccOrganizationResource_notAdministrator: a token whose user is not an administrator cannot read or
// change the settings; the error says what it needs.
func TestAccOrganizationResource_notAdministrator(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("seeds a member's token in the emulator")
	}
	member := e.server.Store().AddUser(e.org, "Member", "member@example.com", false)
	if err := e.server.Store().AddTokenForUser("member-token", member, []string{e.org}, fakeserver.AllScopes()); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = \"member-token\"\n}\n", e.url, e.org) +
		testAccOrganizationConfig(`restrict_user_api_token_creation = true`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: wrapped("The token's user must be an administrator"),
		}},
	})
	if _, _, restrict := e.server.Store().APISettings(e.org); restrict {
		t.Error("a member's token changed the settings")
	}
}

// TestAccOrganizationResource_daysUnknownAtPlan: an interval and an enforce_2fa known only at apply are
// still applied.
func TestAccOrganizationResource_daysUnknownAtPlan(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.keepAPISettings()
	e.holdSingleton("two-factor")
	e.keep2FA()
	const addr = "buildkite_organization.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAllowlistRemoved,
		Steps: []resource.TestStep{{
			Config: e.config(`
resource "terraform_data" "days" {
  input = 180
}

resource "terraform_data" "enforce" {
  input = true
}
` + testAccOrganizationConfig(`revoke_inactive_tokens_after_days = terraform_data.days.output`, `enforce_2fa = terraform_data.enforce.output`)),
			Check: resource.ComposeAggregateTestCheckFunc(
				e.checkAPISettings("", 180, false),
				resource.TestCheckResourceAttr(addr, "revoke_inactive_tokens_after", "DAYS_180"),
				resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"),
				e.check2FAState(addr), // and so the service enforces it
			),
			ConfigPlanChecks: expectEmpty(),
		}},
	})
}

// TestAccOrganizationResource_allowlistSetOutside: an allowlist set in the web interface, under a
// buildkite_organization that does not configure one, is read (the first apply records it, no inconsistent
// result), never written (no plan removes it, a change outside plans nothing) and left by destroy.
func TestAccOrganizationResource_allowlistSetOutside(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("sets the allowlist behind the API's back through the emulator's store")
	}
	e.server.Store().SetAPISettings(e.org, "192.0.2.0/24", 0, false)
	e.server.SetCallerAddress("192.0.2.7")
	const addr = "buildkite_organization.test"
	cfg := e.config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy: func(*terraform.State) error {
			// Destroy leaves what the configuration did not manage; restrict stays too (never undone).
			if ips, _, _ := e.server.Store().APISettings(e.org); ips != "192.0.2.0/24 198.51.100.0/24" {
				return fmt.Errorf("destroy changed the allowlist it did not manage: now %q", ips)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("192.0.2.0/24", 0, true),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.#", "1"),
					resource.TestCheckResourceAttr(addr, "allowed_api_ip_addresses.0", "192.0.2.0/24"),
				),
				ConfigPlanChecks: expectEmpty(),
			},
			{
				// Changed outside again: read, and nothing planned.
				PreConfig:        func() { e.server.Store().SetAPISettings(e.org, "192.0.2.0/24 198.51.100.0/24", 0, true) },
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					e.checkAPISettings("192.0.2.0/24 198.51.100.0/24", 0, true),
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("locks the caller out through the emulator's store")
	}
	e.server.Store().SetAPISettings(e.org, "192.0.2.0/24", 0, false)
	e.server.SetCallerAddress("192.0.2.7")
	name := e.name("locked")
	cfg := e.config(testAccOrganizationConfig(`allowed_api_ip_addresses = ["192.0.2.0/24"]`) +
		fmt.Sprintf("resource \"buildkite_cluster\" \"test\" {\n  name = %q\n}\n", name))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: expectEmpty()},
			{
				PreConfig:   func() { e.server.SetCallerAddress("203.0.113.9") },
				Config:      cfg,
				ExpectError: wrapped("API IP allowlist"),
			},
			{
				// Allowed again: both are still in state, and nothing is planned.
				PreConfig:        func() { e.server.SetCallerAddress("192.0.2.7") },
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	e.keepAPISettings()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkAllowlistRemoved,
		Steps: []resource.TestStep{{
			PreConfig: e.aim(fakeserver.AimedFault{Operation: "setOrganization2FA", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
			Config:    e.config(testAccOrganizationConfig(`enforce_2fa = true`)),
			Check: resource.ComposeTestCheckFunc(e.checkFaultsMet(fakeserver.FaultErrorsWithData, 1),
				resource.TestCheckResourceAttr("buildkite_organization.test", "enforce_2fa", "true")),
			ConfigPlanChecks: expectEmpty(),
		}},
	})
}

// The rows of buildkite_organization in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_organization", typeTests{
	// Organization settings, the banner and pipeline webhooks (issue 25).
	identity: &identityCase{
		resourceType: "buildkite_organization", attrs: []string{"slug"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			e.keepAPISettings()
			return identityConfigs{
				create:    testAccOrganizationConfig(allowlistLine("0.0.0.0/0")),
				update:    testAccOrganizationConfig(allowlistLine("0.0.0.0/0", "192.0.2.0/24")),
				destroyed: e.checkAllowlistRemoved,
			}
		},
	},
	migration: []migrationCase{
		// Organization settings and the banner (issue 25).
		{name: "organization", add: (*officialWorkspace).addOrganization, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_organization.settings", map[string]any{"enforce_2fa": true, "revoke_inactive_tokens_after": "DAYS_90"})
			// enforce_2fa is applied and read through GraphQL now: no warning.
			expectQuietPlan(t, w)
		}},
		{name: "organization_v1_38", add: (*officialWorkspace).addOrganizationV138, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_organization.settings", map[string]any{"allowed_api_ip_addresses": nil, "enforce_2fa": false,
				"revoke_inactive_tokens_after": "NEVER", "restrict_user_api_token_creation": false})
		}},
	},
	exempt: map[string]string{
		tableSweeper: "The organization's settings are a singleton the tests hold and put back (singleton_kit_test.go): there is nothing to remove.",
	},
})

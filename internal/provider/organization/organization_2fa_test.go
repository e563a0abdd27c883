package organization_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// check2FA fails unless the service enforces 2FA as want says.
func check2FA(e *acctest.TestEnv, want bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := e.Client.Organizations.TwoFactorEnforced(context.Background())
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("the service enforces 2FA: %t, want %t", got, want)
		}
		return nil
	}
}

// set2FAOutside changes the enforcement as someone in the web interface would.
func set2FAOutside(e *acctest.TestEnv, enforce bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := e.Client.Organizations.SetTwoFactorEnforced(context.Background(), enforce)
		return err
	}
}

// TestAccOrganizationResource_enforce2FA: enforce_2fa is applied through GraphQL and read back; a change
// made outside shows as drift and is put back; left out, it is kept and never written; destroy leaves it.
func TestAccOrganizationResource_enforce2FA(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepAPISettings()
	e.HoldSingleton("two-factor")
	e.Keep2FA()
	const addr = "buildkite_organization.test"
	on := e.Config(testAccOrganizationConfig(`enforce_2fa = true`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		// Destroy leaves the enforcement as it was (the official provider's "Enforce 2FA setting left intact").
		CheckDestroy: resource.ComposeTestCheckFunc(e.CheckAllowlistRemoved, check2FA(e, true)),
		Steps: []resource.TestStep{
			{
				Config:           on,
				Check:            resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"), check2FA(e, true)),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				// Turned off in the web interface: the refresh sees it, and the apply turns it on again.
				Config: on, Check: set2FAOutside(e, false), ExpectNonEmptyPlan: true,
			},
			{
				Config:           on,
				ConfigPlanChecks: acctest.InPlace(addr),
				Check:            check2FA(e, true),
			},
			{
				// Left out: kept in state as it was, nothing sent.
				Config:           e.Config(testAccOrganizationConfig()),
				Check:            check2FA(e, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:           e.Config(testAccOrganizationConfig(`enforce_2fa = false`)),
				Check:            resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(addr, "enforce_2fa", "false"), check2FA(e, false)),
				ConfigPlanChecks: acctest.InPlace(addr),
			},
			{Config: on, Check: check2FA(e, true), ConfigPlanChecks: acctest.InPlace(addr)},
		},
	})
}

// TestAccOrganizationResource_2FANeedsGraphQLOnlyWhenSet: an organization whose configuration leaves
// enforce_2fa out needs neither graphql_url nor the graphql scope, and sends nothing to GraphQL; one that
// sets it fails at plan, naming the attribute and what to fix.
func TestAccOrganizationResource_2FANeedsGraphQLOnlyWhenSet(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("needs provider blocks and tokens the emulator issues")
	}
	e.KeepAPISettings()
	e.Server.Store().AddToken("rest-only-token", []string{e.Org}, []string{"read_organizations", "read_organization_settings", "write_organization_settings"})
	noGraphQL := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = %q\n  max_retries = 1\n}\n", e.URL, e.Org, e.Token)
	noScope := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  graphql_url = %q\n  organization = %q\n  api_token = \"rest-only-token\"\n  max_retries = 1\n}\n", e.URL, e.GraphQLURL, e.Org)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: []resource.TestStep{
			{
				// GraphQL cannot be reached: enforce_2fa is null, neither read nor written.
				Config:           noScope + testAccOrganizationConfig(`restrict_user_api_token_creation = true`),
				Check:            resource.TestCheckNoResourceAttr("buildkite_organization.test", "enforce_2fa"),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{Config: noGraphQL + testAccOrganizationConfig(`restrict_user_api_token_creation = true`), PlanOnly: true},
			{
				Config:      noScope + testAccOrganizationConfig(`enforce_2fa = true`),
				ExpectError: acctest.RegexpMust(`Missing API Token Scope[\s\S]*buildkite_organization.enforce_2fa[\s\S]*"graphql"`),
			},
			{
				Config:      noGraphQL + testAccOrganizationConfig(`enforce_2fa = true`),
				ExpectError: acctest.RegexpMust(`GraphQL URL Not Set[\s\S]*buildkite_organization.enforce_2fa`),
			},
		},
	})
	for _, r := range e.Server.Requests() {
		if strings.HasPrefix(r.Path, "/v1") {
			t.Errorf("a workspace that does not set enforce_2fa sent %s %s", r.Method, r.Path)
		}
	}
}

// preset2FA is a PreConfig that changes the enforcement outside Terraform, failing the test if it cannot.
func preset2FA(e *acctest.TestEnv, enforce bool) func() {
	return func() {
		if err := set2FAOutside(e, enforce)(nil); err != nil {
			e.T.Fatalf("setting 2FA enforcement to %t outside Terraform: %v", enforce, err)
		}
	}
}

// TestAccOrganizationResource_2FALeftOutIsRead: an organization created without enforce_2fa holds the
// service's value where GraphQL can be reached, as an import of it does (the official provider's tests
// import-verify such an organization), and follows the service on refresh; leaving it out never writes it,
// so 2FA turned on in the web interface stays on.
func TestAccOrganizationResource_2FALeftOutIsRead(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	e.KeepAPISettings()
	e.HoldSingleton("two-factor")
	e.Keep2FA()
	const addr = "buildkite_organization.test"
	cfg := e.Config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(e.CheckAllowlistRemoved, check2FA(e, true)),
		Steps: []resource.TestStep{
			{
				PreConfig:        preset2FA(e, true),
				Config:           cfg,
				Check:            resource.ComposeAggregateTestCheckFunc(resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"), check2FA(e, true)),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			// Create and import agree, with nothing ignored.
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				// Turned off and on again outside: each refresh reads it, and nothing is planned or written.
				PreConfig:        preset2FA(e, false),
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeAggregateTestCheckFunc(resource.TestCheckResourceAttr(addr, "enforce_2fa", "false"), check2FA(e, false)),
			},
			{
				PreConfig:        preset2FA(e, true),
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeAggregateTestCheckFunc(resource.TestCheckResourceAttr(addr, "enforce_2fa", "true"), check2FA(e, true)),
			},
		},
	})
}

// refuse2FARead answers the enforce_2fa query 403 while refuse is set, as a token whose user may not see the
// organization's security settings would get.
func refuse2FARead(refuse *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if refuse.Load() && r.Method == http.MethodPost && r.URL.Path == "/v1" {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				if bytes.Contains(body, []byte("getOrganization2FA")) {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusForbidden)
					_, _ = w.Write([]byte(`{"errors":[{"message":"Forbidden"}]}`))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// TestAccOrganizationResource_2FAReadFailsAtCreate: a create that leaves enforce_2fa out and cannot read it
// still records the settings it applied (a warning says enforce_2fa is unread, the state holds null); a
// refresh that cannot read it either warns and plans nothing, and the first that can reads it.
func TestAccOrganizationResource_2FAReadFailsAtCreate(t *testing.T) {
	t.Parallel()
	var refuse atomic.Bool
	refuse.Store(true)
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, refuse2FARead(&refuse))
	e.KeepAPISettings()
	const addr = "buildkite_organization.test"
	cfg := e.Config(testAccOrganizationConfig(`restrict_user_api_token_creation = true`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckAllowlistRemoved,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckNoResourceAttr(addr, "enforce_2fa"),
					resource.TestCheckResourceAttr(addr, "restrict_user_api_token_creation", "true"),
					func(*terraform.State) error {
						if _, _, restrict := e.Server.Store().APISettings(e.Org); !restrict {
							return fmt.Errorf("the token restriction was not applied")
						}
						return nil
					},
				),
			},
			{
				// Still unreadable: the refresh warns, and nothing is planned.
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckNoResourceAttr(addr, "enforce_2fa"),
					func(*terraform.State) error { refuse.Store(false); return nil },
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.TestCheckResourceAttr(addr, "enforce_2fa", "false"),
			},
		},
	})
}

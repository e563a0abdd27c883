package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkSuitePolicy asks the service for the suite's OIDC policy ("" for none).
func (e *testEnv) checkSuitePolicy(want string) resource.TestCheckFunc {
	const addr = "buildkite_test_suite.test"
	return func(s *terraform.State) error {
		su, err := e.client.TestSuites.Get(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"])
		if err != nil {
			return err
		}
		if got := kit.Deref(su.OIDCPolicy); got != want {
			return fmt.Errorf("the service holds oidc_policy %q, want %q", got, want)
		}
		return nil
	}
}

// TestAccTestSuiteResource_oidcPolicy sends oidc_policy on create and update, reads it back (a change made
// outside Terraform is drift), imports it, keeps it when left out, and clears it with "" as the official
// provider does: the service answers null and state keeps "".
func TestAccTestSuiteResource_oidcPolicy(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	owner := e.team("owners")
	name := e.name("oidc")
	const addr = "buildkite_test_suite.test"
	const first = "- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"
	const second = "- iss: https://agent.buildkite.com\n  claims:\n    pipeline_slug: app\n"
	policy := func(p string) string {
		return e.config(testAccTestSuiteConfig(name, owner, fmt.Sprintf("  oidc_policy = %q", p)))
	}
	is := func(v string) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.StringExact(v))}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_test_suite"),
		Steps: []resource.TestStep{
			{Config: policy(first), Check: e.checkSuitePolicy(first), ConfigStateChecks: is(first), ConfigPlanChecks: expectEmpty()},
			{Config: policy(second), Check: e.checkSuitePolicy(second), ConfigStateChecks: is(second), ConfigPlanChecks: inPlace(addr)},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(addr, "slug"),
				ImportStateVerifyIgnore: []string{"api_token", "team_owner_id"}},
			{
				// A policy changed outside Terraform is drift.
				Config: policy(second), ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.client.TestSuites.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
						buildkite.TestSuiteUpdate{OIDCPolicy: ptrTo(first)})
					return err
				},
			},
			{Config: policy(second), Check: e.checkSuitePolicy(second), ConfigPlanChecks: inPlace(addr)},
			{
				// Left out, the policy is kept (Optional+Computed, as the official provider has it).
				Config: e.config(testAccTestSuiteConfig(name, owner, "")), ConfigPlanChecks: expectEmpty(),
				Check: e.checkSuitePolicy(second), ConfigStateChecks: is(second),
			},
			{Config: policy(""), Check: e.checkSuitePolicy(""), ConfigStateChecks: is(""), ConfigPlanChecks: inPlace(addr)},
		},
	})
}

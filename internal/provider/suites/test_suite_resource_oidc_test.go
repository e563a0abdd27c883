package suites_test

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkSuitePolicy asks the service for the suite's OIDC policy ("" for none).
func checkSuitePolicy(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	const addr = "buildkite_test_suite.test"
	return func(s *terraform.State) error {
		su, err := e.Client.TestSuites.Get(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"])
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
	e := acctest.NewTestEnv(t)
	owner := e.Team("owners")
	name := e.Name("oidc")
	const addr = "buildkite_test_suite.test"
	const first = "- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"
	const second = "- iss: https://agent.buildkite.com\n  claims:\n    pipeline_slug: app\n"
	policy := func(p string) string {
		return e.Config(acctest.TestSuiteConfig(name, owner, fmt.Sprintf("  oidc_policy = %q", p)))
	}
	is := func(v string) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("oidc_policy"), knownvalue.StringExact(v))}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_test_suite"),
		Steps: []resource.TestStep{
			{Config: policy(first), Check: checkSuitePolicy(e, first), ConfigStateChecks: is(first), ConfigPlanChecks: acctest.ExpectEmpty()},
			{Config: policy(second), Check: checkSuitePolicy(e, second), ConfigStateChecks: is(second), ConfigPlanChecks: acctest.InPlace(addr)},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID(addr, "slug"),
				ImportStateVerifyIgnore: []string{"api_token", "team_owner_id"}},
			{
				// A policy changed outside Terraform is drift.
				Config: policy(second), ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.Client.TestSuites.Update(context.Background(), s.RootModule().Resources[addr].Primary.Attributes["slug"],
						buildkite.TestSuiteUpdate{OIDCPolicy: acctest.PtrTo(first)})
					return err
				},
			},
			{Config: policy(second), Check: checkSuitePolicy(e, second), ConfigPlanChecks: acctest.InPlace(addr)},
			{
				// Left out, the policy is kept (Optional+Computed, as the official provider has it).
				Config: e.Config(acctest.TestSuiteConfig(name, owner, "")), ConfigPlanChecks: acctest.ExpectEmpty(),
				Check: checkSuitePolicy(e, second), ConfigStateChecks: is(second),
			},
			{Config: policy(""), Check: checkSuitePolicy(e, ""), ConfigStateChecks: is(""), ConfigPlanChecks: acctest.InPlace(addr)},
		},
	})
}

package organization_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestAccMetaDataSource reads the webhook addresses the emulator's fixtures declare, sorted.
func TestAccMetaDataSource(t *testing.T) {
	t.Parallel()
	f, err := fakeserver.ParseFixtures([]byte(`
organizations: [{slug: acme}]
users: [{name: A, email: a@example.com, memberships: [{org: acme, admin: true}]}]
access_tokens: [{token: test-token, user: a@example.com, scopes: all}]
webhook_ips: [203.0.113.0/24, 192.0.2.10/32]
`), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{Fixtures: f})
	const addr = "data.buildkite_meta.this"
	ips := []knownvalue.Check{knownvalue.StringExact("192.0.2.10/32"), knownvalue.StringExact("203.0.113.0/24")}
	if e.Live {
		ips = nil
	}
	checks := []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(acctest.RegexpMust(`/v2/meta$`)))}
	if ips != nil {
		checks = append(checks, statecheck.ExpectKnownValue(addr, tfjsonpath.New("webhook_ips"), knownvalue.ListExact(ips)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config:            e.Config(`data "buildkite_meta" "this" {}`),
			ConfigStateChecks: checks,
		}},
	})
}

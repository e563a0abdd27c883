package organization_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestAccOrganizationMembershipListResource_queryInvitationsFail: when the invitations' listing fails, a query
// of every membership fails naming it, rather than finding the members alone as if there were no pending
// invitations; a query of the active memberships only does not list invitations, and finds the members.
func TestAccOrganizationMembershipListResource_queryInvitationsFail(t *testing.T) {
	acctest.RequireCLI(t, acctest.QueryCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the faults are the emulator's")
	}
	s := e.SeedMemberships(t, e.Name("query"))
	fault := e.Aim(fakeserver.AimedFault{Route: "GET /v2/organizations/{org}/invitations", Kind: fakeserver.FaultServerError})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Query: true, PreConfig: fault,
				Config:      e.QueryConfig("buildkite_organization_membership", "all", ""),
				ExpectError: regexp.MustCompile(`Unable to List Organization Invitations`),
			},
			{
				Query: true, PreConfig: fault,
				Config:            e.QueryConfig("buildkite_organization_membership", "active", `    state = "active"`),
				QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLength("buildkite_organization_membership.active", s.Members)},
			},
		},
	})
}

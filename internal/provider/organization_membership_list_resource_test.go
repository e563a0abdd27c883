package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// TestAccOrganizationMembershipListResource_queryInvitationsFail: when the invitations' listing fails, a query
// of every membership fails naming it, rather than finding the members alone as if there were no pending
// invitations; a query of the active memberships only does not list invitations, and finds the members.
func TestAccOrganizationMembershipListResource_queryInvitationsFail(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("the faults are the emulator's")
	}
	s := e.seedMemberships(t, e.name("query"))
	fault := e.aim(fakeserver.AimedFault{Route: "GET /v2/organizations/{org}/invitations", Kind: fakeserver.FaultServerError})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Query: true, PreConfig: fault,
				Config:      e.queryConfig("buildkite_organization_membership", "all", ""),
				ExpectError: regexp.MustCompile(`Unable to List Organization Invitations`),
			},
			{
				Query: true, PreConfig: fault,
				Config:            e.queryConfig("buildkite_organization_membership", "active", `    state = "active"`),
				QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLength("buildkite_organization_membership.active", s.members)},
			},
		},
	})
}

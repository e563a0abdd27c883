package organization_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// TestAccOrganizationMembershipDataSource: a member found by e-mail address (in another case), by user UUID
// and by the user's GraphQL ID, each with the values an import of the membership reads; a pending invitation
// found by e-mail address; and the refusals of what matches nothing, of both or neither lookup, and of an
// ID of another type.
func TestAccOrganizationMembershipDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	s := e.SeedMemberships(t, e.Name("membership"))
	member := func(addr string) []statecheck.StateCheck {
		value := func(attr string, v knownvalue.Check) statecheck.StateCheck {
			return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), v)
		}
		return []statecheck.StateCheck{
			value("id", knownvalue.StringExact(s.Admin.ID)),
			value("uuid", knownvalue.StringExact(s.Admin.ID)),
			value("user_id", knownvalue.StringExact(kit.GraphQLID("User", s.Admin.ID))),
			value("email", knownvalue.StringExact(s.Admin.Email)),
			value("state", knownvalue.StringExact("active")),
			value("role", knownvalue.StringExact("ADMIN")),
			value("sso_mode", knownvalue.StringExact(strings.ToUpper(*s.Admin.SSOMode))),
			value("invitation_id", knownvalue.Null()),
		}
	}
	invited := "data.buildkite_organization_membership.invited"
	checks := append(append(append(member("data.buildkite_organization_membership.by_email"),
		member("data.buildkite_organization_membership.by_uuid")...),
		member("data.buildkite_organization_membership.by_graphql_id")...),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("id"), knownvalue.StringExact(s.Invitation.ID)),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("invitation_id"), knownvalue.StringExact(s.Invitation.ID)),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("uuid"), knownvalue.Null()),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("user_id"), knownvalue.Null()),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("state"), knownvalue.StringExact("pending")),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("role"), knownvalue.StringExact("MEMBER")),
		statecheck.ExpectKnownValue(invited, tfjsonpath.New("sso_mode"), knownvalue.StringExact("REQUIRED")),
	)
	refused := func(body, message string) resource.TestStep {
		return resource.TestStep{
			Config:      e.Config(`data "buildkite_organization_membership" "x" {` + body + `}`),
			ExpectError: regexp.MustCompile(message),
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			refused(`email = "nobody@example.com"`, `No Organization Membership Found[\s\S]*nobody@example.com`),
			refused(`uuid = "`+acctest.UnknownUUID+`"`, `No Organization Membership Found[\s\S]*`+acctest.UnknownUUID),
			refused(``, `Exactly one of these attributes must be configured`),
			refused(fmt.Sprintf(`
  uuid  = %q
  email = %q
`, s.Admin.ID, s.Admin.Email), `Exactly one of these attributes must be configured`),
			refused(`uuid = "`+kit.GraphQLID("Team", s.Admin.ID)+`"`, `Invalid Reference`),
			{
				Config: e.Config(fmt.Sprintf(`
data "buildkite_organization_membership" "by_email" {
  email = %q
}
data "buildkite_organization_membership" "by_uuid" {
  uuid = %q
}
data "buildkite_organization_membership" "by_graphql_id" {
  uuid = %q
}
data "buildkite_organization_membership" "invited" {
  email = %q
}
`, strings.ToUpper(s.Admin.Email), s.Admin.ID, kit.GraphQLID("User", s.Admin.ID), strings.ToUpper(s.Invitation.Email))),
				ConfigStateChecks: checks,
			},
		},
	})
}

package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const membershipAddr = "buildkite_organization_membership.test"

func testAccMembershipConfig(body string) string {
	return fmt.Sprintf(`
resource "buildkite_organization_membership" "test" {
%s
}
`, body)
}

// inviteeEmail is an address that is no member, named with the tests' prefix.
func (e *testEnv) inviteeEmail() string {
	return strings.ToLower(e.name("invitee")) + "@example.com"
}

// checkMember fails unless the member with email has role (lower case) on the service.
func (e *testEnv) checkMember(email, role string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		m, err := e.client.Organizations.FindMemberByEmail(context.Background(), email)
		if err != nil {
			return err
		}
		if m == nil || m.Role != role {
			return fmt.Errorf("member %s: %+v, want role %s", email, m, role)
		}
		return nil
	}
}

// acceptInvitation accepts, through the emulator's test-only route, the invitation the membership tracks.
func (e *testEnv) acceptInvitation() resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[membershipAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", membershipAddr)
		}
		resp, err := http.Post(e.url+"/_fake/organizations/"+e.org+"/invitations/"+rs.Primary.Attributes["invitation_id"]+"/accept", "application/json", nil)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("accepting the invitation: %d", resp.StatusCode)
		}
		return nil
	}
}

// TestAccOrganizationMembershipResource_adopt: an existing member is adopted, its role changed, imported by
// its UUID, and downgraded rather than removed on destroy.
func TestAccOrganizationMembershipResource_adopt(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live && os.Getenv(envMemberEmail) == "" {
		t.Skip("live mode: needs " + envMemberEmail + ", a member other than the token's user (whose own membership cannot be changed)")
	}
	email := e.secondMemberEmail()
	cfg := func(role string) string {
		return e.config(testAccMembershipConfig(fmt.Sprintf(`  email                = %q
  role                 = %q
  sso_mode             = "OPTIONAL"
  downgrade_on_destroy = true`, strings.ToUpper(email), role)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkMember(email, "member"),
		Steps: steps(
			step(resource.TestStep{
				Config: cfg("MEMBER"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "active"),
					resource.TestCheckResourceAttrPair(membershipAddr, "id", membershipAddr, "uuid"),
					resource.TestCheckNoResourceAttr(membershipAddr, "invitation_id"),
					resource.TestCheckResourceAttrSet(membershipAddr, "user_id"),
				),
				ConfigPlanChecks: expectEmpty(),
			}),
			step(resource.TestStep{
				Config:           cfg("admin"),
				Check:            e.checkMember(email, "admin"),
				ConfigPlanChecks: inPlace(membershipAddr),
			}),
			step(resource.TestStep{ResourceName: membershipAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"downgrade_on_destroy", "email", "role"}}),
		),
	})
}

// TestAccOrganizationMembershipResource_invite: an absent address is invited, tracked while pending (and
// imported so), becomes active once the invitation is accepted, and is removed on destroy.
func TestAccOrganizationMembershipResource_invite(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the invitation is accepted through the emulator's test-only route")
	}
	email := e.inviteeEmail()
	cfg := e.config(testAccMembershipConfig(fmt.Sprintf(`  email           = %q
  role            = "member"
  sso_mode        = "required"
  send_invitation = true`, email)))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy: func(*terraform.State) error {
			m, err := e.client.Organizations.FindMemberByEmail(context.Background(), email)
			if err != nil {
				return err
			}
			if m != nil {
				return fmt.Errorf("after destroy: member %+v is still there", m)
			}
			return nil
		},
		Steps: steps(
			step(resource.TestStep{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "pending"),
					resource.TestCheckResourceAttrPair(membershipAddr, "id", membershipAddr, "invitation_id"),
					resource.TestCheckNoResourceAttr(membershipAddr, "uuid"),
				),
				ConfigPlanChecks: expectEmpty(),
			}),
			importSteps(membershipAddr, func(s *terraform.State) (string, error) {
				id, err := importID(membershipAddr, "invitation_id")(s)
				return "invitation/" + id, err
			}, "send_invitation", "role", "sso_mode"),
			step(resource.TestStep{
				// Role changed while pending: the invitation is replaced, the id stays.
				Config: strings.Replace(cfg, `role            = "member"`, `role            = "admin"`, 1),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "pending"),
					e.acceptInvitation(),
				),
			}),
			step(resource.TestStep{
				Config: strings.Replace(cfg, `role            = "member"`, `role            = "admin"`, 1),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "active"),
					resource.TestCheckResourceAttrSet(membershipAddr, "uuid"),
					e.checkMember(email, "admin"),
				),
			}),
			step(resource.TestStep{
				Config:           strings.Replace(cfg, `role            = "member"`, `role            = "admin"`, 1),
				ConfigPlanChecks: expectEmpty(),
			}),
		),
	})
}

// TestAccOrganizationMembershipResource_disappears: an invitation revoked outside Terraform is planned again.
func TestAccOrganizationMembershipResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: sends invitations")
	}
	cfg := e.config(testAccMembershipConfig(fmt.Sprintf(`  email           = %q
  role            = "member"
  sso_mode        = "required"
  send_invitation = true`, e.inviteeEmail())))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					id, err := importID(membershipAddr, "invitation_id")(s)
					if err != nil {
						return err
					}
					return e.client.Invitations.Revoke(context.Background(), id)
				},
				ExpectNonEmptyPlan: true,
			},
			{Config: cfg, Check: resource.TestCheckResourceAttr(membershipAddr, "state", "pending")},
		},
	})
}

func TestAccOrganizationMembershipResource_refusals(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cfg := func(body string) string { return e.config(testAccMembershipConfig(body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: cfg(`  role = "member"
  sso_mode = "required"`), ExpectError: wrapped("At least one of these attributes must be configured")},
			{Config: cfg(`  uuid = "not-a-uuid"
  role = "member"
  sso_mode = "required"`), ExpectError: wrapped("must be a user UUID")},
			{Config: cfg(`  email = "x@example.com"
  role = "owner"
  sso_mode = "required"`), ExpectError: wrapped("role")},
			{Config: cfg(fmt.Sprintf(`  email = %q
  role = "member"
  sso_mode = "required"`, e.inviteeEmail())), ExpectError: wrapped("organization member not found; provision the user first")},
			{
				Config:        cfg(`  email = "x@example.com"` + "\n  role = \"member\"\n  sso_mode = \"required\""),
				ResourceName:  membershipAddr,
				ImportState:   true,
				ImportStateId: "someone",
				ExpectError:   wrapped("Invalid membership import ID"),
			},
		},
	})
}

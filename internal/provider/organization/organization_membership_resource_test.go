package organization_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
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
func inviteeEmail(e *acctest.TestEnv) string {
	return strings.ToLower(e.Name("invitee")) + "@example.com"
}

// checkMember fails unless the member with email has role (lower case) on the service.
func checkMember(e *acctest.TestEnv, email, role string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		m, err := e.Client.Organizations.FindMemberByEmail(context.Background(), email)
		if err != nil {
			return err
		}
		if m == nil || m.Role != role {
			return fmt.Errorf("member %s: %+v, want role %s", email, m, role)
		}
		return nil
	}
}

// checkNoMember fails unless no member has email.
func checkNoMember(e *acctest.TestEnv, email string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		m, err := e.Client.Organizations.FindMemberByEmail(context.Background(), email)
		if err != nil {
			return err
		}
		if m != nil {
			return fmt.Errorf("after destroy: member %+v is still there", m)
		}
		return nil
	}
}

// acceptInvitation accepts, through the emulator's test-only route, the invitation the membership tracks.
func acceptInvitation(e *acctest.TestEnv) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[membershipAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", membershipAddr)
		}
		resp, err := http.Post(e.URL+"/_fake/organizations/"+e.Org+"/invitations/"+rs.Primary.Attributes["invitation_id"]+"/accept", "application/json", nil)
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
	e := acctest.NewTestEnv(t)
	if e.Live && os.Getenv(acctest.EnvMemberEmail) == "" {
		t.Skip("live mode: needs " + acctest.EnvMemberEmail + ", a member other than the token's user (whose own membership cannot be changed)")
	}
	email := e.SecondMemberEmail()
	cfg := func(role string) string {
		return e.Config(testAccMembershipConfig(fmt.Sprintf(`  email                = %q
  role                 = %q
  sso_mode             = "OPTIONAL"
  downgrade_on_destroy = true`, strings.ToUpper(email), role)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             checkMember(e, email, "member"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: cfg("MEMBER"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "active"),
					resource.TestCheckResourceAttrPair(membershipAddr, "id", membershipAddr, "uuid"),
					resource.TestCheckNoResourceAttr(membershipAddr, "invitation_id"),
					resource.TestCheckResourceAttrSet(membershipAddr, "user_id"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.Step(resource.TestStep{
				Config:           cfg("admin"),
				Check:            checkMember(e, email, "admin"),
				ConfigPlanChecks: acctest.InPlace(membershipAddr),
			}),
			// An import records the role found then (ADMIN), not the one found at the adoption (MEMBER).
			acctest.Step(resource.TestStep{ResourceName: membershipAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"downgrade_on_destroy", "email", "role", "role_before_adoption"}}),
		),
	})
}

// TestAccOrganizationMembershipResource_invite: an absent address is invited, tracked while pending (and
// imported so), becomes active once the invitation is accepted, and is removed on destroy.
func TestAccOrganizationMembershipResource_invite(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the invitation is accepted through the emulator's test-only route")
	}
	email := inviteeEmail(e)
	cfg := e.Config(testAccMembershipConfig(fmt.Sprintf(`  email           = %q
  role            = "member"
  sso_mode        = "required"
  send_invitation = true`, email)))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             checkNoMember(e, email),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "pending"),
					resource.TestCheckResourceAttrPair(membershipAddr, "id", membershipAddr, "invitation_id"),
					resource.TestCheckNoResourceAttr(membershipAddr, "uuid"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(membershipAddr, func(s *terraform.State) (string, error) {
				id, err := acctest.ImportID(membershipAddr, "invitation_id")(s)
				return "invitation/" + id, err
			}, "send_invitation", "role", "sso_mode", "role_before_adoption"), // an import counts as adopted
			acctest.Step(resource.TestStep{
				// Role changed while pending: the invitation is replaced, the id stays.
				Config: strings.Replace(cfg, `role            = "member"`, `role            = "admin"`, 1),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "pending"),
					acceptInvitation(e),
				),
			}),
			acctest.Step(resource.TestStep{
				Config: strings.Replace(cfg, `role            = "member"`, `role            = "admin"`, 1),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "state", "active"),
					resource.TestCheckResourceAttrSet(membershipAddr, "uuid"),
					checkMember(e, email, "admin"),
				),
			}),
			acctest.Step(resource.TestStep{
				Config:           strings.Replace(cfg, `role            = "member"`, `role            = "admin"`, 1),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
		),
	})
}

// TestAccOrganizationMembershipResource_disappears: an invitation revoked outside Terraform is planned again.
func TestAccOrganizationMembershipResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: sends invitations")
	}
	cfg := e.Config(testAccMembershipConfig(fmt.Sprintf(`  email           = %q
  role            = "member"
  sso_mode        = "required"
  send_invitation = true`, inviteeEmail(e))))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					id, err := acctest.ImportID(membershipAddr, "invitation_id")(s)
					if err != nil {
						return err
					}
					return e.Client.Invitations.Revoke(context.Background(), id)
				},
				ExpectNonEmptyPlan: true,
			},
			{Config: cfg, Check: resource.TestCheckResourceAttr(membershipAddr, "state", "pending")},
		},
	})
}

func TestAccOrganizationMembershipResource_refusals(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := func(body string) string { return e.Config(testAccMembershipConfig(body)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(`  role = "member"
  sso_mode = "required"`), ExpectError: acctest.Wrapped("At least one of these attributes must be configured")},
			{Config: cfg(`  uuid = "not-a-uuid"
  role = "member"
  sso_mode = "required"`), ExpectError: acctest.Wrapped("must be a user UUID")},
			{Config: cfg(`  email = "x@example.com"
  role = "owner"
  sso_mode = "required"`), ExpectError: acctest.Wrapped("role")},
			{Config: cfg(fmt.Sprintf(`  email = %q
  role = "member"
  sso_mode = "required"`, inviteeEmail(e))), ExpectError: acctest.Wrapped("organization member not found; provision the user first")},
			{
				Config:        cfg(`  email = "x@example.com"` + "\n  role = \"member\"\n  sso_mode = \"required\""),
				ResourceName:  membershipAddr,
				ImportState:   true,
				ImportStateId: "someone",
				ExpectError:   acctest.Wrapped("Invalid membership import ID"),
			},
		},
	})
}

// warningRecorder keeps the warnings the provider's plans and applies return (a destroy's are an apply's),
// which terraform-plugin-testing shows nowhere a check can read; beforeApply, when set, runs before the
// next apply, after its plan.
type warningRecorder struct {
	mu          sync.Mutex
	plan, apply []string
	beforeApply func()
}

// factories serves the provider of e through r.
func (r *warningRecorder) factories(e *acctest.TestEnv) map[string]func() (tfprotov6.ProviderServer, error) {
	inner := e.Factories()["buildkite"]
	return map[string]func() (tfprotov6.ProviderServer, error){
		"buildkite": func() (tfprotov6.ProviderServer, error) {
			s, err := inner()
			return recordingServer{ProviderServer: s, r: r}, err
		},
	}
}

func (r *warningRecorder) record(to *[]string, diags []*tfprotov6.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			*to = append(*to, d.Summary+": "+d.Detail)
		}
	}
}

// expect fails unless one of the warnings recorded (of plans, or of applies) holds every one of wants.
func (r *warningRecorder) expect(ofApply bool, wants ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		got := r.plan
		if ofApply {
			got = r.apply
		}
	warnings:
		for _, w := range got {
			for _, want := range wants {
				if !strings.Contains(w, want) {
					continue warnings
				}
			}
			return nil
		}
		return fmt.Errorf("no warning says all of %q; the warnings: %q", wants, got)
	}
}

type recordingServer struct {
	tfprotov6.ProviderServer
	r *warningRecorder
}

func (s recordingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.r.record(&s.r.plan, resp.Diagnostics)
	}
	return resp, err
}

func (s recordingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.r.mu.Lock()
	before := s.r.beforeApply
	s.r.beforeApply = nil
	s.r.mu.Unlock()
	if before != nil {
		before()
	}
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		s.r.record(&s.r.apply, resp.Diagnostics)
	}
	return resp, err
}

// seedAdministrator adds an administrator of the organization, other than the token's user, and returns
// their e-mail.
func seedAdministrator(e *acctest.TestEnv) string {
	email := strings.ToLower(e.Name("admin")) + "@example.com"
	e.Server.Store().AddUser(e.Org, "Existing Admin", email, true)
	return email
}

// TestAccOrganizationMembershipResource_adoptAdministrator: an existing administrator configured as a member
// (a mistyped e-mail is enough) is adopted in the open: the plan warns, naming the role, and shows
// role_before_adoption ADMIN beside role "member"; destroy gives the role back and keeps the person.
func TestAccOrganizationMembershipResource_adoptAdministrator(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: seeds an administrator in the emulator")
	}
	email := seedAdministrator(e)
	rec := &warningRecorder{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.factories(e),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkMember(e, email, "admin"),
			rec.expect(true, "Organization Member Kept", email, "with role ADMIN again (it was MEMBER)", "remove_adopted_on_destroy"),
		),
		Steps: []resource.TestStep{{
			Config: e.Config(testAccMembershipConfig(fmt.Sprintf(`  email    = %q
  role     = "member"
  sso_mode = "optional"`, email))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(membershipAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(membershipAddr, tfjsonpath.New("role_before_adoption"), knownvalue.StringExact("ADMIN")),
					plancheck.ExpectKnownValue(membershipAddr, tfjsonpath.New("role"), knownvalue.StringExact("member")),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				rec.expect(false, "Adopting Existing Organization Member", email, "with role ADMIN", "changes their role from ADMIN to MEMBER"),
				checkMember(e, email, "member"),
				resource.TestCheckResourceAttr(membershipAddr, "role_before_adoption", "ADMIN"),
				resource.TestCheckNoResourceAttr(membershipAddr, "invitation_id"),
			),
		}},
	})
}

// TestAccOrganizationMembershipResource_removeAdopted: remove_adopted_on_destroy asks destroy to remove an
// adopted member, as it removes one the configuration invited, also when another e-mail replaces it.
func TestAccOrganizationMembershipResource_removeAdopted(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: seeds an administrator in the emulator")
	}
	email, second := seedAdministrator(e), e.SecondMemberEmail()
	cfg := func(email string) string {
		return e.Config(testAccMembershipConfig(fmt.Sprintf(`  email                     = %q
  role                      = "admin"
  sso_mode                  = "optional"
  remove_adopted_on_destroy = true`, email)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             resource.ComposeAggregateTestCheckFunc(checkNoMember(e, email), checkNoMember(e, second)),
		Steps: []resource.TestStep{
			{
				Config: cfg(email),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(membershipAddr, "role_before_adoption", "ADMIN"),
					checkMember(e, email, "admin"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				// Another e-mail replaces the membership: the administrator is removed, and the replacement's
				// plan names the role it finds for the second member.
				Config: cfg(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(membershipAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectKnownValue(membershipAddr, tfjsonpath.New("role_before_adoption"), knownvalue.StringExact("MEMBER")),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkNoMember(e, email),
					checkMember(e, second, "admin"),
					resource.TestCheckResourceAttr(membershipAddr, "role_before_adoption", "MEMBER"),
				),
			},
		},
	})
}

// TestAccOrganizationMembershipResource_revokeInvited: a membership the configuration invited is still
// revoked on destroy, with nothing recorded as adopted.
func TestAccOrganizationMembershipResource_revokeInvited(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: sends invitations")
	}
	var invitation string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy: func(*terraform.State) error {
			inv, err := e.Client.Invitations.Get(context.Background(), invitation)
			if err != nil {
				return err
			}
			if inv.State != "revoked" {
				return fmt.Errorf("after destroy: invitation %s is %s, want revoked", inv.ID, inv.State)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: e.Config(testAccMembershipConfig(fmt.Sprintf(`  email           = %q
  role            = "member"
  sso_mode        = "required"
  send_invitation = true`, inviteeEmail(e)))),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(membershipAddr, tfjsonpath.New("role_before_adoption"), knownvalue.Null()),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckNoResourceAttr(membershipAddr, "role_before_adoption"),
				func(s *terraform.State) (err error) {
					invitation, err = acctest.ImportID(membershipAddr, "invitation_id")(s)
					return err
				},
			),
		}},
	})
}

// TestAccOrganizationMembershipResource_memberSincePlan: an address that became a member between the plan
// (which planned an invitation) and the apply is not adopted unannounced: the apply fails and changes nothing.
func TestAccOrganizationMembershipResource_memberSincePlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: seeds an administrator in the emulator between plan and apply")
	}
	email := inviteeEmail(e)
	rec := &warningRecorder{beforeApply: func() { e.Server.Store().AddUser(e.Org, "Joined Meanwhile", email, true) }}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.factories(e),
		CheckDestroy:             checkMember(e, email, "admin"),
		Steps: []resource.TestStep{{
			Config: e.Config(testAccMembershipConfig(fmt.Sprintf(`  email           = %q
  role            = "member"
  sso_mode        = "required"
  send_invitation = true`, email))),
			ExpectError: acctest.RegexpMust(`Organization Membership Changed Since Plan[\s\S]*no\s+member\s+and\s+no\s+pending\s+invitation[\s\S]*role\s+ADMIN[\s\S]*Nothing\s+has\s+been\s+changed`),
		}},
	})
}

// TestAccOrganizationMembershipResource_stateWithoutAdoptionRecord: a state written before the role before
// adoption was recorded (by the official provider's proposal, or an earlier version of this provider) plans
// no change; its active member without an invitation counts as adopted, so destroy keeps them with the role
// they have, and says why.
func TestAccOrganizationMembershipResource_stateWithoutAdoptionRecord(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: seeds an administrator in the emulator")
	}
	email := seedAdministrator(e)
	m, err := e.Client.Organizations.FindMemberByEmail(t.Context(), email)
	if err != nil || m == nil || m.SSOMode == nil {
		t.Fatalf("seeded administrator %s: %+v, %v", email, m, err)
	}
	sso := strings.ToUpper(*m.SSOMode)
	state, err := json.Marshal(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "5c2e1d2b-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
		"outputs": map[string]any{}, "check_results": nil,
		"resources": []any{map[string]any{
			"mode": "managed", "type": "buildkite_organization_membership", "name": "test",
			"provider": `provider["` + acctest.OfficialProviderAddress + `"]`,
			"instances": []any{map[string]any{"schema_version": 0, "sensitive_attributes": []any{}, "attributes": map[string]any{
				"id": m.ID, "email": email, "uuid": m.ID, "user_id": kit.GraphQLID("User", m.ID), "invitation_id": nil,
				"state": "active", "role": "ADMIN", "sso_mode": sso, "send_invitation": false, "downgrade_on_destroy": false,
			}}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := e.Migrate(t, e.OfficialProviderBlock()+testAccMembershipConfig(fmt.Sprintf(`  email    = %q
  role     = "ADMIN"
  sso_mode = %q`, email, sso)), state)
	out := w.MustRun("destroy", "-no-color", "-input=false", "-auto-approve")
	acctest.ExpectOutput(t, out, "Organization Member Kept", email+" stays a member of the organization with role ADMIN",
		"does not record the role they had before")
	if err := checkMember(e, email, "admin")(nil); err != nil {
		t.Errorf("after destroy: %v", err)
	}
}

// TestAccOrganizationMembershipResource_adoptUnknownAtPlan: an e-mail known only at apply cannot be looked up
// at plan (role_before_adoption is unknown there); Terraform plans the create again during the apply, once the
// e-mail is known, and that plan says what it adopts.
func TestAccOrganizationMembershipResource_adoptUnknownAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: seeds an administrator in the emulator")
	}
	email := seedAdministrator(e)
	rec := &warningRecorder{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.factories(e),
		CheckDestroy:             checkMember(e, email, "admin"),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf(`
resource "terraform_data" "email" {
  input = %q
}
`, email) + testAccMembershipConfig(`  email    = terraform_data.email.output
  role     = "member"
  sso_mode = "optional"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(membershipAddr, tfjsonpath.New("role_before_adoption")),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				rec.expect(false, "Adopting Existing Organization Member", email, "changes their role from ADMIN to MEMBER"),
				resource.TestCheckResourceAttr(membershipAddr, "role_before_adoption", "ADMIN"),
			),
		}},
	})
}

// The rows of buildkite_organization_membership in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_organization_membership", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// An adopted member, named by its user UUID.
		ResourceType: "buildkite_organization_membership", Attrs: []string{"id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			if e.Live {
				t.Skip("live mode: changes and removes a member")
			}
			body := func(role string) string {
				return testAccMembershipConfig(fmt.Sprintf("  email = %q\n  role = %q\n  sso_mode = \"OPTIONAL\"", e.SecondMemberEmail(), role))
			}
			return acctest.IdentityConfigs{
				Create:    body("MEMBER"),
				Update:    body("ADMIN"),
				Destroyed: func(*terraform.State) error { return nil },
			}
		},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_organization_membership", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedMemberships(t, base)
		return acctest.QueryRow{
			Blocks: []string{
				"buildkite_organization_membership", "admins", `    role = "Admin"`,
				"buildkite_organization_membership", "pending", `    state = "pending"`,
				"buildkite_organization_membership", "one", fmt.Sprintf("    email = %q\n    state = \"active\"", strings.ToUpper(s.Admin.Email)),
			},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_organization_membership.all", s.Members+s.Pending),
				querycheck.ExpectLength("buildkite_organization_membership.admins", s.Admins),
				querycheck.ExpectLength("buildkite_organization_membership.pending", s.Pending),
				querycheck.ExpectIdentity("buildkite_organization_membership.pending", acctest.IdentityOf("id", s.Invitation.ID)),
				querycheck.ExpectLength("buildkite_organization_membership.one", 1),
				querycheck.ExpectIdentity("buildkite_organization_membership.one", acctest.IdentityOf("id", s.Admin.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_organization_membership.all", acctest.ByIdentity("id", s.Invitation.ID),
					knownvalue.StringExact(s.Invitation.Email+" (invited)")),
				querycheck.ExpectResourceDisplayName("buildkite_organization_membership.all", acctest.ByIdentity("id", s.Admin.ID),
					knownvalue.StringExact(s.Admin.Email)),
				querycheck.ExpectResourceKnownValues("buildkite_organization_membership.all", acctest.ByIdentity("id", s.Admin.ID), []querycheck.KnownValueCheck{
					acctest.Known("uuid", knownvalue.StringExact(s.Admin.ID)),
					acctest.Known("user_id", knownvalue.StringExact(kit.GraphQLID("User", s.Admin.ID))),
					acctest.Known("email", knownvalue.StringExact(s.Admin.Email)),
					acctest.Known("state", knownvalue.StringExact("active")),
					acctest.Known("role", knownvalue.StringExact("ADMIN")),
					acctest.Known("sso_mode", knownvalue.StringExact("OPTIONAL")),
					acctest.Known("invitation_id", knownvalue.Null()),
					// Found as an import finds it: adopted, so destroy would leave the member as found.
					acctest.Known("role_before_adoption", knownvalue.StringExact("ADMIN")),
					acctest.Known("send_invitation", knownvalue.Bool(false)),
				}),
				querycheck.ExpectResourceKnownValues("buildkite_organization_membership.all", acctest.ByIdentity("id", s.Invitation.ID), []querycheck.KnownValueCheck{
					acctest.Known("invitation_id", knownvalue.StringExact(s.Invitation.ID)),
					acctest.Known("uuid", knownvalue.Null()),
					acctest.Known("state", knownvalue.StringExact("pending")),
					acctest.Known("role", knownvalue.StringExact("MEMBER")),
					acctest.Known("sso_mode", knownvalue.StringExact("REQUIRED")),
					acctest.Known("role_before_adoption", knownvalue.StringExact("MEMBER")),
				}),
			},
			Refused: []acctest.QueryRefusal{{Body: `    role = "owner"`, Message: regexp.MustCompile(`role[\s\S]*admin`)}},
			Imports: s.Members + s.Pending,
		}
	}},
	Exempt: map[string]string{
		acctest.TableSweeper: "A membership is a person's, found by e-mail and not by the tests' prefix: no sweeper may remove one on a guess.",
	},
})

package organization

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// organizationMembershipIdentity names a membership by its id: the user's UUID, or the tracked invitation's.
var organizationMembershipIdentity = kit.IdentifiedBy(kit.IdentityAttr("id",
	"The member's user UUID, or the UUID of the invitation the membership was created with."))

// NewOrganizationMembershipResource returns the buildkite_organization_membership resource.
func NewOrganizationMembershipResource() resource.Resource {
	return kit.NewObject(organizationMembershipKind)
}

// organizationMembershipKind declares buildkite_organization_membership: a user's membership of the
// organization, an existing member adopted, or an absent one invited (send_invitation) and tracked while the
// invitation is pending. No one key addresses it: it is found from its state (lookupMembership), by the
// user's UUID, the invitation tracked or the e-mail. Members are found by e-mail by paging /members (REST
// has no e-mail filter; the official provider asks GraphQL `members(email:)`), and refreshed through the
// members' listing, never one request per member. An adoption is never silent: the plan looks the member up
// and names the role found (role_before_adoption), the create refuses what the plan did not announce, and
// destroying an adopted membership gives that role back and leaves the person a member.
var organizationMembershipKind = &kit.ObjectKind[membershipFound, organizationMembershipModel]{
	Name:       "organization_membership",
	What:       "organization membership",
	Scopes:     kit.WriteScopes("write_organizations", "read_organization_invitations", "write_organization_invitations"),
	Identity:   organizationMembershipIdentity,
	Schema:     organizationMembershipSchema,
	Key:        kit.AttrID,
	Validators: []resource.ConfigValidator{resourcevalidator.AtLeastOneOf(path.MatchRoot("email"), path.MatchRoot("uuid"))},
	FromAPI: func(m *organizationMembershipModel, _ string, f *membershipFound) {
		if f.member != nil {
			m.fromMember(f.member)
			return
		}
		m.fromInvitation(f.invitation)
	},
	Create:     createMembership,
	Update:     updateMembership,
	Lookup:     readMembership,
	PlanWith:   planMembership,
	RemoveFrom: removeMembership,
	Import:     importMembership,
}

// The roles and SSO modes, in the REST API's spelling.
var (
	membershipRoles    = []string{"member", "admin"}
	membershipSSOModes = []string{"required", "optional"}
)

// The states of a membership.
const (
	membershipPending = "pending"
	membershipActive  = "active"
)

type organizationMembershipModel struct {
	ID                 types.String  `tfsdk:"id"`
	Email              types.String  `tfsdk:"email"`
	UUID               types.String  `tfsdk:"uuid"`
	UserID             types.String  `tfsdk:"user_id"`
	InvitationID       types.String  `tfsdk:"invitation_id"`
	State              types.String  `tfsdk:"state"`
	Role               kit.EnumValue `tfsdk:"role"`
	SSOMode            kit.EnumValue `tfsdk:"sso_mode"`
	SendInvitation     types.Bool    `tfsdk:"send_invitation"`
	DowngradeOnDestroy types.Bool    `tfsdk:"downgrade_on_destroy"`
	RoleBeforeAdoption types.String  `tfsdk:"role_before_adoption"`
	RemoveAdopted      types.Bool    `tfsdk:"remove_adopted_on_destroy"`
}

// adopted reports whether this configuration took the membership over rather than inviting the person: a
// role before adoption is recorded (at create or import), or, in a state written before it was recorded
// (by the official provider or an earlier version of this one), no invitation is tracked.
func (m *organizationMembershipModel) adopted() bool {
	return kit.IsKnownValue(m.RoleBeforeAdoption) || !kit.IsKnownValue(m.InvitationID)
}

// fromMember records an active member; the invitation it came from (if any) stays tracked.
func (m *organizationMembershipModel) fromMember(mem *buildkite.Member) {
	if !kit.IsKnownValue(m.ID) {
		m.ID = types.StringValue(mem.ID)
	}
	if !kit.IsKnownValue(m.Email) || !strings.EqualFold(m.Email.ValueString(), mem.Email) {
		m.Email = types.StringValue(mem.Email)
	}
	m.UUID = types.StringValue(mem.ID)
	m.UserID = types.StringValue(kit.GraphQLID("User", mem.ID))
	if m.InvitationID.IsUnknown() {
		m.InvitationID = types.StringNull()
	}
	m.State = types.StringValue(membershipActive)
	m.Role = keepEnum(m.Role, mem.Role)
	m.SSOMode = keepEnum(m.SSOMode, kit.Deref(mem.SSOMode))
}

// fromInvitation records a pending invitation.
func (m *organizationMembershipModel) fromInvitation(inv *buildkite.Invitation) {
	if !kit.IsKnownValue(m.ID) {
		m.ID = types.StringValue(inv.ID)
	}
	if !kit.IsKnownValue(m.Email) || !strings.EqualFold(m.Email.ValueString(), inv.Email) {
		m.Email = types.StringValue(inv.Email)
	}
	if m.UUID.IsUnknown() {
		m.UUID = types.StringNull()
	}
	m.UserID = types.StringNull()
	m.InvitationID = types.StringValue(inv.ID)
	m.State = types.StringValue(membershipPending)
	m.Role = keepEnum(m.Role, inv.Role)
	m.SSOMode = keepEnum(m.SSOMode, inv.SSOMode)
}

// keepEnum is the service's value, in the prior spelling while it means the same.
func keepEnum(prior kit.EnumValue, s string) kit.EnumValue {
	if kit.IsKnownValue(prior) && strings.EqualFold(prior.ValueString(), s) {
		return prior
	}
	return kit.NewEnumValue(s)
}

func (m *organizationMembershipModel) ident() string {
	if e := m.Email.ValueString(); e != "" {
		return e
	}
	return m.ID.ValueString()
}

// organizationMembershipSchema is the schema of buildkite_organization_membership.
func organizationMembershipSchema() schema.Schema {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	return schema.Schema{
		MarkdownDescription: "A user's membership of the organization, with its role and SSO mode. An existing member " +
			"(found by `uuid`, or by `email` in the members' listing) or pending invitation is adopted; an absent one " +
			"is invited when `send_invitation` is true, and the membership stays `pending` until the invitation is " +
			"accepted.\n\nAn adoption is never silent. The plan looks the member up: a plan that adopts someone says so " +
			"in a warning naming their current role, and plans `role_before_adoption` as that role, so that a role the " +
			"apply would change (an administrator configured with `role = \"member\"`, say through a mistyped e-mail) " +
			"shows in the plan as `role` beside a different `role_before_adoption`. A create plan shows every attribute " +
			"as added, so the role found is an attribute of its own rather than an old value of `role`.\n\n" +
			"Destroying a membership this configuration invited revokes a pending invitation, then removes the member, " +
			"or only makes it a `member` with `downgrade_on_destroy`. Destroying an adopted membership (and an " +
			"imported one counts as adopted) leaves the person a member, with the role in `role_before_adoption` given " +
			"back if the configuration changed it, and says so in a warning; `remove_adopted_on_destroy` asks for it to " +
			"be removed as an invited one is. The token's user must be an administrator, with `read_organizations`, " +
			"`write_organizations`, `read_organization_invitations` and `write_organization_invitations`; your own " +
			"membership cannot be changed. Import by the user's UUID or `invitation/<invitation uuid>`.",
		Attributes: map[string]schema.Attribute{
			"id": kit.ComputedString("The member's user UUID, or the UUID of the invitation the membership was created " +
				"with; it never changes, not even when the invitation is accepted."),
			"email": schema.StringAttribute{
				MarkdownDescription: "The member's e-mail address. Changing it (other than in case) replaces the membership.",
				Optional:            true, Computed: true,
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), emailChangeReplaces{}},
			},
			"uuid": schema.StringAttribute{
				MarkdownDescription: "The member's user UUID; known once the user is a member.",
				Optional:            true, Computed: true,
				Validators: []validator.String{stringvalidator.RegexMatches(kit.UuidPattern, "must be a user UUID")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(),
					stringplanmodifier.UseNonNullStateForUnknown()},
			},
			"user_id":       computed("The user's GraphQL ID (for `buildkite_team_member`); null until the user is a member."),
			"invitation_id": computed("The UUID of the invitation tracked, or null for a member adopted as it was."),
			"state":         computed("`pending` while the invitation waits, `active` once the user is a member."),
			"role": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "The member's role.", Required: true,
			}, membershipRoles...),
			"sso_mode": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "Whether the member must sign in with SSO.", Required: true,
			}, membershipSSOModes...),
			"send_invitation": schema.BoolAttribute{
				MarkdownDescription: "Whether to invite the address when it is not a member (or to replace a pending " +
					"invitation whose role or SSO mode changed). Default `false`.",
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"downgrade_on_destroy": schema.BoolAttribute{
				MarkdownDescription: "On destroy, make the member a `member` instead of removing it. Default `false`. " +
					"An adopted membership is not removed on destroy unless `remove_adopted_on_destroy` is true.",
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"role_before_adoption": computed("The role (`MEMBER` or `ADMIN`) the person had when this configuration adopted " +
				"their membership or pending invitation, at create or import; null for a membership it invited. Planned " +
				"at create from a lookup, so the plan shows it beside `role`; destroy gives it back. Null in a state " +
				"written before it was recorded: such a membership counts as adopted when no invitation is tracked, and " +
				"destroy leaves its role as it is."),
			"remove_adopted_on_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether destroy removes an adopted membership as it removes one this configuration " +
					"invited: revokes its pending invitation, then removes the member (or makes it a `member` with " +
					"`downgrade_on_destroy`). Unset or false, destroying an adopted membership leaves the person a member " +
					"with their `role_before_adoption`. Set it and apply before destroying.",
				Optional: true,
			},
		},
	}
}

// emailChangeReplaces replaces the membership when a configured e-mail changes other than in case.
type emailChangeReplaces struct{}

func (emailChangeReplaces) Description(context.Context) string {
	return "A configured e-mail that changes other than in case replaces the membership."
}

func (m emailChangeReplaces) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (emailChangeReplaces) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || !kit.IsKnownValue(req.ConfigValue) || req.StateValue.IsNull() {
		return
	}
	if strings.EqualFold(req.ConfigValue.ValueString(), req.StateValue.ValueString()) {
		resp.PlanValue = req.StateValue
		return
	}
	resp.RequiresReplace = true
}

// membershipFound is what a lookup found: a member, a pending invitation, or neither.
type membershipFound struct {
	member     *buildkite.Member
	invitation *buildkite.Invitation
}

// lookupMembership finds the membership in the official order: a known UUID's member; else the tracked
// invitation (and, once accepted, its member); else the member with the e-mail, then a pending invitation to
// it. refresh, in a Read, finds a member by UUID through the members' listing.
func lookupMembership(ctx context.Context, c *buildkite.Client, m *organizationMembershipModel, refresh bool) (membershipFound, error) {
	orgs, inv := c.Organizations, c.Invitations
	tracked := kit.IsKnownValue(m.InvitationID)
	if kit.IsKnownValue(m.UUID) {
		get := orgs.GetMember
		if refresh {
			get = orgs.ReadMember
		}
		mem, err := get(ctx, kit.RestID(m.UUID))
		switch {
		case err == nil:
			return membershipFound{member: mem}, nil
		case !buildkite.IsNotFound(err):
			return membershipFound{}, err
		case !tracked:
			return membershipFound{}, nil
		}
	}
	if tracked {
		i, err := inv.Get(ctx, m.InvitationID.ValueString())
		if err != nil && !buildkite.IsNotFound(err) {
			return membershipFound{}, err
		}
		if i != nil && i.AcceptedBy != nil && i.AcceptedBy.ID != "" {
			mem, err := orgs.GetMember(ctx, i.AcceptedBy.ID)
			if err == nil || !buildkite.IsNotFound(err) {
				return membershipFound{member: mem}, err
			}
			return membershipFound{}, nil
		}
		if i != nil && i.State == membershipPending {
			return membershipFound{invitation: i}, nil
		}
		if i != nil && !kit.IsKnownValue(m.Email) {
			m.Email = types.StringValue(i.Email)
		}
	}
	if !kit.IsKnownValue(m.Email) {
		return membershipFound{}, nil
	}
	mem, err := orgs.FindMemberByEmail(ctx, m.Email.ValueString())
	if err != nil || mem != nil {
		return membershipFound{member: mem}, err
	}
	pending, err := inv.ListPending(ctx)
	if err != nil {
		return membershipFound{}, err
	}
	for i := range pending {
		if strings.EqualFold(pending[i].Email, m.Email.ValueString()) {
			return membershipFound{invitation: &pending[i]}, nil
		}
	}
	return membershipFound{}, nil
}

// roleFound is the role of what a lookup found, in upper case, as role_before_adoption holds it: null when
// neither a member nor a pending invitation was found (a create then invites).
func (f membershipFound) roleFound() types.String {
	switch {
	case f.member != nil:
		return types.StringValue(strings.ToUpper(f.member.Role))
	case f.invitation != nil:
		return types.StringValue(strings.ToUpper(f.invitation.Role))
	}
	return types.StringNull()
}

// describe says what a lookup found, for the errors and warnings of an adoption.
func (f membershipFound) describe() string {
	switch {
	case f.member != nil:
		return fmt.Sprintf("member %s (%s) with role %s", f.member.Email, f.member.ID, strings.ToUpper(f.member.Role))
	case f.invitation != nil:
		return fmt.Sprintf("pending invitation %s to %s with role %s", f.invitation.ID, f.invitation.Email, strings.ToUpper(f.invitation.Role))
	}
	return "no member and no pending invitation"
}

// adoptionNotice is the warning of a create that takes over an existing member or pending invitation
// instead of inviting someone: who it is, their role now, what the apply changes, and what destroy will do.
func adoptionNotice(plan *organizationMembershipModel, f membershipFound) (summary, detail string) {
	role, sso := strings.ToUpper(plan.Role.API()), strings.ToUpper(plan.SSOMode.API())
	if f.member != nil {
		was := strings.ToUpper(f.member.Role)
		var changes []string
		if !kit.IsKnownValue(plan.Role) || !kit.IsKnownValue(plan.SSOMode) {
			changes = append(changes, "sets the role and SSO mode configured, once they are known")
		} else {
			if was != role {
				changes = append(changes, fmt.Sprintf("changes their role from %s to %s", was, role))
			}
			if f.member.SSOMode != nil && strings.ToUpper(*f.member.SSOMode) != sso {
				changes = append(changes, fmt.Sprintf("changes their SSO mode from %s to %s", strings.ToUpper(*f.member.SSOMode), sso))
			}
		}
		if len(changes) == 0 {
			changes = append(changes, "leaves their role and SSO mode as they are")
		}
		return "Adopting Existing Organization Member", fmt.Sprintf(
			"%s is already a member of the organization (%s), with role %s. Applying takes over this membership "+
				"rather than inviting anyone, and %s. Destroying the resource later leaves them a member with role %s "+
				"(remove_adopted_on_destroy = true removes them instead). If this is not the person you meant, correct "+
				"the e-mail or UUID before applying.",
			f.member.Email, f.member.ID, was, strings.Join(changes, ", and "), was)
	}
	changes := "keeps it as it is"
	if f.invitation.Role != plan.Role.API() || f.invitation.SSOMode != plan.SSOMode.API() {
		changes = fmt.Sprintf("replaces it with an invitation with role %s and SSO mode %s", role, sso)
	}
	return "Adopting Existing Organization Invitation", fmt.Sprintf(
		"A pending invitation to %s (%s) already exists, with role %s. Applying takes it over rather than sending "+
			"another, and %s. Destroying the resource later leaves the invitation pending (remove_adopted_on_destroy = "+
			"true revokes it instead).", f.invitation.Email, f.invitation.ID, strings.ToUpper(f.invitation.Role), changes)
}

// planMembership looks the membership up, for a create, as the apply will: a create that adopts an existing
// member or pending invitation says so in a warning, and plans role_before_adoption as the role found, so
// that a role the apply changes shows beside role. An update keeps the recorded role. (The kind has checked
// the token's scopes before.)
func planMembership(ctx context.Context, b *kit.ResourceBase, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	var config, plan, state organizationMembershipModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	switch {
	case req.State.Raw.IsNull():
		plan.RoleBeforeAdoption = planMembershipAdoption(ctx, b, &config, &plan, &resp.Diagnostics)
	case replacedBy(&config, &state):
		// Terraform plans the replacement's create again, without the prior state: the lookup is made there.
		plan.RoleBeforeAdoption = types.StringUnknown()
	default:
		plan.RoleBeforeAdoption = state.RoleBeforeAdoption
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// replacedBy reports whether config replaces the membership in state, as the e-mail's and the UUID's plan
// modifiers decide.
func replacedBy(config, state *organizationMembershipModel) bool {
	if kit.IsKnownValue(config.Email) && kit.IsKnownValue(state.Email) && !strings.EqualFold(config.Email.ValueString(), state.Email.ValueString()) {
		return true
	}
	return kit.IsKnownValue(config.UUID) && !config.UUID.Equal(state.UUID)
}

// planMembershipAdoption is role_before_adoption for a create: the role of the member or pending invitation the
// create would adopt, null when it would invite, unknown while the e-mail or UUID is not known yet (Terraform
// plans the create again during the apply, once they are known, and that plan looks it up; where it could not,
// Create warns).
func planMembershipAdoption(ctx context.Context, b *kit.ResourceBase, config, plan *organizationMembershipModel,
	diags *diag.Diagnostics) types.String {
	if b.Data == nil || b.Data.Client == nil || config.Email.IsUnknown() || config.UUID.IsUnknown() {
		return types.StringUnknown()
	}
	probe := organizationMembershipModel{Email: config.Email, UUID: config.UUID, InvitationID: types.StringNull()}
	ctx, cancel := b.Timeout(ctx, kit.OpRead)
	defer cancel()
	f, err := lookupMembership(ctx, b.Client(), &probe, false)
	if err != nil {
		diags.AddError("Unable to Look Up Organization Membership", fmt.Sprintf(
			"Looking up %s, to plan whether the apply adopts an existing member: %s. Nothing has been changed; plan "+
				"again once the lookup succeeds.", probe.ident(), kit.DescribeError(err)))
		return types.StringUnknown()
	}
	if f.member != nil || f.invitation != nil {
		diags.AddWarning(adoptionNotice(plan, f))
	}
	return f.roleFound()
}

// createMembership adopts what the plan announced (the member or pending invitation it found) or, where it
// found neither, invites. Anything else found now is changed only after another plan says so; a failed
// create records nothing.
func createMembership(ctx context.Context, c *buildkite.Client, _ string, plan *organizationMembershipModel) (*membershipFound, error) {
	var diags diag.Diagnostics
	plan.ID = types.StringNull()
	plan.InvitationID = types.StringNull()
	f, err := lookupMembership(ctx, c, plan, false)
	if err != nil {
		kit.AddAPIError(&diags, "create", "organization membership", plan.ident(), err)
		return nil, kit.AsReported(diags)
	}
	found, planned := f.roleFound(), plan.RoleBeforeAdoption
	switch {
	case !planned.IsUnknown() && !planned.Equal(found):
		was := "no member and no pending invitation"
		if !planned.IsNull() {
			was = "a member or pending invitation with role " + planned.ValueString()
		}
		diags.AddError("Organization Membership Changed Since Plan", fmt.Sprintf(
			"The plan found %s for %s, and the service now shows %s. Nothing has been changed: plan again to see "+
				"what the create adopts.", was, plan.ident(), f.describe()))
		return nil, kit.AsReported(diags)
	case planned.IsUnknown() && !found.IsNull():
		diags.AddWarning(adoptionNotice(plan, f))
	}
	plan.RoleBeforeAdoption = found
	got := applyMembership(ctx, c, plan, f, true, &diags)
	if diags.HasError() {
		return nil, kit.AsReported(diags)
	}
	return got, kit.AsReported(diags)
}

// updateMembership makes the membership what plan says; a failed update keeps the prior state.
func updateMembership(ctx context.Context, c *buildkite.Client, _, _ string, plan, _ *organizationMembershipModel) (*membershipFound, error) {
	var diags diag.Diagnostics
	f, err := lookupMembership(ctx, c, plan, false)
	if err != nil {
		kit.AddAPIError(&diags, "update", "organization membership", plan.ident(), err)
		return nil, kit.AsReported(diags)
	}
	got := applyMembership(ctx, c, plan, f, false, &diags)
	if diags.HasError() {
		return nil, kit.AsReported(diags)
	}
	return got, kit.AsReported(diags)
}

// applyMembership makes what a lookup found what plan says, and returns what the service then holds (nil with an
// error). first is true on create, where a configured e-mail must match an adopted member's.
func applyMembership(ctx context.Context, c *buildkite.Client, plan *organizationMembershipModel, f membershipFound,
	first bool, diags *diag.Diagnostics) *membershipFound {
	switch {
	case f.member != nil:
		return applyMember(ctx, c, plan, f.member, first, diags)
	case f.invitation != nil:
		return applyInvitation(ctx, c, plan, f.invitation, diags)
	default:
		return inviteMember(ctx, c, plan, diags)
	}
}

// applyMember adopts a member and changes what differs of its role and SSO mode.
func applyMember(ctx context.Context, c *buildkite.Client, plan *organizationMembershipModel, mem *buildkite.Member,
	first bool, diags *diag.Diagnostics) *membershipFound {
	if first && kit.IsKnownValue(plan.Email) && !strings.EqualFold(plan.Email.ValueString(), mem.Email) {
		diags.AddError("Unable to Create Organization Membership", fmt.Sprintf(
			"email and user UUID do not identify the same organization member: %s is %s, not %s.",
			mem.ID, mem.Email, plan.Email.ValueString()))
		return nil
	}
	if mem.SSOMode == nil {
		diags.AddError("Unable to Read Organization Member", fmt.Sprintf(
			"The service does not show the SSO mode of member %s: it shows it only to administrators, so use an "+
				"organization administrator's token.", mem.Email))
		return nil
	}
	var u buildkite.MemberUpdate
	if role := plan.Role.API(); role != mem.Role {
		u.Role = &role
	}
	if sso := plan.SSOMode.API(); sso != *mem.SSOMode {
		u.SSOMode = &sso
	}
	if u.Role != nil || u.SSOMode != nil {
		updated, err := c.Organizations.UpdateMember(ctx, mem.ID, u)
		if err != nil {
			kit.AddAPIError(diags, "update", "organization member", mem.Email, err)
			return nil
		}
		mem = updated
	}
	return &membershipFound{member: mem}
}

// applyInvitation keeps a pending invitation whose role and SSO mode match; otherwise replaces it (which
// needs send_invitation, and an invitation without teams).
func applyInvitation(ctx context.Context, c *buildkite.Client, plan *organizationMembershipModel, inv *buildkite.Invitation,
	diags *diag.Diagnostics) *membershipFound {
	if inv.Role == plan.Role.API() && inv.SSOMode == plan.SSOMode.API() {
		return &membershipFound{invitation: inv}
	}
	if !plan.SendInvitation.ValueBool() || len(inv.Teams) > 0 {
		diags.AddError("Unable to Update Organization Membership", fmt.Sprintf(
			"The pending invitation %s to %s has role %s and SSO mode %s; changing them replaces the invitation, which "+
				"needs send_invitation = true and an invitation that adds no teams.", inv.ID, inv.Email, inv.Role, inv.SSOMode))
		return nil
	}
	if err := c.Invitations.Revoke(ctx, inv.ID); err != nil {
		if buildkite.IsValidation(err) { // accepted meanwhile: the member is updated instead
			if mem, ferr := c.Organizations.FindMemberByEmail(ctx, inv.Email); ferr == nil && mem != nil {
				return applyMember(ctx, c, plan, mem, false, diags)
			}
		}
		kit.AddAPIError(diags, "revoke", "organization invitation", inv.ID, err)
		return nil
	}
	plan.Email = types.StringValue(inv.Email)
	return inviteMember(ctx, c, plan, diags)
}

// inviteMember sends an invitation to an absent member.
func inviteMember(ctx context.Context, c *buildkite.Client, plan *organizationMembershipModel, diags *diag.Diagnostics) *membershipFound {
	switch {
	case !plan.SendInvitation.ValueBool() || !kit.IsKnownValue(plan.Email):
		diags.AddError("Organization Member Not Found", fmt.Sprintf("No member or pending invitation matches %s: "+
			"organization member not found; provision the user first, or supply email and set send_invitation = true.", plan.ident()))
		return nil
	case kit.IsKnownValue(plan.UUID) && !kit.IsKnownValue(plan.InvitationID):
		diags.AddError("Organization Member Not Found", fmt.Sprintf(
			"User %s is not a member of the organization, and an invitation cannot be addressed to a user UUID: "+
				"remove uuid and set email and send_invitation = true.", plan.UUID.ValueString()))
		return nil
	}
	created, err := c.Invitations.Create(ctx, buildkite.InvitationCreate{
		Emails: []string{plan.Email.ValueString()}, Role: plan.Role.API(), SSOMode: plan.SSOMode.API()})
	if err != nil {
		kit.AddAPIError(diags, "create", "organization invitation", plan.Email.ValueString(), err)
		return nil
	}
	if len(created) != 1 {
		diags.AddError("Unable to Create Organization Invitation", fmt.Sprintf(
			"Inviting %s: the service answered %d invitations, not one.", plan.Email.ValueString(), len(created)))
		return nil
	}
	return &membershipFound{invitation: &created[0]}
}

// readMembership finds the membership for a Read: neither a member nor a pending invitation is gone
// (kit.ErrAbsent), once the organization is confirmed to answer.
func readMembership(ctx context.Context, b *kit.ResourceBase, state *organizationMembershipModel) (*membershipFound, error) {
	var diags diag.Diagnostics
	f, err := lookupMembership(ctx, b.Client(), state, true)
	switch {
	case err != nil:
		kit.AddAPIError(&diags, "read", "organization membership", state.ident(), err)
		return nil, kit.AsReported(diags)
	case f.member != nil || f.invitation != nil:
		return &f, nil
	}
	if orgErr := b.Data.ConfirmOrganization(ctx); orgErr != nil {
		diags.AddError("Unable to Read Organization Membership", fmt.Sprintf(
			"No member or pending invitation matches %s, and %s. The resource stays in state.", state.ident(), orgErr))
		return nil, kit.AsReported(diags)
	}
	return nil, kit.ErrAbsent
}

// removeMembership is the delete deleteMembership reports, as the kind's RemoveFrom answers it.
func removeMembership(ctx context.Context, b *kit.ResourceBase, state *organizationMembershipModel) error {
	var diags diag.Diagnostics
	deleteMembership(ctx, b, state, &diags)
	return kit.AsReported(diags)
}

// deleteMembership revokes the tracked pending invitation, then removes the member (or downgrades it); an
// adopted membership it leaves in place, with its role before adoption, unless remove_adopted_on_destroy.
func deleteMembership(ctx context.Context, b *kit.ResourceBase, state *organizationMembershipModel, diags *diag.Diagnostics) {
	c := b.Client()
	if state.adopted() && !state.RemoveAdopted.ValueBool() {
		keepAdopted(ctx, c, state, diags)
		return
	}
	if kit.IsKnownValue(state.InvitationID) && state.State.ValueString() == membershipPending {
		err := c.Invitations.Revoke(ctx, state.InvitationID.ValueString())
		if buildkite.IsValidation(err) {
			if i, gerr := c.Invitations.Get(ctx, state.InvitationID.ValueString()); gerr == nil && i.State == membershipPending {
				diags.AddError("Unable to Delete Organization Membership", fmt.Sprintf(
					"Invitation %s to %s: invitation is still pending but the API refused to revoke it (%s).",
					i.ID, i.Email, kit.DescribeError(err)))
				return
			}
			err = nil
		}
		if b.DeleteFailed(ctx, diags, err, "organization invitation", state.ident()); diags.HasError() {
			return
		}
	}
	f, err := lookupMembership(ctx, c, state, false)
	if err != nil {
		kit.AddAPIError(diags, "delete", "organization membership", state.ident(), err)
		return
	}
	if f.member == nil {
		return
	}
	if state.DowngradeOnDestroy.ValueBool() {
		if f.member.Role == "member" {
			return
		}
		member := "member"
		_, err = c.Organizations.UpdateMember(ctx, f.member.ID, buildkite.MemberUpdate{Role: &member})
		b.DeleteFailed(ctx, diags, err, "organization membership", state.ident())
		return
	}
	b.DeleteFailed(ctx, diags, c.Organizations.RemoveMember(ctx, f.member.ID), "organization membership", state.ident())
}

// keepAdopted is the destroy of an adopted membership: the person stays a member (or invited), with the
// role they had before the adoption given back where the configuration changed it.
func keepAdopted(ctx context.Context, c *buildkite.Client, state *organizationMembershipModel, diags *diag.Diagnostics) {
	f, err := lookupMembership(ctx, c, state, false)
	if err != nil {
		kit.AddAPIError(diags, "delete", "organization membership", state.ident(), err)
		return
	}
	const howToRemove = " Destroying an adopted membership only stops Terraform managing it; to remove it, set " +
		"remove_adopted_on_destroy = true and apply before destroying."
	prior := state.RoleBeforeAdoption
	switch {
	case f.member != nil:
		now := strings.ToUpper(f.member.Role)
		var kept string
		switch {
		case !kit.IsKnownValue(prior):
			kept = fmt.Sprintf("with role %s: the state does not record the role they had before this configuration "+
				"adopted them (it was written by the official provider or an earlier version of this one), so the role "+
				"is left as it is", now)
		case strings.EqualFold(prior.ValueString(), now):
			kept = fmt.Sprintf("with role %s, the role they had when this configuration adopted them", now)
		default:
			role := strings.ToLower(prior.ValueString())
			if _, err := c.Organizations.UpdateMember(ctx, f.member.ID, buildkite.MemberUpdate{Role: &role}); err != nil {
				diags.AddError("Unable to Restore Organization Member Role", fmt.Sprintf(
					"Giving member %s back role %s, the role they had when this configuration adopted them: %s. They "+
						"are still a member, with role %s; the membership stays in state, so destroy again to retry.",
					f.member.Email, prior.ValueString(), kit.DescribeError(err), now))
				return
			}
			kept = fmt.Sprintf("with role %s again (it was %s), the role they had when this configuration adopted them",
				prior.ValueString(), now)
		}
		diags.AddWarning("Organization Member Kept", fmt.Sprintf("%s stays a member of the organization %s.%s",
			f.member.Email, kept, howToRemove))
	case f.invitation != nil:
		diags.AddWarning("Organization Invitation Kept", fmt.Sprintf(
			"The pending invitation %s to %s stays pending: this configuration adopted it rather than sending it.%s",
			f.invitation.ID, f.invitation.Email, howToRemove))
	}
}

// importMembership takes a user's UUID, or "invitation/<invitation uuid>". An import takes over what exists,
// so it counts as an adoption: the role found is recorded as role_before_adoption, and destroy gives it back.
func importMembership(ctx context.Context, b *kit.ResourceBase, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	if req.ID == "" && req.Identity != nil {
		var v types.String
		resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &v)...)
		id = v.ValueString()
	}
	c := b.Client()
	set := func(attrs map[string]any) {
		for k, v := range attrs {
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(k), v)...)
		}
	}
	setInvitation := func(inv *buildkite.Invitation) {
		set(map[string]any{"id": inv.ID, "invitation_id": inv.ID, "email": inv.Email,
			"send_invitation": false, "downgrade_on_destroy": false, "role_before_adoption": strings.ToUpper(inv.Role)})
	}
	if rest, ok := strings.CutPrefix(id, "invitation/"); ok && kit.IsUUID(rest) {
		inv, err := c.Invitations.Get(ctx, rest)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "import", "organization invitation", rest, err)
			return
		}
		setInvitation(inv)
		return
	}
	if canonical := kit.CanonicalID(id); kit.IsUUID(canonical) {
		// A user's UUID; an identity may also hold the UUID of the invitation the membership was made with.
		mem, err := c.Organizations.GetMember(ctx, canonical)
		if buildkite.IsNotFound(err) {
			if inv, ierr := c.Invitations.Get(ctx, canonical); ierr == nil {
				setInvitation(inv)
				return
			}
		}
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "import", "organization member", canonical, err)
			return
		}
		set(map[string]any{"id": canonical, "uuid": canonical, "send_invitation": false, "downgrade_on_destroy": false,
			"role_before_adoption": strings.ToUpper(mem.Role)})
		return
	}
	resp.Diagnostics.AddError("Invalid membership import ID", fmt.Sprintf(
		"%q is neither a user UUID nor invitation/<invitation uuid>.", req.ID))
}

package organization

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*organizationMembershipDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*organizationMembershipDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*organizationMembershipDataSource)(nil)
)

// NewOrganizationMembershipDataSource returns the buildkite_organization_membership data source: one
// membership, a member or a pending invitation, with the attributes of the resource that manages it
// (buildkite_organization_member shows a member's name instead, and no role).
func NewOrganizationMembershipDataSource() datasource.DataSource {
	return &organizationMembershipDataSource{DataSourceBase: kit.NewDataSourceBase("organization_membership")}
}

type organizationMembershipDataSource struct {
	kit.DataSourceBase
}

// organizationMembershipDataModel is what the resource's model holds of the membership itself, without
// what only says how Terraform manages it (send_invitation, what destroy does, role_before_adoption).
type organizationMembershipDataModel struct {
	ID           types.String `tfsdk:"id"`
	Email        types.String `tfsdk:"email"`
	UUID         types.String `tfsdk:"uuid"`
	UserID       types.String `tfsdk:"user_id"`
	InvitationID types.String `tfsdk:"invitation_id"`
	State        types.String `tfsdk:"state"`
	Role         types.String `tfsdk:"role"`
	SSOMode      types.String `tfsdk:"sso_mode"`
}

// fromMembership copies the resource's model, as an import leaves it.
func (d *organizationMembershipDataModel) fromMembership(m *organizationMembershipModel) {
	d.ID, d.Email, d.UUID, d.UserID = m.ID, m.Email, m.UUID, m.UserID
	d.InvitationID, d.State = m.InvitationID, m.State
	d.Role, d.SSOMode = m.Role.StringValue, m.SSOMode.StringValue
}

func (d *organizationMembershipDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := kit.ComputedStrings(map[string]string{
		"id": "The member's user UUID; for a pending invitation, the invitation's UUID (as the resource's `id` " +
			"and its identity hold them).",
		"user_id":       "The user's GraphQL ID (for `buildkite_team_member`); null for a pending invitation.",
		"invitation_id": "The pending invitation's UUID; null for a member.",
		"state":         "`active` for a member, `pending` for an invitation not yet accepted.",
		"role":          "The role, `MEMBER` or `ADMIN`.",
		"sso_mode":      "Whether the member must sign in with SSO, `REQUIRED` or `OPTIONAL`; null where the service does not show it (to a token whose user is not an administrator).",
	})
	attrs["uuid"] = schema.StringAttribute{
		MarkdownDescription: "The member's user UUID. Give this or `email`; a pending invitation has none, so it is found " +
			"by `email` only. " + kit.RefDescription([]string{"User"}),
		Optional: true, Computed: true,
		Validators: []validator.String{kit.RefValidator{GraphQLTypes: []string{"User"}}},
	}
	attrs["email"] = schema.StringAttribute{
		MarkdownDescription: "The e-mail address of the member, or of a pending invitation, compared without regard to " +
			"case. Give this or `uuid`.",
		Optional: true, Computed: true,
		Validators: []validator.String{kit.NotBlank()},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "One membership of the organization, a member or a pending invitation, with the attributes " +
			"`buildkite_organization_membership` manages: found by user UUID, or by e-mail address among the members and " +
			"then the pending invitations. Needs `read_organizations`, and `read_organization_invitations` to find an " +
			"invitation.",
		Attributes: attrs,
	}
}

func (d *organizationMembershipDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("uuid"), path.MatchRoot("email"))}
}

func (d *organizationMembershipDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg organizationMembershipDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var found *organizationMembershipModel
	if kit.IsKnownValue(cfg.UUID) {
		found = d.byUUID(ctx, cfg.UUID.ValueString(), &resp.Diagnostics)
	} else {
		found = d.byEmail(ctx, cfg.Email.ValueString(), &resp.Diagnostics)
	}
	if found == nil {
		return
	}
	var m organizationMembershipDataModel
	m.fromMembership(found)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// byUUID reads the member with the user UUID (or User GraphQL ID) id.
func (d *organizationMembershipDataSource) byUUID(ctx context.Context, id string, diags *diag.Diagnostics) *organizationMembershipModel {
	uuid, err := kit.RefUUID(id, []string{"User"})
	if err != nil {
		diags.AddAttributeError(path.Root("uuid"), "Invalid Reference", fmt.Sprintf("Attribute uuid %s.", err))
		return nil
	}
	mem, err := d.Client().Organizations.GetMember(ctx, uuid)
	switch {
	case buildkite.IsNotFound(err):
		diags.AddError("No Organization Membership Found", fmt.Sprintf(
			"No member of the organization %q has the user UUID %q. A pending invitation has no user yet: find it by email.",
			d.Client().Organization(), uuid))
		return nil
	case err != nil:
		kit.AddAPIError(diags, "read", "organization member", uuid, err)
		return nil
	}
	return importedMember(mem)
}

// byEmail finds the member with the e-mail address, else the pending invitation to it: the members'
// listing, then, only when no member has it, the invitations'.
func (d *organizationMembershipDataSource) byEmail(ctx context.Context, email string, diags *diag.Diagnostics) *organizationMembershipModel {
	for _, pending := range []bool{false, true} {
		all := listMemberships(ctx, d.Client(), !pending, pending, diags)
		if diags.HasError() {
			return nil
		}
		match := func(m **organizationMembershipModel) bool { return strings.EqualFold((*m).Email.ValueString(), email) }
		if !slices.ContainsFunc(all, func(m *organizationMembershipModel) bool { return match(&m) }) {
			continue
		}
		if m := kit.PickOne(diags, "organization membership", fmt.Sprintf("the e-mail address %q", email), all, match); m != nil {
			return *m
		}
		return nil
	}
	diags.AddError("No Organization Membership Found", fmt.Sprintf(
		"Neither a member of the organization %q nor a pending invitation to it has the e-mail address %q.",
		d.Client().Organization(), email))
	return nil
}

package organization

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ list.ListResourceWithConfigure = (*organizationMembershipListResource)(nil)

// NewOrganizationMembershipListResource returns the buildkite_organization_membership list resource: the
// organization's members and its pending invitations, each a membership the resource manages.
func NewOrganizationMembershipListResource() list.ListResource {
	return &organizationMembershipListResource{ListBase: kit.NewListBase("organization_membership", organizationMembershipIdentity)}
}

type organizationMembershipListResource struct {
	kit.ListBase
}

// organizationMembershipListFilter: the filters Buildkite's GraphQL members listing has (e-mail, role), and
// the membership's state, over the REST listings, which have none.
type organizationMembershipListFilter struct {
	Email types.String `tfsdk:"email"`
	Role  types.String `tfsdk:"role"`
	State types.String `tfsdk:"state"`
}

// membershipStates are the values of a membership's state.
var membershipStates = []string{membershipActive, membershipPending}

func (l *organizationMembershipListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the organization's memberships: its members, shown by e-mail address, and its " +
			"pending invitations, shown as `<e-mail> (invited)`. Each is found as an import leaves it, so it counts as " +
			"adopted: destroying it later leaves the person a member (see `remove_adopted_on_destroy`). Needs " +
			"`read_organizations`, and `read_organization_invitations` for the invitations. The filters combine.",
		Attributes: map[string]schema.Attribute{
			"email": schema.StringAttribute{
				MarkdownDescription: "Only the membership of this e-mail address (compared without regard to case).",
				Optional:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"role": schema.StringAttribute{
				MarkdownDescription: "Only memberships with this role: `member` or `admin` (in any case).",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOfCaseInsensitive(membershipRoles...)},
			},
			"state": schema.StringAttribute{
				MarkdownDescription: "Only `active` memberships (members) or `pending` ones (invitations not yet accepted).",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOfCaseInsensitive(membershipStates...)},
			},
		},
	}
}

// List lists the members and, unless the filter asks for active memberships only, the pending invitations:
// one listing each.
func (l *organizationMembershipListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter organizationMembershipListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	callCtx, cancel := l.Timeout(ctx, kit.OpRead)
	defer cancel()
	state := strings.ToLower(filter.State.ValueString())
	var diags diag.Diagnostics
	all := listMemberships(callCtx, l.Client(), state != membershipPending, state != membershipActive, &diags)
	if diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	var items []kit.Found
	for _, m := range all {
		if !filter.Email.IsNull() && !strings.EqualFold(m.Email.ValueString(), filter.Email.ValueString()) ||
			!filter.Role.IsNull() && !strings.EqualFold(m.Role.ValueString(), filter.Role.ValueString()) {
			continue
		}
		name := m.Email.ValueString()
		if m.State.ValueString() == membershipPending {
			name += " (invited)"
		}
		items = append(items, kit.Found{Model: m, DisplayName: name})
	}
	stream.Results = l.Results(ctx, req, items)
}

// listMemberships lists the organization's members (when members) and pending invitations (when pending),
// each as the membership resource's model as an import and a refresh leave it; a failed listing is an
// error in diags.
func listMemberships(ctx context.Context, c *buildkite.Client, members, pending bool, diags *diag.Diagnostics) []*organizationMembershipModel {
	var out []*organizationMembershipModel
	if members {
		all, err := c.Organizations.ListMembers(ctx)
		if err != nil {
			kit.AddAPIError(diags, "list", "organization members", "", err)
			return nil
		}
		for i := range all {
			out = append(out, importedMember(&all[i]))
		}
	}
	if pending {
		all, err := c.Invitations.ListPending(ctx)
		if err != nil {
			kit.AddAPIError(diags, "list", "organization invitations", "", err)
			return nil
		}
		for i := range all {
			out = append(out, importedInvitation(&all[i]))
		}
	}
	return out
}

// importedMember is a member's membership as an import by the user's UUID and the refresh after it leave it:
// adopted, with the role found recorded as role_before_adoption.
func importedMember(mem *buildkite.Member) *organizationMembershipModel {
	m := &organizationMembershipModel{
		ID: types.StringValue(mem.ID), SendInvitation: types.BoolValue(false), DowngradeOnDestroy: types.BoolValue(false),
		RoleBeforeAdoption: types.StringValue(strings.ToUpper(mem.Role)),
	}
	m.fromMember(mem)
	return m
}

// importedInvitation is a pending invitation's membership as an import by `invitation/<uuid>` and the
// refresh after it leave it.
func importedInvitation(inv *buildkite.Invitation) *organizationMembershipModel {
	m := &organizationMembershipModel{
		ID: types.StringValue(inv.ID), InvitationID: types.StringValue(inv.ID), Email: types.StringValue(inv.Email),
		SendInvitation: types.BoolValue(false), DowngradeOnDestroy: types.BoolValue(false),
		RoleBeforeAdoption: types.StringValue(strings.ToUpper(inv.Role)),
	}
	m.fromInvitation(inv)
	return m
}

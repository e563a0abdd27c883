package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                = (*teamMemberResource)(nil)
	_ resource.ResourceWithConfigure   = (*teamMemberResource)(nil)
	_ resource.ResourceWithImportState = (*teamMemberResource)(nil)
	_ resource.ResourceWithIdentity    = (*teamMemberResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*teamMemberResource)(nil)
)

// teamMemberIdentity names a team membership by its two sides, for import blocks and terraform query.
var teamMemberIdentity = identifiedBy(
	identityAttr("team_id", "The UUID of the team."),
	identityAttr("user_id", "The UUID of the user."),
)

// NewTeamMemberResource returns the buildkite_team_member resource.
func NewTeamMemberResource() resource.Resource {
	return &teamMemberResource{
		resourceBase:     newResourceBase("team_member", writeScopes("write_teams")),
		resourceIdentity: teamMemberIdentity,
	}
}

type teamMemberResource struct {
	resourceBase
	resourceIdentity
}

type teamMemberModel struct {
	ID        types.String `tfsdk:"id"`
	UUID      types.String `tfsdk:"uuid"`
	GraphQLID types.String `tfsdk:"graphql_id"`
	TeamID    types.String `tfsdk:"team_id"`
	UserID    types.String `tfsdk:"user_id"`
	Role      enumValue    `tfsdk:"role"`
	UserName  types.String `tfsdk:"user_name"`
}

func (m *teamMemberModel) fromAPI(teamID string, tm *buildkite.TeamMember) {
	m.ID = associationID(teamID, tm.UserID)
	m.UUID = m.ID
	m.GraphQLID = optionalString(tm.GraphQLID)
	m.TeamID = types.StringValue(teamID)
	m.UserID = types.StringValue(tm.UserID)
	m.Role = newEnumValue(tm.Role)
	m.UserName = types.StringValue(tm.UserName)
}

func (r *teamMemberResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A user's membership of a team, with the user's role in it. The user must be a member " +
			"of the organization (see the `buildkite_organization_member` data source). Import as `<team>/<user id>`, " +
			"the team by UUID or slug. Where the user is in the team already, creating this resource takes the " +
			"membership over and sets its role.",
		Attributes: associationAttributes("team membership", "<team id>/<user id>", map[string]schema.Attribute{
			"team_id": parentIDAttribute("The UUID of the team."),
			"user_id": parentIDAttribute("The UUID of the user (the `id` of a `buildkite_organization_member`)."),
			"role": caseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "The user's role in the team; `maintainer`s manage the team's members.",
				Required:            true,
			}, teamMemberRoles...),
			"user_name": computedString("The user's name."),
		}),
	}
}

// ident names the membership in errors as its import ID does.
func (m *teamMemberModel) ident() string {
	return m.TeamID.ValueString() + "/" + m.UserID.ValueString()
}

func (r *teamMemberResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.identifyCreated(ctx, resp)
	var plan teamMemberModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	members := r.client().TeamMembers
	teamID, userID, role := plan.TeamID.ValueString(), plan.UserID.ValueString(), plan.Role.API()
	tm, err := createOrTakeOver(ctx,
		func(ctx context.Context) (*buildkite.TeamMember, error) {
			return members.Create(ctx, teamID, buildkite.TeamMemberCreate{UserID: userID, Role: role})
		},
		func(ctx context.Context) (*buildkite.TeamMember, error) { return members.Get(ctx, teamID, userID) },
		func(tm *buildkite.TeamMember) bool { return tm.Role == role },
		func(ctx context.Context) (*buildkite.TeamMember, error) {
			return members.Update(ctx, teamID, userID, role)
		})
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "team member", plan.ident(), err)
		return
	}
	plan.fromAPI(teamID, tm)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *teamMemberResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.identifyRead(ctx, req, resp)
	var state teamMemberModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	tm, err := r.client().TeamMembers.Get(ctx, state.TeamID.ValueString(), state.UserID.ValueString())
	if err != nil {
		r.readFailed(ctx, resp, err, "team member", state.ident())
		return
	}
	state.fromAPI(state.TeamID.ValueString(), tm)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *teamMemberResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.identifyUpdated(ctx, resp)
	var plan teamMemberModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	tm, err := r.client().TeamMembers.Update(ctx, plan.TeamID.ValueString(), plan.UserID.ValueString(), plan.Role.API())
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "team member", plan.ident(), err)
		return
	}
	plan.fromAPI(plan.TeamID.ValueString(), tm)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *teamMemberResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state teamMemberModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	err := r.client().TeamMembers.Delete(ctx, state.TeamID.ValueString(), state.UserID.ValueString())
	r.deleteFailed(ctx, &resp.Diagnostics, err, "team member", state.ident())
}

// ImportState accepts, as an import ID or as the identity, "<team id or slug>/<user id>".
func (r *teamMemberResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, keyPart("<team id or slug>"), uuidPart("<user id>"))
	if !ok {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	t, err := findTeam(ctx, r.client(), parts[0])
	if err == nil {
		_, err = r.client().TeamMembers.Get(ctx, t.ID, parts[1])
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", "team member", req.ID, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("team_id"), t.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("user_id"), parts[1])...)
}

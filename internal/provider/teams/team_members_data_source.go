package teams

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*teamMembersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*teamMembersDataSource)(nil)
)

// NewTeamMembersDataSource returns the buildkite_team_members data source.
func NewTeamMembersDataSource() datasource.DataSource {
	return &teamMembersDataSource{DataSourceBase: kit.NewDataSourceBase("team_members")}
}

type teamMembersDataSource struct {
	kit.DataSourceBase
}

type teamMembersModel struct {
	TeamID  types.String          `tfsdk:"team_id"`
	Members []teamMemberDataModel `tfsdk:"members"`
}

type teamMemberDataModel struct {
	UserID    types.String `tfsdk:"user_id"`
	UserName  types.String `tfsdk:"user_name"`
	Role      types.String `tfsdk:"role"`
	CreatedAt types.String `tfsdk:"created_at"`
}

func (d *teamMembersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The members of a team.",
		Attributes: map[string]schema.Attribute{
			"team_id": schema.StringAttribute{
				MarkdownDescription: "The UUID of the team.",
				Required:            true,
				Validators:          []validator.String{kit.UuidValidator()},
			},
			"members": schema.ListNestedAttribute{
				MarkdownDescription: "The team's members.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"user_id":    str("The user's UUID."),
					"user_name":  str("The user's name."),
					"role":       str("`MEMBER` or `MAINTAINER`, as `buildkite_team_member` stores it."),
					"created_at": str("When the user joined the team (RFC 3339)."),
				}},
			},
		},
	}
}

func (d *teamMembersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamMembersModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	teamID := cfg.TeamID.ValueString()
	list := func(ctx context.Context) ([]buildkite.TeamMember, error) {
		return d.Client().TeamMembers.List(ctx, teamID)
	}
	fill := func(item *teamMemberDataModel, m *buildkite.TeamMember) {
		*item = teamMemberDataModel{
			UserID: types.StringValue(m.UserID), UserName: types.StringValue(m.UserName),
			Role: kit.OfficialEnum(m.Role), CreatedAt: kit.TimeValue(m.CreatedAt),
		}
	}
	var ok bool
	if cfg.Members, ok = kit.ListItems(ctx, &resp.Diagnostics, "team members", "of team "+teamID, list, fill); ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
	}
}

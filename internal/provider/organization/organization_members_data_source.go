package organization

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*organizationMembersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*organizationMembersDataSource)(nil)
)

// NewOrganizationMembersDataSource returns the buildkite_organization_members data source.
func NewOrganizationMembersDataSource() datasource.DataSource {
	return &organizationMembersDataSource{DataSourceBase: kit.NewDataSourceBase("organization_members")}
}

type organizationMembersDataSource struct {
	kit.DataSourceBase
}

type organizationMembersModel struct {
	Team    types.String  `tfsdk:"team"`
	Members []memberModel `tfsdk:"members"`
}

func (d *organizationMembersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The members of the organization, or of one of its teams.",
		Attributes: map[string]schema.Attribute{
			"team": schema.StringAttribute{
				MarkdownDescription: "List only the members of this team, given by slug, UUID or GraphQL ID (as newer " +
					"releases of the official provider take it).",
				Optional: true,
			},
			"members": kit.ListOf("The members, each with the attributes of `buildkite_organization_member`.", memberAttributes()),
		},
	}
}

func (d *organizationMembersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg organizationMembersModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	list := d.Client().Organizations.ListMembers
	if team := cfg.Team.ValueString(); team != "" {
		list = func(ctx context.Context) ([]buildkite.Member, error) { return d.teamMembers(ctx, team) }
	}
	items, ok := kit.ListItems(ctx, &resp.Diagnostics, "organization members", "", list, (*memberModel).fromAPI)
	if !ok {
		return
	}
	// As the official provider: an organization always has a member (the token's user), so none means the
	// token cannot see them. A team may have none.
	if len(items) == 0 && cfg.Team.IsNull() {
		resp.Diagnostics.AddError("No organization members found",
			fmt.Sprintf("The API token sees no members of the organization %q.", d.Client().Organization()))
		return
	}
	cfg.Members = items
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// teamMembers are the organization's members who are in the team, in the organization's order: the team's
// listing names them, the organization's has their e-mail addresses.
func (d *organizationMembersDataSource) teamMembers(ctx context.Context, team string) ([]buildkite.Member, error) {
	t, err := kit.FindTeam(ctx, d.Client(), team)
	if err != nil {
		return nil, err
	}
	inTeam, err := d.Client().TeamMembers.List(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(inTeam))
	for _, m := range inTeam {
		ids[m.UserID] = true
	}
	all, err := d.Client().Organizations.ListMembers(ctx)
	if err != nil {
		return nil, err
	}
	var out []buildkite.Member
	for _, m := range all {
		if ids[m.ID] {
			out = append(out, m)
		}
	}
	return out, nil
}

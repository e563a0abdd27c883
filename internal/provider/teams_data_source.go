package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ datasource.DataSource              = (*teamsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*teamsDataSource)(nil)
)

// NewTeamsDataSource returns the buildkite_teams data source.
func NewTeamsDataSource() datasource.DataSource {
	return &teamsDataSource{dataSourceBase: newDataSourceBase("teams")}
}

type teamsDataSource struct {
	dataSourceBase
}

type teamsModel struct {
	UserID types.String    `tfsdk:"user_id"`
	Teams  []teamDataModel `tfsdk:"teams"`
}

func (d *teamsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's teams, or those a user is a member of.",
		Attributes: map[string]schema.Attribute{
			"user_id": dataRefAttribute("List only the teams this user (by UUID) is a member of.", false, "User"),
			"teams":   listOf("The teams, each with the attributes of the `buildkite_team` data source.", teamDataAttributes()),
		},
	}
}

func (d *teamsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	list := func(ctx context.Context) ([]buildkite.Team, error) {
		return d.client().Teams.List(ctx, buildkite.TeamListOptions{UserID: canonicalID(cfg.UserID.ValueString())})
	}
	var ok bool
	if cfg.Teams, ok = listItems(ctx, &resp.Diagnostics, "teams", "", list, (*teamDataModel).fromAPI); !ok {
		return
	}
	// As the official provider: an organization without teams is an error (teams are not enabled, or the
	// token sees none). Filtered by a user, none is an answer.
	if len(cfg.Teams) == 0 && cfg.UserID.IsNull() {
		resp.Diagnostics.AddError("No organization teams found",
			fmt.Sprintf("The organization %q has no teams that this API token can see.", d.client().Organization()))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

package teams

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
	_ datasource.DataSource              = (*teamsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*teamsDataSource)(nil)
)

// NewTeamsDataSource returns the buildkite_teams data source.
func NewTeamsDataSource() datasource.DataSource {
	return &teamsDataSource{DataSourceBase: kit.NewDataSourceBase("teams")}
}

type teamsDataSource struct {
	kit.DataSourceBase
}

type teamsModel struct {
	UserID types.String    `tfsdk:"user_id"`
	Teams  []teamDataModel `tfsdk:"teams"`
}

func (d *teamsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's teams, or those a user is a member of.",
		Attributes: map[string]schema.Attribute{
			"user_id": kit.DataRefAttribute("List only the teams this user (by UUID) is a member of.", false, "User"),
			"teams":   kit.ListOf("The teams, each with the attributes of the `buildkite_team` data source.", teamDataAttributes()),
		},
	}
}

func (d *teamsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	list := func(ctx context.Context) ([]buildkite.Team, error) {
		return d.Client().Teams.List(ctx, buildkite.TeamListOptions{UserID: kit.CanonicalID(cfg.UserID.ValueString())})
	}
	var ok bool
	if cfg.Teams, ok = kit.ListItems(ctx, &resp.Diagnostics, "teams", "", list, (*teamDataModel).fromAPI); !ok {
		return
	}
	// As the official provider: an organization without teams is an error (teams are not enabled, or the
	// token sees none). Filtered by a user, none is an answer.
	if len(cfg.Teams) == 0 && cfg.UserID.IsNull() {
		resp.Diagnostics.AddError("No organization teams found",
			fmt.Sprintf("The organization %q has no teams that this API token can see.", d.Client().Organization()))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

package teams

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*teamDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*teamDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*teamDataSource)(nil)
)

// NewTeamDataSource returns the buildkite_team data source.
func NewTeamDataSource() datasource.DataSource {
	return &teamDataSource{DataSourceBase: kit.NewDataSourceBase("team")}
}

type teamDataSource struct {
	kit.DataSourceBase
}

// teamDataModel is a team as the data sources show it, alone or in buildkite_teams.
type teamDataModel struct {
	ID                        types.String `tfsdk:"id"`
	UUID                      types.String `tfsdk:"uuid"`
	GraphQLID                 types.String `tfsdk:"graphql_id"`
	Name                      types.String `tfsdk:"name"`
	Slug                      types.String `tfsdk:"slug"`
	Description               types.String `tfsdk:"description"`
	Privacy                   types.String `tfsdk:"privacy"`
	DefaultTeam               types.Bool   `tfsdk:"default_team"`
	DefaultMemberRole         types.String `tfsdk:"default_member_role"`
	MembersCanCreatePipelines types.Bool   `tfsdk:"members_can_create_pipelines"`
	IsDefaultTeam             types.Bool   `tfsdk:"is_default_team"`
	teamPermissionsModel
	CreatedAt types.String `tfsdk:"created_at"`
}

// fromAPI copies a team; the write properties a read may leave out are null then.
func (m *teamDataModel) fromAPI(t *buildkite.Team) {
	m.ID = types.StringValue(t.ID)
	m.UUID = types.StringValue(t.ID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.Name = types.StringValue(t.Name)
	m.Slug = types.StringValue(t.Slug)
	m.Description = types.StringValue(t.Description)
	m.Privacy = kit.OfficialEnum(t.Privacy)
	m.DefaultTeam = types.BoolValue(t.IsDefault())
	m.DefaultMemberRole = kit.OfficialEnum(kit.Deref(t.DefaultMemberRole))
	m.MembersCanCreatePipelines = types.BoolPointerValue(t.MembersCanCreatePipelines)
	m.IsDefaultTeam = m.DefaultTeam
	m.teamPermissionsModel = teamPermissionsModel{
		MembersCanCreateSuites:      types.BoolPointerValue(t.MembersCanCreateSuites),
		MembersCanCreateRegistries:  types.BoolPointerValue(t.MembersCanCreateRegistries),
		MembersCanDestroyRegistries: types.BoolPointerValue(t.MembersCanDestroyRegistries),
		MembersCanDestroyPackages:   types.BoolPointerValue(t.MembersCanDestroyPackages),
	}
	m.CreatedAt = kit.TimeValue(t.CreatedAt)
}

// teamDataAttributes are a team's attributes, all computed; the singular data source makes id and slug its
// arguments.
func teamDataAttributes() map[string]schema.Attribute {
	str := func(d string) schema.Attribute { return schema.StringAttribute{MarkdownDescription: d, Computed: true} }
	attrs := map[string]schema.Attribute{
		"id":                  str("The team's UUID."),
		"uuid":                str("The team's UUID, equal to `id`."),
		"graphql_id":          str("The team's GraphQL ID."),
		"name":                str("The team's name."),
		"slug":                str("The team's slug."),
		"description":         str("The team's description (`\"\"` when it has none)."),
		"privacy":             str("`VISIBLE` or `SECRET`, as the official provider spells them."),
		"default_team":        schema.BoolAttribute{MarkdownDescription: "Whether users join the team when they join the organization.", Computed: true},
		"default_member_role": str("`MEMBER` or `MAINTAINER`: the role of users added without one."),
		"members_can_create_pipelines": schema.BoolAttribute{
			MarkdownDescription: "Whether members of the team may create pipelines.", Computed: true,
		},
		"is_default_team": schema.BoolAttribute{
			MarkdownDescription: "Equal to `default_team` (the REST API's name, and the official provider's `buildkite_teams`').",
			Computed:            true,
		},
		"created_at": str("When the team was created (RFC 3339)."),
	}
	for name, description := range teamPermissionDescriptions {
		attrs[name] = schema.BoolAttribute{MarkdownDescription: description, Computed: true}
	}
	return attrs
}

func (d *teamDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := teamDataAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "The team's UUID (or GraphQL ID). Give this or `slug`.",
		Optional:            true, Computed: true,
		Validators: []validator.String{kit.RefValidator{GraphQLTypes: []string{"Team"}}},
	}
	attrs["slug"] = schema.StringAttribute{
		MarkdownDescription: "The team's slug, in any case. Give this or `id`.",
		Optional:            true, Computed: true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team of the organization, found by UUID or by slug.",
		Attributes:          attrs,
	}
}

func (d *teamDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("slug"))}
}

func (d *teamDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	teams := d.Client().Teams
	var found *buildkite.Team
	if id := kit.CanonicalID(cfg.ID.ValueString()); id != "" {
		t, err := teams.Get(ctx, id)
		switch {
		case buildkite.IsNotFound(err):
			resp.Diagnostics.AddError("No Team Found", fmt.Sprintf("No team of the organization %q has the ID %q.", d.Client().Organization(), id))
			return
		case err != nil:
			kit.AddAPIError(&resp.Diagnostics, "read", "team", id, err)
			return
		}
		found = t
	} else {
		slug := cfg.Slug.ValueString()
		all, err := teams.List(ctx, buildkite.TeamListOptions{})
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "list", "teams", "", err)
			return
		}
		if found = kit.PickOne(&resp.Diagnostics, "team", fmt.Sprintf("the slug %q", slug), all,
			// Slugs are lower case and unique, so one spelled in other case (the official provider's examples
			// name "Everyone") still names exactly one team.
			func(t *buildkite.Team) bool { return strings.EqualFold(t.Slug, slug) }); found == nil {
			return
		}
	}
	var m teamDataModel
	m.fromAPI(found)
	if !cfg.ID.IsNull() {
		m.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	if !cfg.Slug.IsNull() {
		m.Slug = cfg.Slug // as asked, in its case
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

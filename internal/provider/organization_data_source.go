package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*organizationDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*organizationDataSource)(nil)
)

// NewOrganizationDataSource returns the buildkite_organization data source.
func NewOrganizationDataSource() datasource.DataSource {
	return &organizationDataSource{dataSourceBase: newDataSourceBase("organization")}
}

type organizationDataSource struct {
	dataSourceBase
}

type organizationModel struct {
	ID        types.String `tfsdk:"id"`
	UUID      types.String `tfsdk:"uuid"`
	GraphQLID types.String `tfsdk:"graphql_id"`
	Name      types.String `tfsdk:"name"`
	Slug      types.String `tfsdk:"slug"`
	URL       types.String `tfsdk:"url"`
	WebURL    types.String `tfsdk:"web_url"`
	CreatedAt types.String `tfsdk:"created_at"`
}

func (d *organizationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization the provider is configured for (`organization` or `BUILDKITE_ORGANIZATION_SLUG`).",
		Attributes: dataWithCommon("organization", map[string]schema.Attribute{
			"name": schema.StringAttribute{MarkdownDescription: "The organization's name.", Computed: true},
			"slug": schema.StringAttribute{MarkdownDescription: "The organization's slug.", Computed: true},
		}, attrID, attrUUID, attrGraphQLID, attrURL, attrWebURL, attrCreatedAt),
	}
}

func (d *organizationDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	o, err := d.client().Organizations.Get(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "read", "organization", d.client().Organization(), err)
		return
	}
	m := organizationModel{
		ID: types.StringValue(o.ID), UUID: types.StringValue(o.ID), GraphQLID: types.StringValue(o.GraphQLID),
		Name: types.StringValue(o.Name), Slug: types.StringValue(o.Slug),
		URL: types.StringValue(o.URL), WebURL: types.StringValue(o.WebURL), CreatedAt: timeValue(o.CreatedAt),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

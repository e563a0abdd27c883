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
	_ datasource.DataSource              = (*organizationDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*organizationDataSource)(nil)
)

// NewOrganizationDataSource returns the buildkite_organization data source.
func NewOrganizationDataSource() datasource.DataSource {
	return &organizationDataSource{DataSourceBase: kit.NewDataSourceBase("organization")}
}

type organizationDataSource struct {
	kit.DataSourceBase
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
	// AllowedAPIIPAddresses is the allowlist of the organization's API settings: [""] for none (the official
	// provider splits the service's empty string, and configurations index element 0), null where the token
	// may not read the settings.
	AllowedAPIIPAddresses types.List `tfsdk:"allowed_api_ip_addresses"`
}

func (d *organizationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization the provider is configured for (`organization` or `BUILDKITE_ORGANIZATION_SLUG`).",
		Attributes: kit.DataWithCommon("organization", map[string]schema.Attribute{
			"name": schema.StringAttribute{MarkdownDescription: "The organization's name.", Computed: true},
			"slug": schema.StringAttribute{MarkdownDescription: "The organization's slug.", Computed: true},
			"allowed_api_ip_addresses": schema.ListAttribute{
				MarkdownDescription: "The networks (CIDRs) the organization's API may be called from; `[\"\"]` (one empty " +
					"string, as the official provider reads it) when there is no allowlist. Null, with a warning, when the token may not read the organization's settings (its user " +
					"must be an administrator and the token needs `read_organization_settings`).",
				ElementType: types.StringType, Computed: true,
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt),
	}
}

func (d *organizationDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	o, err := d.Client().Organizations.Get(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "organization", d.Client().Organization(), err)
		return
	}
	m := organizationModel{
		ID: types.StringValue(o.ID), UUID: types.StringValue(o.ID), GraphQLID: types.StringValue(o.GraphQLID),
		Name: types.StringValue(o.Name), Slug: types.StringValue(o.Slug),
		URL: types.StringValue(o.URL), WebURL: types.StringValue(o.WebURL), CreatedAt: kit.TimeValue(o.CreatedAt),
		AllowedAPIIPAddresses: types.ListNull(types.StringType),
	}
	// The allowlist needs an administrator's token with read_organization_settings; without one, the rest
	// of the organization is still read, for those who want only its IDs.
	settings, err := d.Client().OrgSettings.GetAPISettings(ctx)
	switch {
	case buildkite.IsForbidden(err):
		resp.Diagnostics.AddWarning("Unable to Read Organization API Settings", fmt.Sprintf(
			"Reading the API settings of organization %s: %s. allowed_api_ip_addresses is left null; the token's user "+
				"must be an administrator and the token needs read_organization_settings for it to be read.", o.Slug, kit.DescribeError(err)))
	case err != nil:
		kit.AddAPIError(&resp.Diagnostics, "read", "organization API settings", o.Slug, err)
		return
	default:
		ips := settings.AllowedIPs()
		if len(ips) == 0 {
			ips = []string{""}
		}
		list, diags := types.ListValueFrom(ctx, types.StringType, ips)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		m.AllowedAPIIPAddresses = list
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

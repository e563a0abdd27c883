package organization

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*portalsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*portalsDataSource)(nil)
)

// NewPortalsDataSource returns the buildkite_portals data source.
func NewPortalsDataSource() datasource.DataSource {
	return &portalsDataSource{DataSourceBase: kit.NewDataSourceBase("portals")}
}

type portalsDataSource struct {
	kit.DataSourceBase
}

type portalsDataModel struct {
	Portals []portalDataModel `tfsdk:"portals"`
}

func (d *portalsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Every portal of the organization, read across all pages of the listing.",
		Attributes: map[string]dschema.Attribute{
			"portals": kit.ListOf("The portals, oldest first, each with the attributes of the `buildkite_portal` data source.", portalDataAttributes()),
		},
	}
}

func (d *portalsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	items, ok := kit.ListItems(ctx, &resp.Diagnostics, "portals", "", d.Client().Portals.List, (*portalDataModel).fromAPI)
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &portalsDataModel{Portals: items})...)
	}
}

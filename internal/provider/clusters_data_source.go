package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var (
	_ datasource.DataSource              = (*clustersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*clustersDataSource)(nil)
)

// NewClustersDataSource returns the buildkite_clusters data source.
func NewClustersDataSource() datasource.DataSource {
	return &clustersDataSource{dataSourceBase: newDataSourceBase("clusters")}
}

type clustersDataSource struct {
	dataSourceBase
}

type clustersDataModel struct {
	Clusters []clusterDataModel `tfsdk:"clusters"`
}

func (d *clustersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Every cluster of the organization, each with its default queue.",
		Attributes: map[string]dschema.Attribute{
			"clusters": listOf("The clusters, each with the attributes of the `buildkite_cluster` data source.", clusterDataAttributes()),
		},
	}
}

func (d *clustersDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	items, ok := listItems(ctx, &resp.Diagnostics, "clusters", "", d.client().Clusters.List, (*clusterDataModel).fromAPI)
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &clustersDataModel{Clusters: items})...)
	}
}

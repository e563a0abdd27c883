package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*clustersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*clustersDataSource)(nil)
)

// NewClustersDataSource returns the buildkite_clusters data source.
func NewClustersDataSource() datasource.DataSource {
	return &clustersDataSource{DataSourceBase: kit.NewDataSourceBase("clusters")}
}

type clustersDataSource struct {
	kit.DataSourceBase
}

type clustersDataModel struct {
	Clusters []clusterDataModel `tfsdk:"clusters"`
}

func (d *clustersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Every cluster of the organization, each with its default queue.",
		Attributes: map[string]dschema.Attribute{
			"clusters": kit.ListOf("The clusters, each with the attributes of the `buildkite_cluster` data source.", clusterDataAttributes()),
		},
	}
}

func (d *clustersDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	all, err := d.Client().Clusters.List(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "list", "clusters", "", err)
		return
	}
	// One more call per cluster with a default queue, for its key and description, and one GraphQL read per
	// cluster for its agent tracing service where GraphQL can be asked. A cluster deleted between the listing
	// and its details (a 404 for them, and for the cluster itself when asked again) no longer exists, and is
	// left out, as a listing made a moment later would leave it out.
	items := make([]clusterDataModel, 0, len(all))
	for i := range all {
		var m clusterDataModel
		if err := clusterDetails(ctx, d.Data, &m, &all[i]); err != nil {
			if buildkite.IsNotFound(err) {
				if _, getErr := d.Client().Clusters.Get(ctx, all[i].ID); buildkite.IsNotFound(getErr) {
					continue // the cluster itself is gone, not only a part of it
				}
			}
			kit.AddAPIError(&resp.Diagnostics, "list", "clusters", "", err)
			return
		}
		items = append(items, m)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &clustersDataModel{Clusters: items})...)
}

package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*clusterQueuesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*clusterQueuesDataSource)(nil)
)

// NewClusterQueuesDataSource returns the buildkite_cluster_queues data source.
func NewClusterQueuesDataSource() datasource.DataSource {
	return &clusterQueuesDataSource{DataSourceBase: kit.NewDataSourceBase("cluster_queues")}
}

type clusterQueuesDataSource struct {
	kit.DataSourceBase
}

type clusterQueuesDataModel struct {
	ClusterID types.String            `tfsdk:"cluster_id"`
	Queues    []clusterQueueDataModel `tfsdk:"queues"`
}

// clusterQueueDataModel is one queue with its dispatch state.
type clusterQueueDataModel struct {
	ID                 types.String `tfsdk:"id"`
	UUID               types.String `tfsdk:"uuid"`
	GraphQLID          types.String `tfsdk:"graphql_id"`
	ClusterID          types.String `tfsdk:"cluster_id"`
	Key                types.String `tfsdk:"key"`
	Description        types.String `tfsdk:"description"`
	DispatchPaused     types.Bool   `tfsdk:"dispatch_paused"`
	DispatchPausedNote types.String `tfsdk:"dispatch_paused_note"`
	DispatchPausedAt   types.String `tfsdk:"dispatch_paused_at"`
	DispatchPausedBy   types.String `tfsdk:"dispatch_paused_by"`
	URL                types.String `tfsdk:"url"`
	WebURL             types.String `tfsdk:"web_url"`
	CreatedAt          types.String `tfsdk:"created_at"`
}

func (m *clusterQueueDataModel) fromAPI(clusterID string, q *buildkite.Queue) {
	m.ID = types.StringValue(q.ID)
	m.UUID = types.StringValue(q.ID)
	m.GraphQLID = types.StringValue(q.GraphQLID)
	m.ClusterID = types.StringValue(clusterID)
	m.Key = types.StringValue(q.Key)
	m.Description = kit.OptionalString(q.Description)
	m.DispatchPaused = types.BoolValue(q.DispatchPaused)
	m.DispatchPausedNote = kit.OptionalStringPtr(q.DispatchPausedNote)
	m.DispatchPausedAt = kit.TimeValue(q.DispatchPausedAt)
	m.DispatchPausedBy = types.StringNull()
	if q.DispatchPausedBy != nil {
		m.DispatchPausedBy = types.StringValue(q.DispatchPausedBy.ID)
	}
	m.URL = types.StringValue(q.URL)
	m.WebURL = types.StringValue(q.WebURL)
	m.CreatedAt = kit.TimeValue(q.CreatedAt)
}

func clusterQueueDataAttributes() map[string]dschema.Attribute {
	attrs := kit.DataWithCommon("queue", kit.ComputedStrings(map[string]string{
		"cluster_id":           "The ID of the queue's cluster.",
		"key":                  "The queue's key, which agents name to take its jobs.",
		"description":          "The queue's description, null when it has none.",
		"dispatch_paused_note": "Why dispatch was paused, null while it is not.",
		"dispatch_paused_at":   "When dispatch was paused (RFC 3339), null while it is not.",
		"dispatch_paused_by":   "The ID of the user who paused dispatch, null while it is not paused.",
	}), kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt)
	attrs["dispatch_paused"] = dschema.BoolAttribute{
		MarkdownDescription: "Whether dispatch of jobs to the queue's agents is paused.",
		Computed:            true,
	}
	return attrs
}

func (d *clusterQueuesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "The queues of one cluster, with their dispatch state.",
		Attributes: map[string]dschema.Attribute{
			"cluster_id": kit.DataRefAttribute("The ID of the cluster whose queues to list.", true, "Cluster"),
			"queues":     kit.ListOf("The cluster's queues.", clusterQueueDataAttributes()),
		},
	}
}

func (d *clusterQueuesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg clusterQueuesDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	clusterID := kit.CanonicalID(cfg.ClusterID.ValueString())
	list := func(ctx context.Context) ([]buildkite.Queue, error) { return d.Client().Queues.List(ctx, clusterID) }
	fill := func(m *clusterQueueDataModel, q *buildkite.Queue) { m.fromAPI(clusterID, q) }
	var ok bool
	if cfg.Queues, ok = kit.ListItems(ctx, &resp.Diagnostics, "queues", "of cluster "+clusterID, list, fill); !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

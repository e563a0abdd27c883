package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ datasource.DataSource                     = (*clusterDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*clusterDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*clusterDataSource)(nil)
)

// NewClusterDataSource returns the buildkite_cluster data source.
func NewClusterDataSource() datasource.DataSource {
	return &clusterDataSource{dataSourceBase: newDataSourceBase("cluster")}
}

type clusterDataSource struct {
	dataSourceBase
}

// clusterDataModel is a cluster as the data sources show it, alone or as an item of buildkite_clusters.
type clusterDataModel struct {
	ID             types.String `tfsdk:"id"`
	UUID           types.String `tfsdk:"uuid"`
	GraphQLID      types.String `tfsdk:"graphql_id"`
	Name           types.String `tfsdk:"name"`
	Description    types.String `tfsdk:"description"`
	Emoji          types.String `tfsdk:"emoji"`
	Color          types.String `tfsdk:"color"`
	DefaultQueueID types.String `tfsdk:"default_queue_id"`
	URL            types.String `tfsdk:"url"`
	WebURL         types.String `tfsdk:"web_url"`
	CreatedAt      types.String `tfsdk:"created_at"`
}

func (m *clusterDataModel) fromAPI(c *buildkite.Cluster) {
	m.ID = types.StringValue(c.ID)
	m.UUID = types.StringValue(c.ID)
	m.GraphQLID = types.StringValue(c.GraphQLID)
	m.Name = types.StringValue(c.Name)
	m.Description = optionalString(c.Description)
	m.Emoji = optionalString(c.Emoji)
	m.Color = optionalString(c.Color)
	m.DefaultQueueID = optionalStringPtr(c.DefaultQueueID)
	m.URL = types.StringValue(c.URL)
	m.WebURL = types.StringValue(c.WebURL)
	m.CreatedAt = timeValue(c.CreatedAt)
}

// clusterDataAttributes are the computed attributes of a cluster in the data sources.
func clusterDataAttributes() map[string]dschema.Attribute {
	return dataWithCommon("cluster", computedStrings(map[string]string{
		"name":             "The cluster's name.",
		"description":      "The cluster's description, null when it has none.",
		"emoji":            "The cluster's emoji, null when it has none.",
		"color":            "The cluster's color, null when it has none.",
		"default_queue_id": "The ID of the cluster's default queue, null while it has none.",
	}), attrID, attrUUID, attrGraphQLID, attrURL, attrWebURL, attrCreatedAt)
}

func (d *clusterDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One cluster of the organization, by `id` or by `name` (exactly one of them).",
		Attributes: withLookup(clusterDataAttributes(), map[string]string{
			"id":   "The ID of the cluster to read.",
			"name": "The name of the cluster to read; it must name exactly one cluster.",
		}),
	}
}

func (d *clusterDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *clusterDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg clusterDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	var found *buildkite.Cluster
	if id := cfg.ID.ValueString(); id != "" {
		c, err := d.client().Clusters.Get(ctx, id)
		if err != nil {
			notFoundOrAPIError(&resp.Diagnostics, err, "cluster", fmt.Sprintf("the ID %q", id))
			return
		}
		found = c
	} else {
		all, err := d.client().Clusters.List(ctx)
		if err != nil {
			addAPIError(&resp.Diagnostics, "list", "clusters", "", err)
			return
		}
		name := cfg.Name.ValueString()
		if found = pickOne(&resp.Diagnostics, "cluster", fmt.Sprintf("the name %q", name), all,
			func(c *buildkite.Cluster) bool { return c.Name == name }); found == nil {
			return
		}
	}
	var out clusterDataModel
	out.fromAPI(found)
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

package clusters

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*clusterDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*clusterDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*clusterDataSource)(nil)
)

// NewClusterDataSource returns the buildkite_cluster data source.
func NewClusterDataSource() datasource.DataSource {
	return &clusterDataSource{DataSourceBase: kit.NewDataSourceBase("cluster")}
}

type clusterDataSource struct {
	kit.DataSourceBase
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
	DefaultQueue   types.Object `tfsdk:"default_queue"`
	Maintainers    types.List   `tfsdk:"maintainers"`
	URL            types.String `tfsdk:"url"`
	WebURL         types.String `tfsdk:"web_url"`
	CreatedAt      types.String `tfsdk:"created_at"`

	HostedGitMirrorEnabled      types.Bool   `tfsdk:"hosted_git_mirror_enabled"`
	HostedContainerCacheEnabled types.Bool   `tfsdk:"hosted_container_cache_enabled"`
	AgentTracingServiceUUID     types.String `tfsdk:"agent_tracing_service_uuid"`
}

// clusterDefaultQueueTypes and clusterMaintainerTypes are the attributes of default_queue and of an item
// of maintainers.
var (
	clusterDefaultQueueTypes = map[string]attr.Type{
		"id": types.StringType, "uuid": types.StringType, "key": types.StringType, "description": types.StringType,
	}
	clusterMaintainerTypes = map[string]attr.Type{
		"permission_uuid": types.StringType, "actor_uuid": types.StringType, "actor_type": types.StringType,
		"actor_name": types.StringType, "actor_email": types.StringType, "actor_slug": types.StringType,
	}
)

func (m *clusterDataModel) fromAPI(c *buildkite.Cluster) {
	m.ID = types.StringValue(c.ID)
	m.UUID = types.StringValue(c.ID)
	m.GraphQLID = types.StringValue(c.GraphQLID)
	m.Name = types.StringValue(c.Name)
	m.Description = kit.OptionalString(c.Description)
	m.Emoji = kit.OptionalString(c.Emoji)
	m.Color = kit.OptionalString(c.Color)
	m.DefaultQueueID = kit.OptionalStringPtr(c.DefaultQueueID)
	m.DefaultQueue = types.ObjectNull(clusterDefaultQueueTypes)
	m.Maintainers = types.ListValueMust(types.ObjectType{AttrTypes: clusterMaintainerTypes}, nil)
	m.URL = types.StringValue(c.URL)
	m.WebURL = types.StringValue(c.WebURL)
	m.CreatedAt = kit.TimeValue(c.CreatedAt)
	m.HostedGitMirrorEnabled = types.BoolPointerValue(c.HostedGitMirrorEnabled)
	m.HostedContainerCacheEnabled = types.BoolPointerValue(c.HostedContainerCacheEnabled)
	m.AgentTracingServiceUUID = types.StringNull()
}

// withDefaultQueue sets default_queue from the cluster's default queue q (nil: it has none).
func (m *clusterDataModel) withDefaultQueue(q *buildkite.Queue) {
	if q == nil {
		m.DefaultQueue = types.ObjectNull(clusterDefaultQueueTypes)
		return
	}
	m.DefaultQueue = types.ObjectValueMust(clusterDefaultQueueTypes, map[string]attr.Value{
		"id": types.StringValue(q.ID), "uuid": types.StringValue(q.ID), "key": types.StringValue(q.Key),
		"description": kit.OptionalString(q.Description),
	})
}

// clusterDataAttributes are the computed attributes of a cluster in the data sources.
func clusterDataAttributes() map[string]dschema.Attribute {
	attrs := kit.DataWithCommon("cluster", kit.ComputedStrings(map[string]string{
		"name":             "The cluster's name.",
		"description":      "The cluster's description, null when it has none.",
		"emoji":            "The cluster's emoji, null when it has none.",
		"color":            "The cluster's color, null when it has none.",
		"default_queue_id": "The ID of the cluster's default queue, null while it has none.",
	}), kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt)
	attrs["hosted_git_mirror_enabled"] = dschema.BoolAttribute{
		MarkdownDescription: "Whether the cluster's hosted agents keep a git mirror of the repositories they check out; " +
			"null where the service does not show it (a token that cannot manage the cluster).",
		Computed: true,
	}
	attrs["hosted_container_cache_enabled"] = dschema.BoolAttribute{
		MarkdownDescription: "Whether the cluster's hosted agents cache container images between jobs; null where the " +
			"service does not show it.",
		Computed: true,
	}
	attrs["agent_tracing_service_uuid"] = dschema.StringAttribute{
		MarkdownDescription: "The UUID of the OpenTelemetry tracing notification service the cluster's agents export " +
			"traces to, `\"\"` when it has none. Read through Buildkite's GraphQL API: null where the provider cannot " +
			"reach it (no `graphql_url`, or an API token without the `graphql` scope).",
		Computed: true,
	}
	attrs["default_queue"] = dschema.SingleNestedAttribute{
		MarkdownDescription: "The cluster's default queue, null while it has none.",
		Computed:            true,
		Attributes: kit.ComputedStrings(map[string]string{
			"id": "The queue's ID (a UUID).", "uuid": "The queue's UUID, equal to `id`.",
			"key": "The queue's key.", "description": "The queue's description, null when it has none.",
		}),
	}
	attrs["maintainers"] = dschema.ListNestedAttribute{
		MarkdownDescription: "The users and teams that may manage the cluster (`buildkite_cluster_maintainer`), in the " +
			"order the service lists them.",
		Computed: true,
		NestedObject: dschema.NestedAttributeObject{Attributes: kit.ComputedStrings(map[string]string{
			"permission_uuid": "The UUID of the maintainer permission.",
			"actor_uuid":      "The UUID of the user or team.",
			"actor_type":      "`user` or `team`.",
			"actor_name":      "The user's or team's name.",
			"actor_email":     "The user's e-mail address (users only).",
			"actor_slug":      "The team's slug (teams only).",
		})},
	}
	return attrs
}

// clusterDetails fills m from c and reads c's maintainers, its default queue, where it has one, and its agent
// tracing service, where GraphQL can be asked.
func clusterDetails(ctx context.Context, data *kit.ProviderData, m *clusterDataModel, cluster *buildkite.Cluster) error {
	c := data.Client
	m.fromAPI(cluster)
	if data.GraphQLReachable() {
		tracing, err := c.Clusters.AgentTracingService(ctx, cluster.GraphQLID)
		if err != nil {
			return fmt.Errorf("reading the agent tracing service of cluster %s: %w", cluster.ID, err)
		}
		m.AgentTracingServiceUUID = types.StringValue(tracing)
	}
	maintainers, err := c.ClusterMaintainers.List(ctx, cluster.ID)
	if err != nil {
		return fmt.Errorf("listing the maintainers of cluster %s: %w", cluster.ID, err)
	}
	m.withMaintainers(maintainers)
	id := kit.Deref(cluster.DefaultQueueID)
	if id == "" {
		return nil
	}
	q, err := c.Queues.Get(ctx, cluster.ID, id)
	if err != nil {
		return fmt.Errorf("reading the default queue %s of cluster %s: %w", id, cluster.ID, err)
	}
	m.withDefaultQueue(q)
	return nil
}

// withMaintainers sets maintainers from the cluster's maintainer listing.
func (m *clusterDataModel) withMaintainers(list []buildkite.ClusterMaintainer) {
	items := make([]attr.Value, len(list))
	for i, cm := range list {
		items[i] = types.ObjectValueMust(clusterMaintainerTypes, map[string]attr.Value{
			"permission_uuid": types.StringValue(cm.ID),
			"actor_uuid":      types.StringValue(cm.Actor.ID),
			"actor_type":      types.StringValue(cm.Actor.Type),
			"actor_name":      kit.OptionalStringPtr(cm.Actor.Name),
			"actor_email":     kit.OptionalStringPtr(cm.Actor.Email),
			"actor_slug":      kit.OptionalStringPtr(cm.Actor.Slug),
		})
	}
	m.Maintainers = types.ListValueMust(types.ObjectType{AttrTypes: clusterMaintainerTypes}, items)
}

func (d *clusterDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One cluster of the organization, by `id` or by `name` (exactly one of them).",
		Attributes: kit.LookupByID(kit.WithLookup(clusterDataAttributes(), map[string]string{
			"id":   "The ID (or GraphQL ID) of the cluster to read.",
			"name": "The name of the cluster to read; it must name exactly one cluster.",
		}), "Cluster"),
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
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var found *buildkite.Cluster
	if id := kit.CanonicalID(cfg.ID.ValueString()); id != "" {
		c, err := d.Client().Clusters.Get(ctx, id)
		if buildkite.IsNotFound(err) {
			resp.Diagnostics.AddError("Unable to find Cluster", fmt.Sprintf("Could not find cluster with ID %q.", id))
			return
		}
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "read", "cluster", id, err)
			return
		}
		found = c
	} else {
		all, err := d.Client().Clusters.List(ctx)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "list", "clusters", "", err)
			return
		}
		name := cfg.Name.ValueString()
		if !slices.ContainsFunc(all, func(c buildkite.Cluster) bool { return c.Name == name }) {
			// The official provider's words, which users' tests match on.
			resp.Diagnostics.AddError("Unable to find Cluster", fmt.Sprintf("Could not find cluster with name %q", name))
			return
		}
		if found = kit.PickOne(&resp.Diagnostics, "cluster", fmt.Sprintf("the name %q", name), all,
			func(c *buildkite.Cluster) bool { return c.Name == name }); found == nil {
			return
		}
	}
	var out clusterDataModel
	if err := clusterDetails(ctx, d.Data, &out, found); err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "cluster", found.ID, err)
		return
	}
	if !cfg.ID.IsNull() {
		out.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

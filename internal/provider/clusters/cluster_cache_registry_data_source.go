package clusters

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*clusterCacheRegistryDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*clusterCacheRegistryDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*clusterCacheRegistryDataSource)(nil)
)

// NewClusterCacheRegistryDataSource returns the buildkite_cluster_cache_registry data source.
func NewClusterCacheRegistryDataSource() datasource.DataSource {
	return &clusterCacheRegistryDataSource{DataSourceBase: kit.NewDataSourceBase("cluster_cache_registry")}
}

type clusterCacheRegistryDataSource struct {
	kit.DataSourceBase
}

// clusterCacheRegistryDataModel is a registry as the data source shows it.
type clusterCacheRegistryDataModel struct {
	ClusterID   types.String `tfsdk:"cluster_id"`
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	Name        types.String `tfsdk:"name"`
	Slug        types.String `tfsdk:"slug"`
	Description types.String `tfsdk:"description"`
	Emoji       types.String `tfsdk:"emoji"`
	Color       types.String `tfsdk:"color"`
	Policy      types.String `tfsdk:"policy"`
	Default     types.Bool   `tfsdk:"default"`
	CreatedAt   types.String `tfsdk:"created_at"`
	UpdatedAt   types.String `tfsdk:"updated_at"`
}

func (m *clusterCacheRegistryDataModel) fromAPI(c *buildkite.CacheRegistry) {
	m.ID = types.StringValue(c.UUID)
	m.UUID = m.ID
	m.GraphQLID = types.StringValue(kit.GraphQLID(cacheRegistryGraphQLType, c.UUID))
	m.Name = types.StringValue(c.Name)
	m.Slug = types.StringValue(c.Slug)
	m.Description = kit.OptionalStringPtr(c.Description)
	m.Emoji = kit.OptionalStringPtr(c.Emoji)
	m.Color = kit.OptionalStringPtr(c.Color)
	m.Policy = types.StringNull()
	if len(c.Policy) > 0 && string(c.Policy) != "null" {
		m.Policy = types.StringValue(string(c.Policy))
	}
	m.Default = types.BoolValue(c.Default)
	m.CreatedAt = kit.TimeValue(c.CreatedAt)
	m.UpdatedAt = kit.TimeValue(c.UpdatedAt)
}

func (d *clusterCacheRegistryDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := kit.DataWithCommon("cache registry", map[string]dschema.Attribute{
		"cluster_id": kit.DataRefAttribute("The ID of the cluster the registry belongs to (its UUID or GraphQL ID).", true, "Cluster"),
	}, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrCreatedAt)
	attrs = kit.MergeAttrs(attrs, kit.ComputedStrings(map[string]string{
		"description": "What the registry holds; null when it says nothing.",
		"emoji":       "The registry's emoji; null when none.",
		"color":       "The registry's color; null when none.",
		"policy":      "The registry's normalized policy, as JSON; null when it denies everything.",
		"updated_at":  "When the registry was last changed (RFC 3339).",
	}))
	attrs = kit.WithLookup(attrs, map[string]string{
		kit.AttrID: "The UUID (or GraphQL ID) of the registry to read. Exactly one of `id`, `name` and `slug`.",
		"name":     "The name of the registry to read (compared without regard to case). Exactly one of `id`, `name` and `slug`.",
		"slug":     "The slug of the registry to read. Exactly one of `id`, `name` and `slug`.",
	})
	attrs = kit.LookupByID(attrs, cacheRegistryGraphQLType)
	name := attrs["name"].(dschema.StringAttribute)
	name.Validators = []validator.String{kit.NotBlank()}
	attrs["name"] = name
	attrs["default"] = dschema.BoolAttribute{MarkdownDescription: "Whether this is the cluster's default registry.", Computed: true}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One cache registry of a cluster, by its UUID, name or slug (the cluster's `Default` registry " +
			"is found by the name `Default`).",
		Attributes: attrs,
	}
}

func (d *clusterCacheRegistryDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(
		path.MatchRoot(kit.AttrID), path.MatchRoot("name"), path.MatchRoot("slug"))}
}

func (d *clusterCacheRegistryDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg clusterCacheRegistryDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	clusterID := kit.CanonicalID(cfg.ClusterID.ValueString())
	var found *buildkite.CacheRegistry
	var asked string
	if !cfg.ID.IsNull() {
		asked = "the ID " + cfg.ID.ValueString()
		c, err := d.Client().CacheRegistries.Get(ctx, clusterID, kit.CanonicalID(cfg.ID.ValueString()))
		if err != nil && !buildkite.IsNotFound(err) {
			kit.AddAPIError(&resp.Diagnostics, "read", "cache registry", asked, err)
			return
		}
		found = c
	} else {
		all, err := d.Client().CacheRegistries.List(ctx, clusterID)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "list", "cache registries", "of cluster "+clusterID, err)
			return
		}
		asked = fmt.Sprintf("the name %q", cfg.Name.ValueString())
		if !cfg.Slug.IsNull() {
			asked = fmt.Sprintf("the slug %q", cfg.Slug.ValueString())
		}
		for i := range all {
			c := &all[i]
			if (!cfg.Name.IsNull() && strings.EqualFold(c.Name, cfg.Name.ValueString())) || (!cfg.Slug.IsNull() && c.Slug == cfg.Slug.ValueString()) {
				found = c
				break
			}
		}
	}
	if found == nil {
		resp.Diagnostics.AddError("Cache Registry Not Found",
			fmt.Sprintf("Cluster %s has no cache registry with %s.", clusterID, asked))
		return
	}
	cfg.fromAPI(found)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

package provider

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
)

var (
	_ datasource.DataSource                     = (*clusterCacheRegistryDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*clusterCacheRegistryDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*clusterCacheRegistryDataSource)(nil)
)

// NewClusterCacheRegistryDataSource returns the buildkite_cluster_cache_registry data source.
func NewClusterCacheRegistryDataSource() datasource.DataSource {
	return &clusterCacheRegistryDataSource{dataSourceBase: newDataSourceBase("cluster_cache_registry")}
}

type clusterCacheRegistryDataSource struct {
	dataSourceBase
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
	m.GraphQLID = types.StringValue(graphQLID(cacheRegistryGraphQLType, c.UUID))
	m.Name = types.StringValue(c.Name)
	m.Slug = types.StringValue(c.Slug)
	m.Description = optionalStringPtr(c.Description)
	m.Emoji = optionalStringPtr(c.Emoji)
	m.Color = optionalStringPtr(c.Color)
	m.Policy = types.StringNull()
	if len(c.Policy) > 0 && string(c.Policy) != "null" {
		m.Policy = types.StringValue(string(c.Policy))
	}
	m.Default = types.BoolValue(c.Default)
	m.CreatedAt = timeValue(c.CreatedAt)
	m.UpdatedAt = timeValue(c.UpdatedAt)
}

func (d *clusterCacheRegistryDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := dataWithCommon("cache registry", map[string]dschema.Attribute{
		"cluster_id": dataRefAttribute("The ID of the cluster the registry belongs to (its UUID or GraphQL ID).", true, "Cluster"),
	}, attrUUID, attrGraphQLID, attrCreatedAt)
	attrs = mergeAttrs(attrs, computedStrings(map[string]string{
		"description": "What the registry holds; null when it says nothing.",
		"emoji":       "The registry's emoji; null when none.",
		"color":       "The registry's color; null when none.",
		"policy":      "The registry's normalized policy, as JSON; null when it denies everything.",
		"updated_at":  "When the registry was last changed (RFC 3339).",
	}))
	attrs = withLookup(attrs, map[string]string{
		attrID: "The UUID (or GraphQL ID) of the registry to read. Exactly one of `id`, `name` and `slug`.",
		"name": "The name of the registry to read (compared without regard to case). Exactly one of `id`, `name` and `slug`.",
		"slug": "The slug of the registry to read. Exactly one of `id`, `name` and `slug`.",
	})
	attrs = lookupByID(attrs, cacheRegistryGraphQLType)
	name := attrs["name"].(dschema.StringAttribute)
	name.Validators = []validator.String{notBlank()}
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
		path.MatchRoot(attrID), path.MatchRoot("name"), path.MatchRoot("slug"))}
}

func (d *clusterCacheRegistryDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg clusterCacheRegistryDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	clusterID := canonicalID(cfg.ClusterID.ValueString())
	var found *buildkite.CacheRegistry
	var asked string
	if !cfg.ID.IsNull() {
		asked = "the ID " + cfg.ID.ValueString()
		c, err := d.client().CacheRegistries.Get(ctx, clusterID, canonicalID(cfg.ID.ValueString()))
		if err != nil && !buildkite.IsNotFound(err) {
			addAPIError(&resp.Diagnostics, "read", "cache registry", asked, err)
			return
		}
		found = c
	} else {
		all, err := d.client().CacheRegistries.List(ctx, clusterID)
		if err != nil {
			addAPIError(&resp.Diagnostics, "list", "cache registries", "of cluster "+clusterID, err)
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

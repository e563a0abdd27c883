package pipelines

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*pipelineDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*pipelineDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*pipelineDataSource)(nil)
)

// NewPipelineDataSource returns the buildkite_pipeline data source.
func NewPipelineDataSource() datasource.DataSource {
	return &pipelineDataSource{DataSourceBase: kit.NewDataSourceBase("pipeline")}
}

type pipelineDataSource struct {
	kit.DataSourceBase
}

// pipelineDataAttributes are the attributes of one pipeline in the data sources: everything the resource
// shows, steps, tags and provider settings included.
func pipelineDataAttributes() map[string]schema.Attribute {
	str := func(description string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	boolean := func(description string) schema.Attribute {
		return schema.BoolAttribute{MarkdownDescription: description, Computed: true}
	}
	settings := make(map[string]schema.Attribute, len(PipelineSettings))
	for _, s := range PipelineSettings {
		if s.isString {
			settings[s.Key] = str(s.description)
		} else {
			settings[s.Key] = boolean(s.description)
		}
	}
	return kit.DataWithCommon("pipeline", map[string]schema.Attribute{
		"name":       str("The pipeline's name."),
		"slug":       str("The pipeline's slug."),
		"repository": str("The URL of the repository the pipeline builds."),
		"steps": schema.StringAttribute{
			CustomType: kit.YamlStringType, Computed: true,
			MarkdownDescription: "The pipeline's steps as YAML (null for a pipeline with visual steps).",
		},
		"pipeline_template_id": schema.StringAttribute{
			CustomType: kit.RefType{}, Computed: true, MarkdownDescription: "The UUID of the pipeline template the pipeline runs, if any.",
		},
		"cluster_id": schema.StringAttribute{
			CustomType: kit.RefType{}, Computed: true, MarkdownDescription: "The UUID of the pipeline's cluster, if any.",
		},
		"cluster_name":                             str("The name of the pipeline's cluster, if any."),
		"default_timeout_in_minutes":               schema.Int64Attribute{MarkdownDescription: "The timeout, in minutes, of command steps that set none.", Computed: true},
		"maximum_timeout_in_minutes":               schema.Int64Attribute{MarkdownDescription: "The longest timeout, in minutes, a command step may have.", Computed: true},
		"clone_mirror_url":                         str("The URL of the mirror agents clone the repository from, null when none is set."),
		"description":                              str("The pipeline's description."),
		"default_branch":                           str("The branch builds default to."),
		"branch_configuration":                     str("The branch filter pattern."),
		"skip_intermediate_builds":                 boolean("Whether builds of a branch not yet running are skipped when a newer one is created."),
		"skip_intermediate_builds_branch_filter":   str("The branches `skip_intermediate_builds` applies to."),
		"cancel_intermediate_builds":               boolean("Whether running builds of a branch are cancelled when a newer one is created."),
		"cancel_intermediate_builds_branch_filter": str("The branches `cancel_intermediate_builds` applies to."),
		"allow_rebuilds":                           boolean("Whether builds may be rebuilt."),
		"visibility": schema.StringAttribute{
			CustomType: kit.EnumType{}, Computed: true, MarkdownDescription: "`PRIVATE` or `PUBLIC`, in the official provider's upper case.",
		},
		"tags": schema.SetAttribute{
			MarkdownDescription: "The pipeline's tags.", ElementType: types.StringType, Computed: true,
		},
		"provider_settings": schema.SingleNestedAttribute{
			MarkdownDescription: "Settings of the repository's source provider.", Computed: true, Attributes: settings,
		},
		"archived":    boolean("Whether the pipeline is archived."),
		"badge_url":   str("The URL of the pipeline's build status badge."),
		"builds_url":  str("The API URL of the pipeline's builds."),
		"webhook_url": str("The URL the source provider sends events to (empty when the token cannot edit the pipeline)."),
	}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt)
}

func (d *pipelineDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := pipelineDataAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "The pipeline's UUID (or GraphQL ID). Give this or `slug`.", Optional: true, Computed: true,
	}
	kit.LookupByID(attrs, "Pipeline")
	attrs["slug"] = schema.StringAttribute{
		MarkdownDescription: "The pipeline's slug. Give this or `id`.", Optional: true, Computed: true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one pipeline, by `slug` or `id`, with everything the `buildkite_pipeline` resource " +
			"shows (unlike the official provider's, `steps`, `tags` and `provider_settings` too).",
		Attributes: attrs,
	}
}

func (d *pipelineDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("slug")),
	}
}

func (d *pipelineDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg pipelineFields
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var p *buildkite.Pipeline
	var err error
	asked := fmt.Sprintf("slug %q", cfg.Slug.ValueString())
	if !cfg.ID.IsNull() {
		asked = fmt.Sprintf("ID %q", cfg.ID.ValueString())
		p, err = d.Client().Pipelines.Find(ctx, kit.CanonicalID(cfg.ID.ValueString()), "")
	} else {
		p, err = d.Client().Pipelines.Get(ctx, cfg.Slug.ValueString())
	}
	if buildkite.IsNotFound(err) {
		// The official provider's summary, which its users' tests match.
		resp.Diagnostics.AddError("Unable to find pipeline", fmt.Sprintf("Could not find pipeline with %s.", asked))
		return
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "pipeline", asked, err)
		return
	}
	var out pipelineFields
	resp.Diagnostics.Append(out.fromAPI(ctx, p, nil)...)
	if err := out.withClusterName(p, clusterNameByGet(ctx, d.Client())); err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "pipeline", asked, err)
		return
	}
	if !cfg.ID.IsNull() {
		out.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

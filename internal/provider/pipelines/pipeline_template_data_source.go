package pipelines

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*pipelineTemplateDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*pipelineTemplateDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*pipelineTemplateDataSource)(nil)
)

// NewPipelineTemplateDataSource returns the buildkite_pipeline_template data source.
func NewPipelineTemplateDataSource() datasource.DataSource {
	return &pipelineTemplateDataSource{DataSourceBase: kit.NewDataSourceBase("pipeline_template")}
}

type pipelineTemplateDataSource struct {
	kit.DataSourceBase
}

// pipelineTemplateDataAttributes are the attributes of one template in the data sources.
func pipelineTemplateDataAttributes() map[string]schema.Attribute {
	str := func(description string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	return kit.DataWithCommon("pipeline template", map[string]schema.Attribute{
		"name": str("The template's name."),
		"configuration": schema.StringAttribute{
			CustomType: kit.YamlStringType, Computed: true, MarkdownDescription: "The steps as YAML.",
		},
		"description": str("The template's description."),
		"available": schema.BoolAttribute{
			MarkdownDescription: "Whether members who are not admins may assign the template.", Computed: true,
		},
		"updated_at": str("When the template was last changed (RFC 3339)."),
	}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt)
}

func (d *pipelineTemplateDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := pipelineTemplateDataAttributes()
	attrs["id"] = schema.StringAttribute{MarkdownDescription: "The template's UUID (or GraphQL ID). Give this or `name`.", Optional: true, Computed: true}
	kit.LookupByID(attrs, "PipelineTemplate")
	attrs["name"] = schema.StringAttribute{MarkdownDescription: "The template's name. Give this or `id`.", Optional: true, Computed: true}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one pipeline template, by `id` or `name` (enterprise plan).",
		Attributes:          attrs,
	}
}

func (d *pipelineTemplateDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *pipelineTemplateDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg pipelineTemplateModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var t *buildkite.PipelineTemplate
	if !cfg.ID.IsNull() {
		var err error
		t, err = d.Client().PipelineTemplates.Get(ctx, kit.CanonicalID(cfg.ID.ValueString()))
		if buildkite.IsNotFound(err) {
			resp.Diagnostics.AddError("Unable to find pipeline template", fmt.Sprintf("Could not find a pipeline template with ID %q.", cfg.ID.ValueString()))
			return
		}
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "read", "pipeline template", cfg.ID.ValueString(), err)
			return
		}
	} else {
		all, err := d.Client().PipelineTemplates.List(ctx)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "list", "pipeline templates", "", err)
			return
		}
		name := cfg.Name.ValueString()
		if !slices.ContainsFunc(all, func(t buildkite.PipelineTemplate) bool { return t.Name == name }) {
			// The official provider's words, which its users' tests match.
			resp.Diagnostics.AddError("Unable to find pipeline template", fmt.Sprintf("Could not find a pipeline template with name %q.", name))
			return
		}
		if t = kit.PickOne(&resp.Diagnostics, "pipeline template", fmt.Sprintf("name %q", name), all,
			func(t *buildkite.PipelineTemplate) bool { return t.Name == name }); t == nil {
			return
		}
	}
	var out pipelineTemplateModel
	out.fromAPI(t, nil)
	if !cfg.ID.IsNull() {
		out.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

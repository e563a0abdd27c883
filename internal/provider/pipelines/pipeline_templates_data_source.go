package pipelines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*pipelineTemplatesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*pipelineTemplatesDataSource)(nil)
)

// NewPipelineTemplatesDataSource returns the buildkite_pipeline_templates data source.
func NewPipelineTemplatesDataSource() datasource.DataSource {
	return &pipelineTemplatesDataSource{DataSourceBase: kit.NewDataSourceBase("pipeline_templates")}
}

type pipelineTemplatesDataSource struct {
	kit.DataSourceBase
}

type pipelineTemplatesModel struct {
	PipelineTemplates []pipelineTemplateModel `tfsdk:"pipeline_templates"`
}

func (d *pipelineTemplatesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the pipeline templates the token may see (admins see every one, others the " +
			"available ones; enterprise plan); each carries the attributes of the `buildkite_pipeline_template` data source.",
		Attributes: map[string]schema.Attribute{
			"pipeline_templates": kit.ListOf("The templates, in the order the service lists them.", pipelineTemplateDataAttributes()),
		},
	}
}

func (d *pipelineTemplatesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	items, ok := kit.ListItems(ctx, &resp.Diagnostics, "pipeline templates", "", d.Client().PipelineTemplates.List,
		func(m *pipelineTemplateModel, t *buildkite.PipelineTemplate) { m.fromAPI(t, nil) })
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &pipelineTemplatesModel{PipelineTemplates: items})...)
	}
}

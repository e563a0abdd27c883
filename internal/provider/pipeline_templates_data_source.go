package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var (
	_ datasource.DataSource              = (*pipelineTemplatesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*pipelineTemplatesDataSource)(nil)
)

// NewPipelineTemplatesDataSource returns the buildkite_pipeline_templates data source.
func NewPipelineTemplatesDataSource() datasource.DataSource {
	return &pipelineTemplatesDataSource{dataSourceBase: newDataSourceBase("pipeline_templates")}
}

type pipelineTemplatesDataSource struct {
	dataSourceBase
}

type pipelineTemplatesModel struct {
	PipelineTemplates []pipelineTemplateModel `tfsdk:"pipeline_templates"`
}

func (d *pipelineTemplatesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the pipeline templates the token may see (admins see every one, others the " +
			"available ones; enterprise plan); each carries the attributes of the `buildkite_pipeline_template` data source.",
		Attributes: map[string]schema.Attribute{
			"pipeline_templates": schema.ListNestedAttribute{
				MarkdownDescription: "The templates, in the order the service lists them.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: pipelineTemplateDataAttributes()},
			},
		},
	}
}

func (d *pipelineTemplatesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	all, err := d.client().PipelineTemplates.List(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "list", "pipeline templates", "", err)
		return
	}
	out := pipelineTemplatesModel{PipelineTemplates: make([]pipelineTemplateModel, len(all))}
	for i := range all {
		out.PipelineTemplates[i].fromAPI(&all[i], nil)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

package pipelines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewPipelineTemplateListResource returns the buildkite_pipeline_template list resource.
func NewPipelineTemplateListResource() list.ListResource {
	return &kit.NamedList[buildkite.PipelineTemplate]{
		ListBase:    kit.NewListBase("pipeline_template", pipelineTemplateIdentity),
		What:        "pipeline templates",
		Description: "Finds the pipeline templates the token may see (admins see every one), shown by name.",
		// Worded in the plural, as it was before the other by-name kinds shared NamedList.
		NameFilter: "Only the pipeline templates with this name (compared without regard to case). Unset, all of them.",
		ListFunc: func(ctx context.Context, c *buildkite.Client) ([]buildkite.PipelineTemplate, error) {
			return c.PipelineTemplates.List(ctx)
		},
		Name: func(t *buildkite.PipelineTemplate) string { return t.Name },
		Model: func(t *buildkite.PipelineTemplate) any {
			var m pipelineTemplateModel
			m.fromAPI(t, nil)
			return &m
		},
	}
}

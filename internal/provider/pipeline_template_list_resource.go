package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewPipelineTemplateListResource returns the buildkite_pipeline_template list resource.
func NewPipelineTemplateListResource() list.ListResource {
	return &namedList[buildkite.PipelineTemplate]{
		listBase:    newListBase("pipeline_template", pipelineTemplateIdentity),
		what:        "pipeline templates",
		description: "Finds the pipeline templates the token may see (admins see every one), shown by name.",
		// Worded in the plural, as it was before the other by-name kinds shared namedList.
		nameFilter: "Only the pipeline templates with this name (compared without regard to case). Unset, all of them.",
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.PipelineTemplate, error) {
			return c.PipelineTemplates.List(ctx)
		},
		name: func(t *buildkite.PipelineTemplate) string { return t.Name },
		model: func(t *buildkite.PipelineTemplate) any {
			var m pipelineTemplateModel
			m.fromAPI(t, nil)
			return &m
		},
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// pipelineParents are the parents of pipeline schedules: found in the pipeline listing, picked by UUID,
// whose schedules are listed by slug.
var pipelineParents = &parentKind[buildkite.Pipeline]{
	one:               "pipeline",
	many:              "pipelines",
	filter:            "pipeline_id",
	filterDescription: "Only those of the pipeline with this ID (UUID). Unset, those of every pipeline.",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Pipeline, error) {
		return c.Pipelines.List(ctx, nil)
	},
	hasID: func(p *buildkite.Pipeline, id string) bool { return p.ID == id },
	name:  func(p *buildkite.Pipeline) string { return p.Name },
	ref:   func(p *buildkite.Pipeline) string { return p.Slug },
}

// NewPipelineScheduleListResource returns the buildkite_pipeline_schedule list resource. Each schedule's
// pipeline_id is its pipeline's UUID.
func NewPipelineScheduleListResource() list.ListResource {
	return &childList[buildkite.Pipeline, buildkite.PipelineSchedule]{
		listBase:    newListBase("pipeline_schedule", pipelineScheduleIdentity),
		parents:     pipelineParents,
		what:        "pipeline schedules",
		description: "Finds the schedules of pipelines, shown as `<pipeline name> / <label>`.",
		listIn: func(ctx context.Context, c *buildkite.Client, p *buildkite.Pipeline) ([]buildkite.PipelineSchedule, error) {
			return c.PipelineSchedules.List(ctx, p.Slug)
		},
		found: func(p *buildkite.Pipeline, s *buildkite.PipelineSchedule) found {
			m := pipelineScheduleModel{PipelineID: types.StringValue(p.ID)}
			m.fromAPI(s)
			return found{model: &m, displayName: p.Name + " / " + displayOr(s.Label, s.Cronline)}
		},
	}
}

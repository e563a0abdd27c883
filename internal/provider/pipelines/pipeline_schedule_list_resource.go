package pipelines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// pipelineParents are the parents of pipeline schedules: found in the pipeline listing, picked by UUID,
// whose schedules are listed by slug.
var pipelineParents = &kit.ParentKind[buildkite.Pipeline]{
	One:               "pipeline",
	Many:              "pipelines",
	Filter:            "pipeline_id",
	FilterDescription: "Only those of the pipeline with this ID (UUID). Unset, those of every pipeline.",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Pipeline, error) {
		return c.Pipelines.List(ctx, nil)
	},
	HasID: func(p *buildkite.Pipeline, id string) bool { return p.ID == id },
	Name:  func(p *buildkite.Pipeline) string { return p.Name },
	Ref:   func(p *buildkite.Pipeline) string { return p.Slug },
}

// NewPipelineScheduleListResource returns the buildkite_pipeline_schedule list resource. Each schedule's
// pipeline_id is its pipeline's UUID.
func NewPipelineScheduleListResource() list.ListResource {
	return &kit.ChildList[buildkite.Pipeline, buildkite.PipelineSchedule]{
		ListBase:    kit.NewListBase("pipeline_schedule", pipelineScheduleIdentity),
		Parents:     pipelineParents,
		What:        "pipeline schedules",
		Description: "Finds the schedules of pipelines, shown as `<pipeline name> / <label>`.",
		ListIn: func(ctx context.Context, c *buildkite.Client, p *buildkite.Pipeline) ([]buildkite.PipelineSchedule, error) {
			return c.PipelineSchedules.List(ctx, p.Slug)
		},
		Found: func(p *buildkite.Pipeline, s *buildkite.PipelineSchedule) kit.Found {
			m := pipelineScheduleModel{PipelineID: types.StringValue(p.ID)}
			m.fromAPI(s)
			return kit.Found{Model: &m, DisplayName: p.Name + " / " + kit.DisplayOr(s.Label, s.Cronline)}
		},
	}
}

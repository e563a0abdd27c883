package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewPipelineTeamListResource returns the buildkite_pipeline_team list resource.
func NewPipelineTeamListResource() list.ListResource {
	return &childList[buildkite.Team, buildkite.TeamPipeline]{
		listBase: newListBase("pipeline_team", pipelineTeamIdentity),
		parents:  teamParents,
		what:     "team pipelines",
		description: "Finds the pipelines teams have access to, with the access level, each shown by the " +
			"pipeline's slug, shown as `<team name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamPipeline, error) {
			return client.TeamPipelines.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, tp *buildkite.TeamPipeline) found {
			var m pipelineTeamModel
			m.fromAPI(t.ID, tp)
			return found{model: &m, displayName: t.Name + " / " + displayOr(tp.PipelineSlug(), tp.PipelineID)}
		},
	}
}

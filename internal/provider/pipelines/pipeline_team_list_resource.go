package pipelines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewPipelineTeamListResource returns the buildkite_pipeline_team list resource.
func NewPipelineTeamListResource() list.ListResource {
	return &kit.ChildList[buildkite.Team, buildkite.TeamPipeline]{
		ListBase: kit.NewListBase("pipeline_team", pipelineTeamIdentity),
		Parents:  kit.TeamParents,
		What:     "team pipelines",
		Description: "Finds the pipelines teams have access to, with the access level, each shown by the " +
			"pipeline's slug, shown as `<team name> / …`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamPipeline, error) {
			return client.TeamPipelines.List(ctx, t.ID)
		},
		Found: func(t *buildkite.Team, tp *buildkite.TeamPipeline) kit.Found {
			var m pipelineTeamModel
			m.fromAPI(t.ID, tp)
			return kit.Found{Model: &m, DisplayName: t.Name + " / " + kit.DisplayOr(tp.PipelineSlug(), tp.PipelineID)}
		},
	}
}

package pipelines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// pipelineAccessLevels are a team's access levels to a pipeline, in the REST API's spelling.
var pipelineAccessLevels = []string{"read_only", "build_and_read", "manage_build_and_read"}

// pipelineTeamIdentity names a team's access to a pipeline by its two sides, for import blocks and
// terraform query.
var pipelineTeamIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("team_id", "The UUID of the team."),
	kit.IdentityAttr("pipeline_id", "The UUID of the pipeline."),
)

// NewPipelineTeamResource returns the buildkite_pipeline_team resource.
func NewPipelineTeamResource() resource.Resource { return kit.NewAssociation(pipelineTeamKind) }

type pipelineTeamModel struct {
	ID          types.String  `tfsdk:"id"`
	UUID        types.String  `tfsdk:"uuid"`
	GraphQLID   types.String  `tfsdk:"graphql_id"`
	TeamID      kit.RefValue  `tfsdk:"team_id"`
	PipelineID  kit.RefValue  `tfsdk:"pipeline_id"`
	AccessLevel kit.EnumValue `tfsdk:"access_level"`
}

func (m *pipelineTeamModel) fromAPI(teamID string, tp *buildkite.TeamPipeline) {
	m.ID = kit.AssociationID(teamID, tp.PipelineID)
	m.UUID = m.ID
	m.GraphQLID = kit.OptionalString(tp.GraphQLID)
	m.TeamID = kit.NewRef(teamID)
	m.PipelineID = kit.NewRef(tp.PipelineID)
	m.AccessLevel = kit.NewEnumValue(tp.AccessLevel)
}

// pipelineTeamKind declares buildkite_pipeline_team: a team's access to a pipeline, addressed by the team
// and the pipeline's UUID, with the level changed in place. It takes over the access a pipeline created
// with default_team_id gave.
var pipelineTeamKind = &kit.AssociationKind[buildkite.TeamPipeline, pipelineTeamModel]{
	Name:     "pipeline_team",
	What:     "pipeline team",
	Scopes:   kit.WriteScopes("write_teams"),
	Identity: pipelineTeamIdentity,
	Schema:   pipelineTeamSchema,
	Parent:   "team_id",
	Key:      "pipeline_id",
	Moves:    kit.BySides("team_id", "pipeline_id"),
	FromAPI:  (*pipelineTeamModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, teamID string, plan *pipelineTeamModel) (*buildkite.TeamPipeline, error) {
		return c.TeamPipelines.Create(ctx, teamID, buildkite.TeamPipelineCreate{
			PipelineID: plan.PipelineID.UUID(), AccessLevel: plan.AccessLevel.API(),
		})
	},
	Get: func(ctx context.Context, c *buildkite.Client, teamID, pipelineID string) (*buildkite.TeamPipeline, error) {
		return c.TeamPipelines.Get(ctx, teamID, pipelineID)
	},
	Update: func(ctx context.Context, c *buildkite.Client, teamID, pipelineID string, plan, _ *pipelineTeamModel) (*buildkite.TeamPipeline, error) {
		return c.TeamPipelines.Update(ctx, teamID, pipelineID, plan.AccessLevel.API())
	},
	Remove: func(ctx context.Context, c *buildkite.Client, teamID, pipelineID string) error {
		return c.TeamPipelines.Delete(ctx, teamID, pipelineID)
	},
	Current: func(tp *buildkite.TeamPipeline, plan *pipelineTeamModel) bool {
		return tp.AccessLevel == plan.AccessLevel.API()
	},
	// The pipeline is looked up among the team's pipelines, by UUID or slug.
	ImportParts: []kit.ImportPart{kit.KeyPart("<team id or slug>", "Team"), kit.KeyPart("<pipeline id or slug>", "Pipeline")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		return kit.TeamAndOther(ctx, c, parts, c.TeamPipelines.Get, c.TeamPipelines.List,
			func(tp *buildkite.TeamPipeline) string { return tp.PipelineID }, (*buildkite.TeamPipeline).PipelineSlug)
	},
}

func pipelineTeamSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A team's access to a pipeline. Import as `<team>/<pipeline>`, the team by UUID or slug " +
			"and the pipeline by UUID or slug.\n\n" +
			"**Which resource owns the access.** A `buildkite_pipeline` created with `default_team_id` gives that " +
			"team `manage_build_and_read` access once, when the pipeline is created, and never looks at it again. " +
			"A `buildkite_pipeline_team` for the same team and pipeline owns that access from then on: creating it " +
			"takes over the existing access and sets its own `access_level`, and destroying it removes the access. " +
			"The two do not fight: no plan of either shows a change made by the other. Two `buildkite_pipeline_team` " +
			"resources for one team and pipeline, created in one run, are refused, as the service refuses a duplicate.",
		Attributes: kit.AssociationAttributes("pipeline access", "<team id>/<pipeline id>", map[string]schema.Attribute{
			"team_id":     kit.ParentIDAttribute("The UUID of the team.", "Team"),
			"pipeline_id": kit.ParentIDAttribute("The UUID of the pipeline (its `id`).", "Pipeline"),
			"access_level": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "What the team's members may do: `read_only` view builds, `build_and_read` also " +
					"create builds, `manage_build_and_read` also change the pipeline's settings.",
				Required: true,
			}, pipelineAccessLevels...),
		}),
	}
}

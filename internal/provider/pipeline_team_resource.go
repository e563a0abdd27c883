package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                = (*pipelineTeamResource)(nil)
	_ resource.ResourceWithConfigure   = (*pipelineTeamResource)(nil)
	_ resource.ResourceWithImportState = (*pipelineTeamResource)(nil)
	_ resource.ResourceWithIdentity    = (*pipelineTeamResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*pipelineTeamResource)(nil)
)

// pipelineAccessLevels are a team's access levels to a pipeline, in the REST API's spelling.
var pipelineAccessLevels = []string{"read_only", "build_and_read", "manage_build_and_read"}

// pipelineTeamIdentity names a team's access to a pipeline by its two sides, for import blocks and
// terraform query.
var pipelineTeamIdentity = identifiedBy(
	identityAttr("team_id", "The UUID of the team."),
	identityAttr("pipeline_id", "The UUID of the pipeline."),
)

// NewPipelineTeamResource returns the buildkite_pipeline_team resource.
func NewPipelineTeamResource() resource.Resource {
	return &pipelineTeamResource{
		resourceBase:     newResourceBase("pipeline_team", writeScopes("write_teams")),
		resourceIdentity: pipelineTeamIdentity,
	}
}

type pipelineTeamResource struct {
	resourceBase
	resourceIdentity
}

type pipelineTeamModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	TeamID      types.String `tfsdk:"team_id"`
	PipelineID  types.String `tfsdk:"pipeline_id"`
	AccessLevel enumValue    `tfsdk:"access_level"`
}

func (m *pipelineTeamModel) fromAPI(teamID string, tp *buildkite.TeamPipeline) {
	m.ID = associationID(teamID, tp.PipelineID)
	m.UUID = m.ID
	m.GraphQLID = optionalString(tp.GraphQLID)
	m.TeamID = types.StringValue(teamID)
	m.PipelineID = types.StringValue(tp.PipelineID)
	m.AccessLevel = newEnumValue(tp.AccessLevel)
}

func (r *pipelineTeamResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team's access to a pipeline. Import as `<team>/<pipeline>`, the team by UUID or slug " +
			"and the pipeline by UUID or slug.\n\n" +
			"**Which resource owns the access.** A `buildkite_pipeline` created with `default_team_id` gives that " +
			"team `manage_build_and_read` access once, when the pipeline is created, and never looks at it again. " +
			"A `buildkite_pipeline_team` for the same team and pipeline owns that access from then on: creating it " +
			"takes over the existing access and sets its own `access_level`, and destroying it removes the access. " +
			"The two do not fight: no plan of either shows a change made by the other.",
		Attributes: associationAttributes("pipeline access", "<team id>/<pipeline id>", map[string]schema.Attribute{
			"team_id":     parentIDAttribute("The UUID of the team."),
			"pipeline_id": parentIDAttribute("The UUID of the pipeline (its `id`)."),
			"access_level": caseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "What the team's members may do: `read_only` view builds, `build_and_read` also " +
					"create builds, `manage_build_and_read` also change the pipeline's settings.",
				Required: true,
			}, pipelineAccessLevels...),
		}),
	}
}

// ident names the access in errors as its import ID does.
func (m *pipelineTeamModel) ident() string {
	return m.TeamID.ValueString() + "/" + m.PipelineID.ValueString()
}

func (r *pipelineTeamResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.identifyCreated(ctx, resp)
	var plan pipelineTeamModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	tps := r.client().TeamPipelines
	teamID, pipelineID, level := plan.TeamID.ValueString(), plan.PipelineID.ValueString(), plan.AccessLevel.API()
	tp, err := createOrTakeOver(ctx,
		func(ctx context.Context) (*buildkite.TeamPipeline, error) {
			return tps.Create(ctx, teamID, buildkite.TeamPipelineCreate{PipelineID: pipelineID, AccessLevel: level})
		},
		func(ctx context.Context) (*buildkite.TeamPipeline, error) { return tps.Get(ctx, teamID, pipelineID) },
		func(tp *buildkite.TeamPipeline) bool { return tp.AccessLevel == level },
		func(ctx context.Context) (*buildkite.TeamPipeline, error) {
			return tps.Update(ctx, teamID, pipelineID, level)
		})
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "pipeline team", plan.ident(), err)
		return
	}
	plan.fromAPI(teamID, tp)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *pipelineTeamResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.identifyRead(ctx, req, resp)
	var state pipelineTeamModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	tp, err := r.client().TeamPipelines.Get(ctx, state.TeamID.ValueString(), state.PipelineID.ValueString())
	if err != nil {
		r.readFailed(ctx, resp, err, "pipeline team", state.ident())
		return
	}
	state.fromAPI(state.TeamID.ValueString(), tp)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *pipelineTeamResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.identifyUpdated(ctx, resp)
	var plan pipelineTeamModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	tp, err := r.client().TeamPipelines.Update(ctx, plan.TeamID.ValueString(), plan.PipelineID.ValueString(), plan.AccessLevel.API())
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "pipeline team", plan.ident(), err)
		return
	}
	plan.fromAPI(plan.TeamID.ValueString(), tp)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *pipelineTeamResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state pipelineTeamModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	err := r.client().TeamPipelines.Delete(ctx, state.TeamID.ValueString(), state.PipelineID.ValueString())
	r.deleteFailed(ctx, &resp.Diagnostics, err, "pipeline team", state.ident())
}

// ImportState accepts, as an import ID or as the identity, "<team id or slug>/<pipeline id or slug>"; the
// pipeline is looked up among the team's pipelines.
func (r *pipelineTeamResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, keyPart("<team id or slug>"), keyPart("<pipeline id or slug>"))
	if !ok {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	tps := r.client().TeamPipelines
	t, err := findTeam(ctx, r.client(), parts[0])
	var tp *buildkite.TeamPipeline
	if err == nil {
		tp, err = findByIDOrKey(ctx, parts[1],
			func(ctx context.Context, id string) (*buildkite.TeamPipeline, error) { return tps.Get(ctx, t.ID, id) },
			func(ctx context.Context) ([]buildkite.TeamPipeline, error) { return tps.List(ctx, t.ID) },
			(*buildkite.TeamPipeline).PipelineSlug)
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", "pipeline team", req.ID, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("team_id"), t.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("pipeline_id"), tp.PipelineID)...)
}

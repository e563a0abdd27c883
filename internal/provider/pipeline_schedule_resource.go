package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ resource.Resource                 = (*pipelineScheduleResource)(nil)
	_ resource.ResourceWithConfigure    = (*pipelineScheduleResource)(nil)
	_ resource.ResourceWithImportState  = (*pipelineScheduleResource)(nil)
	_ resource.ResourceWithIdentity     = (*pipelineScheduleResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*pipelineScheduleResource)(nil)
	_ resource.ResourceWithUpgradeState = (*pipelineScheduleResource)(nil)
)

// pipelineScheduleIdentity names a schedule by its pipeline, as the configuration names it, and its ID.
var pipelineScheduleIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("pipeline_id", "The pipeline: its slug, UUID or GraphQL ID."),
	kit.IdentityAttr("id", "The schedule's ID (a UUID)."),
)

// NewPipelineScheduleResource returns the buildkite_pipeline_schedule resource.
func NewPipelineScheduleResource() resource.Resource {
	return &pipelineScheduleResource{
		ResourceBase: kit.NewResourceBase("pipeline_schedule", kit.WriteScopes("write_pipelines"), pipelineScheduleIdentity),
	}
}

type pipelineScheduleResource struct {
	kit.ResourceBase
}

type pipelineScheduleModel struct {
	ID         types.String `tfsdk:"id"`
	UUID       types.String `tfsdk:"uuid"`
	GraphQLID  types.String `tfsdk:"graphql_id"`
	PipelineID types.String `tfsdk:"pipeline_id"`
	Label      types.String `tfsdk:"label"`
	Cronline   types.String `tfsdk:"cronline"`
	Branch     types.String `tfsdk:"branch"`
	Commit     types.String `tfsdk:"commit"`
	Message    types.String `tfsdk:"message"`
	Env        types.Map    `tfsdk:"env"`
	Enabled    types.Bool   `tfsdk:"enabled"`
}

// fromAPI copies the service's view; pipeline_id stays as the configuration (or import) named the
// pipeline. No variables are an empty map, never null, so that `env = {}` and no env plan alike.
func (m *pipelineScheduleModel) fromAPI(s *buildkite.PipelineSchedule) {
	m.ID = types.StringValue(s.ID)
	m.UUID = m.ID
	m.GraphQLID = types.StringValue(s.GraphQLID)
	m.Label = types.StringValue(s.Label)
	m.Cronline = types.StringValue(s.Cronline)
	m.Branch = types.StringValue(s.Branch)
	m.Commit = types.StringValue(s.Commit)
	m.Message = kit.KeepEmpty(m.Message, s.Message)
	env := make(map[string]attr.Value, len(s.Env))
	for k, v := range s.Env {
		env[k] = types.StringValue(v)
	}
	m.Env = types.MapValueMust(types.StringType, env)
	m.Enabled = types.BoolValue(s.Enabled)
}

// toWrite is the body of a create (creating: an unset message is left out) or an update (sent as "" to
// clear it). Every other attribute has a value in a plan.
func (m *pipelineScheduleModel) toWrite(ctx context.Context, creating bool, diags *diag.Diagnostics) buildkite.PipelineScheduleWrite {
	in := buildkite.PipelineScheduleWrite{
		Cronline: m.Cronline.ValueString(),
		Label:    m.Label.ValueStringPointer(), Branch: m.Branch.ValueStringPointer(), Commit: m.Commit.ValueStringPointer(),
		Message: kit.StringPtr(m.Message), Enabled: m.Enabled.ValueBoolPointer(), Env: map[string]string{},
	}
	if creating {
		in.Message = kit.StringPtrIfSet(m.Message)
	}
	diags.Append(m.Env.ElementsAs(ctx, &in.Env, false)...)
	return in
}

// scheduleID is the schedule's REST ID. A state the official provider wrote holds the GraphQL ID in id
// and the UUID in uuid, so that is read until a refresh writes the UUID to id.
func (m *pipelineScheduleModel) scheduleID() string {
	if id, ok, _ := kit.UuidOrGraphQLID(m.ID.ValueString(), "PipelineSchedule"); ok {
		return id
	}
	return m.UUID.ValueString()
}

// ident names the schedule in errors as its import ID does.
func (m *pipelineScheduleModel) ident() string {
	return m.PipelineID.ValueString() + "/" + m.ID.ValueString()
}

func (r *pipelineScheduleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	emptyEnv := types.MapValueMust(types.StringType, map[string]attr.Value{})
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A schedule that creates builds of a pipeline when its cronline fires, such as a nightly " +
			"build. Import by its `id` (a UUID) or its GraphQL ID, or as `<pipeline>/<schedule id>`, the pipeline by slug, UUID or GraphQL ID.",
		Attributes: kit.WithCommon("schedule", map[string]schema.Attribute{
			"pipeline_id": schema.StringAttribute{
				MarkdownDescription: "The pipeline: its UUID (`buildkite_pipeline.x.id`), its slug, or its GraphQL ID as " +
					"the official provider stores it. State keeps it as written, and another spelling of the same " +
					"pipeline is no change; naming another pipeline replaces the schedule, as does a value not known " +
					"until apply (the slug of a pipeline renamed in the same plan), so prefer the pipeline's `id`.",
				Required:   true,
				Validators: []validator.String{kit.NotBlank(), kit.GraphQLTypeValidator{Typ: "Pipeline"}},
			},
			"label": schema.StringAttribute{
				MarkdownDescription: "What the schedule is called, such as `Nightly build`.",
				Required:            true,
			},
			"cronline": schema.StringAttribute{
				MarkdownDescription: "When builds are created: five crontab fields (minute, hour, day of month, month, " +
					"day of week) with an optional time-zone name after them (`0 3 * * 1-5 Europe/Berlin`; UTC " +
					"without one), or one of `@hourly`, `@daily` (or `@midnight`), `@weekly`, `@monthly`, `@yearly` " +
					"(or `@annually`). Checked at plan time.",
				Required:   true,
				Validators: []validator.String{kit.CronlineValidator{}},
			},
			"branch": schema.StringAttribute{
				MarkdownDescription: "The branch the builds run on.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"commit": schema.StringAttribute{
				MarkdownDescription: "The commit the builds run. Defaults to `HEAD`, the branch's newest commit.",
				Optional:            true, Computed: true, Default: stringdefault.StaticString("HEAD"),
				Validators: []validator.String{kit.NotBlank()},
			},
			"message": schema.StringAttribute{
				MarkdownDescription: "The message of the builds.",
				Optional:            true,
			},
			"env": schema.MapAttribute{
				MarkdownDescription: "Environment variables of the builds. `{}` and no `env` are the same: neither shows a difference.",
				ElementType:         types.StringType,
				Optional:            true, Computed: true, Default: mapdefault.StaticValue(emptyEnv),
			},
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the schedule creates builds. Defaults to `true`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(true),
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID),
	}
}

// UpgradeState moves the official provider's states (id and pipeline_id GraphQL IDs, no env stored as
// null) and ours of version 0 to version 1.
func (r *pipelineScheduleResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{Refs: []string{"pipeline_id"}, Official: func(_ int64, a kit.StateAttrs) error {
		if a["env"] == nil {
			a["env"] = map[string]any{} // no variables, as this provider writes them
		}
		return nil
	}})
}

// ModifyPlan checks the token's scopes and decides what a new pipeline_id means: another spelling of the
// same pipeline (its slug for its UUID, its UUID for the GraphQL ID the official provider stored) keeps the
// state's, and another pipeline replaces the schedule.
func (r *pipelineScheduleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("pipeline_id"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("pipeline_id"), &prior)...)
	if resp.Diagnostics.HasError() || planned.Equal(prior) {
		return
	}
	if planned.IsUnknown() || r.Data == nil {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("pipeline_id"))
		return
	}
	same, err := r.samePipeline(ctx, knownPipeline(ctx, req.Private), prior.ValueString(), planned.ValueString())
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("pipeline_id"), "Unable to Find Pipeline",
			fmt.Sprintf("Finding the pipeline that pipeline_id %q names: %s. Name an existing pipeline by its slug, UUID or GraphQL ID.",
				planned.ValueString(), kit.DescribeError(err)))
	case same:
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("pipeline_id"), prior)...)
	default:
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("pipeline_id"))
	}
}

// samePipeline tells whether ref names the pipeline the schedule is in, which prior named and k knows.
// The schedule's pipeline deleted since makes any other pipeline another one.
func (r *pipelineScheduleResource) samePipeline(ctx context.Context, k schedulePipeline, prior, ref string) (bool, error) {
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	current, err := r.resolvePipeline(ctx, prior, k)
	if buildkite.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	target, err := r.resolvePipeline(ctx, ref, schedulePipeline{})
	return err == nil && target.ID == current.ID, err
}

// ---- the pipeline a schedule is in ----

// pipelinePrivateKey is the private-state key of what a schedule knows of its pipeline.
const pipelinePrivateKey = "pipeline"

// schedulePipeline is what a schedule's private state keeps of its pipeline: the pipeline_id it was found
// by, its UUID, and its slug, which the schedule's paths are built with. It spares a refresh any lookup of
// the pipeline, and follows a rename.
type schedulePipeline struct {
	Ref  string `json:"ref"`
	ID   string `json:"id"`
	Slug string `json:"slug"`
}

// knownPipeline reads what the private state knows of the schedule's pipeline; nothing when it has none
// (a state the official provider wrote).
func knownPipeline(ctx context.Context, p kit.PrivateReader) schedulePipeline {
	var k schedulePipeline
	if data, diags := p.GetKey(ctx, pipelinePrivateKey); !diags.HasError() && len(data) > 0 {
		_ = json.Unmarshal(data, &k) // unreadable is unknown: the pipeline is looked up
	}
	return k
}

// save keeps k in the private state.
func (k schedulePipeline) save(ctx context.Context, p kit.PrivateWriter, diags *diag.Diagnostics) {
	if data, err := json.Marshal(k); err == nil {
		diags.Append(p.SetKey(ctx, pipelinePrivateKey, data)...)
	}
}

// names reports whether ref is how k's pipeline was found, or its UUID, slug or GraphQL ID.
func (k schedulePipeline) names(ref string) bool {
	if k.ID == "" {
		return false
	}
	id, _, _ := kit.UuidOrGraphQLID(ref, "Pipeline")
	return ref == k.Ref || ref == k.Slug || id == k.ID
}

// resolvePipeline finds the pipeline ref names. When k knows it, it is found by k's UUID (and followed
// through a rename); otherwise by ref.
func (r *pipelineScheduleResource) resolvePipeline(ctx context.Context, ref string, k schedulePipeline) (schedulePipeline, error) {
	var p *buildkite.Pipeline
	var err error
	if k.names(ref) {
		p, err = r.Client().Pipelines.Find(ctx, k.ID, k.Slug)
	} else {
		p, err = kit.FindPipeline(ctx, r.Client(), ref)
	}
	if err != nil {
		return k, err
	}
	return schedulePipeline{Ref: ref, ID: p.ID, Slug: p.Slug}, nil
}

// onPipeline runs call with the slug of the pipeline ref names, as k knows it, with no lookup. A 404 may
// mean only that the pipeline was renamed, so the pipeline is then found by its UUID and, when its slug
// changed, call runs again with the new one. It returns what is now known of the pipeline.
func (r *pipelineScheduleResource) onPipeline(ctx context.Context, ref string, k schedulePipeline, call func(slug string) error) (schedulePipeline, error) {
	if !k.names(ref) || k.Slug == "" {
		var err error
		if k, err = r.resolvePipeline(ctx, ref, k); err != nil {
			return k, err
		}
		return k, call(k.Slug)
	}
	err := call(k.Slug)
	if !buildkite.IsNotFound(err) {
		return k, err
	}
	now, ferr := r.resolvePipeline(ctx, ref, k)
	switch {
	case ferr != nil && !buildkite.IsNotFound(ferr):
		return k, ferr
	case ferr != nil || now.Slug == k.Slug: // the pipeline is gone, or the schedule is
		return k, err
	}
	now.Ref = k.Ref
	return now, call(now.Slug)
}

// ---- life cycle ----

func (r *pipelineScheduleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan pipelineScheduleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	in := plan.toWrite(ctx, true, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ident := fmt.Sprintf("%q of pipeline %s", plan.Label.ValueString(), plan.PipelineID.ValueString())
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	var s *buildkite.PipelineSchedule
	k, err := r.onPipeline(ctx, plan.PipelineID.ValueString(), schedulePipeline{}, func(slug string) (err error) {
		s, err = r.Client().PipelineSchedules.Create(ctx, slug, in)
		return err
	})
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "create", "pipeline schedule", ident, err)
		return
	}
	plan.fromAPI(s)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	k.save(ctx, resp.Private, &resp.Diagnostics)
}

func (r *pipelineScheduleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state pipelineScheduleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	var s *buildkite.PipelineSchedule
	k, err := r.onPipeline(ctx, state.PipelineID.ValueString(), knownPipeline(ctx, req.Private), func(slug string) (err error) {
		s, err = r.Client().PipelineSchedules.Get(ctx, slug, state.scheduleID())
		return err
	})
	if err != nil {
		r.ReadFailed(ctx, resp, err, "pipeline schedule", state.ident())
		return
	}
	state.fromAPI(s)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	k.save(ctx, resp.Private, &resp.Diagnostics)
}

// Update sends every attribute, a removed message as "" and a removed env as {}, so that the service
// holds what the configuration says.
func (r *pipelineScheduleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan, state pipelineScheduleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	in := plan.toWrite(ctx, false, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpUpdate)
	defer cancel()
	var s *buildkite.PipelineSchedule
	k, err := r.onPipeline(ctx, state.PipelineID.ValueString(), knownPipeline(ctx, req.Private), func(slug string) (err error) {
		s, err = r.Client().PipelineSchedules.Update(ctx, slug, state.scheduleID(), in)
		return err
	})
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "update", "pipeline schedule", state.ident(), err)
		return
	}
	plan.fromAPI(s)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	k.save(ctx, resp.Private, &resp.Diagnostics)
}

func (r *pipelineScheduleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state pipelineScheduleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	_, err := r.onPipeline(ctx, state.PipelineID.ValueString(), knownPipeline(ctx, req.Private), func(slug string) error {
		return r.Client().PipelineSchedules.Delete(ctx, slug, state.scheduleID())
	})
	r.DeleteFailed(ctx, &resp.Diagnostics, err, "pipeline schedule", state.ident())
}

// ImportState accepts the schedule's ID alone (its UUID, as id in state holds it, or its GraphQL ID, the
// official provider's import ID), its pipeline then found through the pipelines' schedule listings; or
// "<pipeline slug, UUID or GraphQL ID>/<schedule id>", which keeps the pipeline as it was named.
func (r *pipelineScheduleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if id := strings.TrimSpace(req.ID); id != "" && !strings.Contains(id, "/") {
		r.importByScheduleID(ctx, id, resp)
		return
	}
	parts, ok := r.ImportParts(ctx, req, resp, kit.KeyPart("<pipeline slug or id>"), kit.UuidPart("<schedule id>", "PipelineSchedule"))
	if !ok {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	k, err := r.onPipeline(ctx, parts[0], schedulePipeline{}, func(slug string) error {
		_, err := r.Client().PipelineSchedules.Get(ctx, slug, parts[1])
		return err
	})
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "import", "pipeline schedule", strings.Join(parts, "/"), err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("pipeline_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[1])...)
	k.save(ctx, resp.Private, &resp.Diagnostics)
}

// importByScheduleID imports a schedule named by its ID alone: REST addresses a schedule only under its
// pipeline, so the pipelines' schedule listings are searched for it. pipeline_id is then the pipeline's
// UUID, as `buildkite_pipeline.x.id` gives it.
func (r *pipelineScheduleResource) importByScheduleID(ctx context.Context, raw string, resp *resource.ImportStateResponse) {
	id, err := kit.CheckPart(kit.UuidPart("<schedule id>", "PipelineSchedule"), raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("Expected the schedule's ID (a UUID or its GraphQL ID) "+
			"or an import ID of the form \"<pipeline slug or id>/<schedule id>\": %s.", err))
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	pipelines, err := r.Client().Pipelines.List(ctx, nil)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "import", "pipeline schedule", raw, err)
		return
	}
	for _, p := range pipelines {
		schedules, err := r.Client().PipelineSchedules.List(ctx, p.Slug)
		if buildkite.IsNotFound(err) {
			continue // deleted while the search ran
		}
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "import", "pipeline schedule", raw, err)
			return
		}
		for _, s := range schedules {
			if strings.EqualFold(s.ID, id) {
				resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("pipeline_id"), p.ID)...)
				resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), s.ID)...)
				schedulePipeline{Ref: p.ID, ID: p.ID, Slug: p.Slug}.save(ctx, resp.Private, &resp.Diagnostics)
				return
			}
		}
	}
	resp.Diagnostics.AddError("Cannot Import Non-Existent Pipeline Schedule",
		fmt.Sprintf("No pipeline of the organization has a schedule with ID %s (%s).", id, raw))
}

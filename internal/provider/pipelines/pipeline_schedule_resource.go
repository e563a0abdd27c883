package pipelines

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
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

// pipelineScheduleIdentity names a schedule by its pipeline, as the configuration names it, and its ID.
var pipelineScheduleIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("pipeline_id", "The pipeline: its slug, UUID or GraphQL ID."),
	kit.IdentityAttr("id", "The schedule's ID (a UUID)."),
)

// NewPipelineScheduleResource returns the buildkite_pipeline_schedule resource.
func NewPipelineScheduleResource() resource.Resource { return kit.NewObject(pipelineScheduleKind) }

// pipelineScheduleKind declares buildkite_pipeline_schedule: a schedule of a pipeline named as written (its
// slug, UUID or GraphQL ID), whose REST paths take the pipeline's slug, found through the private state.
// Imported as "<pipeline>/<schedule id>", or by the schedule's ID alone.
var pipelineScheduleKind = &kit.ObjectKind[buildkite.PipelineSchedule, pipelineScheduleModel]{
	Name:     "pipeline_schedule",
	What:     "pipeline schedule",
	Scopes:   kit.WriteScopes("write_pipelines"),
	Identity: pipelineScheduleIdentity,
	Schema:   pipelineScheduleSchema,
	// The official provider's states hold id and pipeline_id as GraphQL IDs, and no env as null.
	Moves: kit.StateMoves{Refs: []string{"pipeline_id"}, Official: func(_ int64, a kit.StateAttrs) error {
		if a["env"] == nil {
			a["env"] = map[string]any{} // no variables, as this provider writes them
		}
		return nil
	}},
	Parent:  "pipeline_id",
	Key:     kit.AttrID,
	FromAPI: func(m *pipelineScheduleModel, _ string, s *buildkite.PipelineSchedule) { m.fromAPI(s) },
	Create: func(ctx context.Context, c *buildkite.Client, slug string, plan *pipelineScheduleModel) (*buildkite.PipelineSchedule, error) {
		in, err := plan.toWrite(ctx, true)
		if err != nil {
			return nil, err
		}
		return c.PipelineSchedules.Create(ctx, slug, in)
	},
	Get: func(ctx context.Context, c *buildkite.Client, slug, id string) (*buildkite.PipelineSchedule, error) {
		return c.PipelineSchedules.Get(ctx, slug, id)
	},
	// Update sends every attribute, a removed message as "" and a removed env as {}, so that the service
	// holds what the configuration says.
	Update: func(ctx context.Context, c *buildkite.Client, slug, id string, plan, _ *pipelineScheduleModel) (*buildkite.PipelineSchedule, error) {
		in, err := plan.toWrite(ctx, false)
		if err != nil {
			return nil, err
		}
		return c.PipelineSchedules.Update(ctx, slug, id, in)
	},
	Remove: func(ctx context.Context, c *buildkite.Client, slug, id string) error {
		return c.PipelineSchedules.Delete(ctx, slug, id)
	},
	ImportParts: []kit.ImportPart{kit.KeyPart("<pipeline slug or id>"), kit.UuidPart("<schedule id>", "PipelineSchedule")},
	Named: func(plan *pipelineScheduleModel) string {
		return fmt.Sprintf("%q of pipeline %s", plan.Label.ValueString(), plan.PipelineID.ValueString())
	},
	AsWritten: true,
	Locate: &kit.ParentLocator{
		PrivateKey: pipelinePrivateKey,
		Run:        onPipeline,
		Same:       samePipeline,
		Alone:      importByScheduleID,
	},
	KeyOr: kit.AttrUUID,
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
func (m *pipelineScheduleModel) toWrite(ctx context.Context, creating bool) (buildkite.PipelineScheduleWrite, error) {
	in := buildkite.PipelineScheduleWrite{
		Cronline: m.Cronline.ValueString(),
		Label:    m.Label.ValueStringPointer(), Branch: m.Branch.ValueStringPointer(), Commit: m.Commit.ValueStringPointer(),
		Message: kit.StringPtr(m.Message), Enabled: m.Enabled.ValueBoolPointer(), Env: map[string]string{},
	}
	if creating {
		in.Message = kit.StringPtrIfSet(m.Message)
	}
	if d := m.Env.ElementsAs(ctx, &in.Env, false); d.HasError() {
		return in, &kit.DiagnosedError{Summary: d.Errors()[0].Summary(), Detail: d.Errors()[0].Detail()}
	}
	return in, nil
}

func pipelineScheduleSchema() schema.Schema {
	emptyEnv := types.MapValueMust(types.StringType, map[string]attr.Value{})
	return schema.Schema{
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

// knownPipeline reads what the private state kept of the schedule's pipeline; nothing when it kept nothing
// (a create, or a state the official provider wrote).
func knownPipeline(kept []byte) schedulePipeline {
	var k schedulePipeline
	if len(kept) > 0 {
		_ = json.Unmarshal(kept, &k) // unreadable is unknown: the pipeline is looked up
	}
	return k
}

// kept is k as the private state keeps it.
func (k schedulePipeline) kept() []byte {
	data, _ := json.Marshal(k)
	return data
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
func resolvePipeline(ctx context.Context, c *buildkite.Client, ref string, k schedulePipeline) (schedulePipeline, error) {
	var p *buildkite.Pipeline
	var err error
	if k.names(ref) {
		p, err = c.Pipelines.Find(ctx, k.ID, k.Slug)
	} else {
		p, err = kit.FindPipeline(ctx, c, ref)
	}
	if err != nil {
		return k, err
	}
	return schedulePipeline{Ref: ref, ID: p.ID, Slug: p.Slug}, nil
}

// onPipeline runs call with the slug of the pipeline ref names, as the private state kept it, with no
// lookup. A 404 may mean only that the pipeline was renamed, so the pipeline is then found by its UUID
// and, when its slug changed, call runs again with the new one. It returns what is now known of the
// pipeline, for the private state.
func onPipeline(ctx context.Context, c *buildkite.Client, ref string, kept []byte, call func(slug string) error) ([]byte, error) {
	k := knownPipeline(kept)
	if !k.names(ref) || k.Slug == "" {
		var err error
		if k, err = resolvePipeline(ctx, c, ref, k); err != nil {
			return k.kept(), err
		}
		return k.kept(), call(k.Slug)
	}
	err := call(k.Slug)
	if !buildkite.IsNotFound(err) {
		return k.kept(), err
	}
	now, ferr := resolvePipeline(ctx, c, ref, k)
	switch {
	case ferr != nil && !buildkite.IsNotFound(ferr):
		return k.kept(), ferr
	case ferr != nil || now.Slug == k.Slug: // the pipeline is gone, or the schedule is
		return k.kept(), err
	}
	now.Ref = k.Ref
	return now.kept(), call(now.Slug)
}

// samePipeline tells whether ref names the pipeline the schedule is in, which prior named and the private
// state kept: another spelling of it (its slug for its UUID, its UUID for the GraphQL ID the official
// provider stored) is no change, and another pipeline replaces the schedule. The schedule's pipeline
// deleted since makes any other pipeline another one.
func samePipeline(ctx context.Context, c *buildkite.Client, prior string, kept []byte, ref string) (bool, error) {
	current, err := resolvePipeline(ctx, c, prior, knownPipeline(kept))
	if buildkite.IsNotFound(err) {
		return false, nil
	}
	if err == nil {
		var target schedulePipeline
		if target, err = resolvePipeline(ctx, c, ref, schedulePipeline{}); err == nil {
			return target.ID == current.ID, nil
		}
	}
	return false, &kit.DiagnosedError{Summary: "Unable to Find Pipeline", Detail: fmt.Sprintf(
		"Finding the pipeline that pipeline_id %q names: %s. Name an existing pipeline by its slug, UUID or GraphQL ID.",
		ref, kit.DescribeError(err))}
}

// importByScheduleID finds a schedule imported by its ID alone (its UUID, as id in state holds it, or its
// GraphQL ID, the official provider's import ID): REST addresses a schedule only under its pipeline, so
// the pipelines' schedule listings are searched for it. pipeline_id is then the pipeline's UUID, as
// `buildkite_pipeline.x.id` gives it.
func importByScheduleID(ctx context.Context, c *buildkite.Client, raw string) (pipelineID, id string, kept []byte, err error) {
	want, err := kit.CheckPart(kit.UuidPart("<schedule id>", "PipelineSchedule"), raw)
	if err != nil {
		return "", "", nil, &kit.DiagnosedError{Summary: "Invalid Import ID", Detail: fmt.Sprintf(
			"Expected the schedule's ID (a UUID or its GraphQL ID) or an import ID of the form \"<pipeline slug or id>/<schedule id>\": %s.", err)}
	}
	pipelines, err := c.Pipelines.List(ctx, nil)
	if err != nil {
		return "", "", nil, err
	}
	for _, p := range pipelines {
		schedules, err := c.PipelineSchedules.List(ctx, p.Slug)
		if buildkite.IsNotFound(err) {
			continue // deleted while the search ran
		}
		if err != nil {
			return "", "", nil, err
		}
		for _, s := range schedules {
			if strings.EqualFold(s.ID, want) {
				return p.ID, s.ID, schedulePipeline{Ref: p.ID, ID: p.ID, Slug: p.Slug}.kept(), nil
			}
		}
	}
	return "", "", nil, &kit.DiagnosedError{Summary: "Cannot Import Non-Existent Pipeline Schedule",
		Detail: fmt.Sprintf("No pipeline of the organization has a schedule with ID %s (%s).", want, raw)}
}

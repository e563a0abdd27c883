package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                     = (*clusterQueueResource)(nil)
	_ resource.ResourceWithConfigure        = (*clusterQueueResource)(nil)
	_ resource.ResourceWithImportState      = (*clusterQueueResource)(nil)
	_ resource.ResourceWithConfigValidators = (*clusterQueueResource)(nil)
)

// NewClusterQueueResource returns the buildkite_cluster_queue resource.
func NewClusterQueueResource() resource.Resource {
	return &clusterQueueResource{}
}

type clusterQueueResource struct {
	data *providerData
}

type clusterQueueModel struct {
	ID                 types.String `tfsdk:"id"`
	GraphQLID          types.String `tfsdk:"graphql_id"`
	ClusterID          types.String `tfsdk:"cluster_id"`
	Key                types.String `tfsdk:"key"`
	Description        types.String `tfsdk:"description"`
	DispatchPaused     types.Bool   `tfsdk:"dispatch_paused"`
	DispatchPausedNote types.String `tfsdk:"dispatch_paused_note"`
	URL                types.String `tfsdk:"url"`
	WebURL             types.String `tfsdk:"web_url"`
}

func (m *clusterQueueModel) fromAPI(clusterID string, q *buildkite.Queue) {
	m.ID = types.StringValue(q.ID)
	m.GraphQLID = types.StringValue(q.GraphQLID)
	m.ClusterID = types.StringValue(clusterID)
	m.Key = types.StringValue(q.Key)
	m.Description = optionalString(q.Description)
	m.DispatchPaused = types.BoolValue(q.DispatchPaused)
	m.DispatchPausedNote = optionalStringPtr(q.DispatchPausedNote)
	m.URL = types.StringValue(q.URL)
	m.WebURL = types.StringValue(q.WebURL)
}

// queueKeyPattern is the form of queue keys the service accepts.
var queueKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_\-]*$`)

func (r *clusterQueueResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster_queue"
}

func (r *clusterQueueResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A queue of a cluster. Agents that start with `queue=<key>` take jobs from it. " +
			"Dispatching of jobs to the queue's agents can be paused and resumed with `dispatch_paused`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The queue's ID (a UUID).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"graphql_id": schema.StringAttribute{
				MarkdownDescription: "The queue's GraphQL ID.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the cluster the queue belongs to. Changing it replaces the queue.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"key": schema.StringAttribute{
				MarkdownDescription: "The queue key that agents target. Changing it replaces the queue.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators: []validator.String{
					stringvalidator.LengthBetween(1, 100),
					stringvalidator.RegexMatches(queueKeyPattern, "must start with a letter or digit and contain only letters, digits, hyphens and underscores"),
				},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the queue.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"dispatch_paused": schema.BoolAttribute{
				MarkdownDescription: "Whether dispatching of jobs to the queue's agents is paused. Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"dispatch_paused_note": schema.StringAttribute{
				MarkdownDescription: "A note explaining the pause, shown on the queue page and on affected builds. " +
					"Only valid while `dispatch_paused` is `true`; changing it re-pauses the queue with the new note.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"url": schema.StringAttribute{
				MarkdownDescription: "The queue's API URL.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"web_url": schema.StringAttribute{
				MarkdownDescription: "The queue's page in the web interface.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func (r *clusterQueueResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{pausedNoteValidator{}}
}

// pausedNoteValidator refuses a pause note on a queue that is not paused: the service drops the note on
// resume, so the configuration could never converge.
type pausedNoteValidator struct{}

func (pausedNoteValidator) Description(context.Context) string {
	return "dispatch_paused_note requires dispatch_paused = true"
}

func (v pausedNoteValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (pausedNoteValidator) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg clusterQueueModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.DispatchPausedNote.IsNull() || cfg.DispatchPausedNote.IsUnknown() || cfg.DispatchPaused.IsUnknown() {
		return
	}
	if !cfg.DispatchPaused.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("dispatch_paused_note"), "Pause Note Without Pause",
			"dispatch_paused_note can only be set while dispatch_paused is true: the service clears the note when a queue is resumed.")
	}
}

func (r *clusterQueueResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *clusterQueueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan clusterQueueModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	clusterID := plan.ClusterID.ValueString()
	q, err := r.data.client.Queues.Create(ctx, clusterID, buildkite.QueueCreate{
		Key:         plan.Key.ValueString(),
		Description: stringPtrIfSet(plan.Description),
	})
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "cluster queue", fmt.Sprintf("%q in cluster %s", plan.Key.ValueString(), clusterID), err)
		return
	}
	if plan.DispatchPaused.ValueBool() {
		// Save the queue first so that a failed pause leaves it tracked rather than orphaned.
		created := plan
		created.fromAPI(clusterID, q)
		resp.Diagnostics.Append(resp.State.Set(ctx, &created)...)
		q, err = r.data.client.Queues.Pause(ctx, clusterID, q.ID, plan.DispatchPausedNote.ValueString())
		if err != nil {
			addAPIError(&resp.Diagnostics, "pause", "cluster queue", created.ident(), err)
			return
		}
	}
	plan.fromAPI(clusterID, q)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// ident names the queue in errors as its import ID does.
func (m *clusterQueueModel) ident() string {
	return m.ClusterID.ValueString() + "/" + m.ID.ValueString()
}

func (r *clusterQueueResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state clusterQueueModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	clusterID := state.ClusterID.ValueString()
	q, err := r.data.client.Queues.Get(ctx, clusterID, state.ID.ValueString())
	if buildkite.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "read", "cluster queue", state.ident(), err)
		return
	}
	state.fromAPI(clusterID, q)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterQueueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state clusterQueueModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	clusterID, id := state.ClusterID.ValueString(), state.ID.ValueString()
	queues := r.data.client.Queues

	var q *buildkite.Queue
	var err error
	if !plan.Description.Equal(state.Description) {
		if q, err = queues.Update(ctx, clusterID, id, buildkite.QueueUpdate{Description: stringPtr(plan.Description)}); err != nil {
			addAPIError(&resp.Diagnostics, "update", "cluster queue", state.ident(), err)
			return
		}
	}

	// State was refreshed before planning, so it holds the queue's current pause status and note.
	paused := state.DispatchPaused.ValueBool()
	wantPaused := plan.DispatchPaused.ValueBool()
	// The note can only be set by pausing, so a changed note on a paused queue means resume then pause.
	if paused && (!wantPaused || !plan.DispatchPausedNote.Equal(state.DispatchPausedNote)) {
		if q, err = queues.Resume(ctx, clusterID, id); err != nil {
			addAPIError(&resp.Diagnostics, "resume", "cluster queue", state.ident(), err)
			return
		}
		paused = false
	}
	if wantPaused && !paused {
		if q, err = queues.Pause(ctx, clusterID, id, plan.DispatchPausedNote.ValueString()); err != nil {
			addAPIError(&resp.Diagnostics, "pause", "cluster queue", state.ident(), err)
			return
		}
	}
	if q == nil {
		if q, err = queues.Get(ctx, clusterID, id); err != nil {
			addAPIError(&resp.Diagnostics, "read", "cluster queue", state.ident(), err)
			return
		}
	}
	plan.fromAPI(clusterID, q)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterQueueResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterQueueModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	err := r.data.client.Queues.Delete(ctx, state.ClusterID.ValueString(), state.ID.ValueString())
	if err != nil && !buildkite.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "delete", "cluster queue", state.ident(), err)
	}
}

// ImportState accepts "<cluster id>/<queue id>" or "<cluster id>/<queue key>".
func (r *clusterQueueResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	clusterID, ref, ok := splitImportID(req.ID)
	if !ok {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Expected \"<cluster id>/<queue id>\" or \"<cluster id>/<queue key>\", got %q.", req.ID))
		return
	}
	queueID := ref
	if _, err := uuid.Parse(ref); err != nil {
		found, err := r.findQueueByKey(ctx, clusterID, ref)
		if err != nil {
			addAPIError(&resp.Diagnostics, "import", "cluster queue", req.ID, err)
			return
		}
		if found == "" {
			resp.Diagnostics.AddError("Cluster Queue Not Found",
				fmt.Sprintf("Cluster %s has no queue with the key %q.", clusterID, ref))
			return
		}
		queueID = found
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), clusterID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), queueID)...)
}

func (r *clusterQueueResource) findQueueByKey(ctx context.Context, clusterID, key string) (string, error) {
	queues, err := r.data.client.Queues.List(ctx, clusterID)
	if err != nil {
		return "", err
	}
	for _, q := range queues {
		if q.Key == key {
			return q.ID, nil
		}
	}
	return "", nil
}

// splitImportID splits "<parent>/<child>" where neither part is empty.
func splitImportID(id string) (parent, child string, ok bool) {
	parent, child, found := strings.Cut(id, "/")
	if !found || parent == "" || child == "" || strings.Contains(child, "/") {
		return "", "", false
	}
	return parent, child, true
}

package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ resource.Resource                     = (*clusterQueueResource)(nil)
	_ resource.ResourceWithConfigure        = (*clusterQueueResource)(nil)
	_ resource.ResourceWithImportState      = (*clusterQueueResource)(nil)
	_ resource.ResourceWithIdentity         = (*clusterQueueResource)(nil)
	_ resource.ResourceWithConfigValidators = (*clusterQueueResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*clusterQueueResource)(nil)
	_ resource.ResourceWithUpgradeState     = (*clusterQueueResource)(nil)
)

// clusterQueueIdentity names a cluster queue for import blocks and terraform query.
var clusterQueueIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the queue belongs to."),
	kit.IdentityAttr("key", "The queue's key."),
)

// NewClusterQueueResource returns the buildkite_cluster_queue resource.
func NewClusterQueueResource() resource.Resource {
	return &clusterQueueResource{
		ResourceBase: kit.NewResourceBase("cluster_queue", kit.WriteScopes("write_clusters"), clusterQueueIdentity).WithGraphQLAttrs("hosted_agents.mac"),
	}
}

type clusterQueueResource struct {
	kit.ResourceBase
}

type clusterQueueModel struct {
	ID                 types.String `tfsdk:"id"`
	UUID               types.String `tfsdk:"uuid"`
	GraphQLID          types.String `tfsdk:"graphql_id"`
	ClusterID          kit.RefValue `tfsdk:"cluster_id"`
	ClusterUUID        types.String `tfsdk:"cluster_uuid"`
	Key                types.String `tfsdk:"key"`
	Description        types.String `tfsdk:"description"`
	DispatchPaused     types.Bool   `tfsdk:"dispatch_paused"`
	DispatchPausedNote types.String `tfsdk:"dispatch_paused_note"`
	RetryAgentAffinity types.String `tfsdk:"retry_agent_affinity"`
	HostedAgents       types.Object `tfsdk:"hosted_agents"`
	URL                types.String `tfsdk:"url"`
	WebURL             types.String `tfsdk:"web_url"`
}

// fromAPI copies the service's view; clusterID is the cluster's UUID (cluster_id keeps the configuration's
// form by its semantic equality). hosted_agents comes from the answer but for its mac block, which REST
// does not show: it stays as the model held it, and GraphQL fills it (cluster_queue_resource_mac.go).
func (m *clusterQueueModel) fromAPI(clusterID string, q *buildkite.Queue) {
	m.ID = types.StringValue(q.ID)
	m.UUID = types.StringValue(q.ID)
	m.GraphQLID = types.StringValue(q.GraphQLID)
	m.ClusterID = kit.NewRef(clusterID)
	m.ClusterUUID = types.StringValue(clusterID)
	m.Key = types.StringValue(q.Key)
	m.Description = kit.KeepEmpty(m.Description, &q.Description)
	m.DispatchPaused = types.BoolValue(q.DispatchPaused)
	m.DispatchPausedNote = kit.OptionalStringPtr(q.DispatchPausedNote)
	m.RetryAgentAffinity = types.StringValue(kit.DisplayOr(q.RetryAgentAffinity, defaultRetryAgentAffinity))
	m.HostedAgents = hostedAgentsFromAPI(q, m.HostedAgents)
	m.URL = types.StringValue(q.URL)
	m.WebURL = types.StringValue(q.WebURL)
}

// The values of retry_agent_affinity; the service's default is the first.
var retryAgentAffinities = []string{"prefer-warmest", "prefer-different"}

const defaultRetryAgentAffinity = "prefer-warmest"

// update is the body of an update of what changed between state and plan (nil when nothing did); the
// dispatch state changes through pause and resume instead.
func (m *clusterQueueModel) toUpdate(state *clusterQueueModel) *buildkite.QueueUpdate {
	var u buildkite.QueueUpdate
	changed := false
	if !m.Description.Equal(state.Description) {
		u.Description, changed = kit.StringPtr(m.Description), true
	}
	if !m.RetryAgentAffinity.IsUnknown() && !m.RetryAgentAffinity.Equal(state.RetryAgentAffinity) {
		u.RetryAgentAffinity, changed = kit.StringPtr(m.RetryAgentAffinity), true
	}
	if h := hostedUpdate(m.HostedAgents, state.HostedAgents); h != nil {
		u.HostedAgents, changed = h, true
	}
	if !changed {
		return nil
	}
	return &u
}

// ModifyPlan checks scopes and warns of GraphQL-only attributes (the base), and refuses a hosted queue's
// change of platform, which the service refuses.
func (r *clusterQueueResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
	refusePlatformChange(ctx, req, resp)
}

// queueKeyPattern is the form of queue keys the service accepts.
var queueKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_\-]*$`)

func (r *clusterQueueResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A queue of a cluster. Agents that start with `queue=<key>` take jobs from it. " +
			"Dispatching of jobs to the queue's agents can be paused and resumed with `dispatch_paused`.",
		Attributes: kit.WithCommon("queue", map[string]schema.Attribute{
			"cluster_id":   kit.ParentIDAttribute("The ID of the cluster the queue belongs to.", "Cluster"),
			"cluster_uuid": kit.ComputedString("The UUID of the cluster the queue belongs to; configurations written for the official provider refer to it."),
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
			"retry_agent_affinity": schema.StringAttribute{
				MarkdownDescription: "Which agent a retried job goes to: `prefer-warmest` (the default) the agent with the warmest " +
					"cache, `prefer-different` another agent than the one it failed on.",
				Optional: true, Computed: true,
				Default:    stringdefault.StaticString(defaultRetryAgentAffinity),
				Validators: []validator.String{stringvalidator.OneOf(retryAgentAffinities...)},
			},
			"hosted_agents": hostedAgentsAttribute(),
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL),
	}
}

// UpgradeState moves the official provider's states and ours of version 0 to version 1.
func (r *clusterQueueResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{Refs: []string{"cluster_id"}, Ours: func(_ int64, a kit.StateAttrs) error {
		a["cluster_uuid"] = a["cluster_id"]
		return nil
	}})
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
	// Only the two attributes: decoding the whole model on every validation showed in the wall-time profile.
	var note types.String
	var paused types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("dispatch_paused_note"), &note)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("dispatch_paused"), &paused)...)
	if resp.Diagnostics.HasError() || !kit.IsKnownValue(note) || paused.IsUnknown() {
		return
	}
	if !paused.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("dispatch_paused_note"), "Pause Note Without Pause",
			"dispatch_paused_note can only be set while dispatch_paused is true: the service clears the note when a queue is resumed.")
	}
}

func (r *clusterQueueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan clusterQueueModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	clusterID := plan.ClusterID.UUID()
	in := buildkite.QueueCreate{
		Key:                plan.Key.ValueString(),
		Description:        kit.StringPtrIfSet(plan.Description),
		RetryAgentAffinity: kit.StringPtrIfSet(plan.RetryAgentAffinity),
	}
	hosted, isHosted := hostedFrom(plan.HostedAgents)
	if isHosted {
		in.HostedAgents = &buildkite.HostedAgentsWrite{InstanceShape: hosted.shape}
	}
	q, err := r.Client().Queues.Create(ctx, clusterID, in)
	if err != nil {
		r.CreateFailed(ctx, &resp.Diagnostics, err, "cluster queue", fmt.Sprintf("%q in cluster %s", plan.Key.ValueString(), clusterID),
			r.holderOfKey(clusterID, plan.Key.ValueString()))
		return
	}
	if hosted.image != "" {
		// The service takes the image only on an update: save the queue first so that a failure leaves it
		// tracked (with the default image, which the next plan shows) rather than orphaned.
		created := plan
		created.fromAPI(clusterID, q)
		resp.Diagnostics.Append(resp.State.Set(ctx, &created)...)
		q, err = r.Client().Queues.Update(ctx, clusterID, q.ID, buildkite.QueueUpdate{HostedAgents: &buildkite.HostedAgentsWrite{
			InstanceShape: hosted.shape, AgentImageRef: buildkite.Value(hosted.image),
		}})
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "set the agent image of", "cluster queue", created.ident(), err)
			return
		}
	}
	if plan.DispatchPaused.ValueBool() {
		// Save the queue first so that a failed pause leaves it tracked rather than orphaned.
		created := plan
		created.fromAPI(clusterID, q)
		resp.Diagnostics.Append(resp.State.Set(ctx, &created)...)
		q, err = r.Client().Queues.Pause(ctx, clusterID, q.ID, plan.DispatchPausedNote.ValueString())
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "pause", "cluster queue", created.ident(), err)
			return
		}
	}
	plan.fromAPI(clusterID, q)
	if macSettingsFrom(plan.HostedAgents) != nil {
		// Save the queue first, without the macOS settings, so that a failure leaves it tracked.
		created := plan
		created.HostedAgents = withMacSettings(created.HostedAgents, &buildkite.MacSettings{})
		resp.Diagnostics.Append(resp.State.Set(ctx, &created)...)
		if r.applyMacSettings(ctx, &plan, types.ObjectNull(hostedAgentsTypes), &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// ident names the queue in errors as its import ID does.
func (m *clusterQueueModel) ident() string {
	return m.ClusterID.UUID() + "/" + m.ID.ValueString()
}

func (r *clusterQueueResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state clusterQueueModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	clusterID := state.ClusterID.UUID()
	q, err := r.Client().Queues.Get(ctx, clusterID, kit.RestID(state.ID))
	if err != nil {
		r.ReadFailed(ctx, resp, err, "cluster queue", state.ident())
		return
	}
	state.fromAPI(clusterID, q)
	if err := r.readMacSettings(ctx, &state); err != nil {
		// REST has just served the queue: a GraphQL null or not found for its settings is no 404 of it.
		kit.AddPartReadError(&resp.Diagnostics, "cluster queue", state.ident(), "macOS settings (hosted_agents.mac)", err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterQueueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan, state clusterQueueModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpUpdate)
	defer cancel()
	clusterID, id := state.ClusterID.UUID(), kit.RestID(state.ID)
	queues := r.Client().Queues

	var q *buildkite.Queue
	var err error
	if u := plan.toUpdate(&state); u != nil {
		if q, err = queues.Update(ctx, clusterID, id, *u); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "update", "cluster queue", state.ident(), err)
			return
		}
	}

	// State was refreshed before planning, so it holds the queue's current pause status and note.
	paused := state.DispatchPaused.ValueBool()
	wantPaused := plan.DispatchPaused.ValueBool()
	// The note can only be set by pausing, so a changed note on a paused queue means resume then pause.
	if paused && (!wantPaused || !plan.DispatchPausedNote.Equal(state.DispatchPausedNote)) {
		if q, err = queues.Resume(ctx, clusterID, id); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "resume", "cluster queue", state.ident(), err)
			return
		}
		paused = false
	}
	if wantPaused && !paused {
		if q, err = queues.Pause(ctx, clusterID, id, plan.DispatchPausedNote.ValueString()); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "pause", "cluster queue", state.ident(), err)
			return
		}
	}
	if q == nil {
		if q, err = queues.Get(ctx, clusterID, id); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "read", "cluster queue", state.ident(), err)
			return
		}
	}
	plan.fromAPI(clusterID, q)
	if r.applyMacSettings(ctx, &plan, state.HostedAgents, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterQueueResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterQueueModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	err := r.Client().Queues.Delete(ctx, state.ClusterID.UUID(), kit.RestID(state.ID))
	r.DeleteFailed(ctx, &resp.Diagnostics, err, "cluster queue", state.ident())
}

// ImportState accepts "<cluster id>/<queue id>" or "<cluster id>/<queue key>", each ID a UUID or a GraphQL
// ID, and the official provider's "<queue GraphQL ID>,<cluster UUID>"; a key that looks like a UUID is still
// found by key when no queue has it as its ID.
func (r *clusterQueueResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if queue, cluster, official := strings.Cut(req.ID, ","); official && !strings.Contains(req.ID, "/") {
		req.ID = strings.TrimSpace(cluster) + "/" + strings.TrimSpace(queue)
	}
	if !kit.QualifyImportID(ctx, &req, resp, "cluster queue", "<cluster id>/<queue id or key>", kit.ClusterIDs(r.Client()), kit.Answers(r.Client().Queues.Get)) {
		return
	}
	parts, ok := r.ImportParts(ctx, req, resp, kit.UuidPart("<cluster id>", "Cluster"), kit.KeyPart("<queue id or key>", "ClusterQueue"))
	if !ok {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	queues := r.Client().Queues
	clusterID := parts[0]
	q, err := kit.FindByIDOrKey(ctx, parts[1],
		func(ctx context.Context, id string) (*buildkite.Queue, error) { return queues.Get(ctx, clusterID, id) },
		func(ctx context.Context) ([]buildkite.Queue, error) { return queues.List(ctx, clusterID) },
		func(q *buildkite.Queue) string { return q.Key })
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "import", "cluster queue", req.ID, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), clusterID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), q.ID)...)
}

// holderOfKey finds the queue that holds a key in a cluster, where keys are unique; it is adopted as
// "<cluster id>/<key>".
func (r *clusterQueueResource) holderOfKey(clusterID, key string) kit.HolderLookup {
	return func(ctx context.Context) (*kit.Holder, error) {
		queues, err := r.Client().Queues.List(ctx, clusterID)
		if err != nil {
			return nil, err
		}
		for _, q := range queues {
			if q.Key == key {
				return &kit.Holder{
					Description: fmt.Sprintf("cluster queue %q (ID %s) in cluster %s", q.Key, q.ID, clusterID),
					ImportID:    clusterID + "/" + q.Key,
				}, nil
			}
		}
		return nil, nil
	}
}

package clusters

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// clusterQueueIdentity names a cluster queue for import blocks and terraform query.
var clusterQueueIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the queue belongs to."),
	kit.IdentityAttr("key", "The queue's key."),
)

// NewClusterQueueResource returns the buildkite_cluster_queue resource.
func NewClusterQueueResource() resource.Resource { return kit.NewObject(clusterQueueKind) }

// clusterQueueKind declares buildkite_cluster_queue: a queue of a cluster, served by REST but for a macOS
// hosted queue's settings (hosted_agents.mac), set and read through GraphQL. A create sends the queue, then
// a Linux agent image and a pause where planned, the queue recorded if a later step fails; an update sends
// what changed, then resumes or pauses; a hosted queue's platform change is refused at plan. Imported as
// "<cluster id>/<queue id or key>", by the queue's ID alone, or by the official provider's ID.
var clusterQueueKind = &kit.ObjectKind[buildkite.Queue, clusterQueueModel]{
	Name:     "cluster_queue",
	What:     "cluster queue",
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterQueueIdentity,
	Schema:   clusterQueueSchema,
	// The official provider's states, and ours of version 0, move to version 1.
	Moves: kit.StateMoves{Refs: []string{"cluster_id"}, Ours: func(_ int64, a kit.StateAttrs) error {
		a["cluster_uuid"] = a["cluster_id"]
		return nil
	}},
	GraphQLAttrs: []string{"hosted_agents.mac"},
	Parent:       "cluster_id",
	Key:          kit.AttrID,
	FromAPI:      (*clusterQueueModel).fromAPI,
	Create:       createQueue,
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, id string) (*buildkite.Queue, error) {
		return c.Queues.Get(ctx, clusterID, id)
	},
	Update: updateQueue,
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, id string) error {
		return c.Queues.Delete(ctx, clusterID, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.KeyPart("<queue id or key>", "ClusterQueue")},
	Resolve:     resolveQueue,
	Parents:     func(ctx context.Context, c *buildkite.Client) ([]string, error) { return kit.ClusterIDs(c)(ctx) },
	Named: func(plan *clusterQueueModel) string {
		return fmt.Sprintf("%q in cluster %s", plan.Key.ValueString(), plan.ClusterID.UUID())
	},
	Holder:     holderOfQueueKey,
	ModifyPlan: refusePlatformChange,
	Validators: []resource.ConfigValidator{pausedNoteValidator{}},
	WritePart:  writeMacSettings,
	ReadPart: func(ctx context.Context, d *kit.ProviderData, got *clusterQueueModel, diags *diag.Diagnostics) {
		if err := readMacSettings(ctx, d, got); err != nil {
			// REST has just served the queue: a GraphQL null or not found for its settings is no 404 of it.
			kit.AddPartReadError(diags, "cluster queue", got.ident(), "macOS settings (hosted_agents.mac)", err)
		}
	},
	OtherImportID: func(id string) string {
		// The official provider's "<queue GraphQL ID>,<cluster UUID>".
		if queue, cluster, official := strings.Cut(id, ","); official && !strings.Contains(id, "/") {
			return strings.TrimSpace(cluster) + "/" + strings.TrimSpace(queue)
		}
		return id
	},
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

// queueKeyPattern is the form of queue keys the service accepts.
var queueKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_\-]*$`)

// clusterQueueSchema is the schema of buildkite_cluster_queue.
func clusterQueueSchema() schema.Schema {
	return schema.Schema{
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

// createQueue makes the queue, then sends what the service takes only after the create: a Linux agent image
// (an update repeating the shape) and a pause. A failed later step is reported with the answer before it,
// which the state records (tainted, as Terraform records a failed create), so that the queue is tracked and
// replaced by the next apply rather than orphaned. WritePart then sets the macOS settings.
func createQueue(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterQueueModel) (*buildkite.Queue, error) {
	in := buildkite.QueueCreate{
		Key:                plan.Key.ValueString(),
		Description:        kit.StringPtrIfSet(plan.Description),
		RetryAgentAffinity: kit.StringPtrIfSet(plan.RetryAgentAffinity),
	}
	hosted, isHosted := hostedFrom(plan.HostedAgents)
	if isHosted {
		in.HostedAgents = &buildkite.HostedAgentsWrite{InstanceShape: hosted.shape}
	}
	q, err := c.Queues.Create(ctx, clusterID, in)
	if err != nil {
		return nil, err
	}
	ident := clusterID + "/" + q.ID
	if hosted.image != "" {
		withImage, err := c.Queues.Update(ctx, clusterID, q.ID, buildkite.QueueUpdate{HostedAgents: &buildkite.HostedAgentsWrite{
			InstanceShape: hosted.shape, AgentImageRef: buildkite.Value(hosted.image),
		}})
		if err != nil {
			return q, kit.StepFailed("set the agent image of", "cluster queue", ident, err)
		}
		q = withImage
	}
	if plan.DispatchPaused.ValueBool() {
		paused, err := c.Queues.Pause(ctx, clusterID, q.ID, plan.DispatchPausedNote.ValueString())
		if err != nil {
			return q, kit.StepFailed("pause", "cluster queue", ident, err)
		}
		q = paused
	}
	return q, nil
}

// ident names the queue in errors as its import ID does.
func (m *clusterQueueModel) ident() string {
	return m.ClusterID.UUID() + "/" + m.ID.ValueString()
}

// updateQueue sends what changed, then resumes or pauses the queue (WritePart then sets the macOS settings);
// where nothing of the queue itself changed, it reads the queue. A failed step leaves the state as it was.
func updateQueue(ctx context.Context, c *buildkite.Client, clusterID, id string, plan, state *clusterQueueModel) (*buildkite.Queue, error) {
	var q *buildkite.Queue
	var err error
	if u := plan.toUpdate(state); u != nil {
		if q, err = c.Queues.Update(ctx, clusterID, id, *u); err != nil {
			return nil, err
		}
	}
	// State was refreshed before planning, so it holds the queue's current pause status and note.
	paused := state.DispatchPaused.ValueBool()
	wantPaused := plan.DispatchPaused.ValueBool()
	// The note can only be set by pausing, so a changed note on a paused queue means resume then pause.
	if paused && (!wantPaused || !plan.DispatchPausedNote.Equal(state.DispatchPausedNote)) {
		if q, err = c.Queues.Resume(ctx, clusterID, id); err != nil {
			return nil, &kit.ReportedAs{Op: "resume", What: "cluster queue", Err: err}
		}
		paused = false
	}
	if wantPaused && !paused {
		if q, err = c.Queues.Pause(ctx, clusterID, id, plan.DispatchPausedNote.ValueString()); err != nil {
			return nil, &kit.ReportedAs{Op: "pause", What: "cluster queue", Err: err}
		}
	}
	if q == nil {
		if q, err = c.Queues.Get(ctx, clusterID, id); err != nil {
			return nil, &kit.ReportedAs{Op: "read", What: "cluster queue", Err: err}
		}
	}
	return q, nil
}

// writeMacSettings sets the macOS settings after a create or update has recorded the queue in got. A refusal
// records, after a create, the queue made without them (tainted, as Terraform records a failed create), and
// after an update the state as it was before it: the refresh before the next plan reads what the service
// then holds, REST's changes included.
func writeMacSettings(ctx context.Context, c *buildkite.Client, _, prior, got *clusterQueueModel, diags *diag.Diagnostics) {
	held := types.ObjectNull(hostedAgentsTypes)
	if prior != nil {
		held = prior.HostedAgents
	}
	var d diag.Diagnostics
	applyMacSettings(ctx, c, got, held, &d)
	diags.Append(d...)
	switch {
	case !d.HasError():
	case prior == nil:
		got.HostedAgents = withMacSettings(got.HostedAgents, &buildkite.MacSettings{})
	default:
		*got = *prior
	}
}

// resolveQueue finds the queue an import names, by its ID or its key ("<cluster id>/<queue id or key>", each
// ID a UUID or a GraphQL ID); a key that looks like a UUID is still found by key when no queue has it as its
// ID.
func resolveQueue(ctx context.Context, c *buildkite.Client, parts []string) (clusterID, queueID string, err error) {
	clusterID = parts[0]
	get := func(ctx context.Context, id string) (*buildkite.Queue, error) {
		return c.Queues.Get(ctx, clusterID, id)
	}
	list := func(ctx context.Context) ([]buildkite.Queue, error) { return c.Queues.List(ctx, clusterID) }
	q, err := kit.FindByIDOrKey(ctx, parts[1], get, list, func(q *buildkite.Queue) string { return q.Key })
	if err != nil {
		return "", "", err
	}
	return clusterID, q.ID, nil
}

// holderOfQueueKey finds the queue that holds a key in a cluster, where keys are unique; it is adopted as
// "<cluster id>/<key>".
func holderOfQueueKey(c *buildkite.Client, plan *clusterQueueModel) kit.HolderLookup {
	clusterID, key := plan.ClusterID.UUID(), plan.Key.ValueString()
	return func(ctx context.Context) (*kit.Holder, error) {
		queues, err := c.Queues.List(ctx, clusterID)
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

package actions

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ action.ActionWithConfigure      = (*setQueueDispatchAction)(nil)
	_ action.ActionWithModifyPlan     = (*setQueueDispatchAction)(nil)
	_ action.ActionWithValidateConfig = (*setQueueDispatchAction)(nil)
)

// NewSetQueueDispatchAction returns the buildkite_set_queue_dispatch action.
func NewSetQueueDispatchAction() action.Action {
	return &setQueueDispatchAction{ActionBase: kit.NewActionBase("set_queue_dispatch")}
}

// setQueueDispatchAction pauses or resumes the dispatch of jobs to a queue's agents
// (https://buildkite.com/docs/apis/rest-api/clusters/queues), for maintenance windows that should not be a
// change of the configuration.
type setQueueDispatchAction struct {
	kit.ActionBase
}

type setQueueDispatchModel struct {
	ClusterID types.String `tfsdk:"cluster_id"`
	QueueID   types.String `tfsdk:"queue_id"`
	Paused    types.Bool   `tfsdk:"paused"`
	Note      types.String `tfsdk:"note"`
}

// Schema implements action.Action.
func (a *setQueueDispatchAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Pauses or resumes the dispatch of jobs to a cluster queue's agents, for example around agent " +
			"maintenance: `terraform apply -invoke=action.buildkite_set_queue_dispatch.<name>`. Asking for the state the queue " +
			"is already in succeeds and changes nothing. Jobs of a paused queue wait until it is resumed. " +
			"A queue managed by a `buildkite_cluster_queue` resource that sets `dispatch_paused` is put back to that value " +
			"by the next apply; leave `dispatch_paused` unset on queues this action pauses. " +
			"Needs Terraform 1.14 or later and the API token's `read_clusters` and `write_clusters` scopes.",
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "The cluster of the queue: its UUID (such as `buildkite_cluster.platform.id`) or its GraphQL ID.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"queue_id": schema.StringAttribute{
				MarkdownDescription: "The queue: its ID (such as `buildkite_cluster_queue.linux.id`), its GraphQL ID or its key.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"paused": schema.BoolAttribute{
				MarkdownDescription: "`true` pauses dispatch, `false` resumes it.",
				Required:            true,
			},
			"note": schema.StringAttribute{
				MarkdownDescription: "Why dispatch is paused, shown on the queue's page and on the builds that wait; only with " +
					"`paused = true`: with `paused = false` it is refused, also when it comes from a variable, since the " +
					"service's resume takes no note. A queue that is already paused keeps its note.",
				Optional: true,
			},
		},
	}
}

// ValidateConfig implements action.ActionWithValidateConfig: IDs of the wrong kind, and a note on a
// resume, are refused at plan time.
func (a *setQueueDispatchAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m setQueueDispatchModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if kit.IsKnownValue(m.ClusterID) {
		if _, ok, err := kit.UuidOrGraphQLID(m.ClusterID.ValueString(), "Cluster"); err != nil || !ok {
			why := fmt.Sprintf("%q is neither a UUID nor a GraphQL ID", m.ClusterID.ValueString())
			if err != nil {
				why = err.Error()
			}
			resp.Diagnostics.AddAttributeError(path.Root("cluster_id"), "Invalid Cluster ID",
				buildkite.Shorten(kit.Capitalize(why))+". Give the cluster's UUID (its id) or its GraphQL ID.")
		}
	}
	if kit.IsKnownValue(m.QueueID) {
		if _, _, err := kit.UuidOrGraphQLID(m.QueueID.ValueString(), "ClusterQueue"); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("queue_id"), "Invalid Queue ID",
				buildkite.Shorten(kit.Capitalize(err.Error()))+". Give the queue's ID, GraphQL ID or key.")
		}
	}
	if !m.Paused.IsUnknown() && !m.Paused.ValueBool() && kit.IsKnownValue(m.Note) {
		resp.Diagnostics.AddAttributeError(path.Root("note"), "Note Without a Pause",
			"A note explains a pause, and this action resumes dispatch (paused = false): remove the note.")
	}
}

// ModifyPlan implements action.ActionWithModifyPlan: values from variables, known now, are checked as
// literals were (ValidateKnown), and the scopes, before anything is applied.
func (a *setQueueDispatchAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if !kit.ValidateKnown(ctx, a, req.Config, &resp.Diagnostics) {
		return
	}
	a.CheckScopes(ctx, &resp.Diagnostics, "read_clusters", "write_clusters")
}

// Invoke implements action.Action: read the queue, and pause or resume it unless it is already so.
func (a *setQueueDispatchAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m setQueueDispatchModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !kit.ValidateKnown(ctx, a, req.Config, &resp.Diagnostics) || !a.Configured(&resp.Diagnostics) {
		return
	}
	ctx, cancel := a.Timeout(ctx, kit.OpUpdate, 0)
	defer cancel()
	clusterID, _, _ := kit.UuidOrGraphQLID(m.ClusterID.ValueString(), "Cluster") // checked by ValidateKnown
	queueRef := m.QueueID.ValueString()
	if id, ok, _ := kit.UuidOrGraphQLID(queueRef, "ClusterQueue"); ok {
		queueRef = id
	}
	paused, note := m.Paused.ValueBool(), m.Note.ValueString()
	verb, state := "resume", "running"
	if paused {
		verb, state = "pause", "paused"
	}
	queues := a.Client().Queues

	q, err := kit.FindByIDOrKey(ctx, queueRef,
		func(ctx context.Context, id string) (*buildkite.Queue, error) { return queues.Get(ctx, clusterID, id) },
		func(ctx context.Context) ([]buildkite.Queue, error) { return queues.List(ctx, clusterID) },
		func(q *buildkite.Queue) string { return q.Key })
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "cluster queue", buildkite.Shorten(queueRef)+" of cluster "+clusterID, err)
		return
	}
	what := fmt.Sprintf("queue %q of cluster %s", buildkite.Shorten(q.Key), clusterID)
	if q.DispatchPaused == paused {
		a.alreadyThere(resp, q, what, state, note)
		return
	}

	if paused {
		_, err = queues.Pause(ctx, clusterID, q.ID, note)
	} else {
		_, err = queues.Resume(ctx, clusterID, q.ID)
	}
	if buildkite.IsValidation(err) {
		// The service refuses the state the queue is already in; someone may have got there
		// first since the read, and that is what was asked.
		if again, getErr := queues.Get(ctx, clusterID, q.ID); getErr == nil && again.DispatchPaused == paused {
			a.alreadyThere(resp, again, what, state, note)
			return
		}
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to "+kit.Capitalize(verb)+" Queue Dispatch",
			fmt.Sprintf("%s dispatch to %s: %s", kit.Gerund(verb), what, kit.DescribeError(err)))
		return
	}
	if paused {
		kit.Progress(resp, "Paused dispatch to %s", what)
	} else {
		kit.Progress(resp, "Resumed dispatch to %s", what)
	}
}

// alreadyThere reports a queue already in the asked state: success, with a warning when a pause's note
// differs from the one the queue keeps.
func (a *setQueueDispatchAction) alreadyThere(resp *action.InvokeResponse, q *buildkite.Queue, what, state, note string) {
	kit.Progress(resp, "Dispatch to %s is already %s; nothing to change", what, state)
	if q.DispatchPaused && note != "" && (q.DispatchPausedNote == nil || *q.DispatchPausedNote != note) {
		kept := ""
		if q.DispatchPausedNote != nil {
			kept = *q.DispatchPausedNote
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("note"), "Queue Already Paused",
			fmt.Sprintf("Dispatch to %s was already paused with the note %q, which stays: the service changes a note "+
				"only with a new pause. Resume and pause again to change it.", what, kept))
	}
}

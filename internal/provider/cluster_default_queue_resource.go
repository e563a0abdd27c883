package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*clusterDefaultQueueResource)(nil)
	_ resource.ResourceWithConfigure    = (*clusterDefaultQueueResource)(nil)
	_ resource.ResourceWithImportState  = (*clusterDefaultQueueResource)(nil)
	_ resource.ResourceWithIdentity     = (*clusterDefaultQueueResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*clusterDefaultQueueResource)(nil)
	_ resource.ResourceWithUpgradeState = (*clusterDefaultQueueResource)(nil)
)

// clusterDefaultQueueIdentity names a cluster default queue for import blocks and terraform query.
var clusterDefaultQueueIdentity = identifiedBy(identityAttr("cluster_id", "The ID of the cluster."))

// NewClusterDefaultQueueResource returns the buildkite_cluster_default_queue resource.
func NewClusterDefaultQueueResource() resource.Resource {
	return &clusterDefaultQueueResource{
		resourceBase: newResourceBase("cluster_default_queue", writeScopes("write_clusters"), clusterDefaultQueueIdentity),
	}
}

// clusterDefaultQueueResource sets a cluster's default queue. It is separate from buildkite_cluster
// because the queue depends on the cluster: an attribute of the cluster would form a cycle.
type clusterDefaultQueueResource struct {
	resourceBase
}

type clusterDefaultQueueModel struct {
	ID        types.String `tfsdk:"id"`
	UUID      types.String `tfsdk:"uuid"`
	GraphQLID types.String `tfsdk:"graphql_id"`
	ClusterID refValue     `tfsdk:"cluster_id"`
	QueueID   refValue     `tfsdk:"queue_id"`
	Key       types.String `tfsdk:"key"`
}

// fromAPI copies the cluster's view of its default queue, whose key is key ("" when not read: null); the
// setting is identified by its cluster. The references keep the configuration's form by their semantic
// equality.
func (m *clusterDefaultQueueModel) fromAPI(c *buildkite.Cluster, key string) {
	m.ID = types.StringValue(c.ID)
	m.UUID = types.StringValue(c.ID)
	m.GraphQLID = types.StringValue(c.GraphQLID)
	m.ClusterID = newRef(c.ID)
	m.QueueID = newRefPtr(c.DefaultQueueID)
	m.Key = optionalString(key)
}

func (r *clusterDefaultQueueResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "The default queue of a cluster: agents that connect to the cluster without naming a queue " +
			"take jobs from it. Destroying this resource unsets the cluster's default queue (where the service refuses, it " +
			"is left in place with a warning).",
		Attributes: map[string]schema.Attribute{
			"id":         computedString("The cluster's ID, which identifies this setting."),
			"uuid":       computedString("The cluster's ID, equal to `id`."),
			"graphql_id": computedString("The cluster's GraphQL ID."),
			"cluster_id": parentIDAttribute("The ID of the cluster.", "Cluster"),
			"queue_id": refAttribute(schema.StringAttribute{
				MarkdownDescription: "The ID of a queue of the cluster to make its default.",
				Required:            true,
			}, "ClusterQueue"),
			"key": schema.StringAttribute{
				MarkdownDescription: "The key of the default queue.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{keepWhileUnchanged{other: "queue_id"}},
			},
		},
	}
}

// UpgradeState moves the official provider's states (id and uuid the cluster's, as here) and ours of
// version 0 to version 1.
func (r *clusterDefaultQueueResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{refs: []string{"cluster_id", "queue_id"}})
}

// set makes the planned queue the cluster's default and reads the cluster and the queue's key back.
func (r *clusterDefaultQueueResource) set(ctx context.Context, plan *clusterDefaultQueueModel) error {
	queueID := plan.QueueID.UUID()
	c, err := r.client().Clusters.Update(ctx, plan.ClusterID.UUID(), buildkite.ClusterUpdate{DefaultQueueID: buildkite.Value(queueID)})
	if err != nil {
		return err
	}
	return r.fill(ctx, plan, c)
}

// fill copies the cluster's default queue into m, with the queue's key.
func (r *clusterDefaultQueueResource) fill(ctx context.Context, m *clusterDefaultQueueModel, c *buildkite.Cluster) error {
	q, err := r.client().Queues.Get(ctx, c.ID, deref(c.DefaultQueueID))
	if err != nil {
		return fmt.Errorf("reading the default queue %s: %w", deref(c.DefaultQueueID), err)
	}
	m.fromAPI(c, q.Key)
	return nil
}

func (r *clusterDefaultQueueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan clusterDefaultQueueModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	if err := r.set(ctx, &plan); err != nil {
		addAPIError(&resp.Diagnostics, "set", "cluster default queue", plan.ClusterID.UUID(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterDefaultQueueResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state clusterDefaultQueueModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	c, err := r.client().Clusters.Get(ctx, state.ClusterID.UUID())
	if err != nil {
		r.readFailed(ctx, resp, err, "cluster default queue", state.ClusterID.UUID())
		return
	}
	// The cluster answered without a default queue: the setting was removed outside Terraform. An answer
	// that is not the cluster says nothing of it.
	if !strings.EqualFold(c.ID, state.ClusterID.UUID()) {
		resp.Diagnostics.AddError("Unable to Read Cluster Default Queue", fmt.Sprintf(
			"Reading cluster %s: the service's answer is not that cluster (ID %q); the default queue stays in state.",
			state.ClusterID.UUID(), c.ID))
		return
	}
	if deref(c.DefaultQueueID) == "" {
		r.removeGone(ctx, resp)
		return
	}
	if err := r.fill(ctx, &state, c); err != nil {
		addAPIError(&resp.Diagnostics, "read", "cluster default queue", state.ClusterID.UUID(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterDefaultQueueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan clusterDefaultQueueModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	if err := r.set(ctx, &plan); err != nil {
		addAPIError(&resp.Diagnostics, "update", "cluster default queue", plan.ClusterID.UUID(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterDefaultQueueResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterDefaultQueueModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	clusterID := state.ClusterID.UUID()
	_, err := r.client().Clusters.Update(ctx, clusterID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Cleared[string]()})
	switch {
	case err == nil:
	case buildkite.IsNotFound(err):
		r.deleteFailed(ctx, &resp.Diagnostics, err, "cluster default queue", clusterID)
	case buildkite.IsValidation(err):
		// A service that will not unset a default queue must not leave the resource stuck in state:
		// stop managing it and say what was left behind.
		resp.Diagnostics.AddWarning("Cluster Default Queue Left in Place",
			fmt.Sprintf("The service refused to unset the default queue of cluster %s, so it stays as it is and is no longer managed by Terraform: %s",
				clusterID, describeError(err)))
	default:
		addAPIError(&resp.Diagnostics, "unset", "cluster default queue", clusterID, err)
	}
}

// ImportState takes the cluster's ID or GraphQL ID (the official provider's import ID).
func (r *clusterDefaultQueueResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, uuidPart("<cluster id>", "Cluster"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[0])...)
}

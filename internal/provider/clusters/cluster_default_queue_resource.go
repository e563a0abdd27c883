package clusters

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// clusterDefaultQueueIdentity names a cluster default queue for import blocks and terraform query.
var clusterDefaultQueueIdentity = kit.IdentifiedBy(kit.IdentityAttr("cluster_id", "The ID of the cluster."))

// NewClusterDefaultQueueResource returns the buildkite_cluster_default_queue resource.
func NewClusterDefaultQueueResource() resource.Resource {
	return kit.NewObject(clusterDefaultQueueKind)
}

// clusterDefaultQueueKind declares buildkite_cluster_default_queue: a setting of its cluster, separate from
// buildkite_cluster because the queue depends on the cluster (an attribute of the cluster would form a
// cycle). It is read through the cluster; creating it sets the default and destroying it unsets it, which
// the service may refuse: the queue is then left in place with a warning.
var clusterDefaultQueueKind = &kit.ObjectKind[clusterDefaultQueue, clusterDefaultQueueModel]{
	Name:     "cluster_default_queue",
	What:     "cluster default queue",
	Scopes:   kit.WriteScopes("write_clusters"),
	Identity: clusterDefaultQueueIdentity,
	Schema:   clusterDefaultQueueSchema,
	Moves:    kit.StateMoves{Refs: []string{"cluster_id", "queue_id"}},
	Setting:  true,
	Parent:   "cluster_id",
	Key:      kit.AttrID,
	FromAPI: func(m *clusterDefaultQueueModel, _ string, q *clusterDefaultQueue) {
		m.fromAPI(q.cluster, q.key)
	},
	Create: func(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterDefaultQueueModel) (*clusterDefaultQueue, error) {
		q, err := setDefaultQueue(ctx, c, clusterID, plan)
		if err != nil {
			return nil, &kit.ReportedAs{Op: "set", What: "cluster default queue", Err: err}
		}
		return q, nil
	},
	Get: func(ctx context.Context, c *buildkite.Client, clusterID, _ string) (*clusterDefaultQueue, error) {
		cl, err := c.Clusters.Get(ctx, clusterID)
		if err != nil {
			return nil, err
		}
		// An answer that is not the cluster says nothing of its default queue.
		if !strings.EqualFold(cl.ID, clusterID) {
			return nil, &kit.DiagnosedError{Summary: "Unable to Read Cluster Default Queue", Detail: fmt.Sprintf(
				"Reading cluster %s: the service's answer is not that cluster (ID %q); the default queue stays in state.",
				clusterID, cl.ID)}
		}
		if kit.Deref(cl.DefaultQueueID) == "" {
			return nil, kit.ErrAbsent // unset outside Terraform
		}
		q, err := defaultQueueOf(ctx, c, cl)
		if err != nil {
			return nil, &kit.ReportedAs{Op: "read", What: "cluster default queue", Err: err}
		}
		return q, nil
	},
	Update: func(ctx context.Context, c *buildkite.Client, clusterID, _ string, plan, _ *clusterDefaultQueueModel) (*clusterDefaultQueue, error) {
		return setDefaultQueue(ctx, c, clusterID, plan)
	},
	Remove: func(ctx context.Context, c *buildkite.Client, clusterID, _ string) error {
		_, err := c.Clusters.Update(ctx, clusterID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Cleared[string]()})
		switch {
		case err == nil, buildkite.IsNotFound(err):
			return err
		case buildkite.IsValidation(err):
			// A service that will not unset a default queue must not leave the resource stuck in state:
			// stop managing it and say what was left behind.
			return &kit.LeftBehind{Summary: "Cluster Default Queue Left in Place", Detail: fmt.Sprintf(
				"The service refused to unset the default queue of cluster %s, so it stays as it is and is no longer managed by Terraform: %s",
				clusterID, kit.DescribeError(err))}
		default:
			return &kit.ReportedAs{Op: "unset", What: "cluster default queue", Err: err}
		}
	},
	// The import ID is the cluster's ID or GraphQL ID (the official provider's import ID).
	ImportParts: []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster")},
}

// clusterDefaultQueue is the cluster's view of its default queue, with the queue's key.
type clusterDefaultQueue struct {
	cluster *buildkite.Cluster
	key     string
}

type clusterDefaultQueueModel struct {
	ID        types.String `tfsdk:"id"`
	UUID      types.String `tfsdk:"uuid"`
	GraphQLID types.String `tfsdk:"graphql_id"`
	ClusterID kit.RefValue `tfsdk:"cluster_id"`
	QueueID   kit.RefValue `tfsdk:"queue_id"`
	Key       types.String `tfsdk:"key"`
}

// fromAPI copies the cluster's view of its default queue, whose key is key ("" when not read: null); the
// setting is identified by its cluster. The references keep the configuration's form by their semantic
// equality.
func (m *clusterDefaultQueueModel) fromAPI(c *buildkite.Cluster, key string) {
	m.ID = types.StringValue(c.ID)
	m.UUID = types.StringValue(c.ID)
	m.GraphQLID = types.StringValue(c.GraphQLID)
	m.ClusterID = kit.NewRef(c.ID)
	m.QueueID = kit.NewRefPtr(c.DefaultQueueID)
	m.Key = kit.OptionalString(key)
}

// clusterDefaultQueueSchema is the schema of buildkite_cluster_default_queue.
func clusterDefaultQueueSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "The default queue of a cluster: agents that connect to the cluster without naming a queue " +
			"take jobs from it. Destroying this resource unsets the cluster's default queue (where the service refuses, it " +
			"is left in place with a warning).",
		Attributes: map[string]schema.Attribute{
			"id":         kit.ComputedString("The cluster's ID, which identifies this setting."),
			"uuid":       kit.ComputedString("The cluster's ID, equal to `id`."),
			"graphql_id": kit.ComputedString("The cluster's GraphQL ID."),
			"cluster_id": kit.ParentIDAttribute("The ID of the cluster.", "Cluster"),
			"queue_id": kit.RefAttribute(schema.StringAttribute{
				MarkdownDescription: "The ID of a queue of the cluster to make its default.",
				Required:            true,
			}, "ClusterQueue"),
			"key": schema.StringAttribute{
				MarkdownDescription: "The key of the default queue.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{kit.KeepWhileUnchanged{Other: "queue_id"}},
			},
		},
	}
}

// setDefaultQueue makes the planned queue the cluster's default and reads the cluster and the queue's key
// back.
func setDefaultQueue(ctx context.Context, c *buildkite.Client, clusterID string, plan *clusterDefaultQueueModel) (*clusterDefaultQueue, error) {
	queueID := plan.QueueID.UUID()
	cl, err := c.Clusters.Update(ctx, clusterID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Value(queueID)})
	if err != nil {
		return nil, err
	}
	return defaultQueueOf(ctx, c, cl)
}

// defaultQueueOf reads the key of the cluster's default queue.
func defaultQueueOf(ctx context.Context, c *buildkite.Client, cl *buildkite.Cluster) (*clusterDefaultQueue, error) {
	q, err := c.Queues.Get(ctx, cl.ID, kit.Deref(cl.DefaultQueueID))
	if err != nil {
		return nil, fmt.Errorf("reading the default queue %s: %w", kit.Deref(cl.DefaultQueueID), err)
	}
	return &clusterDefaultQueue{cluster: cl, key: q.Key}, nil
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewClusterQueueListResource returns the buildkite_cluster_queue list resource.
func NewClusterQueueListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.Queue]{
		listBase:    newListBase("cluster_queue", clusterQueueIdentity),
		parents:     clusterParents,
		what:        "cluster queues",
		description: "Finds the queues of clusters, shown as `<cluster name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.Queue, error) {
			return client.Queues.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, q *buildkite.Queue) found {
			var m clusterQueueModel
			m.fromAPI(c.ID, q)
			return found{model: &m, displayName: c.Name + " / " + q.Key}
		},
	}
}

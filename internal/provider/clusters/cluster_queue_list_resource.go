package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewClusterQueueListResource returns the buildkite_cluster_queue list resource.
func NewClusterQueueListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.Queue]{
		ListBase:    kit.NewListBase("cluster_queue", clusterQueueIdentity),
		Parents:     clusterParents,
		What:        "cluster queues",
		Description: "Finds the queues of clusters, shown as `<cluster name> / …`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.Queue, error) {
			return client.Queues.List(ctx, c.ID)
		},
		Found: func(c *buildkite.Cluster, q *buildkite.Queue) kit.Found {
			var m clusterQueueModel
			m.fromAPI(c.ID, q)
			return kit.Found{Model: &m, DisplayName: c.Name + " / " + q.Key}
		},
	}
}

package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewClusterDefaultQueueListResource returns the buildkite_cluster_default_queue list resource. It answers
// from the cluster listing alone: each cluster names its default queue.
func NewClusterDefaultQueueListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.Cluster]{
		ListBase:    kit.NewListBase("cluster_default_queue", clusterDefaultQueueIdentity),
		Parents:     clusterParents,
		What:        "clusters",
		Description: "Finds the default queues of clusters (a cluster without one has no result), shown as `<cluster name> / …`.",
		ListIn: func(_ context.Context, _ *buildkite.Client, c *buildkite.Cluster) ([]buildkite.Cluster, error) {
			if kit.Deref(c.DefaultQueueID) == "" {
				return nil, nil
			}
			return []buildkite.Cluster{*c}, nil
		},
		Found: func(c *buildkite.Cluster, _ *buildkite.Cluster) kit.Found {
			var m clusterDefaultQueueModel
			m.fromAPI(c, "") // the key is read by the refresh after an import
			return kit.Found{Model: &m, DisplayName: c.Name + " / default queue"}
		},
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewClusterDefaultQueueListResource returns the buildkite_cluster_default_queue list resource. It answers
// from the cluster listing alone: each cluster names its default queue.
func NewClusterDefaultQueueListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.Cluster]{
		listBase:    newListBase("cluster_default_queue", clusterDefaultQueueIdentity),
		parents:     clusterParents,
		what:        "clusters",
		description: "Finds the default queues of clusters (a cluster without one has no result), shown as `<cluster name> / …`.",
		listIn: func(_ context.Context, _ *buildkite.Client, c *buildkite.Cluster) ([]buildkite.Cluster, error) {
			if deref(c.DefaultQueueID) == "" {
				return nil, nil
			}
			return []buildkite.Cluster{*c}, nil
		},
		found: func(c *buildkite.Cluster, _ *buildkite.Cluster) found {
			var m clusterDefaultQueueModel
			m.fromAPI(c, "") // the key is read by the refresh after an import
			return found{model: &m, displayName: c.Name + " / default queue"}
		},
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resource of clusters, and clusterParents, which the list resources of what belongs to a cluster
// (queues, agent tokens, default queues, secrets, maintainers; each in its type's list file) share: one
// filter, cluster_id, and one way to find their clusters, the organization's cluster listing, which also
// gives each result a display name that starts with its cluster's name.

// NewClusterListResource returns the buildkite_cluster list resource.
func NewClusterListResource() list.ListResource {
	return &namedList[buildkite.Cluster]{
		listBase:    newListBase("cluster", clusterIdentity),
		what:        "clusters",
		description: "Finds the organization's clusters, shown by name.",
		nameFilter:  nameFilterDescription("cluster"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Cluster, error) {
			return c.Clusters.List(ctx)
		},
		name: func(c *buildkite.Cluster) string { return c.Name },
		model: func(c *buildkite.Cluster) any {
			var m clusterModel
			m.fromAPI(c)
			return &m
		},
	}
}

// clusterParents are the parents of the nested kinds: found in the cluster listing, picked by exact ID.
var clusterParents = &parentKind[buildkite.Cluster]{
	one:               "cluster",
	many:              "clusters",
	filter:            "cluster_id",
	filterDescription: "Only those of the cluster with this ID. Unset, those of every cluster.",
	graphQLType:       "Cluster",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Cluster, error) {
		return c.Clusters.List(ctx)
	},
	hasID: func(c *buildkite.Cluster, id string) bool { return c.ID == id },
	name:  func(c *buildkite.Cluster) string { return c.Name },
	ref:   func(c *buildkite.Cluster) string { return c.ID },
}

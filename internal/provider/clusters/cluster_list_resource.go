package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The list resource of clusters, and clusterParents, which the list resources of what belongs to a cluster
// (queues, agent tokens, default queues, secrets, maintainers; each in its type's list file) share: one
// filter, cluster_id, and one way to find their clusters, the organization's cluster listing, which also
// gives each result a display name that starts with its cluster's name.

// NewClusterListResource returns the buildkite_cluster list resource.
func NewClusterListResource() list.ListResource {
	return &kit.NamedList[buildkite.Cluster]{
		ListBase:    kit.NewListBase("cluster", clusterIdentity),
		What:        "clusters",
		Description: "Finds the organization's clusters, shown by name.",
		NameFilter:  kit.NameFilterDescription("cluster"),
		ListFunc: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Cluster, error) {
			return c.Clusters.List(ctx)
		},
		Name: func(c *buildkite.Cluster) string { return c.Name },
		Model: func(c *buildkite.Cluster) any {
			var m clusterModel
			m.fromAPI(c)
			return &m
		},
	}
}

// clusterParents are the parents of the nested kinds: found in the cluster listing, picked by exact ID.
var clusterParents = &kit.ParentKind[buildkite.Cluster]{
	One:               "cluster",
	Many:              "clusters",
	Filter:            "cluster_id",
	FilterDescription: "Only those of the cluster with this ID. Unset, those of every cluster.",
	GraphQLType:       "Cluster",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Cluster, error) {
		return c.Clusters.List(ctx)
	},
	HasID: func(c *buildkite.Cluster, id string) bool { return c.ID == id },
	Name:  func(c *buildkite.Cluster) string { return c.Name },
	Ref:   func(c *buildkite.Cluster) string { return c.ID },
}

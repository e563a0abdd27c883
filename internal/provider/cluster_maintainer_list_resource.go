package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// maintainerParents are clusterParents with the filter named as the maintainer's attribute, cluster_uuid.
var maintainerParents = func() *parentKind[buildkite.Cluster] {
	p := *clusterParents
	p.filter = "cluster_uuid"
	return &p
}()

// NewClusterMaintainerListResource returns the buildkite_cluster_maintainer list resource.
func NewClusterMaintainerListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.ClusterMaintainer]{
		listBase:    newListBase("cluster_maintainer", clusterMaintainerIdentity),
		parents:     maintainerParents,
		what:        "cluster maintainers",
		description: "Finds the maintainers of clusters, shown as `<cluster name> / <user or team name>`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterMaintainer, error) {
			return client.ClusterMaintainers.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, cm *buildkite.ClusterMaintainer) found {
			var m clusterMaintainerModel
			m.fromAPI(c.ID, cm)
			return found{model: &m, displayName: c.Name + " / " + displayOr(deref(cm.Actor.Name), cm.Actor.ID)}
		},
	}
}

package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// maintainerParents are clusterParents with the filter named as the maintainer's attribute, cluster_uuid.
var maintainerParents = func() *kit.ParentKind[buildkite.Cluster] {
	p := *clusterParents
	p.Filter = "cluster_uuid"
	return &p
}()

// NewClusterMaintainerListResource returns the buildkite_cluster_maintainer list resource.
func NewClusterMaintainerListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.ClusterMaintainer]{
		ListBase:    kit.NewListBase("cluster_maintainer", clusterMaintainerIdentity),
		Parents:     maintainerParents,
		What:        "cluster maintainers",
		Description: "Finds the maintainers of clusters, shown as `<cluster name> / <user or team name>`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterMaintainer, error) {
			return client.ClusterMaintainers.List(ctx, c.ID)
		},
		Found: func(c *buildkite.Cluster, cm *buildkite.ClusterMaintainer) kit.Found {
			var m clusterMaintainerModel
			m.fromAPI(c.ID, cm)
			return kit.Found{Model: &m, DisplayName: c.Name + " / " + kit.DisplayOr(kit.Deref(cm.Actor.Name), cm.Actor.ID)}
		},
	}
}

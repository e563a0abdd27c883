package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewClusterCacheRegistryListResource returns the buildkite_cluster_cache_registry list resource.
func NewClusterCacheRegistryListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.CacheRegistry]{
		ListBase: kit.NewListBase("cluster_cache_registry", clusterCacheRegistryIdentity),
		Parents:  clusterParents,
		What:     "cache registries",
		Description: "Finds the cache registries of clusters (each cluster's `Default` one included), shown as " +
			"`<cluster name> / <registry name>`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.CacheRegistry, error) {
			return client.CacheRegistries.List(ctx, c.ID)
		},
		Found: func(c *buildkite.Cluster, reg *buildkite.CacheRegistry) kit.Found {
			var m clusterCacheRegistryModel
			m.fromAPI(c.ID, reg)
			return kit.Found{Model: &m, DisplayName: c.Name + " / " + reg.Name}
		},
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewClusterCacheRegistryListResource returns the buildkite_cluster_cache_registry list resource.
func NewClusterCacheRegistryListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.CacheRegistry]{
		listBase: newListBase("cluster_cache_registry", clusterCacheRegistryIdentity),
		parents:  clusterParents,
		what:     "cache registries",
		description: "Finds the cache registries of clusters (each cluster's `Default` one included), shown as " +
			"`<cluster name> / <registry name>`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.CacheRegistry, error) {
			return client.CacheRegistries.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, reg *buildkite.CacheRegistry) found {
			var m clusterCacheRegistryModel
			m.fromAPI(c.ID, reg)
			return found{model: &m, displayName: c.Name + " / " + reg.Name}
		},
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewClusterSecretListResource returns the buildkite_cluster_secret list resource.
func NewClusterSecretListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.ClusterSecret]{
		listBase: newListBase("cluster_secret", clusterSecretIdentity),
		parents:  clusterParents,
		what:     "cluster secrets",
		description: "Finds the secrets of clusters (without their values, which the service never shows), shown " +
			"as `<cluster name> / <key>`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterSecret, error) {
			return client.ClusterSecrets.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, s *buildkite.ClusterSecret) found {
			m := clusterSecretModel{Value: types.StringNull(), ValueWOVersion: types.StringNull()}
			m.fromAPI(c.ID, s)
			return found{model: &m, displayName: c.Name + " / " + s.Key}
		},
	}
}

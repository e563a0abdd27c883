package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewClusterSecretListResource returns the buildkite_cluster_secret list resource.
func NewClusterSecretListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.ClusterSecret]{
		ListBase: kit.NewListBase("cluster_secret", clusterSecretIdentity),
		Parents:  clusterParents,
		What:     "cluster secrets",
		Description: "Finds the secrets of clusters (without their values, which the service never shows), shown " +
			"as `<cluster name> / <key>`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterSecret, error) {
			return client.ClusterSecrets.List(ctx, c.ID)
		},
		Found: func(c *buildkite.Cluster, s *buildkite.ClusterSecret) kit.Found {
			m := clusterSecretModel{Value: types.StringNull(), ValueWOVersion: types.StringNull()}
			m.fromAPI(c.ID, s)
			return kit.Found{Model: &m, DisplayName: c.Name + " / " + s.Key}
		},
	}
}

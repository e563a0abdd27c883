package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewClusterAgentTokenListResource returns the buildkite_cluster_agent_token list resource.
func NewClusterAgentTokenListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.ClusterToken]{
		ListBase: kit.NewListBase("cluster_agent_token", clusterAgentTokenIdentity),
		Parents:  clusterParents,
		What:     "cluster agent tokens",
		Description: "Finds the agent tokens of clusters (without their secrets, which the service returns only " +
			"on creation), shown as `<cluster name> / …`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterToken, error) {
			return client.ClusterTokens.List(ctx, c.ID)
		},
		Found: func(c *buildkite.Cluster, t *buildkite.ClusterToken) kit.Found {
			var m clusterAgentTokenModel
			m.fromAPI(c.ID, t)
			return kit.Found{Model: &m, DisplayName: c.Name + " / " + t.Description}
		},
	}
}

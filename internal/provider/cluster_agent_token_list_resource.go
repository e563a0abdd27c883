package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewClusterAgentTokenListResource returns the buildkite_cluster_agent_token list resource.
func NewClusterAgentTokenListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.ClusterToken]{
		listBase: newListBase("cluster_agent_token", clusterAgentTokenIdentity),
		parents:  clusterParents,
		what:     "cluster agent tokens",
		description: "Finds the agent tokens of clusters (without their secrets, which the service returns only " +
			"on creation), shown as `<cluster name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.ClusterToken, error) {
			return client.ClusterTokens.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, t *buildkite.ClusterToken) found {
			var m clusterAgentTokenModel
			m.fromAPI(c.ID, t)
			return found{model: &m, displayName: c.Name + " / " + t.Description}
		},
	}
}

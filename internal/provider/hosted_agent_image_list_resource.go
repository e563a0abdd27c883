package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewHostedAgentImageListResource returns the buildkite_hosted_agent_image list resource.
func NewHostedAgentImageListResource() list.ListResource {
	return &childList[buildkite.Cluster, buildkite.AgentImage]{
		listBase: newListBase("hosted_agent_image", hostedAgentImageIdentity),
		parents:  clusterParents,
		what:     "hosted agent images",
		description: "Finds the custom agent images of clusters (a cluster without hosted agents has none), shown " +
			"as `<cluster name> / <image name>`.",
		listIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.AgentImage, error) {
			return client.AgentImages.List(ctx, c.ID)
		},
		found: func(c *buildkite.Cluster, img *buildkite.AgentImage) found {
			var m hostedAgentImageModel
			m.fromAPI(c.ID, img)
			return found{model: &m, displayName: c.Name + " / " + img.Name}
		},
	}
}

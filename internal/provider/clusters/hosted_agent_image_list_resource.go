package clusters

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewHostedAgentImageListResource returns the buildkite_hosted_agent_image list resource.
func NewHostedAgentImageListResource() list.ListResource {
	return &kit.ChildList[buildkite.Cluster, buildkite.AgentImage]{
		ListBase: kit.NewListBase("hosted_agent_image", hostedAgentImageIdentity),
		Parents:  clusterParents,
		What:     "hosted agent images",
		Description: "Finds the custom agent images of clusters (a cluster without hosted agents has none), shown " +
			"as `<cluster name> / <image name>`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, c *buildkite.Cluster) ([]buildkite.AgentImage, error) {
			return client.AgentImages.List(ctx, c.ID)
		},
		Found: func(c *buildkite.Cluster, img *buildkite.AgentImage) kit.Found {
			var m hostedAgentImageModel
			m.fromAPI(c.ID, img)
			return kit.Found{Model: &m, DisplayName: c.Name + " / " + img.Name}
		},
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resource of portals, found in the organization-wide listing (every page of it). A portal's
// token, which only its create answer holds, is null in every result, as after an import.

// NewPortalListResource returns the buildkite_portal list resource.
func NewPortalListResource() list.ListResource {
	return &namedList[buildkite.Portal]{
		listBase: newListBase("portal", portalIdentity),
		what:     "portals",
		description: "Finds the organization's portals, shown by name (without their tokens, which the service returns " +
			"only on creation).",
		nameFilter: nameFilterDescription("portal"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Portal, error) {
			return c.Portals.List(ctx)
		},
		name: func(p *buildkite.Portal) string { return p.Name },
		model: func(p *buildkite.Portal) any {
			m := portalModel{}
			m.fromAPI(p)
			return &m
		},
	}
}

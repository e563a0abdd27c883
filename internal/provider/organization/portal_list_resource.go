package organization

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The list resource of portals, found in the organization-wide listing (every page of it). A portal's
// token, which only its create answer holds, is null in every result, as after an import.

// NewPortalListResource returns the buildkite_portal list resource.
func NewPortalListResource() list.ListResource {
	return &kit.NamedList[buildkite.Portal]{
		ListBase: kit.NewListBase("portal", portalIdentity),
		What:     "portals",
		Description: "Finds the organization's portals, shown by name (without their tokens, which the service returns " +
			"only on creation).",
		NameFilter: kit.NameFilterDescription("portal"),
		ListFunc: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Portal, error) {
			return c.Portals.List(ctx)
		},
		Name: func(p *buildkite.Portal) string { return p.Name },
		Model: func(p *buildkite.Portal) any {
			m := portalModel{}
			m.fromAPI(p)
			return &m
		},
	}
}

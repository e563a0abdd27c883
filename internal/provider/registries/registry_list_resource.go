package registries

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewRegistryListResource returns the buildkite_registry list resource.
func NewRegistryListResource() list.ListResource {
	return &kit.NamedList[buildkite.Registry]{
		ListBase:    kit.NewListBase("registry", registryIdentity),
		What:        "registries",
		Description: "Finds the organization's package registries, shown by name.",
		NameFilter:  kit.NameFilterDescription("registry"),
		ListFunc: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
			return c.Registries.List(ctx)
		},
		Name: func(r *buildkite.Registry) string { return r.Name },
		Model: func(r *buildkite.Registry) any {
			// team_ids, which no response reports, is null as after an import.
			var m registryModel
			m.fromAPI(r)
			return &m
		},
	}
}

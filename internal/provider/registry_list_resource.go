package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewRegistryListResource returns the buildkite_registry list resource.
func NewRegistryListResource() list.ListResource {
	return &namedList[buildkite.Registry]{
		listBase:    newListBase("registry", registryIdentity),
		what:        "registries",
		description: "Finds the organization's package registries, shown by name.",
		nameFilter:  nameFilterDescription("registry"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
			return c.Registries.List(ctx)
		},
		name: func(r *buildkite.Registry) string { return r.Name },
		model: func(r *buildkite.Registry) any {
			// team_ids, which no response reports, is null as after an import.
			var m registryModel
			m.fromAPI(r)
			return &m
		},
	}
}

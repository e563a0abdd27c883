package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewRegistryTokenListResource returns the buildkite_registry_token list resource.
func NewRegistryTokenListResource() list.ListResource {
	return &childList[buildkite.Registry, buildkite.RegistryToken]{
		listBase: newListBase("registry_token", registryTokenIdentity),
		parents:  registryParents,
		what:     "registry tokens",
		description: "Finds the tokens of package registries, shown as `<registry name> / <description>` " +
			"(without their secrets, which the service returns only on creation).",
		// Token paths name the registry by slug, which the registry listing gives.
		listIn: func(ctx context.Context, client *buildkite.Client, reg *buildkite.Registry) ([]buildkite.RegistryToken, error) {
			return client.RegistryTokens.List(ctx, reg.Slug)
		},
		found: func(reg *buildkite.Registry, t *buildkite.RegistryToken) found {
			var m registryTokenModel
			m.fromAPI(reg.ID, t)
			return found{model: &m, displayName: reg.Name + " / " + t.Description}
		},
	}
}

package registries

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewRegistryTokenListResource returns the buildkite_registry_token list resource.
func NewRegistryTokenListResource() list.ListResource {
	return &kit.ChildList[buildkite.Registry, buildkite.RegistryToken]{
		ListBase: kit.NewListBase("registry_token", registryTokenIdentity),
		Parents:  kit.RegistryParents,
		What:     "registry tokens",
		Description: "Finds the tokens of package registries, shown as `<registry name> / <description>` " +
			"(without their secrets, which the service returns only on creation).",
		// Token paths name the registry by slug, which the registry listing gives.
		ListIn: func(ctx context.Context, client *buildkite.Client, reg *buildkite.Registry) ([]buildkite.RegistryToken, error) {
			return client.RegistryTokens.List(ctx, reg.Slug)
		},
		Found: func(reg *buildkite.Registry, t *buildkite.RegistryToken) kit.Found {
			var m registryTokenModel
			m.fromAPI(reg.ID, t)
			return kit.Found{Model: &m, DisplayName: reg.Name + " / " + t.Description}
		},
	}
}

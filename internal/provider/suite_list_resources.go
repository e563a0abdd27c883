package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of test suites, registries and registry tokens. Suites and registries are found by
// name from their organization's listing; tokens from the token listing of each registry, shown after their
// registry's name so that a person can tell the tokens of two registries apart.
//
// What the service returns only on creation (a suite's API token, a registry token's secret) or in no
// response (a suite's team_owner_id, a registry's team_ids) is null in every result, as after an import.

// NewTestSuiteListResource returns the buildkite_test_suite list resource.
func NewTestSuiteListResource() list.ListResource {
	return &namedList[buildkite.TestSuite]{
		listBase: newListBase("test_suite", testSuiteIdentity),
		what:     "test suites",
		description: "Finds the organization's Test Engine test suites, shown by name " +
			"(without their API tokens, which the service returns only on creation).",
		nameFilter: nameFilterDescription("test suite"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.TestSuite, error) {
			return c.TestSuites.List(ctx)
		},
		name: func(s *buildkite.TestSuite) string { return s.Name },
		model: func(s *buildkite.TestSuite) any {
			var m testSuiteModel
			m.fromAPI(s)
			return &m
		},
	}
}

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

// registryParents are the parents of registry tokens: found in the registry listing, picked by exact ID,
// and named in errors by slug, which token paths name the registry by.
var registryParents = &parentKind[buildkite.Registry]{
	one:               "registry",
	many:              "registries",
	filter:            "registry_id",
	filterDescription: "Only the tokens of the registry with this ID. Unset, those of every registry.",
	graphQLType:       "Registry",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
		return c.Registries.List(ctx)
	},
	hasID: func(r *buildkite.Registry, id string) bool { return r.ID == id },
	name:  func(r *buildkite.Registry) string { return r.Name },
	ref:   func(r *buildkite.Registry) string { return r.Slug },
}

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

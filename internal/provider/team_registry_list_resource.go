package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewTeamRegistryListResource returns the buildkite_team_registry list resource: the teams with access to
// each registry, read through the registry's teams in Buildkite's GraphQL API.
func NewTeamRegistryListResource() list.ListResource {
	parents := *registryParents
	parents.filterDescription = "Only the teams' access to the registry with this ID. Unset, to every registry."
	return &childList[buildkite.Registry, buildkite.TeamRegistry]{
		listBase: newListBase("team_registry", teamRegistryIdentity),
		parents:  &parents,
		what:     "team registries",
		description: "Finds the teams with access to package registries, with the access level, shown as " +
			"`<registry name> / <team name>`. Needs Buildkite's GraphQL API, as the resource does.",
		listIn: func(ctx context.Context, client *buildkite.Client, reg *buildkite.Registry) ([]buildkite.TeamRegistry, error) {
			return client.TeamRegistries.List(ctx, reg.ID)
		},
		found: func(reg *buildkite.Registry, g *buildkite.TeamRegistry) found {
			var m teamRegistryModel
			m.fromAPI(g.TeamID(), g)
			team := g.TeamID()
			if g.Team != nil && g.Team.Name != "" {
				team = g.Team.Name
			}
			return found{model: &m, displayName: reg.Name + " / " + team}
		},
	}
}

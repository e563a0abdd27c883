package teams

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewTeamRegistryListResource returns the buildkite_team_registry list resource: the teams with access to
// each registry, read through the registry's teams in Buildkite's GraphQL API.
func NewTeamRegistryListResource() list.ListResource {
	parents := *kit.RegistryParents
	parents.FilterDescription = "Only the teams' access to the registry with this ID. Unset, to every registry."
	return &kit.ChildList[buildkite.Registry, buildkite.TeamRegistry]{
		ListBase: kit.NewListBase("team_registry", teamRegistryIdentity),
		Parents:  &parents,
		What:     "team registries",
		Description: "Finds the teams with access to package registries, with the access level, shown as " +
			"`<registry name> / <team name>`. Needs Buildkite's GraphQL API, as the resource does.",
		ListIn: func(ctx context.Context, client *buildkite.Client, reg *buildkite.Registry) ([]buildkite.TeamRegistry, error) {
			return client.TeamRegistries.List(ctx, reg.ID)
		},
		Found: func(reg *buildkite.Registry, g *buildkite.TeamRegistry) kit.Found {
			var m teamRegistryModel
			m.fromAPI(g.TeamID(), g)
			team := g.TeamID()
			if g.Team != nil && g.Team.Name != "" {
				team = g.Team.Name
			}
			return kit.Found{Model: &m, DisplayName: reg.Name + " / " + team}
		},
	}
}

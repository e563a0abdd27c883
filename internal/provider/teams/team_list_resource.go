package teams

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The list resource of teams. The list resources of the teams' associations (members, pipeline access,
// suite access; each in its type's list file) share TeamParents, in the kit: one filter, team_id, and one
// way to find their teams: the organization's team listing, which also gives each result a display name
// that starts with its team's name. The service lists each team's associations in one listing, so a query
// costs one call per page of teams and one per team.

// NewTeamListResource returns the buildkite_team list resource.
func NewTeamListResource() list.ListResource {
	return &kit.NamedList[buildkite.Team]{
		ListBase:    kit.NewListBase("team", teamIdentity),
		What:        "teams",
		Description: "Finds the organization's teams, shown by name.",
		NameFilter:  kit.NameFilterDescription("team"),
		ListFunc: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
			return c.Teams.List(ctx, buildkite.TeamListOptions{})
		},
		Name: func(t *buildkite.Team) string { return t.Name },
		Model: func(t *buildkite.Team) any {
			var m teamModel
			m.fromAPI(t)
			return &m
		},
	}
}

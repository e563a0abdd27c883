package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resource of teams, and teamParents, which the list resources of the teams' associations share
// (members, pipeline access, suite access; each in its type's list file): one filter, team_id, and one way to find their teams: the organization's team
// listing, which also gives each result a display name that starts with its team's name. The service lists
// each team's associations in one listing, so a query costs one call per page of teams and one per team.

// NewTeamListResource returns the buildkite_team list resource.
func NewTeamListResource() list.ListResource {
	return &namedList[buildkite.Team]{
		listBase:    newListBase("team", teamIdentity),
		what:        "teams",
		description: "Finds the organization's teams, shown by name.",
		nameFilter:  nameFilterDescription("team"),
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
			return c.Teams.List(ctx, buildkite.TeamListOptions{})
		},
		name: func(t *buildkite.Team) string { return t.Name },
		model: func(t *buildkite.Team) any {
			var m teamModel
			m.fromAPI(t)
			return &m
		},
	}
}

// teamParents are the parents of the association kinds: found in the team listing, picked by UUID
// compared without regard to case.
var teamParents = &parentKind[buildkite.Team]{
	one:               "team",
	many:              "teams",
	filter:            "team_id",
	filterDescription: "Only those of the team with this UUID. Unset, those of every team.",
	graphQLType:       "Team",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
		return c.Teams.List(ctx, buildkite.TeamListOptions{})
	},
	hasID: func(t *buildkite.Team, id string) bool { return strings.EqualFold(t.ID, id) },
	name:  func(t *buildkite.Team) string { return t.Name },
	ref:   func(t *buildkite.Team) string { return t.ID },
}

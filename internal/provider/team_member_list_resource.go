package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// NewTeamMemberListResource returns the buildkite_team_member list resource.
func NewTeamMemberListResource() list.ListResource {
	return &childList[buildkite.Team, buildkite.TeamMember]{
		listBase:    newListBase("team_member", teamMemberIdentity),
		parents:     teamParents,
		what:        "team members",
		description: "Finds the members of teams, with their roles, shown as `<team name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamMember, error) {
			return client.TeamMembers.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, tm *buildkite.TeamMember) found {
			var m teamMemberModel
			m.fromAPI(t.ID, tm)
			return found{model: &m, displayName: t.Name + " / " + displayOr(tm.UserName, tm.UserID)}
		},
	}
}

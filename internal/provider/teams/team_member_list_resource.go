package teams

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewTeamMemberListResource returns the buildkite_team_member list resource.
func NewTeamMemberListResource() list.ListResource {
	return &kit.ChildList[buildkite.Team, buildkite.TeamMember]{
		ListBase:    kit.NewListBase("team_member", teamMemberIdentity),
		Parents:     kit.TeamParents,
		What:        "team members",
		Description: "Finds the members of teams, with their roles, shown as `<team name> / …`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamMember, error) {
			return client.TeamMembers.List(ctx, t.ID)
		},
		Found: func(t *buildkite.Team, tm *buildkite.TeamMember) kit.Found {
			var m teamMemberModel
			m.fromAPI(t.ID, tm)
			return kit.Found{Model: &m, DisplayName: t.Name + " / " + kit.DisplayOr(tm.UserName, tm.UserID)}
		},
	}
}

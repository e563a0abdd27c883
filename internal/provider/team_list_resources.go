package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resources of teams and of their associations. The three association kinds (members, pipeline
// access, suite access) share one filter, team_id, and one way to find their teams: the organization's team
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
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
		return c.Teams.List(ctx, buildkite.TeamListOptions{})
	},
	hasID: func(t *buildkite.Team, id string) bool { return strings.EqualFold(t.ID, id) },
	name:  func(t *buildkite.Team) string { return t.Name },
	ref:   func(t *buildkite.Team) string { return t.ID },
}

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

// NewPipelineTeamListResource returns the buildkite_pipeline_team list resource.
func NewPipelineTeamListResource() list.ListResource {
	return &childList[buildkite.Team, buildkite.TeamPipeline]{
		listBase: newListBase("pipeline_team", pipelineTeamIdentity),
		parents:  teamParents,
		what:     "team pipelines",
		description: "Finds the pipelines teams have access to, with the access level, each shown by the " +
			"pipeline's slug, shown as `<team name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamPipeline, error) {
			return client.TeamPipelines.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, tp *buildkite.TeamPipeline) found {
			var m pipelineTeamModel
			m.fromAPI(t.ID, tp)
			return found{model: &m, displayName: t.Name + " / " + displayOr(tp.PipelineSlug(), tp.PipelineID)}
		},
	}
}

// NewTestSuiteTeamListResource returns the buildkite_test_suite_team list resource.
func NewTestSuiteTeamListResource() list.ListResource {
	return &childList[buildkite.Team, buildkite.TeamSuite]{
		listBase: newListBase("test_suite_team", testSuiteTeamIdentity),
		parents:  teamParents,
		what:     "team test suites",
		description: "Finds the test suites teams have access to, with the access level, each shown by the " +
			"suite's slug, shown as `<team name> / …`.",
		listIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamSuite, error) {
			return client.TeamSuites.List(ctx, t.ID)
		},
		found: func(t *buildkite.Team, ts *buildkite.TeamSuite) found {
			var m testSuiteTeamModel
			m.fromAPI(t.ID, ts)
			return found{model: &m, displayName: t.Name + " / " + displayOr(ts.SuiteSlug(), ts.SuiteID)}
		},
	}
}

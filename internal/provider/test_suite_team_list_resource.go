package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

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

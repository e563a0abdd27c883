package suites

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// NewTestSuiteTeamListResource returns the buildkite_test_suite_team list resource.
func NewTestSuiteTeamListResource() list.ListResource {
	return &kit.ChildList[buildkite.Team, buildkite.TeamSuite]{
		ListBase: kit.NewListBase("test_suite_team", testSuiteTeamIdentity),
		Parents:  kit.TeamParents,
		What:     "team test suites",
		Description: "Finds the test suites teams have access to, with the access level, each shown by the " +
			"suite's slug, shown as `<team name> / …`.",
		ListIn: func(ctx context.Context, client *buildkite.Client, t *buildkite.Team) ([]buildkite.TeamSuite, error) {
			return client.TeamSuites.List(ctx, t.ID)
		},
		Found: func(t *buildkite.Team, ts *buildkite.TeamSuite) kit.Found {
			var m testSuiteTeamModel
			m.fromAPI(t.ID, ts)
			return kit.Found{Model: &m, DisplayName: t.Name + " / " + kit.DisplayOr(ts.SuiteSlug(), ts.SuiteID)}
		},
	}
}

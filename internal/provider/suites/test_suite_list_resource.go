package suites

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The list resource of test suites, found by name from the organization's listing. A suite's API token,
// which the service returns only on creation, is null in every result, as after an import; its
// team_owner_id is what its import reads (the one team that may manage it), so that the configuration
// `terraform query` generates plans no change.

// ownedSuite is a suite with the team its import would name as its owner ("" for none).
type ownedSuite struct {
	buildkite.TestSuite
	owner string
}

// NewTestSuiteListResource returns the buildkite_test_suite list resource.
func NewTestSuiteListResource() list.ListResource {
	return &kit.NamedList[ownedSuite]{
		ListBase: kit.NewListBase("test_suite", testSuiteIdentity),
		What:     "test suites",
		Description: "Finds the organization's Test Engine test suites, shown by name " +
			"(without their API tokens, which the service returns only on creation).",
		NameFilter: kit.NameFilterDescription("test suite"),
		ListFunc:   listOwnedSuites,
		Name:       func(s *ownedSuite) string { return s.Name },
		Model: func(s *ownedSuite) any {
			var m testSuiteModel
			m.fromAPI(&s.TestSuite)
			m.TeamOwnerID = kit.NewRef(s.owner)
			return &m
		},
	}
}

// listOwnedSuites lists the suites with their owners, found as an import finds one suite's
// (testSuiteResource.soleManagingTeam) but in one batch: the teams listing and each team's suite listing,
// never a request per suite. Where the teams cannot be read, no suite has an owner, as after an import.
func listOwnedSuites(ctx context.Context, c *buildkite.Client) ([]ownedSuite, error) {
	suites, err := c.TestSuites.List(ctx)
	if err != nil || len(suites) == 0 {
		return nil, err
	}
	owners := suiteOwners(ctx, c)
	out := make([]ownedSuite, len(suites))
	for i := range suites {
		out[i] = ownedSuite{TestSuite: suites[i], owner: owners[suites[i].ID]}
	}
	return out, nil
}

// suiteOwners maps each suite's ID to the one team with manage_and_read access to it; a suite that several
// teams may manage, or none, is left out.
func suiteOwners(ctx context.Context, c *buildkite.Client) map[string]string {
	teams, err := c.Teams.List(ctx, buildkite.TeamListOptions{})
	if err != nil {
		tflog.Warn(ctx, "test suites: the teams cannot be listed, so no suite is given its team_owner_id", map[string]any{"error": kit.DescribeError(err)})
		return nil
	}
	owners := map[string]string{}
	managers := map[string]int{}
	for _, t := range teams {
		access, err := c.TeamSuites.List(ctx, t.ID)
		if err != nil { // passed over, as the import passes over a team whose access it cannot read
			tflog.Warn(ctx, "test suites: a team's suites cannot be listed, so it owns none of them here", map[string]any{"team": t.ID, "error": kit.DescribeError(err)})
			continue
		}
		for _, a := range access {
			if suiteAccessFromAPI(a.AccessLevel) == "manage_and_read" {
				managers[a.SuiteID]++
				owners[a.SuiteID] = t.ID
			}
		}
	}
	for id, n := range managers {
		if n > 1 {
			delete(owners, id)
		}
	}
	return owners
}

package suites

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testSuiteTeamIdentity names a team's access to a test suite by its two sides, for import blocks and
// terraform query.
var testSuiteTeamIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("team_id", "The UUID of the team."),
	kit.IdentityAttr("test_suite_id", "The UUID of the test suite."),
)

// NewTestSuiteTeamResource returns the buildkite_test_suite_team resource.
func NewTestSuiteTeamResource() resource.Resource { return kit.NewAssociation(testSuiteTeamKind) }

type testSuiteTeamModel struct {
	ID          types.String  `tfsdk:"id"`
	UUID        types.String  `tfsdk:"uuid"`
	GraphQLID   types.String  `tfsdk:"graphql_id"`
	TeamID      kit.RefValue  `tfsdk:"team_id"`
	TestSuiteID kit.RefValue  `tfsdk:"test_suite_id"`
	AccessLevel kit.EnumValue `tfsdk:"access_level"`
}

func (m *testSuiteTeamModel) fromAPI(teamID string, ts *buildkite.TeamSuite) {
	m.ID = kit.AssociationID(teamID, ts.SuiteID)
	m.UUID = m.ID
	m.GraphQLID = kit.OptionalString(ts.GraphQLID)
	m.TeamID = kit.NewRef(teamID)
	m.TestSuiteID = kit.NewRef(ts.SuiteID)
	m.AccessLevel = kit.NewEnumValue(suiteAccessFromAPI(ts.AccessLevel))
}

// The access levels of buildkite_test_suite_team, as the official provider names them (in the REST API's
// lower case), and the REST API's arrays they stand for.
var suiteAccessLevels = map[string][]string{
	"read_only":       {"read"},
	"manage_and_read": {"read", "edit"},
}

// suiteAccessToAPI is the REST array for an access level; level is checked at plan time.
func suiteAccessToAPI(level string) []string {
	return slices.Clone(suiteAccessLevels[strings.ToLower(level)])
}

// suiteAccessFromAPI names the REST array: read_only or manage_and_read in any order. An array that is
// neither (["edit"], set outside Terraform) is shown as its entries joined with ",", so that a plan reads
// `"EDIT" -> "READ_ONLY"` and the next apply sets what the configuration says.
func suiteAccessFromAPI(levels []string) string {
	set := slices.Clone(levels)
	slices.Sort(set)
	set = slices.Compact(set)
	for name, want := range suiteAccessLevels {
		w := slices.Clone(want)
		slices.Sort(w)
		if slices.Equal(set, w) {
			return name
		}
	}
	return strings.Join(levels, ",")
}

// testSuiteTeamKind declares buildkite_test_suite_team: a team's access to a test suite, addressed by the
// team and the suite's UUID, with the level changed in place. It takes over the access a suite created with
// team_owner_id gave.
var testSuiteTeamKind = &kit.AssociationKind[buildkite.TeamSuite, testSuiteTeamModel]{
	Name:     "test_suite_team",
	What:     "test suite team",
	Scopes:   kit.WriteScopes("write_teams"),
	Identity: testSuiteTeamIdentity,
	Schema:   testSuiteTeamSchema,
	Parent:   "team_id",
	Key:      "test_suite_id",
	Moves:    kit.BySides("team_id", "test_suite_id"),
	FromAPI:  (*testSuiteTeamModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, teamID string, plan *testSuiteTeamModel) (*buildkite.TeamSuite, error) {
		return c.TeamSuites.Create(ctx, teamID, buildkite.TeamSuiteCreate{
			SuiteID: plan.TestSuiteID.UUID(), AccessLevel: suiteAccessToAPI(plan.AccessLevel.ValueString()),
		})
	},
	Get: func(ctx context.Context, c *buildkite.Client, teamID, suiteID string) (*buildkite.TeamSuite, error) {
		return c.TeamSuites.Get(ctx, teamID, suiteID)
	},
	Update: func(ctx context.Context, c *buildkite.Client, teamID, suiteID string, plan, _ *testSuiteTeamModel) (*buildkite.TeamSuite, error) {
		return c.TeamSuites.Update(ctx, teamID, suiteID, suiteAccessToAPI(plan.AccessLevel.ValueString()))
	},
	Remove: func(ctx context.Context, c *buildkite.Client, teamID, suiteID string) error {
		return c.TeamSuites.Delete(ctx, teamID, suiteID)
	},
	Current: func(ts *buildkite.TeamSuite, plan *testSuiteTeamModel) bool {
		return suiteAccessFromAPI(ts.AccessLevel) == plan.AccessLevel.API()
	},
	// The suite is looked up among the team's suites, by UUID or slug.
	ImportParts: []kit.ImportPart{kit.KeyPart("<team id or slug>", "Team"), kit.KeyPart("<suite id or slug>", "Suite")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		return kit.TeamAndOther(ctx, c, parts, c.TeamSuites.Get, c.TeamSuites.List,
			func(ts *buildkite.TeamSuite) string { return ts.SuiteID }, (*buildkite.TeamSuite).SuiteSlug)
	},
}

func testSuiteTeamSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A team's access to a test suite. Import as `<team>/<suite>`, the team by UUID or slug " +
			"and the suite by UUID or slug.\n\n" +
			"The REST API spells the access as an array: `read_only` is `[\"read\"]` and `manage_and_read` is " +
			"`[\"read\", \"edit\"]`. An access set outside Terraform that is neither (only `[\"edit\"]`) shows in a " +
			"plan as its entries joined with commas, `access_level: \"EDIT\" -> \"READ_ONLY\"`, and the next apply " +
			"sets what the configuration says.\n\n" +
			"A `buildkite_test_suite` created with `team_owner_id` gives that team `manage_and_read` access once, " +
			"at creation. A `buildkite_test_suite_team` for the same team and suite owns that access from then on: " +
			"creating it takes over the existing access and sets its own `access_level`.",
		Attributes: kit.AssociationAttributes("test suite access", "<team id>/<suite id>", map[string]schema.Attribute{
			"team_id":       kit.ParentIDAttribute("The UUID of the team.", "Team"),
			"test_suite_id": kit.ParentIDAttribute("The UUID of the test suite (its `id`).", "Suite"),
			"access_level": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "What the team's members may do: `read_only` view the suite, `manage_and_read` also change it.",
				Required:            true,
			}, "manage_and_read", "read_only"), // in the official provider's order
		}),
	}
}

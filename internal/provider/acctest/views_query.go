package acctest

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// `terraform query` (Terraform 1.14+) over every list resource: what each finds with its filters, and
// configuration generated from it that imports and then plans empty. `make testacc-next` runs these. A list
// resource joins with its type's row of queryCases (typeTests.query, in the type's test file), and its
// area's seed in acctest/query_seed.go.

// queryCases is the table of list resources, a view over the types' rows (typeTests.query).
func queryCases() []QueryCase {
	return TableRows(func(r TypeTests) []QueryCase { return One(r.Query) })
}

// RunAccResourcesQuery runs every row of queryCases: an unfiltered list block ("all") and the row's own
// blocks, each refused block, and the import of what "all" finds.
func RunAccResourcesQuery(t *testing.T) {
	RequireCLI(t, QueryCLI)
	t.Parallel()
	for _, tc := range queryCases() {
		t.Run(tc.ResourceType, func(t *testing.T) {
			t.Parallel()
			e := NewTestEnv(t)
			row := tc.Run(t, e, e.Name("query"))
			queried := []resource.TestStep{{
				Query:             true,
				Config:            e.QueryConfig(append([]string{tc.ResourceType, "all", ""}, row.Blocks...)...),
				QueryResultChecks: row.Checks,
			}}
			for i, r := range row.Refused {
				queried = append(queried, resource.TestStep{
					Query:       true,
					Config:      e.QueryConfig(tc.ResourceType, fmt.Sprintf("refused%d", i), r.Body),
					ExpectError: r.Message,
				})
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: queried})
			e.QueryImport(t, ListBlocks(tc.ResourceType, "all", ""), row.Imports)
		})
	}
}

// areaQuery imports everything an area's list resources find in one query, as the guide does, and counts
// the calls: listings only, never one GET per object.
type areaQuery struct {
	name  string
	seed  func(t *testing.T, e *TestEnv, base string)
	types []string // the list resources, each queried unfiltered
	found int      // what they find together
	// listings matches the paths of the listing calls, and lists is how many there must be (why says it).
	listings []*regexp.Regexp
	lists    int
	listsWhy string
}

var areaQueries = []areaQuery{
	{
		name: "clusters", seed: func(t *testing.T, e *TestEnv, base string) { e.SeedClusters(t, base) },
		types:    []string{"buildkite_cluster", "buildkite_cluster_queue", "buildkite_cluster_agent_token", "buildkite_cluster_default_queue"},
		found:    2 + 3 + 2 + 1,
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/clusters(/[^/]+/(queues|tokens))?$`)},
		lists:    4 + 2*2, listsWhy: "clusters four times, then queues and tokens of two clusters",
	},
	{
		name: "teams", seed: func(t *testing.T, e *TestEnv, base string) { e.SeedTeams(t, base) },
		types:    []string{"buildkite_team", "buildkite_team_member", "buildkite_pipeline_team", "buildkite_test_suite_team"},
		found:    2 + 2 + 3 + 2,
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/teams(/[^/]+/(members|pipelines|suites))?$`)},
		lists:    4 + 3*2, listsWhy: "teams four times, then members, pipelines and suites of two teams",
	},
	{
		name: "pipelines", seed: func(t *testing.T, e *TestEnv, base string) { e.SeedPipelines(t, base) },
		types:    []string{"buildkite_pipeline", "buildkite_pipeline_template", "buildkite_organization_rule"},
		found:    3 + 2 + 2,
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/(pipelines|pipeline-templates|rules|clusters)$`)},
		// Each list block lists its kind once; the rules list the pipelines too, to name them, and the
		// pipelines the clusters, for their cluster_name.
		lists: 5, listsWhy: "pipelines twice, clusters, templates and rules once",
	},
	{
		name: "suites", seed: func(t *testing.T, e *TestEnv, base string) { e.SeedSuites(t, base) },
		types: []string{"buildkite_test_suite", "buildkite_registry", "buildkite_registry_token"},
		found: 2 + 2 + 3,
		listings: []*regexp.Regexp{
			regexp.MustCompile(`^/v2/analytics/organizations/[^/]+/suites$`),
			regexp.MustCompile(`^/v2/organizations/[^/]+/teams(/[^/]+/suites)?$`),
			regexp.MustCompile(`^/v2/packages/organizations/[^/]+/registries(/[^/]+/tokens)?$`),
		},
		lists: 1 + 2 + 2 + 2, listsWhy: "suites once, their owners from the teams and the one team's suites, registries twice, the tokens of two registries",
	},
	{
		name: "beyond-spec", seed: func(t *testing.T, e *TestEnv, base string) { e.SeedBeyondSpec(t, base) },
		types: []string{"buildkite_pipeline_schedule", "buildkite_cluster_secret", "buildkite_cluster_maintainer"},
		found: 3 + 3 + 3,
		listings: []*regexp.Regexp{
			regexp.MustCompile(`^/v2/organizations/[^/]+/pipelines(/[^/]+/schedules)?$`),
			regexp.MustCompile(`^/v2/organizations/[^/]+/clusters(/[^/]+/(secrets|maintainers))?$`),
		},
		lists:    1 + 2 + 2 + 2 + 2,
		listsWhy: "pipelines once and the schedules of two; clusters twice, the secrets and the maintainers of two",
	},
	{
		name: "memberships", seed: func(t *testing.T, e *TestEnv, base string) { e.SeedMemberships(t, base) },
		types:    []string{"buildkite_organization_membership"},
		found:    2 + 1, // the emulator's two members and the invitation
		listings: []*regexp.Regexp{regexp.MustCompile(`^/v2/organizations/[^/]+/(members|invitations)$`)},
		lists:    2, listsWhy: "members and invitations once each, never one GET per member",
	},
}

// RunAccAreasQuery runs every areaQuery.
func RunAccAreasQuery(t *testing.T) {
	RequireCLI(t, QueryCLI)
	t.Parallel()
	for _, a := range areaQueries {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			e := NewTestEnv(t)
			a.seed(t, e, e.Name("query"))
			var blocks []string
			for _, typ := range a.types {
				blocks = append(blocks, typ, "all", "")
			}
			calls := e.QueryImport(t, ListBlocks(blocks...), a.found)
			if e.Live {
				return
			}
			if lists := countListings(t, e, calls, a.listings); lists != a.lists {
				t.Errorf("terraform query made %d listing calls, want %d (%s)", lists, a.lists, a.listsWhy)
			}
		})
	}
}

// countListings counts the calls that match one of listings, and fails the test on any call that is neither
// a listing nor one of the provider's own checks (the token, the organization).
func countListings(t *testing.T, e *TestEnv, calls []fakeserver.Request, listings []*regexp.Regexp) int {
	t.Helper()
	lists := 0
	for _, r := range calls {
		switch {
		case r.Method == http.MethodGet && matchesAny(listings, r.Path):
			lists++
		case r.Method == http.MethodGet && (r.Path == "/v2/access-token" || r.Path == "/v2/organizations/"+e.Org):
		default:
			t.Errorf("terraform query made %s %s; it should only list", r.Method, r.Path)
		}
	}
	return lists
}

func matchesAny(patterns []*regexp.Regexp, s string) bool {
	for _, p := range patterns {
		if p.MatchString(s) {
			return true
		}
	}
	return false
}

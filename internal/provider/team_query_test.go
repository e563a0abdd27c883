package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// `terraform query` (Terraform 1.14+) over teams and their members, pipeline and suite access: what the list
// resources find with their filters, and configuration generated from it that imports and then plans empty.
// `make testacc-next` runs these.

// seededTeams is what seedTeams made outside Terraform.
type seededTeams struct {
	a, b   *buildkite.Team
	member buildkite.Member // the organization's second member, in both teams
	p1, p2 *buildkite.Pipeline
	suite  *buildkite.TestSuite
}

// seedTeams makes, through the API as someone outside Terraform would, team "<base>-a" with every optional
// attribute set and team "<base>-b" with none; the organization's second member is a maintainer of a and a
// member of b. Team a may build pipeline p1 and owns a suite (which gives it manage_and_read access); team
// b may read p1, manage p2 and read the suite. That is 2 teams, 2 memberships, 3 pipeline accesses and 2
// suite accesses.
func (e *testEnv) seedTeams(t *testing.T, base string) seededTeams {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
	var s seededTeams
	var err error
	s.a, err = e.client.Teams.Create(ctx, buildkite.TeamWrite{
		Name: base + "-a", Description: "Runs the platform", Privacy: "secret", DefaultMemberRole: "maintainer",
		MembersCanCreatePipelines: true,
	})
	must(err)
	t.Cleanup(func() { _ = e.client.Teams.Delete(context.Background(), s.a.ID) })
	s.b = e.seedTeam(base + "-b")

	members, err := e.client.Organizations.ListMembers(ctx)
	must(err)
	for _, m := range members {
		if m.Email == e.secondMemberEmail() {
			s.member = m
		}
	}
	if s.member.ID == "" {
		t.Fatalf("seeding: no member of the organization has the email %q", e.secondMemberEmail())
	}
	_, err = e.client.TeamMembers.Create(ctx, s.a.ID, buildkite.TeamMemberCreate{UserID: s.member.ID, Role: "maintainer"})
	must(err)
	_, err = e.client.TeamMembers.Create(ctx, s.b.ID, buildkite.TeamMemberCreate{UserID: s.member.ID, Role: "member"})
	must(err)

	s.p1, s.p2 = e.pipelineNamed(base+"-p1"), e.pipelineNamed(base+"-p2")
	for _, access := range []struct {
		team     *buildkite.Team
		pipeline *buildkite.Pipeline
		level    string
	}{{s.a, s.p1, "build_and_read"}, {s.b, s.p1, "read_only"}, {s.b, s.p2, "manage_build_and_read"}} {
		_, err = e.client.TeamPipelines.Create(ctx, access.team.ID,
			buildkite.TeamPipelineCreate{PipelineID: access.pipeline.ID, AccessLevel: access.level})
		must(err)
	}

	s.suite = e.seedSuite(base+"-suite", s.a.ID)
	_, err = e.client.TeamSuites.Create(ctx, s.b.ID, buildkite.TeamSuiteCreate{SuiteID: s.suite.ID, AccessLevel: []string{"read"}})
	must(err)
	return s
}

func TestAccTeamResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedTeams(t, base)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_team", "all", "",
				"buildkite_team", "named", fmt.Sprintf("    name = %q", base+"-A"),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_team.all", 2),
				querycheck.ExpectLength("buildkite_team.named", 1),
				querycheck.ExpectIdentity("buildkite_team.named", identityOf("id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_team.all",
					queryfilter.ByResourceIdentity(identityOf("id", s.b.ID)), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", queryfilter.ByResourceIdentity(identityOf("id", s.a.ID)),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("slug"), KnownValue: knownvalue.StringExact(s.a.Slug)},
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("Runs the platform")},
						{Path: tfjsonpath.New("privacy"), KnownValue: knownvalue.StringExact("secret")},
						{Path: tfjsonpath.New("default_member_role"), KnownValue: knownvalue.StringExact("maintainer")},
						{Path: tfjsonpath.New("members_can_create_pipelines"), KnownValue: knownvalue.Bool(true)},
					}),
				querycheck.ExpectResourceKnownValues("buildkite_team.all", queryfilter.ByResourceIdentity(identityOf("id", s.b.ID)),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("")},
						{Path: tfjsonpath.New("members_can_create_pipelines"), KnownValue: knownvalue.Bool(false)},
					}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_team", "all", ""), 2)
}

func TestAccTeamMemberResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedTeams(t, base)
	membership := func(tm *buildkite.Team) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("team_id", tm.ID, "user_id", s.member.ID))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: e.queryConfig(
					"buildkite_team_member", "all", "",
					"buildkite_team_member", "b", fmt.Sprintf("    team_id = %q", s.b.ID),
				),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("buildkite_team_member.all", 2),
					querycheck.ExpectLength("buildkite_team_member.b", 1),
					querycheck.ExpectIdentity("buildkite_team_member.b", identityOf("team_id", s.b.ID, "user_id", s.member.ID)),
					querycheck.ExpectResourceDisplayName("buildkite_team_member.all", membership(s.a),
						knownvalue.StringExact(base+"-a / "+s.member.Name)),
					querycheck.ExpectResourceKnownValues("buildkite_team_member.all", membership(s.a), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.a.ID + "/" + s.member.ID)},
						{Path: tfjsonpath.New("role"), KnownValue: knownvalue.StringExact("maintainer")},
						{Path: tfjsonpath.New("user_name"), KnownValue: knownvalue.StringExact(s.member.Name)},
					}),
					querycheck.ExpectResourceKnownValues("buildkite_team_member.b", membership(s.b), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("role"), KnownValue: knownvalue.StringExact("member")},
					}),
				},
			},
			{
				Query:       true,
				Config:      e.queryConfig("buildkite_team_member", "none", `    team_id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"`),
				ExpectError: wrapped(`No team matches the ID "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"`),
			},
			{
				// A slug is refused at once rather than matching nothing.
				Query:       true,
				Config:      e.queryConfig("buildkite_team_member", "slug", fmt.Sprintf("    team_id = %q", s.a.Slug)),
				ExpectError: regexp.MustCompile(`(?s)team_id.*must be a UUID`),
			},
		},
	})
	e.queryImport(t, listBlocks("buildkite_team_member", "all", ""), 2)
}

func TestAccPipelineTeamResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedTeams(t, base)
	access := func(tm *buildkite.Team, p *buildkite.Pipeline) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("team_id", tm.ID, "pipeline_id", p.ID))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_pipeline_team", "all", "",
				"buildkite_pipeline_team", "b", fmt.Sprintf("    team_id = %q", s.b.ID),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_pipeline_team.all", 3),
				querycheck.ExpectLength("buildkite_pipeline_team.b", 2),
				querycheck.ExpectResourceDisplayName("buildkite_pipeline_team.all", access(s.b, s.p2),
					knownvalue.StringExact(base+"-b / "+s.p2.Slug)),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.all", access(s.a, s.p1), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.a.ID + "/" + s.p1.ID)},
					{Path: tfjsonpath.New("access_level"), KnownValue: knownvalue.StringExact("build_and_read")},
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.b, s.p1), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("access_level"), KnownValue: knownvalue.StringExact("read_only")},
				}),
				querycheck.ExpectResourceKnownValues("buildkite_pipeline_team.b", access(s.b, s.p2), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("access_level"), KnownValue: knownvalue.StringExact("manage_build_and_read")},
				}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_pipeline_team", "all", ""), 3)
}

func TestAccTestSuiteTeamResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedTeams(t, base)
	access := func(tm *buildkite.Team) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("team_id", tm.ID, "test_suite_id", s.suite.ID))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_test_suite_team", "all", "",
				"buildkite_test_suite_team", "a", fmt.Sprintf("    team_id = %q", s.a.ID),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_test_suite_team.all", 2),
				querycheck.ExpectLength("buildkite_test_suite_team.a", 1),
				querycheck.ExpectIdentity("buildkite_test_suite_team.a", identityOf("team_id", s.a.ID, "test_suite_id", s.suite.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_test_suite_team.all", access(s.b),
					knownvalue.StringExact(base+"-b / "+s.suite.Slug)),
				// The owner's access, which creating the suite gave it, is found like any other.
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.a", access(s.a), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("access_level"), KnownValue: knownvalue.StringExact("manage_and_read")},
				}),
				querycheck.ExpectResourceKnownValues("buildkite_test_suite_team.all", access(s.b), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.b.ID + "/" + s.suite.ID)},
					{Path: tfjsonpath.New("access_level"), KnownValue: knownvalue.StringExact("read_only")},
				}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_test_suite_team", "all", ""), 2)
}

// TestAccTeams_query imports everything the team list resources find in one query, as the guide does, and
// counts the calls: listings only, never one GET per object.
func TestAccTeams_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	e.seedTeams(t, e.name("query"))
	calls := e.queryImport(t, listBlocks(
		"buildkite_team", "all", "",
		"buildkite_team_member", "all", "",
		"buildkite_pipeline_team", "all", "",
		"buildkite_test_suite_team", "all", "",
	), 2+2+3+2)
	if e.live {
		return
	}
	// Teams, then the members, pipelines and suites of each: a listing per kind and team, nothing per object.
	listing := regexp.MustCompile(`^/v2/organizations/[^/]+/teams(/[^/]+/(members|pipelines|suites))?$`)
	lists := 0
	for _, r := range calls {
		switch {
		case r.Method == http.MethodGet && listing.MatchString(r.Path):
			lists++
		case r.Method == http.MethodGet && (r.Path == "/v2/access-token" || r.Path == "/v2/organizations/"+e.org):
		default:
			t.Errorf("terraform query made %s %s; it should only list", r.Method, r.Path)
		}
	}
	if want := 4 + 3*2; lists != want {
		t.Errorf("terraform query made %d listing calls, want %d (teams four times, then members, pipelines and suites of two teams)", lists, want)
	}
}

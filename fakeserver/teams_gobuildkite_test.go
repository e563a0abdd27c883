package fakeserver

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/buildkite/go-buildkite/v4"
)

// TestTeamsAndSuitesWithGoBuildkite drives this area through the official client: its paths (/members
// without a slash, /suite, DELETE /pipelines/{id}) must route and its types must decode every response.
func TestTeamsAndSuitesWithGoBuildkite(t *testing.T) {
	e := newEnv(t, Options{})
	client := e.goBuildkite()
	ctx := context.Background()
	k := teamsKit{e}
	_, second := k.memberIDs()

	// Teams.
	team, _, err := client.Teams.CreateTeam(ctx, "acme", buildkite.CreateTeam{
		Name: "Go Team", Description: "d", Privacy: "secret", IsDefaultTeam: true, DefaultMemberRole: "maintainer",
		MembersCanCreatePipelines: true, MembersCanCreateSuites: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if team.ID == "" || team.GraphQLID == "" || team.Slug != "go-team" || team.Privacy != "secret" || !team.Default ||
		team.DefaultMemberRole != "maintainer" || !team.MembersCanCreatePipelines || !team.MembersCanCreateSuites ||
		team.CreatedAt == nil || team.CreatedAt.IsZero() || team.CreatedBy == nil || team.CreatedBy.Name != "Test User" {
		t.Fatalf("created %+v", team)
	}
	got, err := client.Teams.GetTeam(ctx, "acme", team.ID)
	if err != nil || got.Name != "Go Team" {
		t.Fatalf("get %+v %v", got, err)
	}
	updated, _, err := client.Teams.UpdateTeam(ctx, "acme", team.ID, buildkite.CreateTeam{Name: "Go Team 2", Privacy: "visible"})
	if err != nil || updated.Slug != "go-team-2" || updated.Privacy != "visible" || updated.Default ||
		updated.DefaultMemberRole != "maintainer" {
		t.Fatalf("update %+v %v", updated, err)
	}

	// Members.
	member, _, err := client.TeamMember.CreateTeamMember(ctx, "acme", team.ID, buildkite.CreateTeamMember{UserID: second, Role: "member"})
	if err != nil || member.ID != second || member.UserName != "Second Member" || member.CreatedAt.IsZero() {
		t.Fatalf("add member %+v %v", member, err)
	}
	members, _, err := client.TeamMember.ListTeamMembers(ctx, "acme", team.ID, nil)
	if err != nil || len(members) != 1 {
		t.Fatalf("members %+v %v", members, err)
	}
	if m, err := client.TeamMember.GetTeamMember(ctx, "acme", team.ID, second); err != nil || m.Role != "member" {
		t.Fatalf("get member %+v %v", m, err)
	}
	if m, _, err := client.TeamMember.UpdateTeamMember(ctx, "acme", team.ID, second, "maintainer"); err != nil || m.Role != "maintainer" {
		t.Fatalf("update member %+v %v", m, err)
	}
	teams, _, err := client.Teams.List(ctx, "acme", &buildkite.TeamsListOptions{UserID: second})
	if err != nil || len(teams) != 1 || teams[0].ID != team.ID {
		t.Fatalf("teams of member %+v %v", teams, err)
	}
	if _, err := client.TeamMember.DeleteTeamMember(ctx, "acme", team.ID, second); err != nil {
		t.Fatal(err)
	}
	_, _, err = client.TeamMember.CreateTeamMember(ctx, "acme", team.ID, buildkite.CreateTeamMember{UserID: k.outsider(), Role: "member"})
	var apiErr *buildkite.ErrorResponse
	if !errors.As(err, &apiErr) || apiErr.Response.StatusCode != http.StatusUnprocessableEntity ||
		apiErr.Message != "Validation failed: User must be a member of the organization" {
		t.Fatalf("outsider: %v", err)
	}

	// Pipelines (seeded: the pipelines API is another area's).
	pipelineID := k.seedPipeline("acme", "Go Pipeline")
	tp, _, err := client.TeamPipelines.Create(ctx, "acme", team.ID, buildkite.CreateTeamPipelines{PipelineID: pipelineID, AccessLevel: "read_only"})
	if err != nil || tp.ID != pipelineID || tp.URL != e.ts.URL+"/v2/organizations/acme/pipelines/go-pipeline" ||
		tp.CreatedAt == nil || tp.CreatedAt.IsZero() {
		t.Fatalf("add pipeline %+v %v", tp, err)
	}
	if l, _, err := client.TeamPipelines.List(ctx, "acme", team.ID, nil); err != nil || len(l) != 1 {
		t.Fatalf("team pipelines %+v %v", l, err)
	}
	if g, _, err := client.TeamPipelines.Get(ctx, "acme", team.ID, pipelineID); err != nil || g.AccessLevel != "read_only" {
		t.Fatalf("get team pipeline %+v %v", g, err)
	}
	u, _, err := client.TeamPipelines.Update(ctx, "acme", team.ID, pipelineID, buildkite.UpdateTeamPipelines{AccessLevel: "manage_build_and_read"})
	if err != nil || u.AccessLevel != "manage_build_and_read" {
		t.Fatalf("update team pipeline %+v %v", u, err)
	}
	if _, err := client.TeamPipelines.Delete(ctx, "acme", team.ID, pipelineID); err != nil {
		t.Fatal(err)
	}

	// Test suites.
	suite, _, err := client.TestSuites.Create(ctx, "acme", buildkite.TestSuiteCreate{
		Name: "Go Suite", DefaultBranch: "main", ShowAPIToken: true, TeamUUIDs: []string{team.ID},
	})
	if err != nil || suite.Slug != "go-suite" || suite.ID == "" || suite.GraphQLID == "" || suite.URL == "" ||
		suite.WebURL == "" || suite.DefaultBranch != "main" {
		t.Fatalf("create suite %+v %v", suite, err)
	}
	if l, _, err := client.TestSuites.List(ctx, "acme", nil); err != nil || len(l) != 1 {
		t.Fatalf("suites %+v %v", l, err)
	}
	suite.Name, suite.DefaultBranch = "Go Suite 2", "trunk"
	suite, _, err = client.TestSuites.Update(ctx, "acme", "go-suite", suite)
	if err != nil || suite.Slug != "go-suite-2" || suite.DefaultBranch != "trunk" {
		t.Fatalf("update suite %+v %v", suite, err)
	}
	if g, _, err := client.TestSuites.Get(ctx, "acme", "go-suite-2"); err != nil || g.ID != suite.ID {
		t.Fatalf("get suite %+v %v", g, err)
	}

	// Team suites: the creator's team already has read and edit.
	other, _, err := client.Teams.CreateTeam(ctx, "acme", buildkite.CreateTeam{Name: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	tsu, _, err := client.TeamSuites.Create(ctx, "acme", other.ID, buildkite.CreateTeamSuites{SuiteID: suite.ID, AccessLevel: []string{"read"}})
	if err != nil || tsu.ID != suite.ID || tsu.URL != suite.URL || len(tsu.AccessLevel) != 1 || tsu.CreatedAt == nil {
		t.Fatalf("add suite %+v %v", tsu, err)
	}
	if l, _, err := client.TeamSuites.List(ctx, "acme", team.ID, nil); err != nil || len(l) != 1 || len(l[0].AccessLevel) != 2 {
		t.Fatalf("team suites %+v %v", l, err)
	}
	if g, _, err := client.TeamSuites.Get(ctx, "acme", other.ID, suite.ID); err != nil || g.AccessLevel[0] != "read" {
		t.Fatalf("get team suite %+v %v", g, err)
	}
	if g, _, err := client.TeamSuites.Update(ctx, "acme", other.ID, suite.ID, buildkite.UpdateTeamSuites{AccessLevel: []string{"read", "edit"}}); err != nil || len(g.AccessLevel) != 2 {
		t.Fatalf("update team suite %+v %v", g, err)
	}
	if _, err := client.TeamSuites.Delete(ctx, "acme", other.ID, suite.ID); err != nil {
		t.Fatal(err)
	}

	// Flaky tests.
	at := time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	if _, err := e.srv.Store().AddFlakyTest("acme", "go-suite-2", FlakyTestFixture{Name: "flaky", Scope: "S", Location: "x_test.go:3", Instances: 4, LatestAt: at}); err != nil {
		t.Fatal(err)
	}
	flaky, _, err := client.FlakyTests.List(ctx, "acme", "go-suite-2", nil)
	if err != nil || len(flaky) != 1 || flaky[0].Name != "flaky" || flaky[0].Instances != 4 || flaky[0].FileName != "x_test.go" ||
		flaky[0].MostRecentInstanceAt == nil || !flaky[0].MostRecentInstanceAt.Time.Equal(at) || flaky[0].WebURL == "" {
		t.Fatalf("flaky tests %+v %v", flaky, err)
	}

	// Deletes.
	if _, err := client.TestSuites.Delete(ctx, "acme", "go-suite-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Teams.DeleteTeam(ctx, "acme", team.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Teams.GetTeam(ctx, "acme", team.ID); !errors.As(err, &apiErr) || apiErr.Response.StatusCode != http.StatusNotFound {
		t.Fatalf("get deleted team: %v", err)
	}
}

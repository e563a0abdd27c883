package fakeserver

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	gbk "github.com/buildkite/go-buildkite/v4"
)

// TestGoBuildkiteEveryServiceMethod drives the official Go client (go-buildkite v4) through one call of
// every service method that maps to an endpoint of the documentation, unchanged: each request must succeed
// and each response must decode into the client's own types.
func TestGoBuildkiteEveryServiceMethod(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.goBuildkite()
	ctx := context.Background()
	const org = "acme"
	calls := 0
	must := func(name string, err error) {
		t.Helper()
		calls++
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	want := func(name string, ok bool, format string, args ...any) {
		t.Helper()
		if !ok {
			t.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
		}
	}

	// Organizations and members.
	orgs, _, err := c.Organizations.List(ctx, nil)
	must("Organizations.List", err)
	want("Organizations.List", len(orgs) == 1 && orgs[0].Slug == org, "got %+v", orgs)
	o, _, err := c.Organizations.Get(ctx, org)
	must("Organizations.Get", err)
	want("Organizations.Get", o.Slug == org && o.ID != "", "got %+v", o)
	members, _, err := c.Members.List(ctx, org, nil)
	must("Members.List", err)
	want("Members.List", len(members) >= 2, "got %d members", len(members))
	member, _, err := c.Members.Get(ctx, org, members[1].UUID)
	must("Members.Get", err)
	want("Members.Get", member.UUID == members[1].UUID, "got %+v", member)

	// Clusters, queues, tokens.
	cl, _, err := c.Clusters.Create(ctx, org, gbk.ClusterCreate{Name: "Platform", Emoji: ":rocket:", Color: "#A8D5FF"})
	must("Clusters.Create", err)
	want("Clusters.Create", cl.ID != "" && cl.Name == "Platform", "got %+v", cl)
	_, _, err = c.Clusters.List(ctx, org, nil)
	must("Clusters.List", err)
	_, _, err = c.Clusters.Get(ctx, org, cl.ID)
	must("Clusters.Get", err)
	q, _, err := c.ClusterQueues.Create(ctx, org, cl.ID, gbk.ClusterQueueCreate{Key: "linux", Description: "Linux"})
	must("ClusterQueues.Create", err)
	want("ClusterQueues.Create", q.Key == "linux", "got %+v", q)
	_, _, err = c.ClusterQueues.List(ctx, org, cl.ID, nil)
	must("ClusterQueues.List", err)
	_, _, err = c.ClusterQueues.Get(ctx, org, cl.ID, q.ID)
	must("ClusterQueues.Get", err)
	_, _, err = c.ClusterQueues.Update(ctx, org, cl.ID, q.ID, gbk.ClusterQueueUpdate{Description: "Linux agents"})
	must("ClusterQueues.Update", err)
	paused, _, err := c.ClusterQueues.Pause(ctx, org, cl.ID, q.ID, gbk.ClusterQueuePause{Note: "upgrade"})
	must("ClusterQueues.Pause", err)
	want("ClusterQueues.Pause", paused.DispatchPaused, "queue not paused: %+v", paused)
	_, err = c.ClusterQueues.Resume(ctx, org, cl.ID, q.ID)
	must("ClusterQueues.Resume", err)
	updated, _, err := c.Clusters.Update(ctx, org, cl.ID, gbk.ClusterUpdate{DefaultQueueID: q.ID})
	must("Clusters.Update", err)
	want("Clusters.Update", updated.DefaultQueueID == q.ID, "default queue %q", updated.DefaultQueueID)
	tok, _, err := c.ClusterTokens.Create(ctx, org, cl.ID, gbk.ClusterTokenCreateUpdate{Description: "agents", AllowedIPAddresses: "10.0.0.0/8"})
	must("ClusterTokens.Create", err)
	want("ClusterTokens.Create", tok.Token != "", "no secret in the create response")
	_, _, err = c.ClusterTokens.List(ctx, org, cl.ID, nil)
	must("ClusterTokens.List", err)
	_, _, err = c.ClusterTokens.Get(ctx, org, cl.ID, tok.ID)
	must("ClusterTokens.Get", err)
	_, _, err = c.ClusterTokens.Update(ctx, org, cl.ID, tok.ID, gbk.ClusterTokenCreateUpdate{Description: "static agents"})
	must("ClusterTokens.Update", err)

	// Teams and their members.
	team, _, err := c.Teams.CreateTeam(ctx, org, gbk.CreateTeam{Name: "Platform", Privacy: "visible", DefaultMemberRole: "member"})
	must("Teams.CreateTeam", err)
	want("Teams.CreateTeam", team.ID != "" && team.Slug == "platform", "got %+v", team)
	_, _, err = c.Teams.List(ctx, org, nil)
	must("Teams.List", err)
	_, err = c.Teams.GetTeam(ctx, org, team.ID)
	must("Teams.GetTeam", err)
	_, _, err = c.Teams.UpdateTeam(ctx, org, team.ID, gbk.CreateTeam{Name: "Platform", Description: "the platform team", Privacy: "secret", DefaultMemberRole: "maintainer"})
	must("Teams.UpdateTeam", err)
	tm, _, err := c.TeamMember.CreateTeamMember(ctx, org, team.ID, gbk.CreateTeamMember{UserID: members[1].UUID, Role: "member"})
	must("TeamMember.CreateTeamMember", err)
	want("TeamMember.CreateTeamMember", tm.ID == members[1].UUID, "got %+v", tm)
	_, _, err = c.TeamMember.ListTeamMembers(ctx, org, team.ID, nil)
	must("TeamMember.ListTeamMembers", err)
	_, err = c.TeamMember.GetTeamMember(ctx, org, team.ID, members[1].UUID)
	must("TeamMember.GetTeamMember", err)
	_, _, err = c.TeamMember.UpdateTeamMember(ctx, org, team.ID, members[1].UUID, "maintainer")
	must("TeamMember.UpdateTeamMember", err)

	// Pipeline templates and pipelines.
	tmpl, _, err := c.PipelineTemplates.Create(ctx, org, gbk.PipelineTemplateCreateUpdate{
		Name: "Standard", Configuration: "steps:\n  - command: make test\n", Available: true,
	})
	must("PipelineTemplates.Create", err)
	want("PipelineTemplates.Create", tmpl.UUID != "", "got %+v", tmpl)
	_, _, err = c.PipelineTemplates.List(ctx, org, nil)
	must("PipelineTemplates.List", err)
	_, _, err = c.PipelineTemplates.Get(ctx, org, tmpl.UUID)
	must("PipelineTemplates.Get", err)
	_, _, err = c.PipelineTemplates.Update(ctx, org, tmpl.UUID, gbk.PipelineTemplateCreateUpdate{Name: "Standard", Configuration: "steps:\n  - command: make\n", Description: "the usual"})
	must("PipelineTemplates.Update", err)

	p, _, err := c.Pipelines.Create(ctx, org, gbk.CreatePipeline{
		Name: "Web App", Repository: "git@github.com:acme/web.git", ClusterID: cl.ID,
		Configuration: "steps:\n  - label: test\n    command: make test\n", TeamUuids: []string{team.ID},
	})
	must("Pipelines.Create", err)
	want("Pipelines.Create", p.Slug == "web-app" && p.ID != "", "got slug %q", p.Slug)
	target, _, err := c.Pipelines.Create(ctx, org, gbk.CreatePipeline{
		Name: "Deploy", Repository: "git@github.com:acme/deploy.git", ClusterID: cl.ID,
		Steps: []gbk.Step{{Type: "script", Name: "deploy", Command: "./deploy"}},
	})
	must("Pipelines.Create (visual steps)", err)
	_, _, err = c.Pipelines.List(ctx, org, nil)
	must("Pipelines.List", err)
	_, _, err = c.Pipelines.Get(ctx, org, p.Slug)
	must("Pipelines.Get", err)
	_, _, err = c.Pipelines.Update(ctx, org, p.Slug, gbk.UpdatePipeline{Description: "the web app", Configuration: "steps:\n  - command: make\n"})
	must("Pipelines.Update", err)

	// Team pipelines.
	_, _, err = c.TeamPipelines.List(ctx, org, team.ID, nil)
	must("TeamPipelines.List", err)
	_, _, err = c.TeamPipelines.Create(ctx, org, team.ID, gbk.CreateTeamPipelines{PipelineID: target.ID, AccessLevel: "read_only"})
	must("TeamPipelines.Create", err)
	_, _, err = c.TeamPipelines.Get(ctx, org, team.ID, target.ID)
	must("TeamPipelines.Get", err)
	_, _, err = c.TeamPipelines.Update(ctx, org, team.ID, target.ID, gbk.UpdateTeamPipelines{AccessLevel: "build_and_read"})
	must("TeamPipelines.Update", err)
	_, err = c.TeamPipelines.Delete(ctx, org, team.ID, target.ID)
	must("TeamPipelines.Delete", err)

	// Builds.
	b, _, err := c.Builds.Create(ctx, org, p.Slug, gbk.CreateBuild{Commit: "0123456789abcdef0123456789abcdef01234567", Branch: "main", Message: "ship it"})
	must("Builds.Create", err)
	want("Builds.Create", b.Number == 1 && b.State == "scheduled", "got number %d state %q", b.Number, b.State)
	num := strconv.Itoa(b.Number)
	_, _, err = c.Builds.Get(ctx, org, p.Slug, num, nil)
	must("Builds.Get", err)
	all, _, err := c.Builds.List(ctx, &gbk.BuildsListOptions{Branch: []string{"main"}})
	must("Builds.List", err)
	want("Builds.List", len(all) == 1, "got %d builds", len(all))
	_, _, err = c.Builds.ListByOrg(ctx, org, &gbk.BuildsListOptions{State: []string{"scheduled"}})
	must("Builds.ListByOrg", err)
	_, _, err = c.Builds.ListByPipeline(ctx, org, p.Slug, &gbk.BuildsListOptions{Commit: b.Commit})
	must("Builds.ListByPipeline", err)
	canceled, err := c.Builds.Cancel(ctx, org, p.Slug, num)
	must("Builds.Cancel", err)
	want("Builds.Cancel", canceled.State == "canceled", "state %q", canceled.State)
	rebuilt, err := c.Builds.Rebuild(ctx, org, p.Slug, num)
	must("Builds.Rebuild", err)
	want("Builds.Rebuild", rebuilt.Number == 2, "rebuild number %d", rebuilt.Number)

	// Rules.
	rule, _, err := c.Rules.Create(ctx, org, gbk.RuleCreate{
		Type: "pipeline.trigger_build.pipeline", Value: gbk.RuleValue{SourcePipeline: p.Slug, TargetPipeline: target.ID},
	})
	must("Rules.Create", err)
	want("Rules.Create", rule.UUID != "", "got %+v", rule)
	_, _, err = c.Rules.List(ctx, org, nil)
	must("Rules.List", err)
	_, _, err = c.Rules.Get(ctx, org, rule.UUID)
	must("Rules.Get", err)
	_, err = c.Rules.Delete(ctx, org, rule.UUID)
	must("Rules.Delete", err)

	// Test suites, team suites and flaky tests.
	suite, _, err := c.TestSuites.Create(ctx, org, gbk.TestSuiteCreate{Name: "Web Specs", DefaultBranch: "main", TeamUUIDs: []string{team.ID}})
	must("TestSuites.Create", err)
	want("TestSuites.Create", suite.Slug == "web-specs", "got %+v", suite)
	_, _, err = c.TestSuites.List(ctx, org, nil)
	must("TestSuites.List", err)
	_, _, err = c.TestSuites.Get(ctx, org, suite.Slug)
	must("TestSuites.Get", err)
	_, _, err = c.TestSuites.Update(ctx, org, suite.Slug, gbk.TestSuite{Name: "Web Specs", DefaultBranch: "trunk"})
	must("TestSuites.Update", err)
	if _, err := e.srv.Store().AddFlakyTest(org, suite.Slug, FlakyTestFixture{Name: "renders the home page", Scope: "Home", Instances: 3}); err != nil {
		t.Fatal(err)
	}
	flaky, _, err := c.FlakyTests.List(ctx, org, suite.Slug, nil)
	must("FlakyTests.List", err)
	want("FlakyTests.List", len(flaky) == 1, "got %d flaky tests", len(flaky))

	suite2, _, err := c.TestSuites.Create(ctx, org, gbk.TestSuiteCreate{Name: "API Specs", DefaultBranch: "main", TeamUUIDs: []string{team.ID}})
	must("TestSuites.Create (second)", err)
	_, err = c.TeamSuites.Delete(ctx, org, team.ID, suite2.ID)
	must("TeamSuites.Delete", err)
	_, _, err = c.TeamSuites.Create(ctx, org, team.ID, gbk.CreateTeamSuites{SuiteID: suite2.ID, AccessLevel: []string{"read"}})
	must("TeamSuites.Create", err)
	_, _, err = c.TeamSuites.List(ctx, org, team.ID, nil)
	must("TeamSuites.List", err)
	_, _, err = c.TeamSuites.Get(ctx, org, team.ID, suite2.ID)
	must("TeamSuites.Get", err)
	_, _, err = c.TeamSuites.Update(ctx, org, team.ID, suite2.ID, gbk.UpdateTeamSuites{AccessLevel: []string{"read", "edit"}})
	must("TeamSuites.Update", err)

	// Package registries.
	reg, _, err := c.PackageRegistriesService.Create(ctx, org, gbk.CreatePackageRegistryInput{Name: "Gems", Ecosystem: "ruby"})
	must("PackageRegistries.Create", err)
	want("PackageRegistries.Create", reg.Slug == "gems", "got %+v", reg)
	_, _, err = c.PackageRegistriesService.List(ctx, org)
	must("PackageRegistries.List", err)
	_, _, err = c.PackageRegistriesService.Get(ctx, org, reg.Slug)
	must("PackageRegistries.Get", err)
	_, _, err = c.PackageRegistriesService.Update(ctx, org, reg.Slug, gbk.UpdatePackageRegistryInput{Description: "Ruby gems"})
	must("PackageRegistries.Update", err)

	// Deletes, children first.
	_, err = c.TeamMember.DeleteTeamMember(ctx, org, team.ID, members[1].UUID)
	must("TeamMember.DeleteTeamMember", err)
	_, err = c.TestSuites.Delete(ctx, org, suite.Slug)
	must("TestSuites.Delete", err)
	_, err = c.Pipelines.Archive(ctx, org, target.Slug)
	must("Pipelines.Archive", err)
	_, err = c.Pipelines.Unarchive(ctx, org, target.Slug)
	must("Pipelines.Unarchive", err)
	_, err = c.Pipelines.Delete(ctx, org, p.Slug)
	must("Pipelines.Delete", err)
	_, err = c.PipelineTemplates.Delete(ctx, org, tmpl.UUID)
	must("PipelineTemplates.Delete", err)
	_, err = c.Teams.DeleteTeam(ctx, org, team.ID)
	must("Teams.DeleteTeam", err)
	_, err = c.PackageRegistriesService.Delete(ctx, org, reg.Slug)
	must("PackageRegistries.Delete", err)
	_, err = c.ClusterTokens.Delete(ctx, org, cl.ID, tok.ID)
	must("ClusterTokens.Delete", err)
	_, err = c.ClusterQueues.Delete(ctx, org, cl.ID, q.ID)
	must("ClusterQueues.Delete", err)
	_, err = c.Clusters.Delete(ctx, org, cl.ID)
	must("Clusters.Delete", err)

	t.Logf("go-buildkite: %d service method calls succeeded", calls)
}

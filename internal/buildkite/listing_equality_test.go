package buildkite

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// TestReadItem_listingEqualsGetEveryKind extends TestReadItem_listingEqualsGet to every other kind whose Get
// goes through readItem: what a refresh reads from a listing must be what a GET returns, or a plan would
// see a difference that is not there.
func TestReadItem_listingEqualsGetEveryKind(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	c := newTestClient(t, e.url, withListReads)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	var teams []*Team
	for _, name := range []string{"Alpha", "Beta"} {
		tm, err := c.Teams.Create(ctx, TeamWrite{Name: name, Privacy: "visible", DefaultMemberRole: "member", Description: name + " team"})
		must(err)
		teams = append(teams, tm)
	}
	var pipelines []*Pipeline
	for _, name := range []string{"Web", "API"} {
		cfg := "steps:\n  - command: make " + name + "\n"
		p, err := c.Pipelines.Create(ctx, PipelineCreate{Name: name, Repository: "https://github.com/acme/app.git", Configuration: &cfg})
		must(err)
		pipelines = append(pipelines, p)
	}
	for _, name := range []string{"One", "Two"} {
		_, err := c.PipelineTemplates.Create(ctx, PipelineTemplateCreate{Name: name, Configuration: "steps:\n  - command: true\n"})
		must(err)
	}
	for _, pair := range [][2]*Pipeline{{pipelines[0], pipelines[1]}, {pipelines[1], pipelines[0]}} {
		value, _ := json.Marshal(map[string]string{"source_pipeline": pair[0].ID, "target_pipeline": pair[1].ID})
		_, err := c.Rules.Create(ctx, RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
		must(err)
	}
	var suites []*TestSuite
	for _, name := range []string{"Unit", "Browser"} {
		s, err := c.TestSuites.Create(ctx, TestSuiteCreate{Name: name, DefaultBranch: "main", TeamIDs: []string{teams[0].ID}})
		must(err)
		suites = append(suites, s)
	}
	var registries []*Registry
	for _, name := range []string{"Gems", "Crates"} {
		r, err := c.Registries.Create(ctx, RegistryCreate{Name: name, Ecosystem: "ruby"})
		must(err)
		registries = append(registries, r)
	}
	for _, d := range []string{"readers", "writers"} {
		_, err := c.RegistryTokens.Create(ctx, registries[0].Slug, RegistryTokenWrite{Description: d})
		must(err)
	}
	members, err := c.Organizations.ListMembers(ctx)
	must(err)
	if len(members) < 2 {
		t.Fatalf("the emulator's organization has %d members, want at least 2", len(members))
	}
	team := teams[0]
	for _, m := range members[:2] {
		_, err := c.TeamMembers.Create(ctx, team.ID, TeamMemberCreate{UserID: m.ID, Role: "member"})
		must(err)
	}
	for _, p := range pipelines {
		_, err := c.TeamPipelines.Create(ctx, team.ID, TeamPipelineCreate{PipelineID: p.ID, AccessLevel: "read_only"})
		must(err)
	}
	// teams[0] owns both suites already; give the second team access so that its listing has two too.
	for _, s := range suites {
		_, err := c.TeamSuites.Create(ctx, teams[1].ID, TeamSuiteCreate{SuiteID: s.ID, AccessLevel: []string{"read"}})
		must(err)
	}

	org := "/v2/organizations/acme"
	assertListMatchesGet(t, c, org+"/teams", func(x *Team) string { return org + "/teams/" + x.ID },
		func(ctx context.Context, x *Team) (*Team, error) { return c.Teams.Get(ctx, x.ID) })
	assertListMatchesGet(t, c, org+"/pipelines", func(x *Pipeline) string { return org + "/pipelines/" + x.Slug },
		func(ctx context.Context, x *Pipeline) (*Pipeline, error) { return c.Pipelines.Get(ctx, x.Slug) })
	assertListMatchesGet(t, c, org+"/pipeline-templates", func(x *PipelineTemplate) string { return org + "/pipeline-templates/" + x.UUID },
		func(ctx context.Context, x *PipelineTemplate) (*PipelineTemplate, error) {
			return c.PipelineTemplates.Get(ctx, x.UUID)
		})
	assertListMatchesGet(t, c, org+"/rules", func(x *Rule) string { return org + "/rules/" + x.UUID },
		func(ctx context.Context, x *Rule) (*Rule, error) { return c.Rules.Get(ctx, x.UUID) })
	analytics := "/v2/analytics/organizations/acme/suites"
	assertListMatchesGet(t, c, analytics, func(x *TestSuite) string { return analytics + "/" + x.Slug },
		func(ctx context.Context, x *TestSuite) (*TestSuite, error) { return c.TestSuites.Get(ctx, x.Slug) })
	packages := "/v2/packages/organizations/acme/registries"
	assertListMatchesGet(t, c, packages, func(x *Registry) string { return packages + "/" + x.Slug },
		func(ctx context.Context, x *Registry) (*Registry, error) { return c.Registries.Get(ctx, x.Slug) })
	tokens := packages + "/" + registries[0].Slug + "/tokens"
	assertListMatchesGet(t, c, tokens, func(x *RegistryToken) string { return tokens + "/" + x.ID },
		func(ctx context.Context, x *RegistryToken) (*RegistryToken, error) {
			return c.RegistryTokens.Get(ctx, registries[0].Slug, x.ID)
		})
	teamPath := org + "/teams/" + team.ID
	assertListMatchesGet(t, c, teamPath+"/members", func(x *TeamMember) string { return teamPath + "/members/" + x.UserID },
		func(ctx context.Context, x *TeamMember) (*TeamMember, error) {
			return c.TeamMembers.Get(ctx, team.ID, x.UserID)
		})
	assertListMatchesGet(t, c, teamPath+"/pipelines", func(x *TeamPipeline) string { return teamPath + "/pipelines/" + x.PipelineID },
		func(ctx context.Context, x *TeamPipeline) (*TeamPipeline, error) {
			return c.TeamPipelines.Get(ctx, team.ID, x.PipelineID)
		})
	second := org + "/teams/" + teams[1].ID
	assertListMatchesGet(t, c, second+"/suites", func(x *TeamSuite) string { return second + "/suites/" + x.SuiteID },
		func(ctx context.Context, x *TeamSuite) (*TeamSuite, error) {
			return c.TeamSuites.Get(ctx, teams[1].ID, x.SuiteID)
		})
}

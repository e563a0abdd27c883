package fakeserver

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/buildkite/go-buildkite/v4"
)

// newGoBuildkite returns go-buildkite's client against a fresh emulator.
func newGoBuildkite(t *testing.T) *buildkite.Client {
	t.Helper()
	return newEnv(t, Options{}).goBuildkite()
}

func TestGoBuildkitePipelines(t *testing.T) {
	c := newGoBuildkite(t)
	ctx := context.Background()

	created, _, err := c.Pipelines.Create(ctx, "acme", buildkite.CreatePipeline{
		Name: "Go Client", Repository: "git@github.com:acme/app.git", Configuration: uploadYAML,
		Description: "d", Env: map[string]string{"A": "1"}, Tags: []string{"t"}, Visibility: "private",
		ProviderSettings:          &buildkite.GitHubSettings{TriggerMode: "code", BuildPullRequests: true, BuildBranches: true},
		DefaultCommandStepTimeout: 30,
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.Slug != "go-client" || created.CreatedAt == nil || created.ArchivedAt != nil || created.Provider.ID != "github" ||
		created.Description != "d" || created.Env["A"] != "1" || created.DefaultCommandStepTimeout != 30 || len(created.Steps) != 1 {
		t.Fatalf("created %+v", created)
	}
	gh, ok := created.Provider.Settings.(*buildkite.GitHubSettings)
	if !ok || gh.TriggerMode != "code" || !gh.BuildPullRequests || gh.Repository != "acme/app" {
		t.Fatalf("settings %#v", created.Provider.Settings)
	}

	visual, _, err := c.Pipelines.Create(ctx, "acme", buildkite.CreatePipeline{
		Name: "Visual", Repository: "git@gitlab.com:acme/app.git",
		Steps: []buildkite.Step{
			{Type: "script", Name: "Build", Command: "make", AgentQueryRules: []string{"queue=q"}},
			{Type: "waiter"},
			{Type: "manual", Label: "Go?"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(visual.Steps) != 3 || visual.Steps[0].Command != "make" || visual.Steps[2].Label != "Go?" || visual.Provider.ID != "gitlab" {
		t.Fatalf("visual %+v", visual)
	}
	if _, ok := visual.Provider.Settings.(*buildkite.GitLabSettings); !ok {
		t.Fatalf("gitlab settings %#v", visual.Provider.Settings)
	}

	got, _, err := c.Pipelines.Get(ctx, "acme", "go-client")
	if err != nil || got.ID != created.ID || !got.CreatedAt.Equal(*created.CreatedAt) {
		t.Fatalf("get %+v %v", got, err)
	}
	list, resp, err := c.Pipelines.List(ctx, "acme", &buildkite.PipelineListOptions{ListOptions: buildkite.ListOptions{PerPage: 1}})
	if err != nil || len(list) != 1 || resp.NextPage != 2 || resp.LastPage != 2 {
		t.Fatalf("list %v %+v %v", list, resp, err)
	}

	updated, _, err := c.Pipelines.Update(ctx, "acme", "go-client", buildkite.UpdatePipeline{
		Name: "Go Client Renamed", Description: "e", SkipQueuedBranchBuilds: true,
	})
	if err != nil || updated.Slug != "go-client-renamed" || updated.Description != "e" || !updated.SkipQueuedBranchBuilds {
		t.Fatalf("update %+v %v", updated, err)
	}

	if _, err := c.Pipelines.Archive(ctx, "acme", "go-client-renamed"); err != nil {
		t.Fatal(err)
	}
	archived, _, _ := c.Pipelines.Get(ctx, "acme", "go-client-renamed")
	if archived.ArchivedAt == nil {
		t.Fatal("not archived")
	}
	_, _, err = c.Pipelines.Update(ctx, "acme", "go-client-renamed", buildkite.UpdatePipeline{Description: "x"})
	var apiErr *buildkite.ErrorResponse
	if !errors.As(err, &apiErr) || apiErr.Response.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("update of archived: %v", err)
	}
	if _, err := c.Pipelines.Unarchive(ctx, "acme", "go-client-renamed"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pipelines.Delete(ctx, "acme", "go-client-renamed"); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Pipelines.Get(ctx, "acme", "go-client-renamed")
	if !errors.As(err, &apiErr) || apiErr.Response.StatusCode != http.StatusNotFound || apiErr.Message != "No pipeline found" {
		t.Fatalf("get deleted: %v", err)
	}
}

func TestGoBuildkitePipelineTemplates(t *testing.T) {
	c := newGoBuildkite(t)
	ctx := context.Background()
	tpl, _, err := c.PipelineTemplates.Create(ctx, "acme", buildkite.PipelineTemplateCreateUpdate{
		Name: "T", Configuration: "steps:\n  - command: x\n", Description: "d", Available: true,
	})
	if err != nil || tpl.UUID == "" || tpl.CreatedAt == nil || tpl.UpdatedBy.Name != "Test User" || !tpl.Available {
		t.Fatalf("create %+v %v", tpl, err)
	}
	got, _, err := c.PipelineTemplates.Get(ctx, "acme", tpl.UUID)
	if err != nil || got.Name != "T" || got.CreatedBy.CreatedAt == nil {
		t.Fatalf("get %+v %v", got, err)
	}
	list, _, err := c.PipelineTemplates.List(ctx, "acme", nil)
	if err != nil || len(list) != 1 {
		t.Fatalf("list %v %v", list, err)
	}
	up, _, err := c.PipelineTemplates.Update(ctx, "acme", tpl.UUID, buildkite.PipelineTemplateCreateUpdate{Name: "T2"})
	if err != nil || up.Name != "T2" || up.Available || up.Configuration != "steps:\n  - command: x\n" {
		t.Fatalf("update %+v %v", up, err)
	}

	if _, err := c.PipelineTemplates.Delete(ctx, "acme", tpl.UUID); err != nil {
		t.Fatal(err)
	}
}

func TestGoBuildkiteRules(t *testing.T) {
	c := newGoBuildkite(t)
	ctx := context.Background()
	for _, name := range []string{"src", "dst"} {
		if _, _, err := c.Pipelines.Create(ctx, "acme", buildkite.CreatePipeline{Name: name, Repository: githubRepo, Configuration: uploadYAML}); err != nil {
			t.Fatal(err)
		}
	}
	rule, _, err := c.Rules.Create(ctx, "acme", buildkite.RuleCreate{
		Type: triggerRule, Value: buildkite.RuleValue{SourcePipeline: "src", TargetPipeline: "dst"},
	})
	if err != nil || rule.UUID == "" || rule.CreatedAt == nil || rule.CreatedBy.Name != "Test User" || rule.Action != "trigger_build" {
		t.Fatalf("create %+v %v", rule, err)
	}
	got, _, err := c.Rules.Get(ctx, "acme", rule.UUID)
	if err != nil || got.SourceUUID != rule.SourceUUID {
		t.Fatalf("get %+v %v", got, err)
	}
	list, _, err := c.Rules.List(ctx, "acme", nil)
	if err != nil || len(list) != 1 {
		t.Fatalf("list %v %v", list, err)
	}
	if _, err := c.Rules.Delete(ctx, "acme", rule.UUID); err != nil {
		t.Fatal(err)
	}
}

package fakeserver

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/buildkite/go-buildkite/v4"
)

// TestBuildsWithGoBuildkite drives the builds endpoints through the official client, so every response
// decodes with its types (strict RFC 3339 timestamps, pull request id as a string, ...).
func TestBuildsWithGoBuildkite(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	e.createQueue(cid, "linux")
	web := e.seedBuildPipeline("acme", "web", cid)
	e.setBuildSteps(map[string][]stepSpec{web: {
		{key: "test", label: "Test", command: "go test", agentQueryRules: []string{"queue=linux"}},
		{command: "lint"},
	}})
	client := e.goBuildkite()
	ctx := context.Background()
	svc := client.Builds

	created, resp, err := svc.Create(ctx, "acme", "web", buildkite.CreateBuild{
		Commit: fullSHA, Branch: "main", Message: "from go-buildkite",
		Author: buildkite.Author{Name: "Ada", Email: "ada@example.com"},
		Env:    map[string]string{"A": "1"}, MetaData: map[string]string{"release": "v1"},
		PullRequestID: 12, PullRequestBaseBranch: "main", PullRequestRepository: "git@github.com:a/b.git",
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated || created.Number != 1 || created.State != "scheduled" || created.Source != "api" ||
		created.CreatedAt == nil || created.ScheduledAt == nil || created.StartedAt != nil || created.FinishedAt != nil ||
		created.Creator.CreatedAt == nil || created.Creator.Name != "Test User" || created.MetaData["release"] != "v1" ||
		created.Env["A"] != "1" || created.PullRequest == nil || created.PullRequest.ID != "12" ||
		created.Pipeline == nil || created.Pipeline.Slug != "web" || len(created.Jobs) != 2 {
		t.Fatalf("created %+v", created)
	}
	j := created.Jobs[0]
	if j.Type != "script" || j.Name != "Test" || j.StepKey != "test" || j.State != "scheduled" || j.ExitStatus != nil ||
		j.CreatedAt == nil || j.RunnableAt == nil || j.StartedAt != nil || j.Step == nil || j.Step.Signature == nil ||
		j.ClusterID != cid || j.ClusterQueueID == "" || j.RawLogsURL == "" {
		t.Fatalf("job %+v", j)
	}

	// Run and retry the first job through the admin API, so agents, exit statuses and retries decode too.
	jobPath := "/jobs/" + j.ID
	expect(t, e.buildAdmin("web", 1, jobPath, map[string]any{"state": "running"}), 200)
	expect(t, e.buildAdmin("web", 1, jobPath, map[string]any{"state": "failed", "exit_status": 3, "retry": true}), 200)
	expect(t, e.buildAdmin("web", 1, "", map[string]any{"state": "failing"}), 200)

	got, _, err := svc.Get(ctx, "acme", "web", "1", &buildkite.BuildGetOptions{
		BuildsListOptions: buildkite.BuildsListOptions{IncludeRetriedJobs: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != created.ID || got.State != "failing" || got.StartedAt == nil || len(got.Jobs) != 3 {
		t.Fatalf("get %+v", got)
	}
	first := got.Jobs[0]
	if !first.Retried || first.RetriedInJobID != got.Jobs[1].ID || first.ExitStatus == nil || *first.ExitStatus != 3 ||
		first.FinishedAt == nil || first.Agent.ID == "" || first.Agent.CreatedAt == nil || first.Agent.Hostname == "" ||
		got.Jobs[1].RetriesCount != 1 || got.Jobs[1].RetryType != "manual" {
		t.Fatalf("jobs %+v", got.Jobs)
	}

	second, _, err := svc.Create(ctx, "acme", "web", buildkite.CreateBuild{Commit: "HEAD", Branch: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	from := time.Now().Add(-time.Hour)
	for name, list := range map[string]func(*buildkite.BuildsListOptions) ([]buildkite.Build, *buildkite.Response, error){
		"List": func(o *buildkite.BuildsListOptions) ([]buildkite.Build, *buildkite.Response, error) {
			return svc.List(ctx, o)
		},
		"ListByOrg": func(o *buildkite.BuildsListOptions) ([]buildkite.Build, *buildkite.Response, error) {
			return svc.ListByOrg(ctx, "acme", o)
		},
		"ListByPipeline": func(o *buildkite.BuildsListOptions) ([]buildkite.Build, *buildkite.Response, error) {
			return svc.ListByPipeline(ctx, "acme", "web", o)
		},
	} {
		all, _, err := list(&buildkite.BuildsListOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(all) != 2 || all[0].Number != 2 || all[1].Number != 1 || len(all[1].Jobs) != 2 || all[1].Jobs[0].Agent.ID != "" {
			t.Fatalf("%s: %+v", name, all)
		}
		filtered, _, err := list(&buildkite.BuildsListOptions{
			State: []string{"failing", "passed"}, Branch: []string{"main"}, Commit: fullSHA, CreatedFrom: from,
			Creator: created.Creator.ID, MetaData: buildkite.MetaDataFilters{MetaData: map[string]string{"release": "v1"}},
			IncludeRetriedJobs: true, ListOptions: buildkite.ListOptions{PerPage: 1},
		})
		if err != nil {
			t.Fatalf("%s filtered: %v", name, err)
		}
		if len(filtered) != 1 || filtered[0].Number != 1 || len(filtered[0].Jobs) != 3 {
			t.Fatalf("%s filtered: %+v", name, filtered)
		}
		paged, resp, err := list(&buildkite.BuildsListOptions{ListOptions: buildkite.ListOptions{PerPage: 1}})
		if err != nil || len(paged) != 1 || paged[0].Number != 2 || resp.NextPage != 2 || resp.LastPage != 2 {
			t.Fatalf("%s paged: %v %+v next %d last %d", name, err, paged, resp.NextPage, resp.LastPage)
		}
	}

	canceled, err := svc.Cancel(ctx, "acme", "web", strconv.Itoa(second.Number))
	if err != nil {
		t.Fatal(err)
	}
	if canceled.State != "canceled" || canceled.FinishedAt == nil || canceled.Jobs[0].State != "canceled" {
		t.Fatalf("canceled %+v", canceled)
	}
	if _, err := svc.Cancel(ctx, "acme", "web", "2"); err == nil {
		t.Fatal("canceling a canceled build succeeded")
	}

	rebuilt, err := svc.Rebuild(ctx, "acme", "web", "1")
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt.Number != 3 || rebuilt.RebuiltFrom == nil || rebuilt.RebuiltFrom.ID != created.ID ||
		rebuilt.RebuiltFrom.Number != 1 || rebuilt.RebuiltFrom.URL != created.URL || rebuilt.Commit != fullSHA ||
		rebuilt.MetaData["release"] != "v1" || rebuilt.Message != "from go-buildkite" {
		t.Fatalf("rebuilt %+v", rebuilt)
	}

	if _, _, err := svc.Get(ctx, "acme", "web", "99", nil); err == nil {
		t.Fatal("unknown build found")
	}
	if _, _, err := svc.Create(ctx, "acme", "web", buildkite.CreateBuild{}); err == nil {
		t.Fatal("create without commit and branch succeeded")
	}
}

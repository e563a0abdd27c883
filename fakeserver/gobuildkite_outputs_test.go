package fakeserver

import (
	"context"
	"fmt"
	"testing"

	gbk "github.com/buildkite/go-buildkite/v4"
)

// TestGoBuildkiteAgentsAndBuildOutputs: the official Go client, unchanged, lists, gets and stops agents,
// and lists and reads a build's artifacts, annotations (the build's and a job's) and a job's log: what
// Buildkite's CLI and other tools' tests call.
func TestGoBuildkiteAgentsAndBuildOutputs(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.goBuildkite()
	ctx := context.Background()
	ids := e.seedAgents("a1", "a2")

	agents, _, err := c.Agents.List(ctx, "acme", &gbk.AgentListOptions{Hostname: "a2.local"})
	if err != nil || len(agents) != 1 || agents[0].ID != ids[1] || agents[0].ConnectedState != "connected" || agents[0].CreatedAt == nil {
		t.Fatalf("Agents.List = %+v, %v", agents, err)
	}
	a, _, err := c.Agents.Get(ctx, "acme", ids[0])
	if err != nil || a.Name != "a1" || a.Version != "3.1.0" || len(a.Metadata) != 2 {
		t.Fatalf("Agents.Get = %+v, %v", a, err)
	}
	if _, err := c.Agents.Pause(ctx, "acme", ids[1], &gbk.AgentPauseOptions{Note: "upgrade", TimeoutInMinutes: 15}); err != nil {
		t.Fatalf("Agents.Pause: %v", err)
	}
	if p, _, err := c.Agents.Get(ctx, "acme", ids[1]); err != nil || p.Paused == nil || !*p.Paused || p.PausedNote == nil || *p.PausedNote != "upgrade" {
		t.Fatalf("paused agent = %+v, %v", p, err)
	}
	if _, err := c.Agents.Resume(ctx, "acme", ids[1]); err != nil {
		t.Fatalf("Agents.Resume: %v", err)
	}
	if _, err := c.Agents.Stop(ctx, "acme", ids[0], true); err != nil {
		t.Fatalf("Agents.Stop: %v", err)
	}
	if _, err := c.Agents.Stop(ctx, "acme", ids[0], true); err == nil {
		t.Fatal("Agents.Stop of a stopped agent succeeded")
	}

	buildPath, job := e.outputsBuild()
	var number string
	_, _ = fmt.Sscanf(buildPath, "/pipelines/app/builds/%s", &number)
	if _, err := e.srv.Store().AddArtifact("acme", job, ArtifactFixture{Path: "dist/app.tar.gz", FileSize: 42}); err != nil {
		t.Fatal(err)
	}
	arts, _, err := c.Artifacts.ListByBuild(ctx, "acme", "app", number, nil)
	if err != nil || len(arts) != 1 || arts[0].Filename != "app.tar.gz" || arts[0].FileSize != 42 {
		t.Fatalf("Artifacts.ListByBuild = %+v, %v", arts, err)
	}
	if byJob, _, err := c.Artifacts.ListByJob(ctx, "acme", "app", number, job, nil); err != nil || len(byJob) != 1 {
		t.Fatalf("Artifacts.ListByJob = %+v, %v", byJob, err)
	}
	if got, _, err := c.Artifacts.Get(ctx, "acme", "app", number, job, arts[0].ID); err != nil || got.ID != arts[0].ID {
		t.Fatalf("Artifacts.Get = %+v, %v", got, err)
	}

	if _, _, err := c.Annotations.Create(ctx, "acme", "app", number, gbk.AnnotationCreate{Body: "build note", Context: "ctx"}); err != nil {
		t.Fatalf("Annotations.Create: %v", err)
	}
	jobNote, _, err := c.Annotations.CreateForJob(ctx, "acme", "app", number, job, gbk.AnnotationCreate{Body: "job note", Style: "success"})
	if err != nil || jobNote.Scope != "job" {
		t.Fatalf("Annotations.CreateForJob = %+v, %v", jobNote, err)
	}
	if all, _, err := c.Annotations.ListByBuild(ctx, "acme", "app", number, nil); err != nil || len(all) != 2 {
		t.Fatalf("Annotations.ListByBuild = %+v, %v", all, err)
	}
	if onJob, _, err := c.Annotations.ListByJob(ctx, "acme", "app", number, job, nil); err != nil || len(onJob) != 1 || onJob[0].ID != jobNote.ID {
		t.Fatalf("Annotations.ListByJob = %+v, %v", onJob, err)
	}
	if _, err := c.Annotations.DeleteForJob(ctx, "acme", "app", number, job, jobNote.ID); err != nil {
		t.Fatalf("Annotations.DeleteForJob: %v", err)
	}

	if err := e.srv.Store().SetJobLog("acme", job, "hello\n"); err != nil {
		t.Fatal(err)
	}
	log, _, err := c.Jobs.GetJobLog(ctx, "acme", "app", number, job)
	if err != nil || log.Content != "hello\n" || log.Size != 6 {
		t.Fatalf("Jobs.GetJobLog = %+v, %v", log, err)
	}
}

package fakeserver

import (
	"net/http"
	"regexp"
	"testing"
)

// Behaviour that spans areas built in separate files: it only holds once they work together.

func TestCrossArea_pipelineTeamsBecomeTeamPipelines(t *testing.T) {
	e := newEnv(t, Options{})
	team := e.api("POST", "/teams", map[string]any{"name": "Platform"})
	expect(t, team, http.StatusCreated)
	teamID := team.object(t)["id"].(string)

	p := e.createPipeline(map[string]any{
		"name": "Web", "repository": githubRepo, "teams": map[string]any{teamID: "build_and_read"},
	})
	got := e.api("GET", "/teams/"+teamID+"/pipelines/"+p["id"].(string), nil)
	expect(t, got, http.StatusOK)
	if level := got.object(t)["access_level"]; level != "build_and_read" {
		t.Fatalf("access_level %v, want build_and_read", level)
	}

	// Deleting the pipeline takes the association with it.
	expect(t, e.api("DELETE", "/pipelines/"+p["slug"].(string), nil), http.StatusNoContent)
	if list := e.api("GET", "/teams/"+teamID+"/pipelines", nil).list(t); len(list) != 0 {
		t.Fatalf("team still lists %d pipelines after the pipeline was deleted", len(list))
	}
}

func TestCrossArea_suiteTeamIDsBecomeTeamSuites(t *testing.T) {
	e := newEnv(t, Options{})
	team := e.api("POST", "/teams", map[string]any{"name": "QA"})
	expect(t, team, http.StatusCreated)
	teamID := team.object(t)["id"].(string)

	suite := e.do("POST", "/v2/analytics/organizations/acme/suites", "test-token",
		map[string]any{"name": "Specs", "default_branch": "main", "team_ids": []string{teamID}})
	expect(t, suite, http.StatusCreated)
	suiteID := suite.object(t)["id"].(string)

	got := e.api("GET", "/teams/"+teamID+"/suites/"+suiteID, nil)
	expect(t, got, http.StatusOK)
	if access, _ := got.object(t)["access_level"].([]any); len(access) != 2 {
		t.Fatalf("access_level %v, want read and edit", got.object(t)["access_level"])
	}
}

func TestCrossArea_buildsFollowTheirPipeline(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{
		"name": "App", "repository": githubRepo,
		"configuration": "steps:\n  - label: unit\n    command: make test\n    agents:\n      queue: linux\n",
	})
	slug := p["slug"].(string)
	b := e.api("POST", "/pipelines/"+slug+"/builds", map[string]any{"commit": "HEAD", "branch": "main"})
	expect(t, b, http.StatusCreated)
	jobs, _ := b.object(t)["jobs"].([]any)
	if len(jobs) != 1 {
		t.Fatalf("build has %d jobs, want the pipeline's one step", len(jobs))
	}
	job := jobs[0].(map[string]any)
	if job["command"] != "make test" || job["name"] != "unit" {
		t.Fatalf("job %v does not come from the pipeline's step", job)
	}
	emb, _ := b.object(t)["pipeline"].(map[string]any)
	if emb["slug"] != slug || emb["repository"] != githubRepo {
		t.Fatalf("embedded pipeline %v", emb)
	}
	// A pipeline's created_at has two forms; the pipeline endpoints use ISO 8601, builds the other.
	if got, _ := emb["created_at"].(string); !regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$`).MatchString(got) {
		t.Errorf("embedded pipeline created_at %q, want the \"YYYY-MM-DD HH:MM:SS UTC\" form", got)
	}
	if got, _ := p["created_at"].(string); !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`).MatchString(got) {
		t.Errorf("pipeline created_at %q, want ISO 8601 with milliseconds", got)
	}

	// An archived pipeline is read-only: no new builds.
	expect(t, e.api("POST", "/pipelines/"+slug+"/archive", nil), http.StatusOK)
	expectFieldErrors(t, e.api("POST", "/pipelines/"+slug+"/builds", map[string]any{"commit": "HEAD", "branch": "main"}),
		"pipeline", "is archived")
	expect(t, e.api("POST", "/pipelines/"+slug+"/unarchive", nil), http.StatusOK)

	// Deleting the pipeline deletes its builds.
	expect(t, e.api("DELETE", "/pipelines/"+slug, nil), http.StatusNoContent)
	if n := e.srv.Store().BuildCount("acme"); n != 0 {
		t.Fatalf("%d builds left after their pipeline was deleted", n)
	}
}

func TestCrossArea_exampleFixturesSeedSuites(t *testing.T) {
	f, err := LoadFixtures("../examples/fakeserver/fixtures.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Suites) == 0 {
		t.Fatal("the example fixture file declares no suites: this test would prove nothing")
	}
	srv := New(Options{Fixtures: f})
	for _, s := range f.Suites {
		if _, ok := srv.Store().SuiteID(s.Org, s.Slug); !ok {
			t.Errorf("suite %q of org %q was not created from the fixtures", s.Slug, s.Org)
		}
	}
}

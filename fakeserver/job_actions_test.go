package fakeserver

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestJobEndpoints: a job is found, retried and reprioritized through its build's path and through the
// organization's /jobs/{id} path Buildkite's CLI uses (bk job retry, bk job reprioritize, bk job log).
func TestJobEndpoints(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	st := e.srv.Store()

	// Get, by both paths; a job shows its priority as {"number": 0}.
	for _, path := range []string{build + "/jobs/" + job, "/jobs/" + job} {
		r := e.api("GET", path, nil)
		expect(t, r, http.StatusOK)
		o := r.object(t)
		if o["id"] != job || o["state"] != "scheduled" {
			t.Errorf("GET %s: %v", path, o)
		}
		if p, _ := o["priority"].(map[string]any); p == nil || p["number"] != 0.0 {
			t.Errorf("GET %s: priority %v, want {\"number\": 0}", path, o["priority"])
		}
	}
	expectError(t, e.api("GET", "/jobs/nope", nil), http.StatusNotFound, "No job found")

	// The log, by the organization's path.
	if err := st.SetJobLog("acme", job, "hello\n"); err != nil {
		t.Fatal(err)
	}
	r := e.api("GET", "/jobs/"+job+"/log", nil)
	expect(t, r, http.StatusOK)
	if c := r.object(t)["content"]; c != "hello\n" {
		t.Errorf("log content %v", c)
	}

	// Retry: a scheduled job cannot be; a failed one can, once, and the answer is the new job.
	expectError(t, e.api("PUT", "/jobs/"+job+"/retry", nil), http.StatusBadRequest,
		"Only failed, timed out or canceled jobs can be retried")
	expect(t, e.buildAdmin("app", 1, "/jobs/"+job, map[string]any{"state": "failed"}), http.StatusOK)
	r = e.api("PUT", "/jobs/"+job+"/retry", nil)
	expect(t, r, http.StatusOK)
	n := r.object(t)
	if n["id"] == job || n["state"] != "scheduled" || n["retries_count"] != 1.0 || n["retry_type"] != "manual" {
		t.Fatalf("retry answered %v", n)
	}
	old := e.api("GET", build+"/jobs/"+job, nil).object(t)
	if old["retried"] != true || old["retried_in_job_id"] != n["id"] {
		t.Errorf("the retried job: %v", old)
	}
	expect(t, e.api("PUT", build+"/jobs/"+job+"/retry", nil), http.StatusBadRequest)
	b := e.api("GET", build+"?include_retried_jobs=true", nil).object(t)
	if jobs, _ := b["jobs"].([]any); len(jobs) != 2 {
		t.Errorf("build jobs after a retry: %v", b["jobs"])
	}

	// Reprioritize.
	newJob := n["id"].(string)
	r = e.api("PUT", build+"/jobs/"+newJob+"/reprioritize", map[string]any{"priority": 5})
	expect(t, r, http.StatusOK)
	if p, _ := r.object(t)["priority"].(map[string]any); p == nil || p["number"] != 5.0 {
		t.Errorf("reprioritized: %v", r.object(t)["priority"])
	}
	expect(t, e.api("PUT", "/jobs/"+newJob+"/reprioritize", map[string]any{}), http.StatusUnprocessableEntity)
	expect(t, e.api("PUT", "/jobs/"+newJob+"/reprioritize", map[string]any{"priority": "high"}), http.StatusUnprocessableEntity)

	// Scopes.
	st.AddToken("read-only", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("PUT", "/v2/organizations/acme/jobs/"+newJob+"/retry", "read-only", nil), http.StatusForbidden,
		"Your access token doesn't have the write_builds scope")
}

// TestJobsList: GET .../builds/{number}/jobs (go-buildkite's Jobs.ListByBuild, bk job list --build)
// answers {"items", "links"}, filtered by state[] and step_key, without retried executions unless asked,
// and paged by per_page and the links' after cursor.
func TestJobsList(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "app", "repository": "https://github.com/acme/app.git",
		"configuration": "steps:\n  - command: a\n    key: a\n  - command: b\n    key: b\n  - command: c\n"})
	b := e.createBuild("app", nil)
	jobs := b["jobs"].([]any)
	first := jobs[0].(map[string]any)["id"].(string)
	expect(t, e.buildAdmin("app", 1, "/jobs/"+first, map[string]any{"state": "failed", "retry": true}), http.StatusOK)

	ids := func(path string) ([]string, map[string]any) {
		t.Helper()
		r := e.api("GET", path, nil)
		expect(t, r, http.StatusOK)
		o := r.object(t)
		var out []string
		for _, it := range o["items"].([]any) {
			out = append(out, it.(map[string]any)["state"].(string)+":"+it.(map[string]any)["command"].(string))
		}
		links, _ := o["links"].(map[string]any)
		return out, links
	}
	got, _ := ids("/pipelines/app/builds/1/jobs")
	if want := []string{"scheduled:a", "scheduled:b", "scheduled:c"}; !slices.Equal(got, want) {
		t.Errorf("jobs %v, want %v", got, want)
	}
	got, _ = ids("/pipelines/app/builds/1/jobs?include_retried_jobs=true")
	if want := []string{"failed:a", "scheduled:a", "scheduled:b", "scheduled:c"}; !slices.Equal(got, want) {
		t.Errorf("with retried %v, want %v", got, want)
	}
	got, _ = ids("/pipelines/app/builds/1/jobs?include_retried_jobs=true&state[]=failed")
	if want := []string{"failed:a"}; !slices.Equal(got, want) {
		t.Errorf("state[]=failed %v", got)
	}
	got, _ = ids("/pipelines/app/builds/1/jobs?step_key=b")
	if want := []string{"scheduled:b"}; !slices.Equal(got, want) {
		t.Errorf("step_key=b %v", got)
	}
	got, links := ids("/pipelines/app/builds/1/jobs?per_page=2")
	if len(got) != 2 || links["next"] == nil || links["self"] == nil {
		t.Fatalf("page 1 %v, links %v", got, links)
	}
	next := links["next"].(string)
	r := e.do("GET", strings.TrimPrefix(next, e.ts.URL), "test-token", nil)
	expect(t, r, http.StatusOK)
	if items := r.object(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["command"] != "c" {
		t.Errorf("page 2: %s", r.raw)
	}
	if prev, _ := r.object(t)["links"].(map[string]any)["prev"].(string); !strings.Contains(prev, "before=") {
		t.Errorf("page 2 prev link %q", prev)
	}
	expectError(t, e.api("GET", "/pipelines/app/builds/1/jobs?per_page=0", nil), http.StatusBadRequest, "per_page must be between 1 and 100")
	expectError(t, e.api("GET", "/pipelines/app/builds/1/jobs?after=nope", nil), http.StatusBadRequest, "Invalid cursor: after")
	expectError(t, e.api("GET", "/pipelines/app/builds/9/jobs", nil), http.StatusNotFound, "No build found")
}

// The build's UUID stands in for its number in a build's paths, as Buildkite's CLI sends it for job logs
// (bk build download); a UUID of another pipeline's build, or of none, is not found.
func TestBuildPathTakesUUID(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	if err := e.srv.Store().SetJobLog("acme", job, "hello\n"); err != nil {
		t.Fatal(err)
	}
	id, _ := e.api("GET", build, nil).object(t)["id"].(string)
	if id == "" {
		t.Fatal("build has no id")
	}
	r := e.api("GET", "/pipelines/app/builds/"+id+"/jobs/"+job+"/log", nil)
	expect(t, r, http.StatusOK)
	if c := r.object(t)["content"]; c != "hello\n" {
		t.Errorf("log by build UUID: content %v", c)
	}
	expect(t, e.api("GET", "/pipelines/app/builds/"+strings.ToUpper(id), nil), http.StatusOK)
	e.createPipeline(map[string]any{"name": "other", "repository": "https://github.com/acme/other.git"})
	expectError(t, e.api("GET", "/pipelines/other/builds/"+id, nil), http.StatusNotFound, "No build found")
	expectError(t, e.api("GET", "/pipelines/app/builds/00000000-0000-4000-8000-000000000000", nil), http.StatusNotFound, "No build found")
	expectError(t, e.api("GET", "/pipelines/app/builds/first", nil), http.StatusNotFound, "No build found")
}

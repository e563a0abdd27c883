package fakeserver

import (
	"net/http"
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

package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// outputsBuild creates pipeline "app" and a build of it, and returns the build's path under acme and the
// ID of its first job.
func (e *testEnv) outputsBuild() (buildPath, jobID string) {
	e.t.Helper()
	e.createPipeline(map[string]any{"name": "app", "repository": "https://github.com/acme/app.git"})
	b := e.createBuild("app", nil)
	jobs, _ := b["jobs"].([]any)
	if len(jobs) == 0 {
		e.t.Fatalf("build has no jobs: %v", b)
	}
	return fmt.Sprintf("/pipelines/app/builds/%v", b["number"]), jobs[0].(map[string]any)["id"].(string)
}

// TestArtifacts: seeded artifacts are listed by build and by job, paged, found, and deleted.
func TestArtifacts(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	st := e.srv.Store()
	var ids []string
	for _, p := range []string{"dist/app.tar.gz", "report.html", "logs/a.txt"} {
		id, err := st.AddArtifact("acme", job, ArtifactFixture{Path: p, FileSize: 10, SHA1Sum: "abc"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	list := e.api("GET", build+"/artifacts", nil).list(t)
	if len(list) != 3 || list[0]["id"] != ids[0] {
		t.Fatalf("build artifacts %v", list)
	}
	a := list[0]
	for k, want := range map[string]any{"job_id": job, "state": "finished", "path": "dist/app.tar.gz", "dirname": "dist",
		"filename": "app.tar.gz", "mime_type": "application/octet-stream", "file_size": 10.0, "sha1sum": "abc", "glob_path": nil,
		"url": e.ts.URL + "/v2/organizations/acme" + build + "/jobs/" + job + "/artifacts/" + ids[0]} {
		if a[k] != want {
			t.Errorf("%s = %v, want %v", k, a[k], want)
		}
	}
	if l := e.api("GET", build+"/jobs/"+job+"/artifacts?per_page=2", nil).list(t); len(l) != 2 {
		t.Errorf("job artifacts page 1: %v", l)
	}
	expect(t, e.api("GET", build+"/jobs/"+job+"/artifacts/"+ids[1], nil), http.StatusOK)
	expect(t, e.api("DELETE", build+"/jobs/"+job+"/artifacts/"+ids[1], nil), http.StatusNoContent)
	expectError(t, e.api("GET", build+"/jobs/"+job+"/artifacts/"+ids[1], nil), http.StatusNotFound, "No artifact found")
	if l := e.api("GET", build+"/artifacts", nil).list(t); len(l) != 2 {
		t.Errorf("a deleted artifact is listed: %v", l)
	}

	// Bad input.
	st.AddToken("no-artifacts", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("GET", "/v2/organizations/acme"+build+"/artifacts", "no-artifacts", nil), http.StatusForbidden,
		"Your access token doesn't have the read_artifacts scope")
	expectError(t, e.do("DELETE", "/v2/organizations/acme"+build+"/jobs/"+job+"/artifacts/"+ids[0], "no-artifacts", nil), http.StatusForbidden,
		"Your access token doesn't have the write_artifacts scope")
	expectError(t, e.api("GET", "/pipelines/app/builds/99/artifacts", nil), http.StatusNotFound, "No build found")
	expectError(t, e.api("GET", "/pipelines/nope/builds/1/artifacts", nil), http.StatusNotFound, "No pipeline found")
	expectError(t, e.api("GET", build+"/jobs/nope/artifacts", nil), http.StatusNotFound, "No job found")
	expectError(t, e.api("GET", build+"/jobs/"+job+"/artifacts/nope", nil), http.StatusNotFound, "No artifact found")
	for _, bad := range []ArtifactFixture{{}, {Path: "x", State: "odd"}} {
		if _, err := st.AddArtifact("acme", job, bad); err == nil {
			t.Errorf("AddArtifact took %+v", bad)
		}
	}
	if _, err := st.AddArtifact("acme", "nope", ArtifactFixture{Path: "x"}); err == nil {
		t.Error("AddArtifact took an unknown job")
	}
}

// TestAnnotations: created through the API (as an agent annotates), listed by priority, appended to by
// context, deleted; bad bodies are 422.
func TestAnnotations(t *testing.T) {
	e := newEnv(t, Options{})
	build, _ := e.outputsBuild()
	r := e.api("POST", build+"/annotations", map[string]any{"body": "Hello world!", "context": "greeting"})
	expect(t, r, http.StatusCreated)
	first := r.object(t)
	for k, want := range map[string]any{"context": "greeting", "style": "info", "scope": "build", "priority": 3.0, "body_html": "<p>Hello world!</p>\n"} {
		if first[k] != want {
			t.Errorf("%s = %v, want %v", k, first[k], want)
		}
	}
	expect(t, e.api("POST", build+"/annotations", map[string]any{"body": "<b>cov</b>", "style": "warning", "priority": 9}), http.StatusCreated)
	r = e.api("POST", build+"/annotations", map[string]any{"body": "again & more", "context": "greeting", "append": true})
	expect(t, r, http.StatusCreated)
	if got := r.object(t); got["id"] != first["id"] || got["body_html"] != "<p>Hello world!</p>\n<p>again &amp; more</p>\n" {
		t.Errorf("append: %v", got)
	}
	list := e.api("GET", build+"/annotations", nil).list(t)
	if len(list) != 2 || list[0]["priority"] != 9.0 || list[0]["context"] != "default" || list[1]["id"] != first["id"] {
		t.Fatalf("list %v", list)
	}
	if l := e.api("GET", build+"/annotations?per_page=1&page=2", nil).list(t); len(l) != 1 || l[0]["id"] != first["id"] {
		t.Errorf("page 2: %v", l)
	}
	expect(t, e.api("DELETE", build+"/annotations/"+first["id"].(string), nil), http.StatusNoContent)
	expectError(t, e.api("DELETE", build+"/annotations/"+first["id"].(string), nil), http.StatusNotFound, "No annotation found")
	if l := e.api("GET", build+"/annotations", nil).list(t); len(l) != 1 {
		t.Errorf("after delete: %v", l)
	}

	for body, want := range map[string]string{
		`{}`:                             "Body can't be blank",
		`{"body":" "}`:                   "Body can't be blank",
		`{"body":"x","style":"loud"}`:    "Style must be one of",
		`{"body":"x","priority":11}`:     "Priority must be between 1 and 10",
		`{"body":"x","priority":"high"}`: "Priority must be an integer",
		`{"body":7}`:                     "Body must be a string",
	} {
		r := e.api("POST", build+"/annotations", body)
		expect(t, r, http.StatusUnprocessableEntity)
		if !strings.Contains(r.message(t), want) {
			t.Errorf("%s: message %q, want %q", body, r.message(t), want)
		}
	}
	expect(t, e.api("POST", build+"/annotations", `not json`), http.StatusBadRequest)

	// A job's annotations: scope "job", listed with the build's, and reached only through their job.
	job := e.api("GET", build, nil).object(t)["jobs"].([]any)[0].(map[string]any)["id"].(string)
	r = e.api("POST", build+"/jobs/"+job+"/annotations", map[string]any{"body": "job note", "context": "greeting"})
	expect(t, r, http.StatusCreated)
	jobNote := r.object(t)
	if jobNote["scope"] != "job" {
		t.Fatalf("job annotation %v", jobNote)
	}
	if l := e.api("GET", build+"/jobs/"+job+"/annotations", nil).list(t); len(l) != 1 || l[0]["id"] != jobNote["id"] {
		t.Errorf("job annotations %v", l)
	}
	if l := e.api("GET", build+"/annotations", nil).list(t); len(l) != 2 {
		t.Errorf("build annotations with the job's: %v", l)
	}
	other := e.api("GET", build+"/annotations", nil).list(t)[0]["id"].(string)
	expectError(t, e.api("DELETE", build+"/jobs/"+job+"/annotations/"+other, nil), http.StatusNotFound, "No annotation found")
	expectError(t, e.api("GET", build+"/jobs/nope/annotations", nil), http.StatusNotFound, "No job found")
	expectError(t, e.api("POST", build+"/jobs/nope/annotations", map[string]any{"body": "x"}), http.StatusNotFound, "No job found")
	expect(t, e.api("DELETE", build+"/jobs/"+job+"/annotations/"+jobNote["id"].(string), nil), http.StatusNoContent)
	expectError(t, e.api("POST", "/pipelines/app/builds/99/annotations", map[string]any{"body": "x"}), http.StatusNotFound, "No build found")
	e.srv.Store().AddToken("read-only", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("POST", "/v2/organizations/acme"+build+"/annotations", "read-only", map[string]any{"body": "x"}), http.StatusForbidden,
		"Your access token doesn't have the write_builds scope")
	e.srv.Store().AddToken("no-builds", []string{"acme"}, []string{scopeReadAgents})
	expectError(t, e.do("GET", "/v2/organizations/acme"+build+"/annotations", "no-builds", nil), http.StatusForbidden,
		"Your access token doesn't have the read_builds scope")
}

// TestJobLog: a job's log is empty until seeded, then answered as JSON and as text, and deleted.
func TestJobLog(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	logPath := build + "/jobs/" + job + "/log"
	if got := e.api("GET", logPath, nil).object(t); got["content"] != "" || got["size"] != 0.0 {
		t.Fatalf("unseeded log %v", got)
	}
	if err := e.srv.Store().SetJobLog("acme", job, "line 1\nline 2\n"); err != nil {
		t.Fatal(err)
	}
	got := e.api("GET", logPath, nil).object(t)
	if got["content"] != "line 1\nline 2\n" || got["size"] != 14.0 || got["url"] != e.ts.URL+"/v2/organizations/acme"+logPath {
		t.Fatalf("log %v", got)
	}
	txt := e.api("GET", logPath+".txt", nil)
	expect(t, txt, http.StatusOK)
	if string(txt.raw) != "line 1\nline 2\n" || !strings.HasPrefix(txt.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("log.txt %q %s", txt.raw, txt.header.Get("Content-Type"))
	}
	expect(t, e.api("DELETE", logPath, nil), http.StatusNoContent)
	if got := e.api("GET", logPath, nil).object(t); got["content"] != "" {
		t.Fatalf("deleted log %v", got)
	}

	e.srv.Store().AddToken("no-logs", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("GET", "/v2/organizations/acme"+logPath, "no-logs", nil), http.StatusForbidden, "Your access token doesn't have the read_job_logs scope")
	expectError(t, e.do("GET", "/v2/organizations/acme"+logPath+".txt", "no-logs", nil), http.StatusForbidden, "Your access token doesn't have the read_job_logs scope")
	expectError(t, e.do("DELETE", "/v2/organizations/acme"+logPath, "no-logs", nil), http.StatusForbidden, "Your access token doesn't have the write_job_logs scope")
	expectError(t, e.api("GET", build+"/jobs/nope/log", nil), http.StatusNotFound, "No job found")
	expectError(t, e.api("GET", build+"/jobs/nope/log.txt", nil), http.StatusNotFound, "No job found")
	if err := e.srv.Store().SetJobLog("acme", "nope", "x"); err == nil {
		t.Error("SetJobLog took an unknown job")
	}
}

// TestBuildOutputsSurviveState: artifacts, annotations and logs are in the state file's JSON and come back.
func TestBuildOutputsSurviveState(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	if _, err := e.srv.Store().AddArtifact("acme", job, ArtifactFixture{Path: "a.txt"}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.Store().SetJobLog("acme", job, "logged"); err != nil {
		t.Fatal(err)
	}
	expect(t, e.api("POST", build+"/annotations", map[string]any{"body": "note"}), http.StatusCreated)
	state, err := e.srv.State()
	if err != nil {
		t.Fatal(err)
	}
	other := newEnv(t, Options{})
	if err := other.srv.SetState(state); err != nil {
		t.Fatal(err)
	}
	if l := other.api("GET", build+"/artifacts", nil).list(t); len(l) != 1 {
		t.Errorf("artifacts after SetState: %v", l)
	}
	if l := other.api("GET", build+"/annotations", nil).list(t); len(l) != 1 {
		t.Errorf("annotations after SetState: %v", l)
	}
	if got := other.api("GET", build+"/jobs/"+job+"/log", nil).object(t)["content"]; got != "logged" {
		t.Errorf("log after SetState: %v", got)
	}
}

// TestOrgScopedJobRoutes: a client with only a job's ID reaches its artifacts and annotations through
// /v2/organizations/{org}/jobs/{id}.
func TestOrgScopedJobRoutes(t *testing.T) {
	e := newEnv(t, Options{})
	build, job := e.outputsBuild()
	id, err := e.srv.Store().AddArtifact("acme", job, ArtifactFixture{Path: "out/a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if l := e.api("GET", "/jobs/"+job+"/artifacts", nil).list(t); len(l) != 1 || l[0]["id"] != id ||
		l[0]["url"] != e.ts.URL+"/v2/organizations/acme"+build+"/jobs/"+job+"/artifacts/"+id {
		t.Fatalf("org-scoped artifacts %v", l)
	}
	expect(t, e.api("GET", "/jobs/"+job+"/artifacts/"+id, nil), http.StatusOK)
	r := e.api("POST", "/jobs/"+job+"/annotations", map[string]any{"body": "from the job"})
	expect(t, r, http.StatusCreated)
	if l := e.api("GET", build+"/jobs/"+job+"/annotations", nil).list(t); len(l) != 1 || l[0]["scope"] != "job" {
		t.Fatalf("the org-scoped annotation is not the job's: %v", l)
	}
	expect(t, e.api("DELETE", "/jobs/"+job+"/annotations/"+r.object(t)["id"].(string), nil), http.StatusNoContent)
	expect(t, e.api("DELETE", "/jobs/"+job+"/artifacts/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", "/jobs/nope/artifacts", nil), http.StatusNotFound, "No job found")
	expectError(t, e.api("POST", "/jobs/nope/annotations", map[string]any{"body": "x"}), http.StatusNotFound, "No job found")
	e.srv.Store().AddToken("no-artifacts", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("GET", "/v2/organizations/acme/jobs/"+job+"/artifacts", "no-artifacts", nil), http.StatusForbidden,
		"Your access token doesn't have the read_artifacts scope")
}

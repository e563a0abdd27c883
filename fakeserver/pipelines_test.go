package fakeserver

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

const (
	githubRepo = "git@github.com:acme/app.git"
	uploadYAML = "steps:\n  - label: \":pipeline:\"\n    command: buildkite-agent pipeline upload\n"
)

// createPipeline creates a pipeline from body (configuration defaults to uploadYAML when neither it, steps
// nor a template is given) and returns it.
func (e *testEnv) createPipeline(body map[string]any) map[string]any {
	e.t.Helper()
	_, hasConfig := body["configuration"]
	_, hasSteps := body["steps"]
	_, hasTemplate := body["pipeline_template_uuid"]
	if !hasConfig && !hasSteps && !hasTemplate {
		body["configuration"] = uploadYAML
	}
	r := e.api("POST", "/pipelines", body)
	expect(e.t, r, http.StatusCreated)
	return r.object(e.t)
}

// seedTeam puts a team straight into the store (teams.go belongs to another area) and returns its id.
func (e *testEnv) seedTeam(org, slug string) string {
	st := e.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	id := newID()
	st.teams.teams.insert(&teamRecord{seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Team", id), slug: slug, name: slug})
	return id
}

// expectFieldError fails unless r is the pipeline 422 with exactly the given field/code pairs.
func expectFieldErrors(t *testing.T, r response, pairs ...string) {
	t.Helper()
	expectError(t, r, 422, "Validation Failed")
	var got []string
	for _, fe := range r.object(t)["errors"].([]any) {
		m := fe.(map[string]any)
		got = append(got, m["field"].(string), m["code"].(string))
	}
	if !reflect.DeepEqual(got, pairs) {
		t.Fatalf("errors %q, want %q", got, pairs)
	}
}

var pipelineKeys = []string{
	"id", "graphql_id", "url", "web_url", "name", "description", "slug", "repository", "cluster_id",
	"pipeline_template_uuid", "branch_configuration", "default_branch", "provider", "skip_queued_branch_builds",
	"skip_queued_branch_builds_filter", "cancel_running_branch_builds", "cancel_running_branch_builds_filter",
	"allow_rebuilds", "builds_url", "badge_url", "created_by", "created_at", "archived_at", "env",
	"scheduled_builds_count", "running_builds_count", "scheduled_jobs_count", "running_jobs_count",
	"waiting_jobs_count", "visibility", "tags", "configuration", "steps",
}

func TestPipelineCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "My  Pipeline", "repository": githubRepo})
	hasKeys(t, p, pipelineKeys...)
	id := p["id"].(string)
	want := map[string]any{
		"name": "My  Pipeline", "slug": "my-pipeline", "repository": githubRepo, "description": nil,
		"cluster_id": nil, "pipeline_template_uuid": nil, "branch_configuration": nil, "default_branch": "main",
		"skip_queued_branch_builds": false, "skip_queued_branch_builds_filter": nil,
		"cancel_running_branch_builds": false, "cancel_running_branch_builds_filter": nil, "allow_rebuilds": true,
		"archived_at": nil, "visibility": "private", "tags": nil, "configuration": uploadYAML,
		"scheduled_builds_count": 0.0, "waiting_jobs_count": 0.0,
		"url":        e.ts.URL + "/v2/organizations/acme/pipelines/my-pipeline",
		"web_url":    e.ts.URL + "/acme/my-pipeline",
		"builds_url": e.ts.URL + "/v2/organizations/acme/pipelines/my-pipeline/builds",
		"graphql_id": graphQLID("Pipeline", id),
	}
	for k, v := range want {
		if !reflect.DeepEqual(p[k], v) {
			t.Errorf("%s = %#v, want %#v", k, p[k], v)
		}
	}
	if p["created_by"].(map[string]any)["name"] != "Test User" || !strings.HasSuffix(p["created_at"].(string), "Z") {
		t.Fatalf("created %v %v", p["created_by"], p["created_at"])
	}
	if env, ok := p["env"].(map[string]any); !ok || len(env) != 0 {
		t.Fatalf("env %v", p["env"])
	}
	steps := p["steps"].([]any)
	if len(steps) != 1 || steps[0].(map[string]any)["command"] != "buildkite-agent pipeline upload" ||
		steps[0].(map[string]any)["type"] != "script" || steps[0].(map[string]any)["name"] != ":pipeline:" {
		t.Fatalf("steps %v", steps)
	}

	expect(t, e.api("GET", "/pipelines/my-pipeline", nil), 200)
	e.createPipeline(map[string]any{"name": "Second", "repository": githubRepo})
	l := e.api("GET", "/pipelines", nil).list(t)
	if len(l) != 2 || l[0]["id"] != id || l[1]["slug"] != "second" {
		t.Fatalf("list %v", l)
	}

	for _, method := range []string{"PATCH", "PUT"} {
		r := e.api(method, "/pipelines/my-pipeline", map[string]any{
			"description": method, "default_branch": "trunk", "branch_configuration": "main release/*",
			"skip_queued_branch_builds": true, "cancel_running_branch_builds_filter": "!main",
			"env": map[string]string{"A": "1"}, "tags": []string{"x", "y"}, "visibility": "public", "allow_rebuilds": false,
		})
		expect(t, r, 200)
		u := r.object(t)
		if u["description"] != method || u["default_branch"] != "trunk" || u["branch_configuration"] != "main release/*" ||
			u["skip_queued_branch_builds"] != true || u["cancel_running_branch_builds_filter"] != "!main" ||
			u["env"].(map[string]any)["A"] != "1" || len(u["tags"].([]any)) != 2 || u["visibility"] != "public" ||
			u["allow_rebuilds"] != false || u["name"] != "My  Pipeline" || u["configuration"] != uploadYAML {
			t.Fatalf("%s: %v", method, u)
		}
	}
	// null clears the nullable strings and the tags.
	u := e.api("PATCH", "/pipelines/my-pipeline", `{"description":null,"branch_configuration":null,"tags":null}`).object(t)
	if u["description"] != nil || u["branch_configuration"] != nil || u["tags"] != nil {
		t.Fatalf("null %v", u)
	}

	r := e.api("DELETE", "/pipelines/my-pipeline", nil)
	expect(t, r, 204)
	if len(r.raw) != 0 {
		t.Fatalf("204 body %q", r.raw)
	}
	for _, m := range []string{"GET", "PATCH", "DELETE"} {
		expectError(t, e.api(m, "/pipelines/my-pipeline", map[string]any{}), 404, "No pipeline found")
	}
	for _, a := range []string{"archive", "unarchive"} {
		expectError(t, e.api("POST", "/pipelines/my-pipeline/"+a, nil), 404, "No pipeline found")
	}
}

func TestPipelineCreateValidation(t *testing.T) {
	e := newEnv(t, Options{})
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{}),
		"name", "can't be blank", "repository", "can't be blank", "configuration", "can't be blank")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": 5, "repository": githubRepo, "configuration": "steps: []"}),
		"name", "must be a string")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "p", "repository": githubRepo, "configuration": "steps: ["}),
		"configuration", "is not valid YAML: yaml: line 1: did not find expected node content")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "p", "repository": githubRepo, "configuration": "env: {}"}),
		"configuration", "must have a steps list")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "p", "repository": githubRepo, "configuration": "hello"}),
		"configuration", "must be a YAML mapping with a steps list")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{
		"name": "p", "repository": githubRepo, "configuration": uploadYAML, "steps": []any{map[string]any{"type": "waiter"}},
	}), "steps", "can't be given together with configuration")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{
		"name": "p", "repository": githubRepo, "configuration": uploadYAML, "cluster_id": "nope",
		"visibility": "secret", "env": map[string]any{"A": 1}, "tags": "x",
	}), "env", "must be an object of strings", "tags", "must be an array of strings",
		"visibility", "must be one of private, public", "cluster_id", "must be a cluster of this organization")
	expect(t, e.api("POST", "/pipelines", `{"name":`), 400)
	expect(t, e.api("POST", "/pipelines", `[1]`), 400)

	// A cluster of the org is accepted; "" (go-buildkite's empty value) and null mean none.
	cid := e.createCluster("c")
	p := e.createPipeline(map[string]any{"name": "in cluster", "repository": githubRepo, "cluster_id": cid})
	if p["cluster_id"] != cid {
		t.Fatalf("cluster_id %v", p["cluster_id"])
	}
	if p := e.createPipeline(map[string]any{"name": "no cluster", "repository": githubRepo, "cluster_id": ""}); p["cluster_id"] != nil {
		t.Fatalf("cluster_id %v", p["cluster_id"])
	}
	u := e.api("PATCH", "/pipelines/in-cluster", `{"cluster_id":null}`).object(t)
	if u["cluster_id"] != nil {
		t.Fatalf("null cluster %v", u["cluster_id"])
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/in-cluster", map[string]any{"name": "", "repository": "", "configuration": ""}),
		"name", "can't be blank", "repository", "can't be blank", "configuration", "can't be blank")
	// A failed update changes nothing.
	if got := e.api("GET", "/pipelines/in-cluster", nil).object(t); got["name"] != "in cluster" {
		t.Fatalf("after failed update %v", got)
	}
}

func TestPipelineSlugs(t *testing.T) {
	e := newEnv(t, Options{})
	for name, slug := range map[string]string{
		"Hello   World": "hello-world",
		"API (v2)":      "api-v2",
		"  -Trim me-  ": "trim-me",
		"a_b.c--d":      "a-b-c-d",
		"Ünïcode 42":    "n-code-42",
		// The official provider's test of a removed slug expects this derivation.
		"TesT --- PipeLine - X": "test-pipeline-x",
	} {
		if p := e.createPipeline(map[string]any{"name": name, "repository": githubRepo}); p["slug"] != slug {
			t.Errorf("%q → %v, want %s", name, p["slug"], slug)
		}
	}
	if p := e.createPipeline(map[string]any{"name": "Custom", "slug": "My-Custom-1", "repository": githubRepo}); p["slug"] != "My-Custom-1" {
		t.Fatalf("custom slug %v", p["slug"])
	}
	long := strings.Repeat("a", 101)
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": long, "repository": githubRepo, "configuration": uploadYAML}),
		"slug", "is too long (maximum is 100 characters)")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "x", "slug": long, "repository": githubRepo, "configuration": uploadYAML}),
		"slug", "is too long (maximum is 100 characters)")
	for _, bad := range []string{"-lead", "has space", "under_score", "dot.ted"} {
		expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "x", "slug": bad, "repository": githubRepo, "configuration": uploadYAML}),
			"slug", "must start with a letter or digit and contain only letters, digits and hyphens")
	}
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "!!!", "repository": githubRepo, "configuration": uploadYAML}),
		"slug", "can't be derived from the name: it needs a letter or digit")
	if p := e.createPipeline(map[string]any{"name": strings.Repeat("b", 100), "repository": githubRepo}); len(p["slug"].(string)) != 100 {
		t.Fatal("100-character slug refused")
	}

	// Unique names and slugs.
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "Custom", "repository": githubRepo, "configuration": uploadYAML}),
		"name", "has already been taken")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "Other", "slug": "hello-world", "repository": githubRepo, "configuration": uploadYAML}),
		"slug", "has already been taken")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "hello world", "repository": githubRepo, "configuration": uploadYAML}),
		"slug", "has already been taken")

	// Renaming re-derives the slug; resending the same name keeps a custom slug; a slug may be set.
	u := e.api("PATCH", "/pipelines/hello-world", map[string]any{"name": "Renamed Thing"}).object(t)
	if u["slug"] != "renamed-thing" || u["url"] != e.ts.URL+"/v2/organizations/acme/pipelines/renamed-thing" {
		t.Fatalf("rename %v %v", u["slug"], u["url"])
	}
	expectError(t, e.api("GET", "/pipelines/hello-world", nil), 404, "No pipeline found")
	if u := e.api("PATCH", "/pipelines/My-Custom-1", map[string]any{"name": "Custom"}).object(t); u["slug"] != "My-Custom-1" {
		t.Fatalf("same name changed slug %v", u["slug"])
	}
	if u := e.api("PATCH", "/pipelines/My-Custom-1", map[string]any{"name": "Custom 2", "slug": "c2"}).object(t); u["slug"] != "c2" || u["name"] != "Custom 2" {
		t.Fatalf("rename with slug %v", u)
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/c2", map[string]any{"name": "Renamed Thing"}), "name", "has already been taken")
	expectFieldErrors(t, e.api("PATCH", "/pipelines/c2", map[string]any{"slug": "renamed-thing"}), "slug", "has already been taken")
}

func TestPipelineVisualSteps(t *testing.T) {
	e := newEnv(t, Options{})
	steps := []any{
		map[string]any{
			"type": "script", "name": "Build", "command": "make", "artifact_paths": "out/*", "branch_configuration": "main",
			"env": map[string]string{"K": "V"}, "timeout_in_minutes": 10, "agent_query_rules": []string{"queue=linux"},
		},
		map[string]any{"type": "waiter"},
		map[string]any{"type": "manual", "label": "Deploy?"},
		map[string]any{
			"type": "trigger", "label": "Downstream", "trigger_project_slug": "other", "trigger_commit": "HEAD",
			"trigger_branch": "main", "trigger_async": true,
		},
		map[string]any{"type": "script", "command": "echo hi"},
	}
	p := e.createPipeline(map[string]any{"name": "Visual", "repository": githubRepo, "steps": steps})
	if p["configuration"] != nil {
		t.Fatalf("configuration %v", p["configuration"])
	}
	got := p["steps"].([]any)
	if len(got) != 5 {
		t.Fatalf("steps %v", got)
	}
	script := got[0].(map[string]any)
	hasKeys(t, script, "type", "name", "command", "artifact_paths", "branch_configuration", "env", "timeout_in_minutes",
		"agent_query_rules", "concurrency", "parallelism")
	if script["name"] != "Build" || script["command"] != "make" || script["artifact_paths"] != "out/*" ||
		script["timeout_in_minutes"] != 10.0 || script["env"].(map[string]any)["K"] != "V" ||
		script["agent_query_rules"].([]any)[0] != "queue=linux" || script["concurrency"] != nil {
		t.Fatalf("script %v", script)
	}
	if w := got[1].(map[string]any); len(w) != 1 || w["type"] != "waiter" {
		t.Fatalf("waiter %v", w)
	}
	if m := got[2].(map[string]any); m["type"] != "manual" || m["label"] != "Deploy?" {
		t.Fatalf("manual %v", m)
	}
	tr := got[3].(map[string]any)
	build := tr["build"].(map[string]any)
	if tr["type"] != "trigger" || tr["label"] != "Downstream" || tr["pipeline"] != "other" || tr["async"] != true ||
		build["commit"] != "HEAD" || build["branch"] != "main" || build["message"] != nil {
		t.Fatalf("trigger %v", tr)
	}
	if bare := got[4].(map[string]any); bare["name"] != nil || bare["artifact_paths"] != nil || len(bare["agent_query_rules"].([]any)) != 0 {
		t.Fatalf("bare script %v", bare)
	}

	// The response's trigger form is accepted too, so a client can send back what it read.
	u := e.api("PATCH", "/pipelines/visual", map[string]any{"steps": []any{tr}}).object(t)
	if again := u["steps"].([]any)[0].(map[string]any); !reflect.DeepEqual(again, tr) {
		t.Fatalf("round trip %v != %v", again, tr)
	}

	// Switching to YAML drops the visual steps.
	u = e.api("PATCH", "/pipelines/visual", map[string]any{"configuration": uploadYAML}).object(t)
	if u["configuration"] != uploadYAML || len(u["steps"].([]any)) != 1 {
		t.Fatalf("to YAML %v", u)
	}

	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "v2", "repository": githubRepo, "steps": []any{
		map[string]any{"type": "deploy"},
		map[string]any{"type": "script"},
		map[string]any{"type": "trigger"},
		map[string]any{"command": "x"},
		map[string]any{"type": "script", "command": 1, "timeout_in_minutes": "ten"},
	}}),
		"steps[0].type", `"deploy" is not a step type (script, waiter, manual, trigger)`,
		"steps[1].command", "can't be blank",
		"steps[2].trigger_project_slug", "can't be blank",
		"steps[3].type", "can't be blank",
		"steps[4].command", "must be a string",
		"steps[4].timeout_in_minutes", "must be an integer")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "v3", "repository": githubRepo, "steps": []any{}}),
		"steps", "can't be blank")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "v4", "repository": githubRepo, "steps": "x"}),
		"steps", "must be an array of step objects", "configuration", "can't be blank")
}

func TestPipelineJobSteps(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	jobs := func(slug string) []stepSpec {
		st.mu.RLock()
		defer st.mu.RUnlock()
		return st.pipelineBySlug("acme", slug).jobSteps()
	}

	e.createPipeline(map[string]any{"name": "upload", "repository": githubRepo})
	if got := jobs("upload"); !reflect.DeepEqual(got, []stepSpec{{label: ":pipeline:", command: "buildkite-agent pipeline upload"}}) {
		t.Fatalf("upload %+v", got)
	}

	yaml := `agents:
  queue: default
env:
  FROM_YAML: "1"
steps:
  - label: Test
    key: test
    commands:
      - make deps
      - make test
    agents:
      queue: linux
      os: ubuntu
  - wait
  - group: More
    steps:
      - command: echo grouped
  - block: Release?
  - trigger: other
`
	p := e.createPipeline(map[string]any{"name": "yaml", "repository": githubRepo, "configuration": yaml,
		"env": map[string]string{"OWN": "x"}})
	want := []stepSpec{
		{key: "test", label: "Test", command: "make deps\nmake test", agentQueryRules: []string{"queue=linux", "os=ubuntu"}},
		{command: "echo grouped", agentQueryRules: []string{"queue=default"}},
	}
	if got := jobs("yaml"); !reflect.DeepEqual(got, want) {
		t.Fatalf("yaml jobs %+v", got)
	}
	// Not only command steps: the steps list is empty. env merges the YAML's and the pipeline's.
	if len(p["steps"].([]any)) != 0 {
		t.Fatalf("steps %v", p["steps"])
	}
	if env := p["env"].(map[string]any); env["FROM_YAML"] != "1" || env["OWN"] != "x" {
		t.Fatalf("env %v", env)
	}

	e.createPipeline(map[string]any{"name": "empty", "repository": githubRepo, "configuration": "steps: []\n"})
	if got := jobs("empty"); !reflect.DeepEqual(got, []stepSpec{uploadStep}) {
		t.Fatalf("empty %+v", got)
	}

	e.createPipeline(map[string]any{"name": "visual", "repository": githubRepo, "steps": []any{
		map[string]any{"type": "script", "name": "A", "command": "a", "agent_query_rules": []string{"queue=q"}},
		map[string]any{"type": "waiter"},
		map[string]any{"type": "script", "command": "b"},
	}})
	if got := jobs("visual"); !reflect.DeepEqual(got, []stepSpec{
		{label: "A", command: "a", agentQueryRules: []string{"queue=q"}}, {command: "b"},
	}) {
		t.Fatalf("visual %+v", got)
	}

	// A list of command steps becomes script steps.
	p = e.createPipeline(map[string]any{"name": "list", "repository": githubRepo,
		"configuration": "- command: a\n  artifact_paths: [x, y]\n  timeout_in_minutes: 5\n  branches: main\n"})
	s := p["steps"].([]any)[0].(map[string]any)
	if s["command"] != "a" || s["artifact_paths"] != "x;y" || s["timeout_in_minutes"] != 5.0 || s["branch_configuration"] != "main" {
		t.Fatalf("list step %v", s)
	}
}

func TestPipelineArchive(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "arc", "repository": githubRepo})
	r := e.api("POST", "/pipelines/arc/archive", nil)
	expect(t, r, 200)
	first := r.object(t)["archived_at"]
	if first == nil {
		t.Fatal("archived_at not set")
	}
	if again := e.api("POST", "/pipelines/arc/archive", nil).object(t); again["archived_at"] != first {
		t.Fatalf("re-archive moved archived_at: %v", again["archived_at"])
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/arc", map[string]any{"description": "x"}),
		"base", "Pipeline is archived; unarchive it to change it")
	expect(t, e.api("GET", "/pipelines/arc", nil), 200)
	r = e.api("POST", "/pipelines/arc/unarchive", nil)
	expect(t, r, 200)
	if r.object(t)["archived_at"] != nil {
		t.Fatal("archived_at not cleared")
	}
	expect(t, e.api("POST", "/pipelines/arc/unarchive", nil), 200)
	expect(t, e.api("PATCH", "/pipelines/arc", map[string]any{"description": "x"}), 200)
	// An archived pipeline can be deleted.
	expect(t, e.api("POST", "/pipelines/arc/archive", nil), 200)
	expect(t, e.api("DELETE", "/pipelines/arc", nil), 204)
}

func TestPipelineProvider(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "gh", "repository": "https://github.com/acme/app.git",
		"provider_settings": map[string]any{"build_tags": true, "build_pull_requests": false, "unknown": 1, "filter_condition": "x"}})
	prov := p["provider"].(map[string]any)
	settings := prov["settings"].(map[string]any)
	if prov["id"] != "github" || !strings.HasPrefix(prov["webhook_url"].(string), e.ts.URL+"/webhooks/github/") {
		t.Fatalf("provider %v", prov)
	}
	want := map[string]any{
		"trigger_mode": "code", "build_pull_requests": false, "build_branches": true, "publish_commit_status": true,
		"build_tags": true, "filter_enabled": false, "filter_condition": "x", "repository": "acme/app",
		"skip_pull_request_builds_for_existing_commits": false, "use_step_key_as_commit_status": false,
	}
	for k, v := range want {
		if settings[k] != v {
			t.Errorf("settings[%s] = %v, want %v", k, settings[k], v)
		}
	}
	if _, ok := settings["unknown"]; ok {
		t.Error("unknown setting kept")
	}

	// An update merges over the current settings.
	settings = e.api("PATCH", "/pipelines/gh", map[string]any{"provider_settings": map[string]any{"trigger_mode": "none"}}).
		object(t)["provider"].(map[string]any)["settings"].(map[string]any)
	if settings["trigger_mode"] != "none" || settings["build_tags"] != true || settings["build_pull_requests"] != false {
		t.Fatalf("merged %v", settings)
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/gh", map[string]any{"provider_settings": map[string]any{"trigger_mode": "always"}}),
		"provider_settings", "trigger_mode must be one of code, deployment, fork, none")
	expectFieldErrors(t, e.api("PATCH", "/pipelines/gh", map[string]any{"provider_settings": map[string]any{"build_tags": "yes", "filter_condition": false}}),
		"provider_settings", "build_tags must be a boolean", "provider_settings", "filter_condition must be a string")
	expectFieldErrors(t, e.api("PATCH", "/pipelines/gh", map[string]any{"provider_settings": "x"}),
		"provider_settings", "must be an object")

	for repo, id := range map[string]string{
		"git@gitlab.com:acme/app.git":            "gitlab",
		"https://bitbucket.org/acme/app.git":     "bitbucket",
		"ssh://git@git.example.com:2222/app.git": "git",
		"/local/path":                            "git",
	} {
		// A new repository on another provider starts from that provider's defaults.
		prov := e.api("PATCH", "/pipelines/gh", map[string]any{"repository": repo}).object(t)["provider"].(map[string]any)
		settings := prov["settings"].(map[string]any)
		if prov["id"] != id || settings["filter_enabled"] != false || settings["trigger_mode"] != nil {
			t.Errorf("%s: provider %v", repo, prov)
		}
		if _, ok := settings["repository"]; ok != (id != "git") {
			t.Errorf("%s: repository setting %v", repo, settings["repository"])
		}
	}
}

func TestPipelineWebhookURLNeedsEdit(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "hook", "repository": githubRepo})
	e.srv.Store().AddToken("reader", []string{"acme"}, []string{"read_pipelines"})
	got := []map[string]any{
		e.do("GET", "/v2/organizations/acme/pipelines/hook", "reader", nil).object(t),
		e.do("GET", "/v2/organizations/acme/pipelines", "reader", nil).list(t)[0],
	}
	for _, p := range got {
		if url := p["provider"].(map[string]any)["webhook_url"]; url != "" {
			t.Fatalf("read-only token sees webhook_url %v", url)
		}
	}
	if url := e.api("GET", "/pipelines/hook", nil).object(t)["provider"].(map[string]any)["webhook_url"]; url == "" {
		t.Fatal("editor sees no webhook_url")
	}
}

func TestPipelineTeams(t *testing.T) {
	e := newEnv(t, Options{})
	team := e.seedTeam("acme", "devs")
	foreign := e.seedTeam("other", "theirs")
	e.createPipeline(map[string]any{"name": "p1", "repository": githubRepo, "teams": map[string]string{team: "read_only"}})
	e.createPipeline(map[string]any{"name": "p2", "repository": githubRepo, "team_uuids": []string{team}})
	e.createPipeline(map[string]any{"name": "p3", "repository": githubRepo,
		"teams": []any{map[string]any{"id": team, "access_level": "build_and_read"}}})
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "p4", "repository": githubRepo, "configuration": uploadYAML,
		"teams": map[string]string{foreign: "read_only"}}), "teams", foreign+" is not a team of this organization")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "p4", "repository": githubRepo, "configuration": uploadYAML,
		"teams": map[string]string{team: "admin"}}),
		"teams", `access level "admin" of team `+team+" must be one of read_only, build_and_read, manage_build_and_read")
	expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "p4", "repository": githubRepo, "configuration": uploadYAML,
		"teams": 7}), "teams", "must be an object of team UUIDs to access levels")
	if _, ok := e.srv.Store().PipelineIDBySlug("acme", "p4"); ok {
		t.Fatal("refused pipeline stored")
	}
	// Teams are not changed by update: the property is ignored.
	expect(t, e.api("PATCH", "/pipelines/p1", map[string]any{"teams": map[string]string{foreign: "nonsense"}, "team_uuids": 1}), 200)
}

func TestPipelineTemplates(t *testing.T) {
	e := newEnv(t, Options{})
	avail := e.createTemplate("avail", true)
	hidden := e.createTemplate("hidden", false)

	p := e.createPipeline(map[string]any{"name": "tp", "repository": githubRepo, "pipeline_template_uuid": hidden})
	if p["pipeline_template_uuid"] != hidden || p["configuration"] != "steps:\n  - command: echo hidden\n" {
		t.Fatalf("template %v %v", p["pipeline_template_uuid"], p["configuration"])
	}
	// Template edits reach the pipelines that use it.
	e.api("PATCH", "/pipeline-templates/"+hidden, map[string]any{"configuration": "steps:\n  - command: v2\n"})
	if got := e.api("GET", "/pipelines/tp", nil).object(t); got["configuration"] != "steps:\n  - command: v2\n" {
		t.Fatalf("propagated %v", got["configuration"])
	}
	u := e.api("PATCH", "/pipelines/tp", `{"pipeline_template_uuid":null}`).object(t)
	if u["pipeline_template_uuid"] != nil || u["configuration"] != "steps:\n  - command: v2\n" {
		t.Fatalf("removed %v", u)
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/tp", map[string]any{"pipeline_template_uuid": "nope"}),
		"pipeline_template_uuid", "must be a pipeline template of this organization")

	// A non-admin may assign only available templates.
	tok := e.memberToken()
	r := e.do("POST", "/v2/organizations/acme/pipelines", tok, map[string]any{"name": "m", "repository": githubRepo, "pipeline_template_uuid": hidden})
	expectFieldErrors(t, r, "pipeline_template_uuid", "must be a pipeline template of this organization")
	r = e.do("POST", "/v2/organizations/acme/pipelines", tok, map[string]any{"name": "m", "repository": githubRepo, "pipeline_template_uuid": avail})
	expect(t, r, 201)
	// Resending a template an admin assigned is not a new assignment.
	e.api("PATCH", "/pipelines/tp", map[string]any{"pipeline_template_uuid": hidden})
	expect(t, e.do("PATCH", "/v2/organizations/acme/pipelines/tp", tok, map[string]any{"pipeline_template_uuid": hidden, "description": "m"}), 200)
}

func TestPipelineAuthAndScopes(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "p", "repository": githubRepo})
	e.srv.Store().AddToken("reader", []string{"acme"}, []string{"read_pipelines"})
	e.srv.Store().AddToken("other", []string{"other"}, AllScopes())
	base := "/v2/organizations/acme/pipelines"
	expect(t, e.do("GET", base, "", nil), 401)
	expect(t, e.do("GET", base+"/p", "nope", nil), 401)
	denied := "Your access token doesn't have the write_pipelines scope"
	expectError(t, e.do("POST", base, "reader", map[string]any{}), 403, denied)
	expectError(t, e.do("PATCH", base+"/p", "reader", map[string]any{}), 403, denied)
	expectError(t, e.do("DELETE", base+"/p", "reader", nil), 403, denied)
	expectError(t, e.do("POST", base+"/p/archive", "reader", nil), 403, denied)
	expectError(t, e.do("POST", base+"/p/unarchive", "reader", nil), 403, denied)
	expectError(t, e.do("GET", base, "other", nil), 404, "No organization found")
	expectError(t, e.do("GET", "/v2/organizations/other/pipelines/p", "other", nil), 404, "No pipeline found")
	if l := e.do("GET", "/v2/organizations/other/pipelines", "other", nil).list(t); len(l) != 0 {
		t.Fatalf("other org lists %v", l)
	}
	// The same name in another organization is fine.
	expect(t, e.do("POST", "/v2/organizations/other/pipelines", "other",
		map[string]any{"name": "p", "repository": githubRepo, "configuration": uploadYAML}), 201)
}

func TestPipelineListPaginationAndFilters(t *testing.T) {
	e := newEnv(t, Options{})
	for i := range 5 {
		repo := githubRepo
		if i%2 == 1 {
			repo = "git@gitlab.com:acme/odd.git"
		}
		e.createPipeline(map[string]any{"name": fmt.Sprintf("Pipe %d", i), "repository": repo})
	}
	r := e.api("GET", "/pipelines?per_page=2&page=2", nil)
	l := r.list(t)
	if len(l) != 2 || l[0]["name"] != "Pipe 2" || !strings.Contains(r.header.Get("Link"), `rel="next"`) {
		t.Fatalf("page 2: %v %s", l, r.header.Get("Link"))
	}
	if l := e.api("GET", "/pipelines?name=pipe%203", nil).list(t); len(l) != 1 || l[0]["name"] != "Pipe 3" {
		t.Fatalf("name filter %v", l)
	}
	if l := e.api("GET", "/pipelines?repository=gitlab", nil).list(t); len(l) != 2 {
		t.Fatalf("repository filter %v", l)
	}
}

func TestPipelineExistsRemove(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	a := e.createPipeline(map[string]any{"name": "a", "repository": githubRepo})
	e.createPipeline(map[string]any{"name": "b", "repository": githubRepo})
	rule := e.api("POST", "/rules", map[string]any{"type": triggerRule, "value": map[string]string{"source_pipeline": "a", "target_pipeline": "b"}})
	expect(t, rule, 201)
	ruleID := rule.object(t)["uuid"].(string)

	id, ok := st.PipelineIDBySlug("acme", "a")
	if !ok || id != a["id"] {
		t.Fatalf("PipelineIDBySlug %v %v", id, ok)
	}
	if !st.Exists(KindPipeline, "acme", id) || st.Exists(KindPipeline, "other", id) {
		t.Fatal("Exists")
	}
	if !st.Remove(KindPipeline, "acme", id) || st.Remove(KindPipeline, "acme", id) {
		t.Fatal("Remove")
	}
	expectError(t, e.api("GET", "/pipelines/a", nil), 404, "No pipeline found")
	if st.Exists(KindRule, "acme", ruleID) {
		t.Fatal("rule naming a removed pipeline survived")
	}
	// DELETE cascades the same way.
	e.createPipeline(map[string]any{"name": "c", "repository": githubRepo})
	ruleID = e.api("POST", "/rules", map[string]any{"type": triggerRule, "value": map[string]string{"source_pipeline": "b", "target_pipeline": "c"}}).object(t)["uuid"].(string)
	expect(t, e.api("DELETE", "/pipelines/c", nil), 204)
	if st.Exists(KindRule, "acme", ruleID) {
		t.Fatal("rule survived DELETE")
	}
}

// TestPipelineCreateEmptyStrings: what the official provider sends for unset attributes at create (empty
// strings, no timeouts) is stored as sent: an empty default branch, not "main", and null timeouts.
func TestPipelineCreateEmptyStrings(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "Empty", "repository": githubRepo, "description": "", "default_branch": "",
		"skip_queued_branch_builds_filter": "", "cancel_running_branch_builds_filter": ""})
	if p["default_branch"] != "" || p["default_command_step_timeout"] != nil || p["maximum_command_step_timeout"] != nil {
		t.Fatalf("created %v", p)
	}
	if d, ok := p["description"]; ok && d != nil && d != "" {
		t.Fatalf("description %v", d)
	}
	if q := e.createPipeline(map[string]any{"name": "Unset", "repository": githubRepo}); q["default_branch"] != "main" {
		t.Fatalf("default branch without one given: %v", q["default_branch"])
	}
}

package fakeserver

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// ---- helpers (prefixed "build" so they cannot clash with other areas' test helpers) ----

// buildClock is a clock tests move by hand, so build timestamps can be filtered on.
type buildClock struct {
	mu sync.Mutex
	t  time.Time
}

func newBuildClock() *buildClock {
	return &buildClock{t: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *buildClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// tick moves the clock on by a minute.
func (c *buildClock) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Minute)
}

// seedBuildPipeline inserts a pipeline record directly (the pipelines area is written in parallel) and
// returns its id.
func (e *testEnv) seedBuildPipeline(org, slug, clusterID string) string {
	e.t.Helper()
	st := e.srv.store
	st.mu.Lock()
	defer st.mu.Unlock()
	id := newID()
	st.insertPipeline(&pipelineRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Pipeline", id), slug: slug,
		name: titleCase(slug), clusterID: clusterID,
	})
	return id
}

// setBuildSteps makes new builds take their jobs from steps (by pipeline id) instead of
// pipelineRecord.jobSteps, until the test ends. The swap happens under the store's lock, which the
// handlers hold when they read stepsOf.
func (e *testEnv) setBuildSteps(steps map[string][]stepSpec) {
	st := e.srv.store
	st.mu.Lock()
	old := stepsOf
	stepsOf = func(p *pipelineRecord) []stepSpec { return steps[p.id] }
	st.mu.Unlock()
	e.t.Cleanup(func() {
		st.mu.Lock()
		stepsOf = old
		st.mu.Unlock()
	})
}

// createBuild creates a build of pipeline slug in acme and returns it.
func (e *testEnv) createBuild(slug string, body map[string]any) map[string]any {
	e.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	if _, ok := body["commit"]; !ok {
		body["commit"] = "abc123abc123abc123abc123abc123abc123abc1"
	}
	if _, ok := body["branch"]; !ok {
		body["branch"] = "main"
	}
	r := e.api("POST", "/pipelines/"+slug+"/builds", body)
	expect(e.t, r, http.StatusCreated)
	return r.object(e.t)
}

// buildAdmin calls the admin API for build number of pipeline slug in acme (suffix "" or "/jobs/<id>").
func (e *testEnv) buildAdmin(slug string, number int, suffix string, body any) response {
	e.t.Helper()
	return e.do("PUT", fmt.Sprintf("/_fake/organizations/acme/pipelines/%s/builds/%d%s", slug, number, suffix), "", body)
}

// buildNumbers returns the numbers of a list of builds, as "slug#n" when the list mixes pipelines.
func buildKeys(t *testing.T, l []map[string]any) []string {
	t.Helper()
	out := make([]string, 0, len(l))
	for _, b := range l {
		p, _ := b["pipeline"].(map[string]any)
		out = append(out, fmt.Sprintf("%v#%v", p["slug"], b["number"]))
	}
	return out
}

func jobsOf(b map[string]any) []map[string]any {
	var out []map[string]any
	for _, j := range b["jobs"].([]any) {
		out = append(out, j.(map[string]any))
	}
	return out
}

const fullSHA = "abc123abc123abc123abc123abc123abc123abc1"

// ---- create ----

func TestBuildCreate(t *testing.T) {
	e := newEnv(t, Options{})
	cid := e.createCluster("c")
	linux := e.createQueue(cid, "linux")
	deflt := e.createQueue(cid, "default")
	expect(t, e.api("PUT", "/clusters/"+cid, map[string]any{"default_queue_id": deflt}), 200)
	web := e.seedBuildPipeline("acme", "web", cid)
	apiID := e.seedBuildPipeline("acme", "api", "")
	e.setBuildSteps(map[string][]stepSpec{
		web: {
			{key: "test", label: ":go: Test", command: "go test ./...", agentQueryRules: []string{"queue=linux"}},
			{command: "make lint"},
		},
		apiID: {{key: "only", command: "true"}},
	})

	r := e.api("POST", "/pipelines/web/builds", map[string]any{
		"commit": fullSHA, "branch": "main", "message": "Ship it",
		"author":         map[string]any{"name": "Ada", "email": "ada@example.com"},
		"env":            map[string]any{"FOO": "bar"},
		"meta_data":      map[string]any{"release": "v1"},
		"clean_checkout": true, "ignore_pipeline_branch_filters": true,
		"pull_request_id": 42, "pull_request_base_branch": "main", "pull_request_repository": "git@github.com:a/b.git",
	})
	expect(t, r, http.StatusCreated)
	b := r.object(t)
	hasKeys(t, b, "id", "graphql_id", "url", "web_url", "number", "state", "cancel_reason", "blocked", "message",
		"commit", "branch", "env", "source", "creator", "jobs", "created_at", "scheduled_at", "started_at",
		"finished_at", "meta_data", "pull_request", "rebuilt_from", "pipeline")
	id := b["id"].(string)
	if b["number"] != 1.0 || b["state"] != "scheduled" || b["blocked"] != false || b["source"] != "api" ||
		b["message"] != "Ship it" || b["commit"] != fullSHA || b["branch"] != "main" ||
		b["cancel_reason"] != nil || b["started_at"] != nil || b["finished_at"] != nil || b["rebuilt_from"] != nil ||
		b["created_at"] == nil || b["scheduled_at"] != b["created_at"] || b["graphql_id"] != graphQLID("Build", id) {
		t.Fatalf("created %v", b)
	}
	buildURL := e.ts.URL + "/v2/organizations/acme/pipelines/web/builds/1"
	if b["url"] != buildURL || b["web_url"] != e.ts.URL+"/acme/web/builds/1" {
		t.Fatalf("urls %v %v", b["url"], b["web_url"])
	}
	if b["env"].(map[string]any)["FOO"] != "bar" || b["meta_data"].(map[string]any)["release"] != "v1" {
		t.Fatalf("env/meta_data %v %v", b["env"], b["meta_data"])
	}
	pr := b["pull_request"].(map[string]any)
	if pr["id"] != "42" || pr["base"] != "main" || pr["repository"] != "git@github.com:a/b.git" {
		t.Fatalf("pull_request %v", pr)
	}
	creator := b["creator"].(map[string]any)
	hasKeys(t, creator, "id", "name", "email", "avatar_url", "created_at")
	if creator["name"] != "Test User" {
		t.Fatalf("creator %v", creator)
	}
	if p := b["pipeline"].(map[string]any); p["id"] != web || p["slug"] != "web" {
		t.Fatalf("pipeline %v", p)
	}

	jobs := jobsOf(b)
	if len(jobs) != 2 {
		t.Fatalf("jobs %v", jobs)
	}
	j := jobs[0]
	hasKeys(t, j, "id", "graphql_id", "type", "name", "step_key", "step", "agent_query_rules", "state", "web_url",
		"log_url", "raw_log_url", "command", "soft_failed", "exit_status", "artifact_paths", "agent", "created_at",
		"scheduled_at", "runnable_at", "started_at", "finished_at", "retried", "retried_in_job_id", "retries_count",
		"retry_type", "parallel_group_index", "parallel_group_total", "matrix", "cluster_id", "cluster_url",
		"cluster_queue_id", "cluster_queue_url")
	jid := j["id"].(string)
	if j["type"] != "script" || j["name"] != ":go: Test" || j["step_key"] != "test" || j["command"] != "go test ./..." ||
		j["state"] != "scheduled" || j["soft_failed"] != false || j["exit_status"] != nil || j["agent"] != nil ||
		j["started_at"] != nil || j["finished_at"] != nil || j["retried"] != false || j["retried_in_job_id"] != nil ||
		j["retries_count"] != 0.0 || j["retry_type"] != nil || j["parallel_group_index"] != nil || j["matrix"] != nil ||
		j["graphql_id"] != graphQLID("JobTypeCommand", jid) || j["runnable_at"] == nil {
		t.Fatalf("job %v", j)
	}
	if j["web_url"] != b["web_url"].(string)+"#"+jid || j["log_url"] != buildURL+"/jobs/"+jid+"/log" ||
		j["raw_log_url"] != buildURL+"/jobs/"+jid+"/log.txt" {
		t.Fatalf("job urls %v", j)
	}
	if rules := j["agent_query_rules"].([]any); len(rules) != 1 || rules[0] != "queue=linux" {
		t.Fatalf("rules %v", rules)
	}
	step := j["step"].(map[string]any)
	sig := step["signature"].(map[string]any)
	if step["id"] == "" || sig["value"] == "" || sig["algorithm"] == "" || len(sig["signed_fields"].([]any)) == 0 {
		t.Fatalf("step %v", step)
	}
	clusterURL := e.ts.URL + "/v2/organizations/acme/clusters/" + cid
	if j["cluster_id"] != cid || j["cluster_url"] != clusterURL || j["cluster_queue_id"] != linux ||
		j["cluster_queue_url"] != clusterURL+"/queues/"+linux {
		t.Fatalf("job cluster %v", j)
	}
	// No label, no key, no queue rule: null name and key, the cluster's default queue.
	j2 := jobs[1]
	if j2["name"] != nil || j2["step_key"] != nil || j2["cluster_queue_id"] != deflt ||
		len(j2["agent_query_rules"].([]any)) != 0 || j2["id"] == jid {
		t.Fatalf("second job %v", j2)
	}

	// Numbers increase per pipeline; ids are unique; optional properties default.
	b2 := e.createBuild("web", nil)
	if b2["number"] != 2.0 || b2["id"] == id || b2["message"] != "" || b2["pull_request"] != nil ||
		len(b2["env"].(map[string]any)) != 0 || len(b2["meta_data"].(map[string]any)) != 0 {
		t.Fatalf("second build %v", b2)
	}
	a1 := e.createBuild("api", nil)
	if a1["number"] != 1.0 {
		t.Fatalf("another pipeline's first build is %v", a1["number"])
	}
	// A pipeline outside a cluster gives null cluster fields.
	if aj := jobsOf(a1)[0]; aj["cluster_id"] != nil || aj["cluster_url"] != nil || aj["cluster_queue_id"] != nil ||
		aj["cluster_queue_url"] != nil || aj["step_key"] != "only" {
		t.Fatalf("job outside a cluster %v", aj)
	}
	if e.createBuild("web", nil)["number"] != 3.0 {
		t.Fatal("third build of web is not 3")
	}
	if n := e.srv.Store().BuildCount("acme"); n != 4 {
		t.Fatalf("BuildCount %d", n)
	}
}

func TestBuildCreateWithoutSteps(t *testing.T) {
	e := newEnv(t, Options{})
	e.seedBuildPipeline("acme", "empty", "")
	e.setBuildSteps(nil)
	b := e.createBuild("empty", nil)
	if jobs, ok := b["jobs"].([]any); !ok || len(jobs) != 0 {
		t.Fatalf("jobs %v", b["jobs"])
	}
	// The default seam asks the pipeline (a stub in this worktree): either way no 5xx.
	e2 := newEnv(t, Options{})
	e2.seedBuildPipeline("acme", "p", "")
	e2.createBuild("p", nil)
}

func TestBuildCreateValidation(t *testing.T) {
	e := newEnv(t, Options{})
	e.seedBuildPipeline("acme", "web", "")
	path := "/pipelines/web/builds"

	type fe = map[string]any
	tests := []struct {
		name string
		body any
		errs []fe
	}{
		{"empty", map[string]any{}, []fe{{"field": "commit", "code": "can't be blank"}, {"field": "branch", "code": "can't be blank"}}},
		{"blank branch", map[string]any{"commit": "HEAD", "branch": ""}, []fe{{"field": "branch", "code": "can't be blank"}}},
		{"null commit", `{"commit":null,"branch":"main"}`, []fe{{"field": "commit", "code": "can't be blank"}}},
		{"wrong types", map[string]any{"commit": 1, "branch": true}, []fe{{"field": "commit", "code": "must be a string"}, {"field": "branch", "code": "must be a string"}}},
		{"meta_data values", map[string]any{"commit": "HEAD", "branch": "main", "meta_data": map[string]any{"n": 1}},
			[]fe{{"field": "meta_data", "code": "must be an object of strings"}}},
		{"env", map[string]any{"commit": "HEAD", "branch": "main", "env": []string{"A=1"}}, []fe{{"field": "env", "code": "must be an object"}}},
		{"author", map[string]any{"commit": "HEAD", "branch": "main", "author": 5}, []fe{{"field": "author", "code": "must be an object with name and email"}}},
		{"pull request", map[string]any{"commit": "HEAD", "branch": "main", "pull_request_id": true}, []fe{{"field": "pull_request_id", "code": "must be an integer"}}},
		{"clean_checkout", map[string]any{"commit": "HEAD", "branch": "main", "clean_checkout": "yes"}, []fe{{"field": "clean_checkout", "code": "must be a boolean"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.api("POST", path, tt.body)
			expect(t, r, 422)
			body := r.object(t)
			if body["message"] != "Validation Failed" {
				t.Fatalf("body %s", r.raw)
			}
			got := body["errors"].([]any)
			if len(got) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", got, tt.errs)
			}
			for i, want := range tt.errs {
				g := got[i].(map[string]any)
				if g["field"] != want["field"] || g["code"] != want["code"] {
					t.Fatalf("error %d: %v, want %v", i, g, want)
				}
			}
		})
	}

	expectError(t, e.api("POST", path, `{"commit":`), 400, "Problems parsing JSON")
	expectError(t, e.api("POST", "/pipelines/nope/builds", map[string]any{"commit": "HEAD", "branch": "main"}), 404, "No pipeline found")
	// The pipeline 404 comes before validation.
	expectError(t, e.api("POST", "/pipelines/nope/builds", map[string]any{}), 404, "No pipeline found")
	// The author may be a plain e-mail (go-buildkite decodes that form too); pull_request_id a string.
	b := e.createBuild("web", map[string]any{"author": "ada@example.com", "pull_request_id": "7"})
	if b["pull_request"].(map[string]any)["id"] != "7" {
		t.Fatalf("pull_request %v", b["pull_request"])
	}
	if n := e.srv.Store().BuildCount("acme"); n != 1 {
		t.Fatalf("failed creates made builds: %d", n)
	}
}

func TestBuildAuth(t *testing.T) {
	e := newEnv(t, Options{})
	e.seedBuildPipeline("acme", "web", "")
	e.createBuild("web", nil)
	st := e.srv.Store()
	st.AddToken("read-builds", []string{"acme"}, []string{scopeReadBuilds})
	st.AddToken("no-builds", []string{"acme"}, []string{scopeReadPipelines, scopeWriteBuilds})
	st.AddToken("other", []string{"other"}, AllScopes())
	unauthorized := "Authentication required. Please supply a valid API Access Token: " + authDocsURL
	base := "/v2/organizations/acme/pipelines/web/builds"
	body := map[string]any{"commit": "HEAD", "branch": "main"}

	tests := []struct {
		method, path, token string
		body                any
		status              int
		message             string
	}{
		{"GET", "/v2/builds", "", nil, 401, unauthorized},
		{"GET", "/v2/builds", "nope", nil, 401, unauthorized},
		{"GET", "/v2/organizations/acme/builds", "", nil, 401, unauthorized},
		{"GET", base, "", nil, 401, unauthorized},
		{"GET", base + "/1", "", nil, 401, unauthorized},
		{"POST", base, "", body, 401, unauthorized},
		{"PUT", base + "/1/cancel", "", nil, 401, unauthorized},
		{"PUT", base + "/1/rebuild", "", nil, 401, unauthorized},

		{"GET", "/v2/builds", "no-builds", nil, 403, "Your access token doesn't have the read_builds scope"},
		{"GET", "/v2/organizations/acme/builds", "no-builds", nil, 403, "Your access token doesn't have the read_builds scope"},
		{"GET", base, "no-builds", nil, 403, "Your access token doesn't have the read_builds scope"},
		{"GET", base + "/1", "no-builds", nil, 403, "Your access token doesn't have the read_builds scope"},
		{"POST", base, "read-builds", body, 403, "Your access token doesn't have the write_builds scope"},
		{"PUT", base + "/1/cancel", "read-builds", nil, 403, "Your access token doesn't have the write_builds scope"},
		{"PUT", base + "/1/rebuild", "read-builds", nil, 403, "Your access token doesn't have the write_builds scope"},

		{"GET", "/v2/organizations/acme/builds", "other", nil, 404, "No organization found"},
		{"GET", base, "other", nil, 404, "No organization found"},
		{"GET", base + "/1", "other", nil, 404, "No organization found"},
		{"POST", base, "other", body, 404, "No organization found"},
		{"PUT", base + "/1/cancel", "other", nil, 404, "No organization found"},
		{"PUT", base + "/1/rebuild", "other", nil, 404, "No organization found"},
		{"GET", "/v2/organizations/other/pipelines/web/builds/1", "other", nil, 404, "No pipeline found"},

		{"GET", base + "/1", "read-builds", nil, 200, ""},
		{"GET", "/v2/builds", "read-builds", nil, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path+" "+tt.token, func(t *testing.T) {
			r := e.do(tt.method, tt.path, tt.token, tt.body)
			expect(t, r, tt.status)
			if tt.message != "" {
				expectError(t, r, tt.status, tt.message)
			}
		})
	}
	if n := st.BuildCount("acme"); n != 1 {
		t.Fatalf("refused requests made builds: %d", n)
	}
}

// ---- get ----

func TestBuildGet(t *testing.T) {
	e := newEnv(t, Options{})
	web := e.seedBuildPipeline("acme", "web", "")
	e.setBuildSteps(map[string][]stepSpec{web: {{command: "make"}}})
	created := e.createBuild("web", map[string]any{"message": "m"})

	r := e.api("GET", "/pipelines/web/builds/1", nil)
	expect(t, r, 200)
	b := r.object(t)
	if b["id"] != created["id"] || b["message"] != "m" || len(jobsOf(b)) != 1 {
		t.Fatalf("get %v", b)
	}
	for _, n := range []string{"2", "x", "1.0", "01x"} {
		expectError(t, e.api("GET", "/pipelines/web/builds/"+n, nil), 404, "No build found")
	}
	expectError(t, e.api("GET", "/pipelines/nope/builds/1", nil), 404, "No pipeline found")
	// include_retried_jobs is the only query it takes; others are ignored.
	expect(t, e.api("GET", "/pipelines/web/builds/1?include_retried_jobs=true&state=bogus", nil), 200)
	r = e.api("GET", "/pipelines/web/builds/1?include_retried_jobs=maybe", nil)
	expect(t, r, 422)
	if !strings.Contains(string(r.raw), `"field":"include_retried_jobs"`) {
		t.Fatalf("body %s", r.raw)
	}
	// A build of a pipeline removed behind the builds area's back (without its builds) is not listed.
	e.srv.store.mu.Lock()
	p, _ := e.srv.store.pipelines.pipelines.get(web)
	e.srv.store.pipelines.pipelines.remove(p)
	e.srv.store.mu.Unlock()
	expectError(t, e.api("GET", "/pipelines/web/builds/1", nil), 404, "No pipeline found")
	if l := e.api("GET", "/builds", nil).list(t); len(l) != 0 {
		t.Fatalf("orphan build listed: %v", l)
	}
}

// ---- lists ----

// buildFixture is one build of TestBuildListFilters and what the filters see of it.
type buildFixture struct {
	slug, branch, commit string
	meta                 map[string]string
	state                string // set through the admin API after creation; "" leaves it scheduled
	blocked              bool
	bySecond             bool // creator changed to the second member
	key                  string
	created, finished    time.Time
}

func TestBuildListFilters(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{Now: clock.Now})
	e.seedBuildPipeline("acme", "web", "")
	e.seedBuildPipeline("acme", "api", "")
	shaA := strings.Repeat("a", 40)
	shaB := strings.Repeat("b", 40)

	fixtures := []*buildFixture{
		{slug: "web", branch: "main", commit: shaA, meta: map[string]string{"env": "prod", "team": "x"}, state: "passed"},
		{slug: "web", branch: "dev", commit: shaB, meta: map[string]string{"env": "prod"}, state: "failed"},
		{slug: "api", branch: "main", commit: shaA, meta: map[string]string{"env": "stage"}, state: "running", blocked: true},
		{slug: "web", branch: "feature/x", commit: shaB, state: "canceled", bySecond: true},
		{slug: "api", branch: "dev", commit: shaA, meta: map[string]string{"team": "x"}, state: "passed", blocked: true},
		{slug: "web", branch: "main", commit: shaB, state: "skipped"},
		{slug: "api", branch: "main", commit: shaB}, // scheduled
		{slug: "web", branch: "dev", commit: shaA, state: "failing"},
	}
	var second string
	e.srv.store.mu.RLock()
	for id, u := range e.srv.store.users {
		if u.name == "Second Member" {
			second = id
		}
	}
	e.srv.store.mu.RUnlock()

	for _, f := range fixtures {
		clock.tick()
		meta := map[string]any{}
		for k, v := range f.meta {
			meta[k] = v
		}
		b := e.createBuild(f.slug, map[string]any{"branch": f.branch, "commit": f.commit, "meta_data": meta})
		number := int(b["number"].(float64))
		f.key = fmt.Sprintf("%s#%d", f.slug, number)
		f.created = clock.Now()
		if f.state != "" {
			expect(t, e.buildAdmin(f.slug, number, "", map[string]any{"state": f.state, "blocked": f.blocked}), 200)
			if slices.Contains([]string{"passed", "failed", "canceled", "skipped"}, f.state) {
				f.finished = clock.Now()
			}
		}
		if f.bySecond {
			e.srv.store.mu.Lock()
			rec, _ := e.srv.store.builds.builds.get(b["id"].(string))
			rec.creatorID = second
			e.srv.store.mu.Unlock()
		}
	}
	t0 := fixtures[0].created
	iso := func(t time.Time) string { return t.Format(time.RFC3339) }

	type pred func(f *buildFixture) bool
	tests := []struct {
		query string
		want  pred
	}{
		{"", func(*buildFixture) bool { return true }},
		{"branch=main", func(f *buildFixture) bool { return f.branch == "main" }},
		{"branch[]=main&branch[]=dev", func(f *buildFixture) bool { return f.branch == "main" || f.branch == "dev" }},
		{"branch=" + url.QueryEscape("feature/x"), func(f *buildFixture) bool { return f.branch == "feature/x" }},
		{"branch=nope", func(*buildFixture) bool { return false }},
		{"commit=" + shaA, func(f *buildFixture) bool { return f.commit == shaA }},
		{"commit=" + shaA[:7], func(*buildFixture) bool { return false }}, // short SHAs match nothing
		{"commit[]=" + shaA + "&commit[]=" + shaB, func(*buildFixture) bool { return true }},
		{"state=passed", func(f *buildFixture) bool { return f.state == "passed" }},
		{"state=scheduled", func(f *buildFixture) bool { return f.state == "" }},
		{"state[]=failed&state[]=failing", func(f *buildFixture) bool { return f.state == "failed" || f.state == "failing" }},
		{"state=blocked", func(f *buildFixture) bool { return f.blocked }},
		{"state=finished", func(f *buildFixture) bool {
			return f.blocked || slices.Contains([]string{"passed", "failed", "canceled"}, f.state)
		}},
		{"state[]=finished&state[]=skipped", func(f *buildFixture) bool {
			return f.blocked || slices.Contains([]string{"passed", "failed", "canceled", "skipped"}, f.state)
		}},
		{"state=running", func(f *buildFixture) bool { return f.state == "running" }}, // blocked keeps its state
		{"created_from=" + url.QueryEscape(iso(t0.Add(2*time.Minute))), func(f *buildFixture) bool { return !f.created.Before(t0.Add(2 * time.Minute)) }},
		{"created_to=" + url.QueryEscape(iso(t0.Add(2*time.Minute))), func(f *buildFixture) bool { return f.created.Before(t0.Add(2 * time.Minute)) }},
		{"created_from=" + url.QueryEscape(iso(t0.Add(time.Minute))) + "&created_to=" + url.QueryEscape(iso(t0.Add(4*time.Minute))),
			func(f *buildFixture) bool {
				return !f.created.Before(t0.Add(time.Minute)) && f.created.Before(t0.Add(4*time.Minute))
			}},
		// An offset whose "+" arrived unescaped (as a space) and a date-only value are read too.
		{"created_from=" + strings.ReplaceAll(t0.Add(3*time.Minute).In(time.FixedZone("", 3600)).Format(time.RFC3339), "+", "%20"),
			func(f *buildFixture) bool { return !f.created.Before(t0.Add(3 * time.Minute)) }},
		{"created_to=2024-03-01", func(*buildFixture) bool { return false }},
		{"finished_from=" + url.QueryEscape(iso(t0.Add(3*time.Minute))), func(f *buildFixture) bool {
			return !f.finished.IsZero() && !f.finished.Before(t0.Add(3*time.Minute))
		}},
		{"creator=" + second, func(f *buildFixture) bool { return f.bySecond }},
		{"creator=" + newID(), func(*buildFixture) bool { return false }},
		{"meta_data[env]=prod", func(f *buildFixture) bool { return f.meta["env"] == "prod" }},
		{"meta_data[env]=prod&meta_data[team]=x", func(f *buildFixture) bool { return f.meta["env"] == "prod" && f.meta["team"] == "x" }},
		{"meta_data[team]=x&branch=dev", func(f *buildFixture) bool { return f.meta["team"] == "x" && f.branch == "dev" }},
		{"unknown=1", func(*buildFixture) bool { return true }},
	}
	lists := []struct {
		path string
		keep pred
	}{
		{"/v2/builds", func(*buildFixture) bool { return true }},
		{"/v2/organizations/acme/builds", func(*buildFixture) bool { return true }},
		{"/v2/organizations/acme/pipelines/web/builds", func(f *buildFixture) bool { return f.slug == "web" }},
	}
	for _, l := range lists {
		for _, tt := range tests {
			t.Run(l.path+"?"+tt.query, func(t *testing.T) {
				var want []string
				for i := len(fixtures) - 1; i >= 0; i-- { // newest first
					if f := fixtures[i]; l.keep(f) && tt.want(f) {
						want = append(want, f.key)
					}
				}
				r := e.do("GET", l.path+"?per_page=100&"+tt.query, "test-token", nil)
				expect(t, r, 200)
				if got := buildKeys(t, r.list(t)); !slices.Equal(got, want) {
					t.Fatalf("got %v, want %v", got, want)
				}
			})
		}
	}

	// Invalid filter values: 422 in the pipeline/build form, naming the parameter.
	for _, q := range []struct{ query, field string }{
		{"state=bogus", "state"},
		{"state[]=passed&state[]=done", "state"},
		{"created_from=yesterday", "created_from"},
		{"created_to=2024-13-01", "created_to"},
		{"finished_from=1700000000", "finished_from"},
		{"include_retried_jobs=perhaps", "include_retried_jobs"},
	} {
		for _, l := range lists {
			r := e.do("GET", l.path+"?"+q.query, "test-token", nil)
			expect(t, r, 422)
			body := r.object(t)
			errs := body["errors"].([]any)
			if body["message"] != "Validation Failed" || len(errs) != 1 || errs[0].(map[string]any)["field"] != q.field {
				t.Fatalf("%s?%s: %s", l.path, q.query, r.raw)
			}
		}
	}
	// The pipeline list's 404 comes before its 422.
	expectError(t, e.api("GET", "/pipelines/nope/builds?state=bogus", nil), 404, "No pipeline found")
}

func TestBuildListAcrossOrganizations(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	st.AddToken("other-token", []string{"other"}, AllScopes())
	st.AddToken("both-token", []string{"acme", "other"}, []string{scopeReadBuilds})
	st.AddToken("third-token", []string{"third"}, AllScopes())
	e.seedBuildPipeline("acme", "web", "")
	e.seedBuildPipeline("other", "web", "") // same slug, another org
	e.seedBuildPipeline("third", "svc", "")

	e.createBuild("web", nil) // acme web#1
	expect(t, e.do("POST", "/v2/organizations/other/pipelines/web/builds", "other-token",
		map[string]any{"commit": "HEAD", "branch": "main"}), 201)
	e.createBuild("web", nil) // acme web#2
	expect(t, e.do("POST", "/v2/organizations/third/pipelines/svc/builds", "third-token",
		map[string]any{"commit": "HEAD", "branch": "main"}), 201)

	orgOf := func(b map[string]any) string {
		u := b["url"].(string)
		return strings.Split(strings.TrimPrefix(u, e.ts.URL+"/v2/organizations/"), "/")[0]
	}
	listed := func(token, path string) []string {
		var out []string
		for _, b := range e.do("GET", path, token, nil).list(t) {
			out = append(out, fmt.Sprintf("%s/%v", orgOf(b), b["number"]))
		}
		return out
	}
	for _, tt := range []struct {
		token, path string
		want        []string
	}{
		{"test-token", "/v2/builds", []string{"acme/2", "acme/1"}},
		{"other-token", "/v2/builds", []string{"other/1"}},
		{"both-token", "/v2/builds", []string{"acme/2", "other/1", "acme/1"}},
		{"both-token", "/v2/organizations/other/builds", []string{"other/1"}},
		{"test-token", "/v2/organizations/acme/pipelines/web/builds", []string{"acme/2", "acme/1"}},
		{"other-token", "/v2/organizations/other/pipelines/web/builds", []string{"other/1"}},
	} {
		if got := listed(tt.token, tt.path); !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: %v, want %v", tt.token, tt.path, got, tt.want)
		}
	}
	expectError(t, e.do("GET", "/v2/organizations/third/builds", "both-token", nil), 404, "No organization found")
	// Another org's build is not reachable through this org's pipeline of the same slug.
	expectError(t, e.do("GET", "/v2/organizations/acme/pipelines/web/builds/3", "both-token", nil), 404, "No build found")
}

func TestBuildListPagination(t *testing.T) {
	e := newEnv(t, Options{})
	e.seedBuildPipeline("acme", "web", "")
	for range 5 {
		e.createBuild("web", nil)
	}
	for _, path := range []string{"/v2/builds", "/v2/organizations/acme/builds", "/v2/organizations/acme/pipelines/web/builds"} {
		var got []string
		for page := 1; page <= 3; page++ {
			r := e.do("GET", fmt.Sprintf("%s?per_page=2&page=%d", path, page), "test-token", nil)
			expect(t, r, 200)
			got = append(got, buildKeys(t, r.list(t))...)
			link := r.header.Get("Link")
			if page < 3 && !strings.Contains(link, fmt.Sprintf(`page=%d&per_page=2>; rel="next"`, page+1)) {
				t.Fatalf("%s page %d Link %q", path, page, link)
			}
			if page == 3 && strings.Contains(link, `rel="next"`) {
				t.Fatalf("%s last page Link %q", path, link)
			}
		}
		if want := []string{"web#5", "web#4", "web#3", "web#2", "web#1"}; !slices.Equal(got, want) {
			t.Fatalf("%s: %v", path, got)
		}
	}
	if l := e.api("GET", "/builds?page=9", nil).list(t); len(l) != 0 {
		t.Fatalf("past the end %v", l)
	}
}

// ---- cancel and rebuild ----

func TestBuildCancel(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{Now: clock.Now})
	web := e.seedBuildPipeline("acme", "web", "")
	e.setBuildSteps(map[string][]stepSpec{web: {{key: "a", command: "a"}, {key: "b", command: "b"}}})

	b := e.createBuild("web", nil)
	jobs := jobsOf(b)
	// The first job already passed: cancel leaves it alone.
	expect(t, e.buildAdmin("web", 1, "/jobs/"+jobs[0]["id"].(string), map[string]any{"state": "passed"}), 200)
	clock.tick()
	r := e.api("PUT", "/pipelines/web/builds/1/cancel", nil)
	expect(t, r, 200)
	c := r.object(t)
	if c["state"] != "canceled" || c["finished_at"] != "2024-03-01T12:01:00.000Z" || c["id"] != b["id"] {
		t.Fatalf("canceled %v", c)
	}
	cj := jobsOf(c)
	if cj[0]["state"] != "passed" || cj[1]["state"] != "canceled" || cj[1]["finished_at"] == nil || cj[1]["exit_status"] != nil {
		t.Fatalf("jobs after cancel %v", cj)
	}
	if state, _, _ := e.srv.Store().BuildState("acme", "web", 1); state != "canceled" {
		t.Fatalf("store state %q", state)
	}
	expectError(t, e.api("PUT", "/pipelines/web/builds/1/cancel", nil), 422,
		"Build can't be canceled because it is canceled; only scheduled, running or failing builds can be")

	for i, state := range []string{"running", "failing", "blocked"} {
		n := i + 2
		e.createBuild("web", nil)
		expect(t, e.buildAdmin("web", n, "", map[string]any{"state": state}), 200)
		r := e.api("PUT", fmt.Sprintf("/pipelines/web/builds/%d/cancel", n), nil)
		expect(t, r, 200)
		if c := r.object(t); c["state"] != "canceled" || c["blocked"] != false || c["started_at"] == nil && state != "blocked" {
			t.Fatalf("cancel from %s: %v", state, c)
		}
	}
	for i, state := range []string{"passed", "failed", "canceling", "skipped", "not_run"} {
		n := i + 5
		e.createBuild("web", nil)
		expect(t, e.buildAdmin("web", n, "", map[string]any{"state": state}), 200)
		expectError(t, e.api("PUT", fmt.Sprintf("/pipelines/web/builds/%d/cancel", n), nil), 422,
			"Build can't be canceled because it is "+state+"; only scheduled, running or failing builds can be")
	}
	expectError(t, e.api("PUT", "/pipelines/web/builds/99/cancel", nil), 404, "No build found")
	expectError(t, e.api("PUT", "/pipelines/nope/builds/1/cancel", nil), 404, "No pipeline found")
}

func TestBuildRebuild(t *testing.T) {
	e := newEnv(t, Options{})
	web := e.seedBuildPipeline("acme", "web", "")
	e.seedBuildPipeline("acme", "api", "")
	steps := map[string][]stepSpec{web: {{command: "one"}}}
	e.setBuildSteps(steps)
	orig := e.createBuild("web", map[string]any{
		"commit": fullSHA, "branch": "release", "message": "m", "env": map[string]any{"A": "1"},
		"meta_data": map[string]any{"k": "v"}, "pull_request_id": 3,
	})
	e.createBuild("api", nil)
	expect(t, e.buildAdmin("web", 1, "", map[string]any{"state": "failed"}), 200)

	r := e.api("PUT", "/pipelines/web/builds/1/rebuild", nil)
	expect(t, r, 200)
	nb := r.object(t)
	if nb["number"] != 2.0 || nb["id"] == orig["id"] || nb["state"] != "scheduled" || nb["commit"] != fullSHA ||
		nb["branch"] != "release" || nb["message"] != "m" || nb["env"].(map[string]any)["A"] != "1" ||
		nb["meta_data"].(map[string]any)["k"] != "v" || nb["pull_request"].(map[string]any)["id"] != "3" ||
		nb["finished_at"] != nil || len(jobsOf(nb)) != 1 {
		t.Fatalf("rebuild %v", nb)
	}
	rf := nb["rebuilt_from"].(map[string]any)
	if rf["id"] != orig["id"] || rf["number"] != 1.0 || rf["url"] != orig["url"] {
		t.Fatalf("rebuilt_from %v", rf)
	}
	// The original is untouched; a rebuild of a rebuild points at its own original.
	if o := e.api("GET", "/pipelines/web/builds/1", nil).object(t); o["state"] != "failed" || o["rebuilt_from"] != nil {
		t.Fatalf("original %v", o)
	}
	rr := e.api("PUT", "/pipelines/web/builds/2/rebuild", nil).object(t)
	if rr["number"] != 3.0 || rr["rebuilt_from"].(map[string]any)["number"] != 2.0 {
		t.Fatalf("rebuild of rebuild %v", rr)
	}
	expectError(t, e.api("PUT", "/pipelines/web/builds/9/rebuild", nil), 404, "No build found")
	expectError(t, e.api("PUT", "/pipelines/web/builds/x/rebuild", nil), 404, "No build found")
	if n := e.srv.Store().BuildCount("acme"); n != 4 {
		t.Fatalf("BuildCount %d", n)
	}
}

// ---- admin API, store methods, retried jobs ----

func TestBuildAdminState(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{Now: clock.Now})
	e.seedBuildPipeline("acme", "web", "")
	e.createBuild("web", nil)
	ts := func(d time.Duration) string { return formatTime(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC).Add(d)) }

	steps := []struct {
		body              map[string]any
		state             string
		blocked           bool
		started, finished any
	}{
		{map[string]any{"state": "running"}, "running", false, ts(time.Minute), nil},
		{map[string]any{"state": "failing"}, "failing", false, ts(time.Minute), nil},
		{map[string]any{"blocked": true}, "failing", true, ts(time.Minute), nil},
		{map[string]any{"state": "failed", "blocked": false}, "failed", false, ts(time.Minute), ts(4 * time.Minute)},
		{map[string]any{"state": "scheduled"}, "scheduled", false, nil, nil},
		{map[string]any{"state": "passed"}, "passed", false, ts(6 * time.Minute), ts(6 * time.Minute)},
		{map[string]any{"state": "blocked"}, "passed", true, ts(6 * time.Minute), ts(6 * time.Minute)},
		{map[string]any{"state": "not_run", "blocked": false}, "not_run", false, ts(6 * time.Minute), ts(6 * time.Minute)},
	}
	for i, s := range steps {
		clock.tick()
		r := e.buildAdmin("web", 1, "", s.body)
		expect(t, r, 200)
		b := r.object(t)
		if b["state"] != s.state || b["blocked"] != s.blocked || b["started_at"] != s.started || b["finished_at"] != s.finished {
			t.Fatalf("step %d %v: state %v blocked %v started %v finished %v", i, s.body, b["state"], b["blocked"], b["started_at"], b["finished_at"])
		}
	}
	// POST works as PUT.
	r := e.do("POST", "/_fake/organizations/acme/pipelines/web/builds/1", "", map[string]any{"state": "canceled"})
	expect(t, r, 200)

	for _, bad := range []any{map[string]any{"state": "finished"}, map[string]any{"state": "bogus"}, map[string]any{"blocked": "yes"}} {
		r := e.buildAdmin("web", 1, "", bad)
		expect(t, r, 422)
		if !strings.Contains(string(r.raw), `"Validation Failed"`) {
			t.Fatalf("body %s", r.raw)
		}
	}
	expectError(t, e.buildAdmin("web", 1, "", `{"state":`), 400, "Problems parsing JSON")
	expectError(t, e.buildAdmin("web", 2, "", map[string]any{"state": "passed"}), 404, "No build found")
	expectError(t, e.buildAdmin("nope", 1, "", map[string]any{"state": "passed"}), 404, "No pipeline found")
	expectError(t, e.do("PUT", "/_fake/organizations/nowhere/pipelines/web/builds/1", "", map[string]any{}), 404, "No organization found")

	// Store methods.
	st := e.srv.Store()
	if err := st.SetBuildState("acme", "web", 1, "running"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetBuildState("acme", "web", 1, "blocked"); err != nil {
		t.Fatal(err)
	}
	if state, blocked, ok := st.BuildState("acme", "web", 1); !ok || state != "running" || !blocked {
		t.Fatalf("BuildState %q %v %v", state, blocked, ok)
	}
	if g := e.api("GET", "/pipelines/web/builds/1", nil).object(t); g["state"] != "running" || g["blocked"] != true {
		t.Fatalf("API does not show the store's state: %v", g)
	}
	for _, err := range []error{
		st.SetBuildState("acme", "web", 1, "finished"),
		st.SetBuildState("acme", "web", 2, "passed"),
		st.SetBuildState("acme", "nope", 1, "passed"),
		st.SetBuildState("other", "web", 1, "passed"),
	} {
		if err == nil {
			t.Error("SetBuildState accepted a bad call")
		}
	}
	if _, _, ok := st.BuildState("acme", "web", 2); ok {
		t.Fatal("BuildState of an unknown build")
	}
	if st.BuildCount("other") != 0 || st.BuildCount("acme") != 1 {
		t.Fatal("BuildCount")
	}
}

func TestBuildAdminJobsAndRetries(t *testing.T) {
	clock := newBuildClock()
	e := newEnv(t, Options{Now: clock.Now})
	web := e.seedBuildPipeline("acme", "web", "")
	e.setBuildSteps(map[string][]stepSpec{web: {{key: "test", command: "t"}, {key: "lint", command: "l"}}})
	b := e.createBuild("web", nil)
	jobs := jobsOf(b)
	test, lint := jobs[0]["id"].(string), jobs[1]["id"].(string)
	job := func(b map[string]any, id string) map[string]any {
		for _, j := range jobsOf(b) {
			if j["id"] == id {
				return j
			}
		}
		t.Fatalf("job %s not in %v", id, b["jobs"])
		return nil
	}

	clock.tick()
	r := e.buildAdmin("web", 1, "/jobs/"+test, map[string]any{"state": "running"})
	expect(t, r, 200)
	j := job(r.object(t), test)
	if j["state"] != "running" || j["started_at"] != "2024-03-01T12:01:00.000Z" || j["finished_at"] != nil || j["exit_status"] != nil {
		t.Fatalf("running %v", j)
	}
	// A running job has an agent: in full in a single build, as id/url/name in lists.
	agent := job(e.api("GET", "/pipelines/web/builds/1", nil).object(t), test)["agent"].(map[string]any)
	hasKeys(t, agent, "id", "url", "name", "graphql_id", "web_url", "connection_state", "hostname", "ip_address",
		"user_agent", "creator", "created_at")
	short := jobsOf(e.api("GET", "/builds", nil).list(t)[0])[0]["agent"].(map[string]any)
	if len(short) != 3 || short["id"] != agent["id"] || short["url"] != agent["url"] || short["name"] != agent["name"] {
		t.Fatalf("list agent %v", short)
	}
	// The build's own state is not touched by its jobs.
	if s, _, _ := e.srv.Store().BuildState("acme", "web", 1); s != "scheduled" {
		t.Fatalf("build state %q", s)
	}

	clock.tick()
	j = job(e.buildAdmin("web", 1, "/jobs/"+test, map[string]any{"state": "failed", "exit_status": 2}).object(t), test)
	if j["state"] != "failed" || j["exit_status"] != 2.0 || j["finished_at"] != "2024-03-01T12:02:00.000Z" ||
		j["started_at"] != "2024-03-01T12:01:00.000Z" {
		t.Fatalf("failed %v", j)
	}
	// passed without an exit status is 0; back to scheduled clears everything.
	j = job(e.buildAdmin("web", 1, "/jobs/"+lint, map[string]any{"state": "passed"}).object(t), lint)
	if j["exit_status"] != 0.0 || j["started_at"] == nil || j["finished_at"] == nil || j["agent"] == nil {
		t.Fatalf("passed %v", j)
	}
	j = job(e.buildAdmin("web", 1, "/jobs/"+lint, map[string]any{"state": "scheduled"}).object(t), lint)
	if j["exit_status"] != nil || j["started_at"] != nil || j["finished_at"] != nil || j["agent"] != nil {
		t.Fatalf("rescheduled %v", j)
	}

	// Retry the failed job.
	r = e.buildAdmin("web", 1, "/jobs/"+test, map[string]any{"retry": true})
	expect(t, r, 200)
	all := jobsOf(r.object(t))
	if len(all) != 3 || all[0]["id"] != test || all[2]["id"] != lint {
		t.Fatalf("jobs after retry %v", all)
	}
	old, retry := all[0], all[1]
	if old["retried"] != true || old["retried_in_job_id"] != retry["id"] || retry["retried"] != false ||
		retry["retries_count"] != 1.0 || retry["retry_type"] != "manual" || retry["state"] != "scheduled" ||
		retry["step_key"] != "test" || retry["exit_status"] != nil ||
		retry["step"].(map[string]any)["id"] != old["step"].(map[string]any)["id"] {
		t.Fatalf("retry: old %v new %v", old, retry)
	}
	retryID := retry["id"].(string)
	// Fail and retry the retry in one call: state first, then the retry.
	r = e.buildAdmin("web", 1, "/jobs/"+retryID, map[string]any{"state": "failed", "retry": true})
	expect(t, r, 200)
	if all = jobsOf(r.object(t)); len(all) != 4 || all[2]["retries_count"] != 2.0 || all[1]["retried_in_job_id"] != all[2]["id"] {
		t.Fatalf("second retry %v", all)
	}
	latest := all[2]["id"].(string)

	// Without include_retried_jobs only the latest execution of each step shows.
	current := []string{latest, lint}
	withRetried := []string{test, retryID, latest, lint}
	ids := func(b map[string]any) []string {
		var out []string
		for _, j := range jobsOf(b) {
			out = append(out, j["id"].(string))
		}
		return out
	}
	for query, want := range map[string][]string{
		"": current, "?include_retried_jobs=false": current, "?include_retried_jobs=true": withRetried,
		"?include_retried_jobs=1": withRetried,
	} {
		if got := ids(e.api("GET", "/pipelines/web/builds/1"+query, nil).object(t)); !slices.Equal(got, want) {
			t.Errorf("get%s: %v, want %v", query, got, want)
		}
	}
	for _, path := range []string{"/v2/builds", "/v2/organizations/acme/builds", "/v2/organizations/acme/pipelines/web/builds"} {
		if got := ids(e.do("GET", path, "test-token", nil).list(t)[0]); !slices.Equal(got, current) {
			t.Errorf("%s: %v", path, got)
		}
		if got := ids(e.do("GET", path+"?include_retried_jobs=true", "test-token", nil).list(t)[0]); !slices.Equal(got, withRetried) {
			t.Errorf("%s with retried: %v", path, got)
		}
	}
	// Cancel hides retried jobs like any build response and cancels only the latest execution.
	c := e.api("PUT", "/pipelines/web/builds/1/cancel", nil).object(t)
	if got := ids(c); !slices.Equal(got, current) || jobsOf(c)[0]["state"] != "canceled" || jobsOf(c)[1]["state"] != "canceled" {
		t.Fatalf("cancel %v", c["jobs"])
	}

	// Errors.
	bad := []struct {
		job   string
		body  any
		field string
	}{
		{latest, map[string]any{"state": "bogus"}, "state"},
		{latest, map[string]any{"state": "running", "exit_status": 1}, "exit_status"},
		{latest, map[string]any{"exit_status": "1"}, "exit_status"},
		{test, map[string]any{"retry": true}, "retry"},                     // already retried
		{lint, map[string]any{"state": "running", "retry": true}, "retry"}, // not finished
		{lint, map[string]any{"retry": "yes"}, "retry"},
	}
	for _, tt := range bad {
		r := e.buildAdmin("web", 1, "/jobs/"+tt.job, tt.body)
		expect(t, r, 422)
		if !strings.Contains(string(r.raw), `"field":"`+tt.field+`"`) {
			t.Fatalf("%v: %s", tt.body, r.raw)
		}
	}
	expectError(t, e.buildAdmin("web", 1, "/jobs/nope", map[string]any{"state": "passed"}), 404, "No job found")
	expectError(t, e.buildAdmin("web", 7, "/jobs/"+lint, map[string]any{"state": "passed"}), 404, "No build found")
	expect(t, e.do("POST", "/_fake/organizations/acme/pipelines/web/builds/1/jobs/"+lint, "", map[string]any{"state": "passed"}), 200)
}

func TestBuildKind(t *testing.T) {
	e := newEnv(t, Options{})
	e.seedBuildPipeline("acme", "web", "")
	id := e.createBuild("web", nil)["id"].(string)
	st := e.srv.Store()
	if !st.Exists(KindBuild, "acme", id) || st.Exists(KindBuild, "other", id) || st.Exists(KindBuild, "acme", "nope") {
		t.Fatal("Exists")
	}
	if st.Remove(KindBuild, "other", id) || !st.Remove(KindBuild, "acme", id) || st.Remove(KindBuild, "acme", id) {
		t.Fatal("Remove")
	}
	expectError(t, e.api("GET", "/pipelines/web/builds/1", nil), 404, "No build found")
	// Numbers keep counting after a removal: "may have gaps".
	if n := e.createBuild("web", nil)["number"]; n != 2.0 {
		t.Fatalf("number after removal %v", n)
	}

	// removePipelineBuilds is the pipelines area's cascade.
	st.mu.Lock()
	st.removePipelineBuilds(st.pipelineBySlug("acme", "web").id)
	st.mu.Unlock()
	if st.BuildCount("acme") != 0 {
		t.Fatal("removePipelineBuilds left builds")
	}
}

func TestBuildConcurrentCreates(t *testing.T) {
	e := newEnv(t, Options{})
	e.seedBuildPipeline("acme", "web", "")
	const n = 20
	var wg sync.WaitGroup
	numbers := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.api("POST", "/pipelines/web/builds", map[string]any{"commit": "HEAD", "branch": "main"})
			if r.status == 201 {
				numbers[i] = int(r.object(t)["number"].(float64))
			}
			e.api("GET", "/builds", nil)
		}()
	}
	wg.Wait()
	sort.Ints(numbers)
	for i, got := range numbers {
		if got != i+1 {
			t.Fatalf("numbers %v", numbers)
		}
	}
}

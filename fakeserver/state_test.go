package fakeserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// populate gives e's server one object of every kind the store holds, through the API where it can and
// the Store's methods where only fixtures can, in the states that fill the most fields.
func populate(t *testing.T, e *testEnv) {
	t.Helper()
	st := e.srv.Store()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	c := e.createCluster("Platform")
	q := e.createQueue(c, "linux")
	expect(t, e.api("PUT", "/clusters/"+c, map[string]any{"default_queue_id": q, "emoji": ":penguin:"}), 200)
	expect(t, e.api("POST", "/clusters/"+c+"/queues/"+q+"/pause_dispatch", map[string]any{"note": "maintenance"}), 200)
	expect(t, e.api("POST", "/clusters/"+c+"/tokens", map[string]any{"description": "agents",
		"allowed_ip_addresses": "10.0.0.0/8", "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}), 201)
	must(st.AddAgentToken("acme", "agent-secret"))
	_, err := st.AddAgent(AgentFixture{Org: "acme", Name: "linux-1", Queue: "linux", Cluster: "Platform", State: "busy"})
	must(err)
	must(st.SetQueueJobs(QueueJobsFixture{Org: "acme", Queue: "linux", Cluster: "Platform", State: "running", Count: 3}))

	team := e.api("POST", "/teams", map[string]any{"name": "Core", "members_can_create_suites": true}).object(t)["id"].(string)
	_, second := teamsKit{e}.memberIDs()
	expect(t, e.api("POST", "/teams/"+team+"/members", map[string]any{"user_id": second, "role": "maintainer"}), 201)
	tpl := e.api("POST", "/pipeline-templates", map[string]any{"name": "T", "configuration": "steps:\n  - command: t\n"})
	expect(t, tpl, 201)
	yamlPipeline := e.createPipeline(map[string]any{"name": "App", "repository": githubRepo, "cluster_id": c,
		"configuration": "env:\n  A: b\nsteps:\n  - command: make\n    agents: {queue: linux}\n",
		"teams":         map[string]any{team: "build_and_read"}, "tags": []string{"go"}, "env": map[string]any{"X": "1"},
		"provider_settings":            map[string]any{"build_tags": true, "issue_comment_match_mode": "contains"},
		"default_command_step_timeout": 10, "maximum_command_step_timeout": 20})
	e.createPipeline(map[string]any{"name": "Visual", "repository": "git@gitlab.com:a/b.git", "steps": []map[string]any{
		{"type": "script", "name": "build", "command": "make", "plugins": map[string]any{"docker#v5": map[string]any{"image": "go"}}},
		{"type": "waiter"}, {"type": "trigger", "trigger_project_slug": "app", "build": map[string]any{"env": map[string]any{"K": "v"}}},
	}})
	e.createPipeline(map[string]any{"name": "Templated", "repository": githubRepo, "pipeline_template_uuid": tpl.object(t)["uuid"]})
	expect(t, e.api("POST", "/rules", map[string]any{"type": "pipeline.trigger_build.pipeline",
		"value": map[string]any{"source_pipeline": "app", "target_pipeline": "visual"}}), 201)
	b := e.api("POST", "/pipelines/app/builds", map[string]any{"commit": "HEAD", "branch": "main",
		"env": map[string]any{"N": 1.5, "NESTED": map[string]any{"x": true}}, "meta_data": map[string]any{"k": "v"}})
	expect(t, b, 201)
	job := b.object(t)["jobs"].([]any)[0].(map[string]any)["id"].(string)
	expect(t, e.do("PUT", "/_fake/organizations/acme/pipelines/app/builds/1/jobs/"+job, "", map[string]any{"state": "failed", "retry": true}), 200)
	expect(t, e.do("PUT", "/_fake/organizations/acme/pipelines/app/builds/1", "", map[string]any{"state": "failed"}), 200)
	expect(t, e.api("PUT", "/pipelines/app/builds/1/rebuild", nil), 200)

	suite := e.do("POST", "/v2/analytics/organizations/acme/suites", "test-token",
		map[string]any{"name": "Specs", "default_branch": "main", "team_ids": []string{team}, "emoji": ":test:"})
	expect(t, suite, 201)
	_, err = st.AddFlakyTest("acme", "specs", FlakyTestFixture{Name: "flaky", Scope: "a", Location: "a_test.go:1",
		Branch: "main", Instances: 2, LatestAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)})
	must(err)
	expect(t, e.api("PATCH", "/teams/"+team+"/pipelines/"+yamlPipeline["id"].(string), map[string]any{"access_level": "read_only"}), 200)
	expect(t, e.regAPI("POST", "", map[string]any{"name": "gems", "ecosystem": "ruby", "oidc_policy": "- iss: x\n", "public": true}), 200)
	expect(t, e.regAPI("POST", "/gems/tokens", map[string]any{"description": "ci"}), 200)
}

// snapshot answers the reads that show every area, for comparing two servers (their base URLs left out).
func snapshot(t *testing.T, e *testEnv) string {
	t.Helper()
	var out strings.Builder
	for _, path := range []string{
		"/v2/organizations/acme", "/v2/organizations/acme/members", "/v2/access-token",
		"/v2/organizations/acme/clusters", "/v2/organizations/acme/teams", "/v2/organizations/acme/pipelines",
		"/v2/organizations/acme/pipeline-templates", "/v2/organizations/acme/rules", "/v2/builds?include_retried_jobs=true",
		"/v2/analytics/organizations/acme/suites", "/v2/analytics/organizations/acme/suites/specs/flaky-tests",
		"/v2/packages/organizations/acme/registries", "/v2/packages/organizations/acme/registries/gems/tokens",
	} {
		r := e.do("GET", path, "test-token", nil)
		expect(t, r, http.StatusOK)
		out.WriteString(path + "\n" + string(r.raw) + "\n")
	}
	for _, item := range e.api("GET", "/clusters", nil).list(t) {
		for _, sub := range []string{"/queues", "/tokens"} {
			out.WriteString(string(e.api("GET", "/clusters/"+item["id"].(string)+sub, nil).raw))
		}
	}
	for _, item := range e.api("GET", "/teams", nil).list(t) {
		for _, sub := range []string{"/members", "/pipelines", "/suites"} {
			out.WriteString(string(e.api("GET", "/teams/"+item["id"].(string)+sub, nil).raw))
		}
	}
	req := httptest.NewRequest(http.MethodGet, "/v3/metrics", nil)
	req.Header.Set("Authorization", "Token agent-secret")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	out.WriteString(rec.Body.String())
	return strings.ReplaceAll(out.String(), e.ts.URL, "<base>")
}

// TestStateRoundTrip: a server started from the state file of another answers every read as that one
// did, and saves the same state again: nothing the store holds is lost or changed on the way.
func TestStateRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := newEnv(t, Options{StateFile: path})
	if first.srv.Resumed() {
		t.Fatal("a new state file was taken as a saved state")
	}
	populate(t, first)
	want := snapshot(t, first)
	for _, sign := range []string{`"docker#v5"`, `"maintenance"`, `"contains"`, `"flaky"`, `"NESTED"`, `"retried":true`,
		`"rebuilt_from"`, `"busy":1`, `"role":"maintainer"`, `"oidc_policy":"- iss: x\n"`, `"access_level":"read_only"`} {
		if !strings.Contains(want, sign) {
			t.Fatalf("the populated server does not show %s", sign)
		}
	}
	first.srv.Store().mu.RLock()
	saved, err := first.srv.Store().encodeState()
	first.srv.Store().mu.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(storeOf(t, onDisk), storeOf(t, saved)) {
		t.Fatal("the file does not hold the state after the last change")
	}

	if err := first.srv.Close(); err != nil { // the state file's lock, which the restart takes
		t.Fatal(err)
	}
	second := newEnv(t, Options{StateFile: path, Org: "ignored", Token: "ignored"})
	if !second.srv.Resumed() {
		t.Fatal("the saved state was not resumed")
	}
	if got := snapshot(t, second); got != want {
		t.Fatalf("reads differ after a restart:\n got %.2000s\nwant %.2000s", got, want)
	}
	second.srv.Store().mu.RLock()
	again, err := second.srv.Store().encodeState()
	second.srv.Store().mu.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(storeOf(t, again), storeOf(t, saved)) {
		t.Fatal("the restored store saves a different state")
	}
	if r := second.do("GET", "/v2/organizations/ignored", "ignored", nil); r.status != http.StatusUnauthorized {
		t.Fatalf("Org and Token seeded a resumed state: %d", r.status)
	}
	// Work goes on from where it stopped: new objects take new sequence numbers and IDs.
	second.createCluster("After")
	if l := second.api("GET", "/clusters", nil).list(t); len(l) != 2 || l[1]["name"] != "After" {
		t.Fatalf("clusters after the restart %v", l)
	}
}

// storeOf returns a state file's store, without the time it was saved.
func storeOf(t *testing.T, file []byte) []byte {
	t.Helper()
	var body stateFileBody
	if err := json.Unmarshal(file, &body); err != nil {
		t.Fatal(err)
	}
	return body.Store
}

// TestStateSavedBeforeAnswer: the file holds a change when its request is answered, and a refused
// request leaves it alone.
func TestStateSavedBeforeAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := newEnv(t, Options{StateFile: path})
	id := e.createCluster("saved")
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte(id)) {
		t.Fatalf("the answered create is not in the file (%v)", err)
	}
	info, _ := os.Stat(path)
	expect(t, e.api("POST", "/clusters", map[string]any{}), 422)
	if after, _ := os.Stat(path); !after.ModTime().Equal(info.ModTime()) {
		t.Fatal("a refused request rewrote the file")
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("the file, which holds tokens, has mode %v", info.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".state.json.*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestStateFixturesSeedOnlyANewState: fixtures seed the state when the file holds none, and are ignored
// once it does (the state file wins).
func TestStateFixturesSeedOnlyANewState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := newEnv(t, Options{StateFile: path, Fixtures: loadExample(t)})
	expect(t, e.do("POST", "/v2/organizations/demo/clusters", "demo-token", map[string]any{"name": "kept"}), 201)

	other := &Fixtures{Organizations: []OrganizationFixture{{Slug: "other"}},
		Users:        []UserFixture{{Name: "O", Email: "o@example.com", Memberships: []MembershipFixture{{Org: "other"}}}},
		AccessTokens: []AccessTokenFixture{{Token: "other-token", User: "o@example.com", Scopes: Scopes{"all"}}}}
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	again := newEnv(t, Options{StateFile: path, Fixtures: other})
	if l := again.do("GET", "/v2/organizations/demo/clusters", "demo-token", nil).list(t); len(l) != 1 || l[0]["name"] != "kept" {
		t.Fatalf("clusters after a restart with other fixtures %v", l)
	}
	expect(t, again.do("GET", "/v2/organizations/other", "other-token", nil), http.StatusUnauthorized)
}

// TestStateFileErrors: a file that is not a state, or of another format, is an error naming it, and so is
// a file that cannot be written; nothing is overwritten.
func TestStateFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"garbage.json": "not json",
		"format.json":  `{"format": 99, "store": {}}`,
		"types.json":   `{"format": 1, "store": {"seq": "x"}}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(Options{StateFile: path})
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v", name, err)
		}
		if data, _ := os.ReadFile(path); string(data) != content {
			t.Errorf("%s was overwritten", name)
		}
	}
	if _, err := Open(Options{StateFile: filepath.Join(dir, "missing", "state.json")}); err == nil {
		t.Error("a state file in a missing directory opened")
	}
}

// TestStateCodecRefusesWhatItCannotRestore: a record reachable twice, or a field JSON cannot hold, is an
// error when saving, never a state that restores differently.
func TestStateCodecRefusesWhatItCannotRestore(t *testing.T) {
	type shared struct{ a, b *userRecord }
	u := &userRecord{id: "x"}
	enc := &stateEncoder{seen: map[uintptr]bool{}}
	if err := enc.value(reflect.ValueOf(&shared{a: u, b: u}).Elem()); err == nil || !strings.Contains(err.Error(), "reachable twice") {
		t.Errorf("shared pointer: %v", err)
	}
	type withFunc struct{ f func() }
	enc = &stateEncoder{seen: map[uintptr]bool{}}
	if err := enc.value(reflect.ValueOf(&withFunc{f: func() {}}).Elem()); err == nil || !strings.Contains(err.Error(), "cannot be saved") {
		t.Errorf("func field: %v", err)
	}
}

// BenchmarkStateSave measures one save of a state of 1,000 clusters, 1,000 queues and 1,000 pipelines:
// what each change costs a server with a state file.
func BenchmarkStateSave(b *testing.B) {
	path := filepath.Join(b.TempDir(), "state.json")
	srv := New(Options{StateFile: path})
	st := srv.Store()
	st.mu.Lock()
	st.statePath = "" // seed without saving each object
	for i := range 1000 {
		c := &clusterRecord{seq: st.nextSeq(), org: "acme", id: newID(), name: "c" + strconv.Itoa(i), createdAt: st.timestamp()}
		st.clusters.clusters.insert(c)
		st.clusters.queues.insert(&queueRecord{seq: st.nextSeq(), org: "acme", clusterID: c.id, id: newID(), key: "q",
			retryAgentAffinity: "prefer-warmest", createdAt: st.timestamp()})
		st.pipelines.pipelines.insert(&pipelineRecord{seq: st.nextSeq(), org: "acme", id: newID(), slug: "p" + strconv.Itoa(i),
			name: "p" + strconv.Itoa(i), repository: githubRepo, provider: "github", settings: defaultProviderSettings("github"),
			configuration: "steps:\n  - command: make\n", createdAt: st.timestamp()})
	}
	st.statePath = path
	st.mu.Unlock()
	b.ResetTimer()
	for range b.N {
		st.mu.Lock()
		err := st.save()
		st.mu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if info, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(info.Size()), "file-bytes")
	}
}

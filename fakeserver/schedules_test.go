package fakeserver

import (
	"net/http"
	"testing"
	"time"
)

// scheduleClock is the fixed time of the schedule tests' servers: a Thursday, 10:07 UTC.
var scheduleClock = time.Date(2026, 1, 1, 10, 7, 30, 0, time.UTC)

// newScheduleEnv is an emulator at scheduleClock holding pipeline "app" (default branch "trunk").
func newScheduleEnv(t *testing.T) *testEnv {
	e := newEnv(t, Options{Now: func() time.Time { return scheduleClock }})
	e.createPipeline(map[string]any{"name": "App", "repository": githubRepo, "default_branch": "trunk"})
	return e
}

func TestScheduleCRUD(t *testing.T) {
	e := newScheduleEnv(t)
	created := e.api("POST", "/pipelines/app/schedules", map[string]any{"cronline": "0 3 * * * Europe/Berlin", "label": "Nightly"})
	expect(t, created, http.StatusCreated)
	s := created.object(t)
	hasKeys(t, s, "id", "graphql_id", "url", "label", "cronline", "message", "commit", "branch", "env", "enabled",
		"next_build_at", "failed_message", "failed_at", "created_at", "created_by", "pipeline")
	id := s["id"].(string)
	for field, want := range map[string]any{
		"label": "Nightly", "cronline": "0 3 * * * Europe/Berlin", "commit": "HEAD", "branch": "trunk", "enabled": true,
		"message": nil, "graphql_id": graphQLID("PipelineSchedule", id),
		// 03:00 in Berlin in winter is 02:00 UTC, and the clock is past it today.
		"next_build_at": "2026-01-02T02:00:00Z",
	} {
		if s[field] != want {
			t.Errorf("created %s = %v, want %v", field, s[field], want)
		}
	}
	if env, _ := s["env"].(map[string]any); env == nil || len(env) != 0 {
		t.Errorf("env = %v, want {}", s["env"])
	}
	if p, _ := s["pipeline"].(map[string]any); p["slug"] != "app" {
		t.Errorf("pipeline = %v", s["pipeline"])
	}

	updated := e.api("PATCH", "/pipelines/app/schedules/"+id, map[string]any{
		"cronline": "*/15 * * * *", "message": "Every quarter", "env": map[string]any{"FOO": "bar"}, "branch": "main",
	}).object(t)
	for field, want := range map[string]any{"cronline": "*/15 * * * *", "message": "Every quarter", "branch": "main",
		"label": "Nightly", "next_build_at": "2026-01-01T10:15:00Z"} {
		if updated[field] != want {
			t.Errorf("updated %s = %v, want %v", field, updated[field], want)
		}
	}
	// Disabled, it is never due; env {} clears the variables.
	disabled := e.api("PUT", "/pipelines/app/schedules/"+id, map[string]any{"enabled": false, "env": map[string]any{}}).object(t)
	if disabled["next_build_at"] != nil || disabled["enabled"] != false || len(disabled["env"].(map[string]any)) != 0 {
		t.Errorf("disabled = %v", disabled)
	}
	if l := e.api("GET", "/pipelines/app/schedules", nil).list(t); len(l) != 1 || l[0]["id"] != id {
		t.Fatalf("list = %v", l)
	}
	if got := e.api("GET", "/pipelines/app/schedules/"+id, nil).object(t); got["message"] != "Every quarter" {
		t.Errorf("get = %v", got)
	}
	expect(t, e.api("DELETE", "/pipelines/app/schedules/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", "/pipelines/app/schedules/"+id, nil), http.StatusNotFound, "No pipeline schedule found")
}

func TestScheduleRefusesBadInput(t *testing.T) {
	e := newScheduleEnv(t)
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"label": "no cronline"}, "Validation failed: Cronline can't be blank"},
		{map[string]any{"cronline": "  "}, "Validation failed: Cronline can't be blank"},
		{map[string]any{"cronline": "0 25 * * *"}, `Validation failed: Cronline is not a valid cronline: hour field "25": 25 is out of range 0-23`},
		{map[string]any{"cronline": "@daily", "branch": ""}, "Validation failed: Branch can't be blank"},
		{map[string]any{"cronline": "@daily", "commit": " "}, "Validation failed: Commit can't be blank"},
		{map[string]any{"cronline": "@daily", "env": map[string]any{"N": 1}}, "Validation failed: Env must be an object of strings"},
		{map[string]any{"cronline": "@daily", "enabled": "yes"}, "Validation failed: Enabled must be a boolean"},
		{map[string]any{"cronline": "@daily", "env": map[string]any{"": "x"}}, "Validation failed: Env has a blank name"},
	} {
		expectError(t, e.api("POST", "/pipelines/app/schedules", tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	id := e.api("POST", "/pipelines/app/schedules", map[string]any{"cronline": "@daily"}).object(t)["id"].(string)
	expectError(t, e.api("PATCH", "/pipelines/app/schedules/"+id, map[string]any{"cronline": "@often"}),
		http.StatusUnprocessableEntity, `Validation failed: Cronline is not a valid cronline: "@often" is not one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly`)
	if got := e.api("GET", "/pipelines/app/schedules/"+id, nil).object(t); got["cronline"] != "@daily" {
		t.Errorf("a refused update changed the schedule: %v", got)
	}
	expectError(t, e.api("POST", "/pipelines/nope/schedules", map[string]any{"cronline": "@daily"}), http.StatusNotFound, "No pipeline found")
	// A token with every scope but write_pipelines may read schedules, not create them.
	e.srv.Store().AddToken("reader", []string{"acme"}, []string{scopeReadPipelines})
	expect(t, e.do("GET", "/v2/organizations/acme/pipelines/app/schedules", "reader", nil), http.StatusOK)
	expectError(t, e.do("POST", "/v2/organizations/acme/pipelines/app/schedules", "reader", map[string]any{"cronline": "@daily"}),
		http.StatusForbidden, "Your access token doesn't have the write_pipelines scope")
}

// TestScheduleGoesWithItsPipeline: deleting a pipeline deletes its schedules; Store.Exists and Remove name
// a schedule under its pipeline's UUID or slug, never under another pipeline.
func TestScheduleGoesWithItsPipeline(t *testing.T) {
	e := newScheduleEnv(t)
	other := e.createPipeline(map[string]any{"name": "Other", "repository": githubRepo})
	app := e.api("GET", "/pipelines/app", nil).object(t)
	id := e.api("POST", "/pipelines/app/schedules", map[string]any{"cronline": "@daily"}).object(t)["id"].(string)
	st := e.srv.Store()
	for key, want := range map[string]bool{
		"app/" + id: true, app["id"].(string) + "/" + id: true, "other/" + id: false, other["id"].(string) + "/" + id: false, id: false,
	} {
		if got := st.Exists(KindPipelineSchedule, "acme", key); got != want {
			t.Errorf("Exists(%q) = %t, want %t", key, got, want)
		}
	}
	expect(t, e.api("DELETE", "/pipelines/app", nil), http.StatusNoContent)
	if st.Exists(KindPipelineSchedule, "acme", app["id"].(string)+"/"+id) || st.schedules.schedules.len() != 0 {
		t.Fatal("the schedule outlived its pipeline")
	}
}

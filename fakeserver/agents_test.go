package fakeserver

import (
	"encoding/json"
	"net/http"
	"testing"
)

// seedAgents seeds n agents of acme and returns their IDs.
func (e *testEnv) seedAgents(names ...string) []string {
	e.t.Helper()
	var ids []string
	for _, n := range names {
		id, err := e.srv.Store().AddAgent(AgentFixture{Org: "acme", Name: n, Hostname: n + ".local", Version: "3.1.0", MetaData: []string{"os=linux"}})
		if err != nil {
			e.t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// TestAgentsListGetStop: seeded agents are listed in order with the documented fields, filtered, paged,
// found by ID; a stopped agent leaves the list and the metrics, is still found, and cannot stop again.
func TestAgentsListGetStop(t *testing.T) {
	e := newEnv(t, Options{})
	ids := e.seedAgents("a1", "a2", "a3")
	list := e.api("GET", "/agents", nil).list(t)
	if len(list) != 3 || list[0]["id"] != ids[0] || list[2]["name"] != "a3" {
		t.Fatalf("list %v", list)
	}
	a := list[0]
	for k, want := range map[string]any{"connection_state": "connected", "hostname": "a1.local", "version": "3.1.0",
		"url": e.ts.URL + "/v2/organizations/acme/agents/" + ids[0], "job": nil} {
		if a[k] != want {
			t.Errorf("%s = %v, want %v", k, a[k], want)
		}
	}
	if md, _ := a["meta_data"].([]any); len(md) != 2 || md[0] != "queue=default" || md[1] != "os=linux" {
		t.Errorf("meta_data %v", a["meta_data"])
	}
	if got := e.api("GET", "/agents?name=a2", nil).list(t); len(got) != 1 || got[0]["id"] != ids[1] {
		t.Errorf("?name=a2: %v", got)
	}
	if got := e.api("GET", "/agents?hostname=a3.local&version=3.1.0", nil).list(t); len(got) != 1 || got[0]["id"] != ids[2] {
		t.Errorf("?hostname: %v", got)
	}
	if got := e.api("GET", "/agents?version=9", nil).list(t); len(got) != 0 {
		t.Errorf("?version=9: %v", got)
	}
	page := e.api("GET", "/agents?per_page=2&page=2", nil)
	if l := page.list(t); len(l) != 1 || l[0]["id"] != ids[2] || page.header.Get("Link") == "" {
		t.Errorf("page 2: %v, Link %q", l, page.header.Get("Link"))
	}

	got := e.api("GET", "/agents/"+ids[1], nil)
	expect(t, got, http.StatusOK)
	if got.object(t)["name"] != "a2" {
		t.Fatalf("get %s", got.raw)
	}
	expect(t, e.api("PUT", "/agents/"+ids[1]+"/stop", map[string]any{"force": true}), http.StatusNoContent)
	if l := e.api("GET", "/agents", nil).list(t); len(l) != 2 {
		t.Errorf("a stopped agent is listed: %v", l)
	}
	if st := e.api("GET", "/agents/"+ids[1], nil).object(t)["connection_state"]; st != "stopped" {
		t.Errorf("stopped agent's connection_state %v", st)
	}
	expectError(t, e.api("PUT", "/agents/"+ids[1]+"/stop", nil), http.StatusBadRequest, "Can only stop connected agents")
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/stop", nil), http.StatusNoContent) // no body: force defaults
}

// TestAgentsBadInput: scopes, unknown agents and organizations, bad bodies, and non-admins.
func TestAgentsBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	ids := e.seedAgents("a1")
	e.srv.Store().AddToken("no-agents", []string{"acme"}, []string{scopeReadBuilds})
	expectError(t, e.do("GET", "/v2/organizations/acme/agents", "no-agents", nil), http.StatusForbidden, "Your access token doesn't have the read_agents scope")
	expectError(t, e.do("GET", "/v2/organizations/acme/agents/"+ids[0], "no-agents", nil), http.StatusForbidden, "Your access token doesn't have the read_agents scope")
	expectError(t, e.do("PUT", "/v2/organizations/acme/agents/"+ids[0]+"/stop", "no-agents", nil), http.StatusForbidden, "Your access token doesn't have the write_agents scope")
	expect(t, e.do("GET", "/v2/organizations/acme/agents", "", nil), http.StatusUnauthorized)
	expectError(t, e.api("GET", "/agents/nope", nil), http.StatusNotFound, "No agent found")
	expectError(t, e.api("PUT", "/agents/nope/stop", nil), http.StatusNotFound, "No agent found")
	expectError(t, e.do("GET", "/v2/organizations/other/agents", "test-token", nil), http.StatusNotFound, "No organization found")
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/stop", `{"force":"yes"}`), http.StatusUnprocessableEntity)
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/stop", `[1]`), http.StatusBadRequest)
	expectError(t, e.do("PUT", "/v2/organizations/acme/agents/"+ids[0]+"/stop", e.memberToken(), nil), http.StatusForbidden, "Forbidden")
	// Another organization's agent is not found through this one.
	e.srv.Store().AddOrg("other", "Other")
	other, err := e.srv.Store().AddAgent(AgentFixture{Org: "other", Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	expectError(t, e.api("GET", "/agents/"+other, nil), http.StatusNotFound, "No agent found")
	if l := e.api("GET", "/agents", nil).list(t); len(l) != 1 {
		t.Errorf("list holds another organization's agent: %v", l)
	}
}

// TestStoppedAgentLeavesMetrics: the /v3 metrics stop counting an agent once it is stopped.
func TestStoppedAgentLeavesMetrics(t *testing.T) {
	e := newEnv(t, Options{})
	ids := e.seedAgents("a1", "a2")
	if err := e.srv.Store().AddAgentToken("acme", "agent-secret"); err != nil {
		t.Fatal(err)
	}
	idle := func() float64 {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/v3/metrics", nil)
		req.Header.Set("Authorization", "Token agent-secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var m struct {
			Agents struct{ Idle float64 } `json:"agents"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return m.Agents.Idle
	}
	if n := idle(); n != 2 {
		t.Fatalf("idle %v before stop", n)
	}
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/stop", nil), http.StatusNoContent)
	if n := idle(); n != 1 {
		t.Fatalf("idle %v after stop, want 1", n)
	}
}

// TestAgentPauseResume: a pause shows its note, timeout and who asked; resume ends it; bad timeouts are
// 422, a stopped agent cannot be paused, and only administrators may.
func TestAgentPauseResume(t *testing.T) {
	e := newEnv(t, Options{})
	ids := e.seedAgents("a1", "a2")
	if got := e.api("GET", "/agents/"+ids[0], nil).object(t); got["paused"] != false || got["paused_note"] != nil {
		t.Fatalf("unpaused agent %v", got)
	}
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/pause", map[string]any{"note": "maintenance", "timeout_in_minutes": 60}), http.StatusNoContent)
	got := e.api("GET", "/agents/"+ids[0], nil).object(t)
	if got["paused"] != true || got["paused_note"] != "maintenance" || got["paused_timeout_in_minutes"] != 60.0 || got["paused_at"] == nil {
		t.Fatalf("paused agent %v", got)
	}
	if by, _ := got["paused_by"].(map[string]any); by["name"] != "Test User" {
		t.Errorf("paused_by %v", got["paused_by"])
	}
	expect(t, e.api("PUT", "/agents/"+ids[1]+"/pause", nil), http.StatusNoContent)
	if got := e.api("GET", "/agents/"+ids[1], nil).object(t); got["paused_timeout_in_minutes"] != 5.0 {
		t.Errorf("default timeout %v", got["paused_timeout_in_minutes"])
	}
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/resume", nil), http.StatusNoContent)
	if got := e.api("GET", "/agents/"+ids[0], nil).object(t); got["paused"] != false {
		t.Fatalf("resumed agent %v", got)
	}

	for _, body := range []string{`{"timeout_in_minutes":0}`, `{"timeout_in_minutes":10081}`, `{"timeout_in_minutes":"long"}`, `{"note":5}`} {
		expect(t, e.api("PUT", "/agents/"+ids[0]+"/pause", body), http.StatusUnprocessableEntity)
	}
	expectError(t, e.api("PUT", "/agents/nope/pause", nil), http.StatusNotFound, "No agent found")
	expectError(t, e.api("PUT", "/agents/nope/resume", nil), http.StatusNotFound, "No agent found")
	expectError(t, e.do("PUT", "/v2/organizations/acme/agents/"+ids[0]+"/pause", e.memberToken(), nil), http.StatusForbidden, "Forbidden")
	e.srv.Store().AddToken("read-agents", []string{"acme"}, []string{scopeReadAgents})
	expectError(t, e.do("PUT", "/v2/organizations/acme/agents/"+ids[0]+"/resume", "read-agents", nil), http.StatusForbidden,
		"Your access token doesn't have the write_agents scope")
	expect(t, e.api("PUT", "/agents/"+ids[0]+"/stop", nil), http.StatusNoContent)
	expectError(t, e.api("PUT", "/agents/"+ids[0]+"/pause", nil), http.StatusBadRequest, "Can only pause connected agents")
}

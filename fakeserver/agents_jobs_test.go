package fakeserver

import (
	"net/http"
	"testing"
)

// TestAgentRunsBuildJob: a build's job that starts is taken by an idle connected agent of its queue, which
// the agents API then shows with the job as its "job" (bk agent list --state running reads it); once the
// job finishes the agent is idle, with no job, and takes the next.
func TestAgentRunsBuildJob(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	other, err := st.AddAgent(AgentFixture{Org: "acme", Name: "elsewhere", Queue: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := st.AddAgent(AgentFixture{Org: "acme", Name: "runner", Queue: "default"})
	if err != nil {
		t.Fatal(err)
	}
	_, job := e.outputsBuild() // pipeline "app" in no cluster; its step names no queue: "default"
	getAgent := func(id string) map[string]any {
		r := e.api("GET", "/agents/"+id, nil)
		expect(t, r, http.StatusOK)
		return r.object(t)
	}
	if j := getAgent(agent)["job"]; j != nil {
		t.Fatalf("an idle agent shows a job: %v", j)
	}

	expect(t, e.buildAdmin("app", 1, "/jobs/"+job, map[string]any{"state": "running"}), http.StatusOK)
	j, _ := getAgent(agent)["job"].(map[string]any)
	if j == nil || j["id"] != job || j["state"] != "running" {
		t.Fatalf("the running agent's job: %v", j)
	}
	if j := getAgent(other)["job"]; j != nil {
		t.Errorf("an agent of another queue shows a job: %v", j)
	}
	b := e.api("GET", "/pipelines/app/builds/1", nil).object(t)
	if a, _ := b["jobs"].([]any)[0].(map[string]any)["agent"].(map[string]any); a == nil || a["id"] != agent || a["name"] != "runner" {
		t.Errorf("the job's agent: %v", a)
	}
	if busy := e.agentsList(t, "runner"); busy["job"] == nil {
		t.Errorf("the listed agent shows no job: %v", busy)
	}

	expect(t, e.buildAdmin("app", 1, "/jobs/"+job, map[string]any{"state": "passed"}), http.StatusOK)
	if j := getAgent(agent)["job"]; j != nil {
		t.Errorf("a finished job is still the agent's: %v", j)
	}
	// Idle again: the next job takes it.
	e.createBuild("app", nil)
	b2 := e.api("GET", "/pipelines/app/builds/2", nil).object(t)
	next := b2["jobs"].([]any)[0].(map[string]any)["id"].(string)
	expect(t, e.buildAdmin("app", 2, "/jobs/"+next, map[string]any{"state": "assigned"}), http.StatusOK)
	if j, _ := getAgent(agent)["job"].(map[string]any); j == nil || j["id"] != next {
		t.Errorf("the next job's agent: %v", j)
	}
}

// agentsList returns the listed agent named name.
func (e *testEnv) agentsList(t *testing.T, name string) map[string]any {
	t.Helper()
	for _, a := range e.api("GET", "/agents", nil).list(t) {
		if a["name"] == name {
			return a
		}
	}
	t.Fatalf("no agent %s listed", name)
	return nil
}

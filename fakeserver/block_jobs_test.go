package fakeserver

import (
	"net/http"
	"testing"
)

// TestBlockJobUnblock: a YAML block step is a "manual" job that starts blocked and blocks the build; PUT
// .../unblock (by the organization's path, as bk job unblock calls it) unblocks it, once.
func TestBlockJobUnblock(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "app", "repository": "https://github.com/acme/app.git",
		"configuration": "steps:\n  - command: make\n  - block: Deploy?\n    key: gate\n  - group: g\n    steps:\n      - command: deploy\n"})
	b := e.createBuild("app", nil)
	if b["blocked"] != true {
		t.Errorf("a build with a block step: blocked %v", b["blocked"])
	}
	jobs := b["jobs"].([]any)
	var kinds []string
	for _, j := range jobs {
		m := j.(map[string]any)
		kinds = append(kinds, m["type"].(string)+":"+m["state"].(string))
	}
	if len(kinds) != 3 || kinds[0] != "script:scheduled" || kinds[1] != "manual:blocked" || kinds[2] != "script:scheduled" {
		t.Fatalf("jobs %v", kinds)
	}
	gate := jobs[1].(map[string]any)
	if gate["unblockable"] != true || gate["name"] != "Deploy?" || gate["step_key"] != "gate" {
		t.Errorf("block job %v", gate)
	}
	id := gate["id"].(string)
	expectError(t, e.api("PUT", "/jobs/"+jobs[0].(map[string]any)["id"].(string)+"/unblock", map[string]any{}), http.StatusUnprocessableEntity,
		"This job can't be unblocked")
	r := e.api("PUT", "/jobs/"+id+"/unblock", map[string]any{"fields": map[string]any{"reason": "ok"}})
	expect(t, r, http.StatusOK)
	j := r.object(t)
	if j["state"] != "unblocked" || j["unblockable"] != false || j["unblocked_by"] == nil || j["unblocked_at"] == nil {
		t.Errorf("unblocked job %v", j)
	}
	if got := e.api("GET", "/pipelines/app/builds/1", nil).object(t)["blocked"]; got != false {
		t.Errorf("build still blocked: %v", got)
	}
	expect(t, e.api("PUT", "/pipelines/app/builds/1/jobs/"+id+"/unblock", nil), http.StatusUnprocessableEntity)
}

package fakeserver

import (
	"testing"
)

const triggerRule = "pipeline.trigger_build.pipeline"

func TestRuleCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	src := e.createPipeline(map[string]any{"name": "src", "repository": githubRepo})
	dst := e.createPipeline(map[string]any{"name": "dst", "repository": githubRepo})

	// By slug.
	r := e.api("POST", "/rules", map[string]any{"type": triggerRule, "value": map[string]string{"source_pipeline": "src", "target_pipeline": "dst"}})
	expect(t, r, 201)
	rule := r.object(t)
	hasKeys(t, rule, "uuid", "graphql_id", "organization_uuid", "url", "type", "source_type", "source_uuid",
		"target_type", "target_uuid", "effect", "action", "created_at", "created_by")
	id := rule["uuid"].(string)
	orgID := e.srv.Store().orgs["acme"].id
	want := map[string]any{
		"type": triggerRule, "source_type": "pipeline", "target_type": "pipeline", "source_uuid": src["id"],
		"target_uuid": dst["id"], "effect": "allow", "action": "trigger_build", "organization_uuid": orgID,
		"url": e.ts.URL + "/v2/organizations/acme/rules/" + id, "graphql_id": graphQLID("Rule", id),
	}
	for k, v := range want {
		if rule[k] != v {
			t.Errorf("%s = %v, want %v", k, rule[k], v)
		}
	}
	if rule["created_by"].(map[string]any)["name"] != "Test User" {
		t.Fatalf("created_by %v", rule["created_by"])
	}

	// By UUID, and value as a JSON string holding the object.
	r = e.api("POST", "/rules", map[string]any{"type": triggerRule,
		"value": `{"source_pipeline":"` + dst["id"].(string) + `","target_pipeline":"` + src["id"].(string) + `"}`})
	expect(t, r, 201)
	second := r.object(t)
	if second["source_uuid"] != dst["id"] || second["target_uuid"] != src["id"] {
		t.Fatalf("by uuid %v", second)
	}

	if got := e.api("GET", "/rules/"+id, nil).object(t); got["uuid"] != id {
		t.Fatalf("get %v", got)
	}
	if l := e.api("GET", "/rules", nil).list(t); len(l) != 2 || l[0]["uuid"] != id || l[1]["uuid"] != second["uuid"] {
		t.Fatalf("list %v", l)
	}
	if l := e.api("GET", "/rules?per_page=1&page=2", nil).list(t); len(l) != 1 || l[0]["uuid"] != second["uuid"] {
		t.Fatalf("page 2 %v", l)
	}

	expect(t, e.api("DELETE", "/rules/"+id, nil), 204)
	expectError(t, e.api("GET", "/rules/"+id, nil), 404, "No rule found")
	expectError(t, e.api("DELETE", "/rules/"+id, nil), 404, "No rule found")
}

func TestRuleValidation(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "src", "repository": githubRepo})
	e.createPipeline(map[string]any{"name": "dst", "repository": githubRepo})
	ok := map[string]string{"source_pipeline": "src", "target_pipeline": "dst"}
	tests := []struct {
		body    any
		message string
	}{
		{map[string]any{"value": ok}, "Type can't be blank"},
		{map[string]any{"type": 5, "value": ok}, "Type must be a string"},
		{map[string]any{"type": "pipeline.artifacts_write.pipeline", "value": ok},
			"input: Rule type is unknown: pipeline.artifacts_write.pipeline (the available types are " +
				"pipeline.artifacts_read.pipeline, pipeline.trigger_build.pipeline)"},
		{map[string]any{"type": "pipeline.artifacts_read.pipeline", "value": map[string]any{"source_pipeline": "src"}},
			"pipeline.artifacts_read.pipeline: missing target_pipeline"},
		{map[string]any{"type": "pipeline.artifacts_read.pipeline", "value": map[string]any{"source_pipeline": "src", "target_pipeline": "nope"}},
			"pipeline.artifacts_read.pipeline: target_pipeline not found"},
		{map[string]any{"type": triggerRule}, "pipeline.trigger_build.pipeline: value can't be blank"},
		{map[string]any{"type": triggerRule, "value": 3}, triggerRule + ": value must be an object (or a JSON string holding one) with source_pipeline and target_pipeline"},
		{map[string]any{"type": triggerRule, "value": "not json"}, triggerRule + ": value must be an object (or a JSON string holding one) with source_pipeline and target_pipeline"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": 1}}, triggerRule + ": source_pipeline and target_pipeline must be strings, conditions an array of strings"},
		{map[string]any{"type": triggerRule, "value": map[string]any{}}, triggerRule + ": missing source_pipeline"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "src"}}, triggerRule + ": missing target_pipeline"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "nope", "target_pipeline": "dst"}},
			triggerRule + ": source_pipeline not found"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "src", "target_pipeline": "nope"}},
			triggerRule + ": target_pipeline not found"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "non_existent", "target_pipeline": "dst"}},
			triggerRule + ": source_pipeline is an invalid UUID."},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "src", "target_pipeline": "Not A Slug"}},
			triggerRule + ": target_pipeline is an invalid UUID."},
		// Conditions name the variables of the rule type, outside quoted strings, and compare something.
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "src", "target_pipeline": "dst",
			"conditions": []string{"source.build.branch == 'main'", "source.nonexistent_condition includes 'idontexist'"}}},
			triggerRule + ": conditional is invalid:\n`source.nonexistent_condition` is not a variable"},
		{map[string]any{"type": "pipeline.artifacts_read.pipeline", "value": map[string]any{"source_pipeline": "src", "target_pipeline": "dst",
			"conditions": []string{"target.trigger.branch == 'main'"}}},
			"pipeline.artifacts_read.pipeline: conditional is invalid:\n`target.trigger.branch` is not a variable"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "src", "target_pipeline": "dst",
			"conditions": []string{"source.build.branch"}}},
			triggerRule + ": conditional is invalid:\n`source.build.branch` is not a comparison"},
		{map[string]any{"type": triggerRule, "value": map[string]any{"source_pipeline": "src", "target_pipeline": "dst",
			"conditions": []any{1}}},
			triggerRule + ": source_pipeline and target_pipeline must be strings, conditions an array of strings"},
	}
	for _, tt := range tests {
		expectError(t, e.api("POST", "/rules", tt.body), 422, tt.message)
	}
	expect(t, e.api("POST", "/rules", `{"type":`), 400)
	// Variables inside quoted strings are not variables; the documented conditions pass.
	expect(t, e.api("POST", "/rules", map[string]any{"type": "pipeline.artifacts_read.pipeline", "value": map[string]any{
		"source_pipeline": "src", "target_pipeline": "dst", "conditions": []string{
			"source.build.creator.teams includes 'deploy'", "source.build.branch == 'source.not.a.variable'",
			"source.build.commit == target.build.commit"}}}), 201)
	expect(t, e.api("POST", "/rules", map[string]any{"type": triggerRule, "value": ok}), 201)
	expectError(t, e.api("POST", "/rules", map[string]any{"type": triggerRule, "value": ok}), 422,
		"A pipeline.trigger_build.pipeline rule from src to dst already exists")
}

func TestRuleAuthAndScopes(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "src", "repository": githubRepo})
	id := e.api("POST", "/rules", map[string]any{"type": triggerRule,
		"value": map[string]string{"source_pipeline": "src", "target_pipeline": "src"}}).object(t)["uuid"].(string)
	e.srv.Store().AddToken("reader", []string{"acme"}, []string{"read_rules"})
	e.srv.Store().AddToken("other", []string{"other"}, AllScopes())
	base := "/v2/organizations/acme/rules"
	expect(t, e.do("GET", base, "", nil), 401)
	expect(t, e.do("GET", base+"/"+id, "reader", nil), 200)
	expectError(t, e.do("POST", base, "reader", map[string]any{}), 403, "Your access token doesn't have the write_rules scope")
	expectError(t, e.do("DELETE", base+"/"+id, "reader", nil), 403, "Your access token doesn't have the write_rules scope")
	e.srv.Store().AddToken("writer", []string{"acme"}, []string{"write_rules"})
	expectError(t, e.do("GET", base, "writer", nil), 403, "Your access token doesn't have the read_rules scope")
	expectError(t, e.do("GET", base, "other", nil), 404, "No organization found")
	expectError(t, e.do("GET", "/v2/organizations/other/rules/"+id, "other", nil), 404, "No rule found")
	// Pipelines of another organization are unknown.
	expectError(t, e.do("POST", "/v2/organizations/other/rules", "other", map[string]any{"type": triggerRule,
		"value": map[string]string{"source_pipeline": "src", "target_pipeline": "src"}}), 422,
		"pipeline.trigger_build.pipeline: source_pipeline not found")
}

func TestRuleExistsRemove(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "src", "repository": githubRepo})
	id := e.api("POST", "/rules", map[string]any{"type": triggerRule,
		"value": map[string]string{"source_pipeline": "src", "target_pipeline": "src"}}).object(t)["uuid"].(string)
	st := e.srv.Store()
	if !st.Exists(KindRule, "acme", id) || st.Exists(KindRule, "other", id) {
		t.Fatal("Exists")
	}
	if !st.Remove(KindRule, "acme", id) || st.Remove(KindRule, "acme", id) || st.Exists(KindRule, "acme", id) {
		t.Fatal("Remove")
	}
}

func TestRuleArtifactsRead(t *testing.T) {
	const artifactsRule = "pipeline.artifacts_read.pipeline"
	e := newEnv(t, Options{})
	src := e.createPipeline(map[string]any{"name": "src", "repository": githubRepo})
	dst := e.createPipeline(map[string]any{"name": "dst", "repository": githubRepo})

	// Source by slug, target by UUID; the action is the type's middle part.
	r := e.api("POST", "/rules", map[string]any{"type": artifactsRule,
		"value": map[string]string{"source_pipeline": "src", "target_pipeline": dst["id"].(string)}})
	expect(t, r, 201)
	rule := r.object(t)
	for k, v := range map[string]any{"type": artifactsRule, "action": "artifacts_read", "source_type": "pipeline",
		"target_type": "pipeline", "source_uuid": src["id"], "target_uuid": dst["id"], "effect": "allow"} {
		if rule[k] != v {
			t.Errorf("%s = %v, want %v", k, rule[k], v)
		}
	}
	if got := e.api("GET", "/rules/"+rule["uuid"].(string), nil).object(t); got["type"] != artifactsRule || got["action"] != "artifacts_read" {
		t.Fatalf("get %v", got)
	}

	// The same pipelines may have a rule of each type, but not two of one.
	expect(t, e.api("POST", "/rules", map[string]any{"type": triggerRule,
		"value": map[string]string{"source_pipeline": "src", "target_pipeline": "dst"}}), 201)
	expectError(t, e.api("POST", "/rules", map[string]any{"type": artifactsRule,
		"value": `{"source_pipeline":"src","target_pipeline":"dst"}`}), 422,
		"A pipeline.artifacts_read.pipeline rule from src to dst already exists")

	// Deleting a pipeline takes its rules of every type with it.
	expect(t, e.api("DELETE", "/pipelines/dst", nil), 204)
	if l := e.api("GET", "/rules", nil).list(t); len(l) != 0 {
		t.Fatalf("rules survived their pipeline: %v", l)
	}
}

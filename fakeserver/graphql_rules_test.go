package fakeserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const (
	gqlRuleFields = `fragment OrganizationRuleFields on Rule { id uuid description document type sourceType targetType effect action
  source { ... on Pipeline { uuid } } target { ... on Pipeline { uuid } } }`
	gqlCreateRule = `mutation createOrganizationRule($organizationId: ID!, $description: String, $ruleType: String!, $value: JSON!) {
  ruleCreate(input: {organizationId: $organizationId, description: $description, type: $ruleType, value: $value}) { rule { ...OrganizationRuleFields } } }
` + gqlRuleFields
	gqlUpdateRule = `mutation updateOrganizationRule($organizationId: ID!, $id: ID!, $description: String, $value: JSON!) {
  ruleUpdate(input: {organizationId: $organizationId, id: $id, description: $description, value: $value}) { rule { ...OrganizationRuleFields } } }
` + gqlRuleFields
	gqlDeleteRule = `mutation deleteOrganizationRule($organizationId: ID!, $id: ID!) {
  ruleDelete(input: {organizationId: $organizationId, id: $id}) { clientMutationId deletedRuleId } }`
	gqlGetRule = `query getOrganizationRule($uuid: ID!) { rule(uuid: $uuid) { ...OrganizationRuleFields } }
` + gqlRuleFields
	gqlNodeRule = `query getNode($id: ID!) { node(id: $id) { ... on Rule { ...OrganizationRuleFields } } }
` + gqlRuleFields
)

// ruleDoc decodes Rule.document.
func ruleDoc(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("document %q: %v", doc, err)
	}
	return m
}

func TestGraphQLRules(t *testing.T) {
	e := newEnv(t, Options{})
	a := e.createPipeline(map[string]any{"name": "Source", "repository": githubRepo})["id"].(string)
	b := e.createPipeline(map[string]any{"name": "Target", "repository": githubRepo})["id"].(string)
	c := e.createPipeline(map[string]any{"name": "Third", "repository": githubRepo})["id"].(string)
	orgID := e.orgGraphQLID()
	const typ = "pipeline.trigger_build.pipeline"

	// Create with slugs in a JSON-encoded string, as the service documents; the document holds UUIDs.
	ans := e.gql(gqlCreateRule, map[string]any{"organizationId": orgID, "description": "deploys", "ruleType": typ,
		"value": `{"source_pipeline":"source","target_pipeline":"target","conditions":["source.build.branch == 'main'"]}`}).ok(t)
	rule := ans.at(t, "ruleCreate", "rule").(map[string]any)
	if rule["description"] != "deploys" || rule["type"] != typ || rule["sourceType"] != "PIPELINE" || rule["effect"] != "ALLOW" ||
		rule["action"] != "TRIGGER_BUILD" || ans.str(t, "ruleCreate", "rule", "source", "uuid") != a || ans.str(t, "ruleCreate", "rule", "target", "uuid") != b {
		t.Fatalf("create: %s", ans.raw)
	}
	doc := ruleDoc(t, rule["document"].(string))
	value := doc["value"].(map[string]any)
	if doc["rule"] != typ || value["source_pipeline"] != a || value["target_pipeline"] != b || len(value["conditions"].([]any)) != 1 {
		t.Fatalf("document: %v", doc)
	}
	uuid, id := rule["uuid"].(string), rule["id"].(string)

	// Over REST it is the same rule, without a description.
	r := e.api("GET", "/rules/"+uuid, nil)
	expect(t, r, http.StatusOK)
	if got := r.object(t); got["graphql_id"] != id || got["source_uuid"] != a || got["description"] != nil {
		t.Fatalf("REST: %s", r.raw)
	}

	// Update in place: target, conditions dropped, description left out (kept).
	ans = e.gql(gqlUpdateRule, map[string]any{"organizationId": orgID, "id": id,
		"value": map[string]any{"source_pipeline": a, "target_pipeline": "third"}}).ok(t)
	if ans.str(t, "ruleUpdate", "rule", "uuid") != uuid || ans.str(t, "ruleUpdate", "rule", "target", "uuid") != c ||
		ans.at(t, "ruleUpdate", "rule", "description") != "deploys" {
		t.Fatalf("update: %s", ans.raw)
	}
	if _, has := ruleDoc(t, ans.str(t, "ruleUpdate", "rule", "document"))["value"].(map[string]any)["conditions"]; has {
		t.Fatalf("conditions kept: %s", ans.raw)
	}
	// description: null clears it.
	ans = e.gql(gqlUpdateRule, map[string]any{"organizationId": orgID, "id": id, "description": nil,
		"value": map[string]any{"source_pipeline": a, "target_pipeline": c}}).ok(t)
	if ans.at(t, "ruleUpdate", "rule", "description") != nil {
		t.Fatalf("description not cleared: %s", ans.raw)
	}
	r = e.api("GET", "/rules/"+uuid, nil)
	if got := r.object(t); got["target_uuid"] != c {
		t.Fatalf("REST after update: %s", r.raw)
	}

	// Read by UUID and by node.
	if ans := e.gql(gqlGetRule, map[string]any{"uuid": uuid}).ok(t); ans.str(t, "rule", "id") != id {
		t.Fatalf("rule(uuid:): %s", ans.raw)
	}
	if ans := e.gql(gqlNodeRule, map[string]any{"id": id}).ok(t); ans.str(t, "node", "uuid") != uuid {
		t.Fatalf("node: %s", ans.raw)
	}

	// A rule created over REST reads over GraphQL.
	r = e.api("POST", "/rules", map[string]any{"type": "pipeline.artifacts_read.pipeline",
		"value": map[string]any{"source_pipeline": b, "target_pipeline": a, "conditions": []string{"source.build.branch == 'main'"}}})
	expect(t, r, http.StatusCreated)
	restRule := r.object(t)
	ans = e.gql(gqlNodeRule, map[string]any{"id": restRule["graphql_id"]}).ok(t)
	if ans.str(t, "node", "action") != "ARTIFACTS_READ" || ans.at(t, "node", "description") != nil ||
		len(ruleDoc(t, ans.str(t, "node", "document"))["value"].(map[string]any)["conditions"].([]any)) != 1 {
		t.Fatalf("REST rule over GraphQL: %s", ans.raw)
	}

	// Bad inputs: the REST checks, in the service's words.
	for _, c := range []struct {
		query string
		vars  map[string]any
		want  string
	}{
		{gqlCreateRule, map[string]any{"organizationId": orgID, "ruleType": "pipeline.nope", "value": "{}"}, "Rule type is unknown"},
		{gqlCreateRule, map[string]any{"organizationId": orgID, "ruleType": typ, "value": `{"target_pipeline":"target"}`},
			typ + ": missing source_pipeline"},
		{gqlCreateRule, map[string]any{"organizationId": orgID, "ruleType": typ, "value": `{"source_pipeline":"source","target_pipeline":"target","conditions":["source.nonexistent_condition == 1"]}`},
			typ + ": conditional is invalid:\n`source.nonexistent_condition` is not a variable"},
		{gqlCreateRule, map[string]any{"organizationId": orgID, "ruleType": typ, "value": `{"source_pipeline":"source","target_pipeline":"nope"}`},
			typ + ": target_pipeline not found"},
		{gqlCreateRule, map[string]any{"organizationId": orgID, "ruleType": typ, "value": map[string]any{"source_pipeline": a, "target_pipeline": c}},
			"A " + typ + " rule from source to third already exists"},
		{gqlCreateRule, map[string]any{"organizationId": orgID, "ruleType": typ, "value": "not json"},
			typ + ": value must be an object (or a JSON string holding one) with source_pipeline and target_pipeline"},
		{gqlUpdateRule, map[string]any{"organizationId": orgID, "id": graphQLID("Rule", newID()), "value": "{}"}, "No rule found"},
		{gqlDeleteRule, map[string]any{"organizationId": orgID, "id": "bm9wZQ=="}, "No rule found"},
	} {
		ans := e.gql(c.query, c.vars)
		if got := ans.errorMessage(t); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}

	// Delete: gone over REST too.
	ans = e.gql(gqlDeleteRule, map[string]any{"organizationId": orgID, "id": id}).ok(t)
	if ans.str(t, "ruleDelete", "deletedRuleId") != id {
		t.Fatalf("delete: %s", ans.raw)
	}
	expect(t, e.api("GET", "/rules/"+uuid, nil), http.StatusNotFound)
	if ans := e.gql(gqlGetRule, map[string]any{"uuid": uuid}).ok(t); ans.Data["rule"] != nil {
		t.Fatalf("deleted rule reads: %s", ans.raw)
	}
	if strings.Contains(string(e.api("GET", "/rules", nil).raw), uuid) {
		t.Fatal("deleted rule listed")
	}
}

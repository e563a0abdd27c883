package fakeserver

import (
	"net/http"
	"testing"
)

// memberToken seeds "member-token", a token of the non-admin "Second Member" holding every scope for acme.
func (e *testEnv) memberToken() string {
	e.t.Helper()
	st := e.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	for id, u := range st.users {
		if u.name == "Second Member" {
			rec := &tokenRecord{token: "member-token", userID: id, orgs: map[string]bool{"acme": true}, scopes: map[string]bool{}}
			for _, sc := range AllScopes() {
				rec.scopes[sc] = true
			}
			st.tokens[rec.token] = rec
			return rec.token
		}
	}
	e.t.Fatal("no Second Member")
	return ""
}

// setEnterprise switches acme's plan.
func (e *testEnv) setEnterprise(on bool) {
	st := e.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.orgs["acme"].enterprise = on
}

// createTemplate creates a template and returns its UUID.
func (e *testEnv) createTemplate(name string, available bool) string {
	e.t.Helper()
	r := e.api("POST", "/pipeline-templates", map[string]any{
		"name": name, "configuration": "steps:\n  - command: echo " + name + "\n", "available": available,
	})
	expect(e.t, r, http.StatusCreated)
	return r.object(e.t)["uuid"].(string)
}

func TestTemplateCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/pipeline-templates", map[string]any{
		"name": "Std", "configuration": "steps:\n  - command: make\n", "description": "standard",
	})
	expect(t, r, 201)
	tpl := r.object(t)
	hasKeys(t, tpl, "uuid", "graphql_id", "name", "description", "configuration", "available", "url", "web_url",
		"created_at", "created_by", "updated_at", "updated_by")
	id := tpl["uuid"].(string)
	if tpl["name"] != "Std" || tpl["description"] != "standard" || tpl["available"] != false ||
		tpl["url"] != e.ts.URL+"/v2/organizations/acme/pipeline-templates/"+id ||
		tpl["created_by"].(map[string]any)["name"] != "Test User" || tpl["updated_by"].(map[string]any)["name"] != "Test User" {
		t.Fatalf("created %v", tpl)
	}
	expect(t, e.api("GET", "/pipeline-templates/"+id, nil), 200)
	e.createTemplate("Second", true)
	if l := e.api("GET", "/pipeline-templates", nil).list(t); len(l) != 2 || l[0]["uuid"] != id || l[1]["name"] != "Second" {
		t.Fatalf("list %v", l)
	}

	for _, method := range []string{"PATCH", "PUT"} {
		r = e.api(method, "/pipeline-templates/"+id, map[string]any{"name": "Std " + method, "available": true})
		expect(t, r, 200)
		if u := r.object(t); u["name"] != "Std "+method || u["available"] != true || u["description"] != "standard" {
			t.Fatalf("%s: %v", method, u)
		}
	}
	u := e.api("PATCH", "/pipeline-templates/"+id, map[string]any{"configuration": "steps: []\n", "description": ""}).object(t)
	if u["configuration"] != "steps: []\n" || u["description"] != "" || u["available"] != true {
		t.Fatalf("update %v", u)
	}

	expect(t, e.api("DELETE", "/pipeline-templates/"+id, nil), 204)
	expectError(t, e.api("GET", "/pipeline-templates/"+id, nil), 404, "No pipeline template found")
	expectError(t, e.api("PATCH", "/pipeline-templates/"+id, map[string]any{"name": "x"}), 404, "No pipeline template found")
	expectError(t, e.api("DELETE", "/pipeline-templates/"+id, nil), 404, "No pipeline template found")
}

func TestTemplateValidation(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.api("POST", "/pipeline-templates", map[string]any{}), 422,
		"Validation failed: Name can't be blank, Configuration can't be blank")
	expectError(t, e.api("POST", "/pipeline-templates", map[string]any{"name": 1, "configuration": "steps: []"}), 422,
		"Validation failed: Name must be a string")
	expectError(t, e.api("POST", "/pipeline-templates", map[string]any{"name": "x", "configuration": "steps: [", "available": "yes"}), 422,
		"Validation failed: Available must be a boolean, Configuration is not valid YAML: yaml: line 1: did not find expected node content")
	expect(t, e.api("POST", "/pipeline-templates", `{"name":`), 400)
	id := e.createTemplate("t", false)
	expectError(t, e.api("PATCH", "/pipeline-templates/"+id, map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	expectError(t, e.api("PATCH", "/pipeline-templates/"+id, map[string]any{"configuration": "just text"}), 422,
		"Validation failed: Configuration must be a YAML mapping with a steps list")
}

func TestTemplateEnterpriseOnly(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.createTemplate("t", true)
	e.setEnterprise(false)
	const msg = "Pipeline templates are only available on the Enterprise plan"
	expectError(t, e.api("GET", "/pipeline-templates", nil), 403, msg)
	expectError(t, e.api("GET", "/pipeline-templates/"+id, nil), 403, msg)
	expectError(t, e.api("POST", "/pipeline-templates", map[string]any{"name": "n", "configuration": "steps: []"}), 403, msg)
	expectError(t, e.api("PATCH", "/pipeline-templates/"+id, map[string]any{"name": "n"}), 403, msg)
	expectError(t, e.api("PUT", "/pipeline-templates/"+id, map[string]any{"name": "n"}), 403, msg)
	expectError(t, e.api("DELETE", "/pipeline-templates/"+id, nil), 403, msg)
	// Authentication and scope come first.
	expect(t, e.do("GET", "/v2/organizations/acme/pipeline-templates", "", nil), 401)
}

func TestTemplateNonAdmin(t *testing.T) {
	e := newEnv(t, Options{})
	hidden := e.createTemplate("hidden", false)
	shown := e.createTemplate("shown", true)
	tok := e.memberToken()
	base := "/v2/organizations/acme/pipeline-templates"

	l := e.do("GET", base, tok, nil).list(t)
	if len(l) != 1 || l[0]["uuid"] != shown {
		t.Fatalf("member sees %v", l)
	}
	expect(t, e.do("GET", base+"/"+shown, tok, nil), 200)
	expectError(t, e.do("GET", base+"/"+hidden, tok, nil), 404, "No pipeline template found")

	expectError(t, e.do("POST", base, tok, map[string]any{"name": "n", "configuration": "steps: []"}), 403, "Forbidden")
	expectError(t, e.do("PATCH", base+"/"+shown, tok, map[string]any{"name": "n"}), 403, "Forbidden")
	expectError(t, e.do("DELETE", base+"/"+shown, tok, nil), 403, "Forbidden")
	expectError(t, e.do("DELETE", base+"/"+hidden, tok, nil), 404, "No pipeline template found")
	if !e.srv.Store().Exists(KindPipelineTemplate, "acme", shown) {
		t.Fatal("member deleted a template")
	}
}

func TestTemplateAuthAndScopes(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.createTemplate("t", true)
	e.srv.Store().AddToken("read-only", []string{"acme"}, []string{"read_pipeline_templates"})
	e.srv.Store().AddToken("other", []string{"other"}, AllScopes())
	base := "/v2/organizations/acme/pipeline-templates"
	expect(t, e.do("GET", base, "", nil), 401)
	expect(t, e.do("GET", base, "read-only", nil), 200)
	expectError(t, e.do("POST", base, "read-only", map[string]any{"name": "n", "configuration": "steps: []"}), 403,
		"Your access token doesn't have the write_pipeline_templates scope")
	expectError(t, e.do("DELETE", base+"/"+id, "read-only", nil), 403,
		"Your access token doesn't have the write_pipeline_templates scope")
	expectError(t, e.do("GET", base+"/"+id, "other", nil), 404, "No organization found")
	expectError(t, e.do("GET", "/v2/organizations/other/pipeline-templates/"+id, "other", nil), 404, "No pipeline template found")
	if l := e.do("GET", "/v2/organizations/other/pipeline-templates", "other", nil).list(t); len(l) != 0 {
		t.Fatalf("other org lists %v", l)
	}
}

func TestTemplateDeleteRefusedWhileUsed(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.createTemplate("t", true)
	p := e.createPipeline(map[string]any{"name": "P", "repository": githubRepo, "pipeline_template_uuid": id})
	expectError(t, e.api("DELETE", "/pipeline-templates/"+id, nil), 422,
		"Pipeline template is assigned to 1 pipeline and cannot be deleted; remove it from them first")
	expect(t, e.api("PATCH", "/pipelines/"+p["slug"].(string), `{"pipeline_template_uuid":null}`), 200)
	expect(t, e.api("DELETE", "/pipeline-templates/"+id, nil), 204)
}

func TestTemplateExistsRemove(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	id := e.createTemplate("t", true)
	p := e.createPipeline(map[string]any{"name": "P", "repository": githubRepo, "pipeline_template_uuid": id})
	if !st.Exists(KindPipelineTemplate, "acme", id) || st.Exists(KindPipelineTemplate, "other", id) {
		t.Fatal("Exists")
	}
	if !st.Remove(KindPipelineTemplate, "acme", id) || st.Remove(KindPipelineTemplate, "acme", id) {
		t.Fatal("Remove")
	}
	if got := e.api("GET", "/pipelines/"+p["slug"].(string), nil).object(t); got["pipeline_template_uuid"] != nil {
		t.Fatalf("template still assigned: %v", got["pipeline_template_uuid"])
	}
}

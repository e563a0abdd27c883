package fakeserver

import (
	"net/http"
	"strings"
	"testing"
)

// secretValue is what the secret tests write: no response may contain it.
const secretValue = "s3cr3t-v4lue-n3ver-answered"

// noSecretIn fails when any answer holds secretValue.
func noSecretIn(t *testing.T, rs ...response) {
	t.Helper()
	for _, r := range rs {
		if strings.Contains(string(r.raw), secretValue) {
			t.Fatalf("an answer holds the secret's value: %s", r.raw)
		}
	}
}

func TestClusterSecretCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.createCluster("Secrets")
	base := "/clusters/" + c + "/secrets"
	created := e.api("POST", base, map[string]any{"key": "DEPLOY_KEY", "value": secretValue, "description": "Deploys",
		"policy": "- pipeline_slug: app\n  build_branch: main\n"})
	expect(t, created, http.StatusCreated)
	s := created.object(t)
	hasKeys(t, s, "id", "graphql_id", "key", "description", "policy", "url", "cluster_url", "created_at", "created_by",
		"updated_at", "updated_by", "last_read_at", "organization")
	id := s["id"].(string)
	if s["key"] != "DEPLOY_KEY" || s["description"] != "Deploys" || s["graphql_id"] != graphQLID("ClusterSecret", id) ||
		s["updated_by"] != nil || s["organization"].(map[string]any)["slug"] != "acme" {
		t.Errorf("created = %v", s)
	}
	if _, ok := s["value"]; ok {
		t.Errorf("the create answer has a value field: %v", s)
	}
	if v, ok := e.srv.Store().ClusterSecretValue("acme", c, id); !ok || v != secretValue {
		t.Errorf("stored value = %q, %t", v, ok)
	}

	// PUT changes the description and policy only; a value in its body is ignored.
	updated := e.api("PUT", base+"/"+id, map[string]any{"description": nil, "policy": "- pipeline_slug: web\n", "value": "ignored"})
	u := updated.object(t)
	if u["description"] != nil || u["policy"] != "- pipeline_slug: web\n" || u["updated_by"] == nil {
		t.Errorf("updated = %v", u)
	}
	if v, _ := e.srv.Store().ClusterSecretValue("acme", c, id); v != secretValue {
		t.Errorf("PUT changed the value to %q", v)
	}
	newValue := e.api("PUT", base+"/"+id+"/value", map[string]any{"value": "rotated-" + secretValue})
	expect(t, newValue, http.StatusOK)
	if v, _ := e.srv.Store().ClusterSecretValue("acme", c, id); v != "rotated-"+secretValue {
		t.Errorf("the value was not replaced: %q", v)
	}
	list, get := e.api("GET", base, nil), e.api("GET", base+"/"+id, nil)
	noSecretIn(t, created, updated, newValue, list, get)
	if l := list.list(t); len(l) != 1 || l[0]["key"] != "DEPLOY_KEY" {
		t.Errorf("list = %v", l)
	}

	expect(t, e.api("DELETE", base+"/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", base+"/"+id, nil), http.StatusNotFound, "No cluster secret found")
}

func TestClusterSecretRefusesBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.createCluster("Secrets")
	base := "/clusters/" + c + "/secrets"
	ok := func(key string) map[string]any { return map[string]any{"key": key, "value": secretValue} }
	with := func(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }
	expect(t, e.api("POST", base, ok("TAKEN")), http.StatusCreated)
	var answers []response
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"value": secretValue}, "Validation failed: Key can't be blank"},
		{ok("1KEY"), "Validation failed: Key must start with a letter and contain only letters, digits and underscores"},
		{ok("MY-KEY"), "Validation failed: Key must start with a letter and contain only letters, digits and underscores"},
		{ok("BuildKite_TOKEN"), "Validation failed: Key must not start with buildkite or bk, which are reserved"},
		{ok("bkSecret"), "Validation failed: Key must not start with buildkite or bk, which are reserved"},
		{ok("K" + strings.Repeat("x", 255)), "Validation failed: Key is too long (maximum is 255 characters)"},
		{ok("TAKEN"), "Validation failed: Key has already been taken"},
		{map[string]any{"key": "EMPTY"}, "Validation failed: Value can't be blank"},
		{with(ok("BIG"), "value", strings.Repeat("x", 8193)+secretValue), "Validation failed: Value is too long (maximum is 8192 bytes)"},
		{with(ok("NUM"), "value", 5), "Validation failed: Value must be a string"},
		{with(ok("POLICY"), "policy", "- [unclosed"), "Validation failed: Policy is not valid YAML"},
	} {
		r := e.api("POST", base, tc.body)
		expectError(t, r, http.StatusUnprocessableEntity, tc.want)
		answers = append(answers, r)
	}
	// 8 KiB exactly is accepted.
	expect(t, e.api("POST", base, with(ok("EXACT"), "value", strings.Repeat("x", 8192))), http.StatusCreated)
	id := e.api("POST", base, ok("ROTATED")).object(t)["id"].(string)
	r := e.api("PUT", base+"/"+id+"/value", map[string]any{})
	expectError(t, r, http.StatusUnprocessableEntity, "Validation failed: Value can't be blank")
	answers = append(answers, r, e.api("PUT", base+"/"+id, map[string]any{"policy": "{"}))
	expectError(t, answers[len(answers)-1], http.StatusUnprocessableEntity, "Validation failed: Policy is not valid YAML")
	noSecretIn(t, answers...)

	expectError(t, e.api("POST", "/clusters/"+unknownUUID+"/secrets", ok("X")), http.StatusNotFound, "No cluster found")
	// Deleting the cluster deletes its secrets.
	expect(t, e.api("DELETE", "/clusters/"+c, nil), http.StatusNoContent)
	if e.srv.Store().Exists(KindClusterSecret, "acme", c+"/"+id) {
		t.Fatal("the secret outlived its cluster")
	}
}

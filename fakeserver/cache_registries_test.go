package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestCacheRegistriesCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("Builds")
	base := "/clusters/" + cluster + "/cache-registries"

	// Every cluster has its Default registry, with the unrestricted policy.
	r := e.api("GET", base, nil)
	expect(t, r, http.StatusOK)
	page := r.object(t)
	items := page["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["name"] != "Default" || items[0].(map[string]any)["default"] != true {
		t.Fatalf("listing %v", page)
	}
	def := items[0].(map[string]any)
	var want any
	_ = json.Unmarshal([]byte(defaultCachePolicy), &want)
	if got, w := mustJSON(def["policy"]), mustJSON(want); got != w {
		t.Fatalf("default policy %s", got)
	}

	// A string action comes back as a list; null names and conditions are dropped; missing sections filled.
	r = e.api("POST", base, map[string]any{"name": "Node Modules", "description": "npm", "emoji": ":npm:",
		"policy": map[string]any{"rules": []any{map[string]any{"effect": "allow", "action": "save", "name": nil, "when": "claims.build_branch == 'main'"}}}})
	expect(t, r, http.StatusCreated)
	reg := r.object(t)
	hasKeys(t, reg, "uuid", "slug", "name", "description", "emoji", "color", "policy", "created_at", "updated_at", "url", "cluster_url")
	if reg["slug"] != "node-modules" || reg["color"] != nil || reg["default"] != false {
		t.Fatalf("created %v", reg)
	}
	if got, _ := json.Marshal(reg["policy"]); string(got) != `{"restore":{"scopes":[]},"rules":[{"action":["save"],"effect":"allow","when":"claims.build_branch == 'main'"}],"save":{"scopes":{}}}` {
		t.Fatalf("normalized policy %s", got)
	}
	id := reg["uuid"].(string)

	// A slug is not a member path.
	expectError(t, e.api("GET", base+"/node-modules", nil), http.StatusNotFound, "No cache registry found")
	expect(t, e.api("GET", base+"/"+strings.ToUpper(id), nil), http.StatusOK)

	// A new name regenerates the slug; null clears; a null policy denies everything.
	r = e.api("PATCH", base+"/"+id, map[string]any{"name": "Yarn Cache", "description": nil, "policy": nil})
	expect(t, r, http.StatusOK)
	if got := r.object(t); got["slug"] != "yarn-cache" || got["description"] != nil || got["policy"] != nil || got["emoji"] != ":npm:" {
		t.Fatalf("updated %v", got)
	}
	expect(t, e.api("DELETE", base+"/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("DELETE", base+"/"+id, nil), http.StatusNotFound, "No cache registry found")
	expectError(t, e.api("DELETE", base+"/"+def["uuid"].(string), nil), http.StatusUnprocessableEntity,
		"The cluster's default cache registry cannot be deleted")

	// Deleting the cluster deletes its registries.
	expect(t, e.api("DELETE", "/clusters/"+cluster, nil), http.StatusNoContent)
	if e.srv.Store().Exists(KindCacheRegistry, "acme", cluster+"/"+def["uuid"].(string)) {
		t.Fatal("the cluster's registries outlived it")
	}
}

func TestCacheRegistriesPaging(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("Builds")
	base := "/clusters/" + cluster + "/cache-registries"
	for i := range 4 {
		expect(t, e.api("POST", base, map[string]any{"name": fmt.Sprintf("r%d", 3-i)}), http.StatusCreated)
	}
	var slugs []string
	next := "/v2/organizations/acme" + base + "?per_page=2"
	for pages := 0; next != ""; pages++ {
		if pages > 5 {
			t.Fatal("the listing does not end")
		}
		r := e.do("GET", strings.TrimPrefix(next, e.ts.URL), "test-token", nil)
		expect(t, r, http.StatusOK)
		page := r.object(t)
		for _, it := range page["items"].([]any) {
			slugs = append(slugs, it.(map[string]any)["slug"].(string))
		}
		next, _ = page["links"].(map[string]any)["next"].(string)
	}
	if strings.Join(slugs, ",") != "default,r0,r1,r2,r3" {
		t.Fatalf("pages by slug: %v", slugs)
	}
	for _, q := range []string{"per_page=0", "per_page=101", "per_page=x", "after=nope", "before=nope",
		"after=a&before=b"} {
		expect(t, e.api("GET", base+"?"+q, nil), http.StatusBadRequest)
	}
}

func TestCacheRegistriesBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("Builds")
	base := "/clusters/" + cluster + "/cache-registries"
	expect(t, e.api("POST", base, map[string]any{"name": "Taken"}), http.StatusCreated)
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{"description": "x"}, "Validation failed: Name can't be blank"},
		{map[string]any{"name": "TAKEN"}, "Validation failed: Name has already been taken (slug taken)"},
		{map[string]any{"name": "x", "cache_store": "s3"}, "Validation failed: Cache store is not a supported field"},
		{map[string]any{"name": "x", "policy": "save: {}"}, "Validation failed: Policy must be an object"},
		{map[string]any{"name": "x", "policy": map[string]any{"save": map[string]any{"scopes": map[string]any{"tag": true}}}},
			"Validation failed: Policy is invalid: save.scopes may only set branch, build or pipeline to true"},
		{map[string]any{"name": "x", "policy": map[string]any{"rules": []any{map[string]any{"effect": "deny", "action": "save"}}}},
			`Validation failed: Policy is invalid: rules: effect must be "allow"`},
	} {
		expectError(t, e.api("POST", base, tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	expect(t, e.api("POST", base, "[]"), http.StatusBadRequest)
	expect(t, e.api("GET", "/clusters/"+newID()+"/cache-registries", nil), http.StatusNotFound)
	r := e.api("GET", base, nil)
	id := r.object(t)["items"].([]any)[1].(map[string]any)["uuid"].(string)
	expectError(t, e.api("PATCH", base+"/"+id, map[string]any{"uuid": newID()}), http.StatusUnprocessableEntity,
		"Validation failed: Uuid cannot be changed")
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/v2/organizations/acme"+base, strings.NewReader("name=x"))
	req.Header.Set("Authorization", "Bearer test-token")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("form body: %d", resp.StatusCode)
	}
}

func TestCacheRegistriesScopes(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("Builds")
	path := "/v2/organizations/acme/clusters/" + cluster + "/cache-registries"
	st := e.srv.Store()
	st.AddToken("read", []string{"acme"}, []string{scopeReadClusters})
	expect(t, e.do("GET", path, "read", nil), http.StatusOK)
	expect(t, e.do("POST", path, "read", map[string]any{"name": "x"}), http.StatusForbidden)
	st.AddToken("none", []string{"acme"}, []string{scopeReadOrganizations})
	expect(t, e.do("GET", path, "none", nil), http.StatusForbidden)
	member := st.AddUser("acme", "Second Member", "second-member@example.com", false)
	if err := st.AddTokenForUser("member", member, []string{"acme"}, AllScopes()); err != nil {
		t.Fatal(err)
	}
	expect(t, e.do("POST", path, "member", map[string]any{"name": "x"}), http.StatusForbidden)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

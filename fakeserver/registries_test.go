package fakeserver

import (
	"net/http"
	"strings"
	"testing"
)

// regAPI sends a request with the default token to a path under /v2/packages/organizations/acme/registries.
func (e *testEnv) regAPI(method, path string, body any) response {
	e.t.Helper()
	return e.do(method, "/v2/packages/organizations/acme/registries"+path, "test-token", body)
}

// createRegistry creates a ruby registry named name and returns its slug.
func (e *testEnv) createRegistry(name string) string {
	e.t.Helper()
	r := e.regAPI("POST", "", map[string]any{"name": name, "ecosystem": "ruby"})
	expect(e.t, r, http.StatusOK)
	return r.object(e.t)["slug"].(string)
}

// createRegistryToken creates a token of the registry with slug and returns its id and secret.
func (e *testEnv) createRegistryToken(slug, description string) (id, secret string) {
	e.t.Helper()
	r := e.regAPI("POST", "/"+slug+"/tokens", map[string]any{"description": description})
	expect(e.t, r, http.StatusOK)
	m := r.object(e.t)
	return m["id"].(string), m["token"].(string)
}

var registryFields = []string{"id", "graphql_id", "slug", "url", "web_url", "name", "ecosystem", "description",
	"emoji", "color", "public", "oidc_policy"}

func TestRegistryCRUD(t *testing.T) {
	e := newEnv(t, Options{})

	// Create answers 200 (the documented status), with every field; unset optionals are null.
	r := e.regAPI("POST", "", map[string]any{"name": "My Gems", "ecosystem": "ruby"})
	expect(t, r, http.StatusOK)
	reg := r.object(t)
	hasKeys(t, reg, registryFields...)
	if reg["slug"] != "my-gems" || reg["name"] != "My Gems" || reg["ecosystem"] != "ruby" || reg["public"] != false ||
		reg["description"] != nil || reg["emoji"] != nil || reg["color"] != nil || reg["oidc_policy"] != nil {
		t.Fatalf("created %v", reg)
	}
	id := reg["id"].(string)
	if reg["graphql_id"] != graphQLID("Registry", id) {
		t.Fatalf("graphql_id %v", reg["graphql_id"])
	}
	if reg["url"] != e.ts.URL+"/v2/packages/organizations/acme/registries/my-gems" ||
		reg["web_url"] != e.ts.URL+"/organizations/acme/packages/registries/my-gems" {
		t.Fatalf("urls %v %v", reg["url"], reg["web_url"])
	}

	full := e.regAPI("POST", "", map[string]any{
		"name": "npm stuff", "ecosystem": "javascript", "description": "d", "emoji": ":npm:", "color": "#f0ccff",
		"oidc_policy": "- iss: https://agent.buildkite.com\n", "team_ids": []string{"ignored"},
	}).object(t)
	if full["slug"] != "npm-stuff" || full["description"] != "d" || full["emoji"] != ":npm:" || full["color"] != "#f0ccff" ||
		full["oidc_policy"] != "- iss: https://agent.buildkite.com\n" {
		t.Fatalf("full %v", full)
	}

	r = e.regAPI("GET", "/my-gems", nil)
	expect(t, r, 200)
	if got := r.object(t); got["id"] != id {
		t.Fatalf("get %v", got)
	}
	l := e.regAPI("GET", "", nil).list(t)
	if len(l) != 2 || l[0]["slug"] != "my-gems" || l[1]["slug"] != "npm-stuff" {
		t.Fatalf("list %v", l)
	}

	// Update by POST (the documentation), PATCH (go-buildkite) and PUT (official Terraform provider).
	for _, method := range []string{"POST", "PATCH", "PUT"} {
		r = e.regAPI(method, "/my-gems", map[string]any{"description": method, "color": "#000000"})
		expect(t, r, 200)
		u := r.object(t)
		if u["description"] != method || u["color"] != "#000000" || u["name"] != "My Gems" || u["slug"] != "my-gems" {
			t.Fatalf("%s: %v", method, u)
		}
	}
	// null and "" set optionals back to null; the same ecosystem is accepted.
	u := e.regAPI("PATCH", "/my-gems", `{"description":null,"color":"","ecosystem":"ruby"}`).object(t)
	if u["description"] != nil || u["color"] != nil {
		t.Fatalf("cleared %v", u)
	}

	// A new name re-derives the slug; the old slug is gone.
	r = e.regAPI("PUT", "/my-gems", map[string]any{"name": "Ruby Gems"})
	expect(t, r, 200)
	if u := r.object(t); u["slug"] != "ruby-gems" || u["id"] != id || u["url"] != e.ts.URL+"/v2/packages/organizations/acme/registries/ruby-gems" {
		t.Fatalf("renamed %v", u)
	}
	expectError(t, e.regAPI("GET", "/my-gems", nil), 404, "No registry found")
	expect(t, e.regAPI("GET", "/ruby-gems", nil), 200)

	// Delete answers 200 with the deleted registry.
	r = e.regAPI("DELETE", "/ruby-gems", nil)
	expect(t, r, 200)
	if d := r.object(t); d["id"] != id {
		t.Fatalf("delete body %v", d)
	}
	expectError(t, e.regAPI("GET", "/ruby-gems", nil), 404, "No registry found")
	expectError(t, e.regAPI("DELETE", "/ruby-gems", nil), 404, "No registry found")
	expectError(t, e.regAPI("POST", "/ruby-gems", map[string]any{"description": "x"}), 404, "No registry found")
	expectError(t, e.regAPI("PATCH", "/ruby-gems", map[string]any{"description": "x"}), 404, "No registry found")
}

func TestRegistryValidation(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		body   any
		reason string
	}{
		{map[string]any{}, "Name can't be blank, Ecosystem can't be blank"},
		{map[string]any{"name": "x"}, "Ecosystem can't be blank"},
		{map[string]any{"ecosystem": "ruby"}, "Name can't be blank"},
		{map[string]any{"name": "", "ecosystem": "ruby"}, "Name can't be blank"},
		{map[string]any{"name": "!!!", "ecosystem": "ruby"}, "Name must contain a letter or digit"},
		{map[string]any{"name": "x", "ecosystem": "cobol"}, "Ecosystem is not included in the list"},
		{map[string]any{"name": 1, "ecosystem": "ruby"}, "Name must be a string"},
		{map[string]any{"name": "x", "ecosystem": "ruby", "description": false}, "Description must be a string"},
		{map[string]any{"name": "x", "ecosystem": "ruby", "oidc_policy": 7}, "Oidc policy must be a string or an array of policy statements"},
		{map[string]any{"name": "x", "ecosystem": "ruby", "team_ids": "t"}, "Team ids must be an array of strings"},
	}
	for _, c := range cases {
		expectError(t, e.regAPI("POST", "", c.body), 422, "Validation failed: "+c.reason)
	}
	expectError(t, e.regAPI("POST", "", `{"name":`), 400, "Problems parsing JSON")

	// Names are unique per organization by slug.
	e.createRegistry("Shared Name")
	for _, dup := range []string{"Shared Name", "shared-name", "SHARED  name!"} {
		expectError(t, e.regAPI("POST", "", map[string]any{"name": dup, "ecosystem": "python"}), 422,
			"Validation failed: Name has already been taken")
	}
	other := e.createRegistry("Other")
	expectError(t, e.regAPI("PATCH", "/"+other, map[string]any{"name": "shared name"}), 422,
		"Validation failed: Name has already been taken")
	expectError(t, e.regAPI("PATCH", "/"+other, map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	expectError(t, e.regAPI("PATCH", "/"+other, map[string]any{"ecosystem": "python"}), 422,
		"Validation failed: Ecosystem cannot be changed")
	expectError(t, e.regAPI("POST", "/"+other, map[string]any{"emoji": 3}), 422, "Validation failed: Emoji must be a string")
	expectError(t, e.regAPI("PUT", "/"+other, `[`), 400, "Problems parsing JSON")
	// Renaming to its own name (or one with the same slug) is fine.
	expect(t, e.regAPI("PATCH", "/"+other, map[string]any{"name": "OTHER"}), 200)
	// A failed update changes nothing.
	if g := e.regAPI("GET", "/other", nil).object(t); g["name"] != "OTHER" || g["ecosystem"] != "ruby" {
		t.Fatalf("after failed updates %v", g)
	}

	// The same slug may exist in another organization.
	e.srv.Store().AddToken("other-token", []string{"other"}, AllScopes())
	r := e.do("POST", "/v2/packages/organizations/other/registries", "other-token", map[string]any{"name": "Shared Name", "ecosystem": "ruby"})
	expect(t, r, 200)
}

func TestRegistryEcosystems(t *testing.T) {
	e := newEnv(t, Options{})
	for i, eco := range []string{"ruby", "javascript", "python", "java", "maven", "container", "docker", "debian",
		"alpine", "redhat", "red_hat", "rpm", "helm", "helm_oci", "terraform", "files", "generic", "nuget", "huggingface", "Ruby"} {
		r := e.regAPI("POST", "", map[string]any{"name": "r" + string(rune('a'+i)), "ecosystem": eco})
		expect(t, r, 200)
		if got := r.object(t)["ecosystem"]; got != eco {
			t.Fatalf("ecosystem %q echoed as %v", eco, got)
		}
	}
	if eco := RegistryEcosystems(); len(eco) != len(registryEcosystems) || eco[0] != "alpine" {
		t.Fatalf("RegistryEcosystems %v", eco)
	}
}

func TestRegistryOIDCPolicy(t *testing.T) {
	e := newEnv(t, Options{})
	// go-buildkite sends an array of statements; it is shown as compact JSON text.
	r := e.regAPI("POST", "", `{"name":"p","ecosystem":"python","oidc_policy":[ {"iss": "https://agent.buildkite.com", "claims": {"pipeline_slug": {"equals": "x"}}} ]}`)
	expect(t, r, 200)
	if got := r.object(t)["oidc_policy"]; got != `[{"iss":"https://agent.buildkite.com","claims":{"pipeline_slug":{"equals":"x"}}}]` {
		t.Fatalf("oidc_policy %v", got)
	}
	for body, want := range map[string]any{
		`{"oidc_policy":"- iss: x\n"}`: "- iss: x\n",
		`{"oidc_policy":[]}`:           nil,
		`{"oidc_policy":"- iss: y\n"}`: "- iss: y\n",
		`{"oidc_policy":null}`:         nil,
	} {
		if got := e.regAPI("PATCH", "/p", body).object(t)["oidc_policy"]; got != want {
			t.Fatalf("%s: oidc_policy %v, want %v", body, got, want)
		}
	}
	expectError(t, e.regAPI("PATCH", "/p", `{"oidc_policy":[1]}`), 422,
		"Validation failed: Oidc policy must be a string or an array of policy statements")
	expectError(t, e.regAPI("PATCH", "/p", `{"oidc_policy":{"iss":"x"}}`), 422,
		"Validation failed: Oidc policy must be a string or an array of policy statements")
}

func TestRegistryTokenCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	slug := e.createRegistry("Gems")
	base := "/" + slug + "/tokens"

	// Create answers 200 with the secret as "token".
	r := e.regAPI("POST", base, map[string]any{"description": "CI"})
	expect(t, r, http.StatusOK)
	tok := r.object(t)
	hasKeys(t, tok, "id", "graphql_id", "description", "url", "created_at", "created_by", "organization", "registry", "token")
	id := tok["id"].(string)
	secret, _ := tok["token"].(string)
	if len(secret) < 32 || tok["description"] != "CI" || tok["graphql_id"] != graphQLID("RegistryToken", id) {
		t.Fatalf("created %v", tok)
	}
	regURL := e.ts.URL + "/v2/packages/organizations/acme/registries/gems"
	if tok["url"] != regURL+"/tokens/"+id {
		t.Fatalf("url %v", tok["url"])
	}
	if by := tok["created_by"].(map[string]any); by["name"] != "Test User" {
		t.Fatalf("created_by %v", by)
	}
	org := tok["organization"].(map[string]any)
	hasKeys(t, org, "id", "slug", "url", "web_url")
	if org["slug"] != "acme" || org["url"] != e.ts.URL+"/v2/organizations/acme" {
		t.Fatalf("organization %v", org)
	}
	reg := tok["registry"].(map[string]any)
	hasKeys(t, reg, "id", "graphql_id", "slug", "url", "web_url")
	if reg["slug"] != "gems" || reg["url"] != regURL || reg["web_url"] != e.ts.URL+"/organizations/acme/packages/registries/gems" {
		t.Fatalf("registry %v", reg)
	}

	// The secret is in the create response only.
	for _, path := range []string{base, base + "/" + id} {
		got := e.regAPI("GET", path, nil)
		expect(t, got, 200)
		if strings.Contains(string(got.raw), secret) || strings.Contains(string(got.raw), `"token"`) {
			t.Fatalf("GET %s reveals the secret: %s", path, got.raw)
		}
	}
	if l := e.regAPI("GET", base, nil).list(t); len(l) != 1 || l[0]["id"] != id {
		t.Fatalf("list %v", l)
	}
	id2, secret2 := e.createRegistryToken(slug, "second")
	if secret2 == secret {
		t.Fatal("two tokens share a secret")
	}
	if l := e.regAPI("GET", base, nil).list(t); len(l) != 2 || l[1]["id"] != id2 {
		t.Fatalf("list %v", l)
	}

	for _, method := range []string{"POST", "PATCH", "PUT"} {
		r = e.regAPI(method, base+"/"+id, map[string]any{"description": method})
		expect(t, r, 200)
		u := r.object(t)
		if u["description"] != method || u["id"] != id {
			t.Fatalf("%s: %v", method, u)
		}
		if _, ok := u["token"]; ok {
			t.Fatalf("%s reveals the secret", method)
		}
	}

	r = e.regAPI("DELETE", base+"/"+id, nil)
	expect(t, r, 200)
	if d := r.object(t); d["id"] != id || d["token"] != nil {
		t.Fatalf("delete body %v", d)
	}
	expectError(t, e.regAPI("GET", base+"/"+id, nil), 404, "No registry token found")
	expectError(t, e.regAPI("POST", base+"/"+id, map[string]any{"description": "x"}), 404, "No registry token found")
	expectError(t, e.regAPI("DELETE", base+"/"+id, nil), 404, "No registry token found")

	// Unknown registry, and a token reached through another registry.
	expectError(t, e.regAPI("GET", "/nope/tokens", nil), 404, "No registry found")
	expectError(t, e.regAPI("POST", "/nope/tokens", map[string]any{"description": "x"}), 404, "No registry found")
	other := e.createRegistry("Other")
	expectError(t, e.regAPI("GET", "/"+other+"/tokens/"+id2, nil), 404, "No registry token found")

	// A renamed registry keeps its tokens, shown under the new slug.
	e.regAPI("PATCH", "/"+slug, map[string]any{"name": "Renamed"})
	if got := e.regAPI("GET", "/renamed/tokens/"+id2, nil).object(t); got["url"] != e.ts.URL+"/v2/packages/organizations/acme/registries/renamed/tokens/"+id2 {
		t.Fatalf("after rename %v", got)
	}
}

func TestRegistryTokenValidation(t *testing.T) {
	e := newEnv(t, Options{})
	slug := e.createRegistry("Gems")
	base := "/" + slug + "/tokens"
	expectError(t, e.regAPI("POST", base, map[string]any{}), 422, "Validation failed: Description can't be blank")
	expectError(t, e.regAPI("POST", base, map[string]any{"description": ""}), 422, "Validation failed: Description can't be blank")
	expectError(t, e.regAPI("POST", base, map[string]any{"description": 5}), 422, "Validation failed: Description must be a string")
	expectError(t, e.regAPI("POST", base, `{`), 400, "Problems parsing JSON")
	id, _ := e.createRegistryToken(slug, "d")
	for _, method := range []string{"POST", "PATCH", "PUT"} {
		expectError(t, e.regAPI(method, base+"/"+id, map[string]any{}), 422, "Validation failed: Description can't be blank")
		expectError(t, e.regAPI(method, base+"/"+id, `{"description":null}`), 422, "Validation failed: Description can't be blank")
		expectError(t, e.regAPI(method, base+"/"+id, `nope`), 400, "Problems parsing JSON")
	}
	if g := e.regAPI("GET", base+"/"+id, nil).object(t); g["description"] != "d" {
		t.Fatalf("after failed updates %v", g)
	}
}

func TestRegistryAuth(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	slug := e.createRegistry("Gems")
	tid, _ := e.createRegistryToken(slug, "d")
	st.AddToken("other-token", []string{"other"}, AllScopes())

	base := "/v2/packages/organizations/acme/registries"
	endpoints := []struct {
		method, path, scope string
		body                any
	}{
		{"GET", base, scopeReadRegistries, nil},
		{"POST", base, scopeWriteRegistries, map[string]any{"name": "n", "ecosystem": "ruby"}},
		{"GET", base + "/" + slug, scopeReadRegistries, nil},
		{"POST", base + "/" + slug, scopeWriteRegistries, map[string]any{"description": "x"}},
		{"PATCH", base + "/" + slug, scopeWriteRegistries, map[string]any{"description": "x"}},
		{"PUT", base + "/" + slug, scopeWriteRegistries, map[string]any{"description": "x"}},
		{"DELETE", base + "/" + slug, scopeDeleteRegistries, nil},
		{"GET", base + "/" + slug + "/tokens", scopeReadRegistries, nil},
		{"POST", base + "/" + slug + "/tokens", scopeWriteRegistries, map[string]any{"description": "x"}},
		{"GET", base + "/" + slug + "/tokens/" + tid, scopeReadRegistries, nil},
		{"POST", base + "/" + slug + "/tokens/" + tid, scopeWriteRegistries, map[string]any{"description": "x"}},
		{"PATCH", base + "/" + slug + "/tokens/" + tid, scopeWriteRegistries, map[string]any{"description": "x"}},
		{"PUT", base + "/" + slug + "/tokens/" + tid, scopeWriteRegistries, map[string]any{"description": "x"}},
		{"DELETE", base + "/" + slug + "/tokens/" + tid, scopeWriteRegistries, nil},
	}
	for _, ep := range endpoints {
		unauth := "Authentication required. Please supply a valid API Access Token: " + authDocsURL
		expectError(t, e.do(ep.method, ep.path, "", ep.body), 401, unauth)
		expectError(t, e.do(ep.method, ep.path, "unknown-token", ep.body), 401, unauth)

		// A token holding every scope but this endpoint's is refused.
		var scopes []string
		for _, sc := range AllScopes() {
			if sc != ep.scope {
				scopes = append(scopes, sc)
			}
		}
		st.AddToken("partial", []string{"acme"}, scopes)
		expectError(t, e.do(ep.method, ep.path, "partial", ep.body), 403,
			"Your access token doesn't have the "+ep.scope+" scope")

		// Another organization's token does not see acme.
		expectError(t, e.do(ep.method, ep.path, "other-token", ep.body), 404, "No organization found")
	}

	// delete_registries is distinct from write_registries: each alone does only its own job.
	st.AddToken("writer", []string{"acme"}, []string{scopeWriteRegistries, scopeReadRegistries})
	expectError(t, e.do("DELETE", base+"/"+slug, "writer", nil), 403, "Your access token doesn't have the delete_registries scope")
	expect(t, e.do("DELETE", base+"/"+slug+"/tokens/"+tid, "writer", nil), 200) // tokens need write only
	st.AddToken("deleter", []string{"acme"}, []string{scopeDeleteRegistries})
	expectError(t, e.do("POST", base, "deleter", map[string]any{"name": "n", "ecosystem": "ruby"}), 403,
		"Your access token doesn't have the write_registries scope")
	expect(t, e.do("DELETE", base+"/"+slug, "deleter", nil), 200)

	// Another organization's registries are invisible to it even with a slug that exists in acme.
	acmeSlug := e.createRegistry("Acme Only")
	expectError(t, e.do("GET", "/v2/packages/organizations/other/registries/"+acmeSlug, "other-token", nil), 404, "No registry found")
	if l := e.do("GET", "/v2/packages/organizations/other/registries", "other-token", nil).list(t); len(l) != 0 {
		t.Fatalf("other org lists %v", l)
	}
}

func TestRegistryPagination(t *testing.T) {
	e := newEnv(t, Options{})
	slug := e.createRegistry("r0")
	for i := 1; i < 5; i++ {
		e.createRegistry("r" + string(rune('0'+i)))
		e.createRegistryToken(slug, "t")
	}
	r := e.regAPI("GET", "?per_page=2&page=2", nil)
	if l := r.list(t); len(l) != 2 || l[0]["name"] != "r2" || !strings.Contains(r.header.Get("Link"), `rel="next"`) {
		t.Fatalf("page 2: %v %q", l, r.header.Get("Link"))
	}
	r = e.regAPI("GET", "/"+slug+"/tokens?per_page=3&page=2", nil)
	if l := r.list(t); len(l) != 1 || !strings.Contains(r.header.Get("Link"), `rel="prev"`) {
		t.Fatalf("tokens page 2: %v %q", l, r.header.Get("Link"))
	}
}

func TestRegistryDeleteCascadesAndStore(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	slug := e.createRegistry("Gems")
	keep := e.createRegistry("Keep")
	tid, _ := e.createRegistryToken(slug, "d")
	kept, _ := e.createRegistryToken(keep, "d")
	id := e.regAPI("GET", "/"+slug, nil).object(t)["id"].(string)

	// Exists takes the slug or the id; tokens "<registry slug or id>/<token id>", of that registry only.
	for _, key := range []string{slug, id} {
		if !st.Exists(KindRegistry, "acme", key) || st.Exists(KindRegistry, "other", key) {
			t.Fatalf("Exists(registry, %s)", key)
		}
		if !st.Exists(KindRegistryToken, "acme", key+"/"+tid) || st.Exists(KindRegistryToken, "other", key+"/"+tid) {
			t.Fatalf("Exists(registry token, %s/%s)", key, tid)
		}
	}
	if st.Exists(KindRegistry, "acme", "nope") {
		t.Fatal("Exists(registry, nope)")
	}
	for _, bad := range []string{tid, keep + "/" + tid, "nope/" + tid, slug + "/nope", slug + "/", "/" + tid} {
		if st.Exists(KindRegistryToken, "acme", bad) || st.Remove(KindRegistryToken, "acme", bad) {
			t.Fatalf("Exists(registry token, %s)", bad)
		}
	}
	if got, ok := st.RegistrySlug("acme", id); !ok || got != slug {
		t.Fatalf("RegistrySlug %q %v", got, ok)
	}
	if _, ok := st.RegistrySlug("acme", "nope"); ok {
		t.Fatal("RegistrySlug of an unknown registry")
	}

	// The API's delete takes the registry's tokens with it.
	expect(t, e.regAPI("DELETE", "/"+slug, nil), 200)
	if st.Exists(KindRegistry, "acme", id) || st.Exists(KindRegistryToken, "acme", id+"/"+tid) {
		t.Fatal("registry or its token survived the delete")
	}
	if !st.Exists(KindRegistryToken, "acme", keep+"/"+kept) {
		t.Fatal("another registry's token was deleted")
	}

	// Remove works like the API, by slug or id: "deleted outside Terraform".
	if !st.Remove(KindRegistryToken, "acme", keep+"/"+kept) || st.Remove(KindRegistryToken, "acme", keep+"/"+kept) {
		t.Fatal("Remove token")
	}
	expectError(t, e.regAPI("GET", "/"+keep+"/tokens/"+kept, nil), 404, "No registry token found")
	t2, _ := e.createRegistryToken(keep, "d")
	if st.Remove(KindRegistry, "other", keep) || !st.Remove(KindRegistry, "acme", keep) || st.Exists(KindRegistryToken, "acme", keep+"/"+t2) {
		t.Fatal("Remove registry by slug")
	}
	third := e.createRegistry("Third")
	thirdID := e.regAPI("GET", "/"+third, nil).object(t)["id"].(string)
	if !st.Remove(KindRegistry, "acme", thirdID) || st.Exists(KindRegistry, "acme", third) {
		t.Fatal("Remove registry by id")
	}
	expectError(t, e.regAPI("GET", "/"+third, nil), 404, "No registry found")
}

func TestRegistrySlug(t *testing.T) {
	for name, want := range map[string]string{
		"my registry":      "my-registry",
		"My  Gems!":        "my-gems",
		"--Leading_and--":  "leading-and",
		"ABC123":           "abc123",
		"a.b.c":            "a-b-c",
		"!!!":              "",
		"émoji ✨ registry": "moji-registry",
	} {
		if got := slugify(name); got != want {
			t.Errorf("slugify(%q) = %q, want %q", name, got, want)
		}
	}
}

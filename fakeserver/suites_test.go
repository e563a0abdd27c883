package fakeserver

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

const suitesPath = "/v2/analytics/organizations/acme/suites"

// suites sends a request with the default token to a path under the analytics suites of acme.
func (k teamsKit) suites(method, path string, body any) response {
	k.t.Helper()
	return k.do(method, suitesPath+path, "test-token", body)
}

// setTeamsEnabled turns the organization's teams feature on or off.
func (k teamsKit) setTeamsEnabled(org string, on bool) {
	st := k.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.orgs[org].teamsEnabled = on
}

func TestSuiteCRUD(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")

	r := k.suites("POST", "", map[string]any{
		"name": "Web Specs", "default_branch": "main", "team_ids": []string{team},
		"application_name": "web", "color": "#ff0000", "emoji": ":test_tube:",
	})
	expect(t, r, http.StatusCreated)
	s := r.object(t)
	hasKeys(t, s, "id", "graphql_id", "slug", "name", "url", "web_url", "default_branch", "application_name", "color", "emoji")
	if _, ok := s["api_token"]; ok {
		t.Fatalf("api_token without show_api_token: %v", s)
	}
	id := s["id"].(string)
	if s["slug"] != "web-specs" || s["name"] != "Web Specs" || s["default_branch"] != "main" ||
		s["application_name"] != "web" || s["color"] != "#ff0000" || s["emoji"] != ":test_tube:" ||
		s["graphql_id"] != graphQLID("Suite", id) {
		t.Fatalf("created %v", s)
	}
	if s["url"] != k.ts.URL+suitesPath+"/web-specs" ||
		s["web_url"] != k.ts.URL+"/organizations/acme/analytics/suites/web-specs" {
		t.Fatalf("urls %v %v", s["url"], s["web_url"])
	}

	// show_api_token on create shows the token.
	r = k.suites("POST", "", map[string]any{"name": "Tokened", "default_branch": "dev", "team_ids": []string{team},
		"show_api_token": true})
	expect(t, r, http.StatusCreated)
	tok := r.object(t)
	if secret, _ := tok["api_token"].(string); len(secret) < 32 {
		t.Fatalf("api_token %v", tok["api_token"])
	}
	if tok["application_name"] != nil || tok["color"] != nil || tok["emoji"] != nil {
		t.Fatalf("optional fields not null: %v", tok)
	}
	r = k.suites("POST", "", map[string]any{"name": "Hidden", "default_branch": "dev", "team_ids": []string{team},
		"show_api_token": false})
	if _, ok := r.object(t)["api_token"]; ok {
		t.Fatalf("api_token with show_api_token false: %s", r.raw)
	}
	for _, path := range []string{"/tokened", "", "?show_api_token=true"} {
		if strings.Contains(string(k.suites("GET", path, nil).raw), "api_token") {
			t.Fatalf("GET %s shows the api_token", path)
		}
	}
	// GET of one suite with ?show_api_token=true shows it again: the official provider reads it so.
	if got := k.suites("GET", "/tokened?show_api_token=true", nil).object(t)["api_token"]; got != tok["api_token"] {
		t.Fatalf("GET ?show_api_token=true: api_token %v, want the created %v", got, tok["api_token"])
	}

	r = k.suites("GET", "/web-specs", nil)
	expect(t, r, 200)
	if r.object(t)["id"] != id {
		t.Fatalf("get by slug %s", r.raw)
	}
	if g := k.suites("GET", "/"+id, nil).object(t); g["slug"] != "web-specs" {
		t.Fatalf("get by id %v", g)
	}
	l := k.suites("GET", "", nil).list(t)
	if len(l) != 3 || l[0]["id"] != id || l[1]["slug"] != "tokened" {
		t.Fatalf("list %v", l)
	}
	r = k.suites("GET", "?per_page=1", nil)
	if l := r.list(t); len(l) != 1 || !strings.Contains(r.header.Get("Link"), `rel="last"`) {
		t.Fatalf("paginated %v, Link %q", l, r.header.Get("Link"))
	}

	// A new name derives a new slug; null clears an optional property; unknown properties are ignored.
	r = k.suites("PATCH", "/web-specs", map[string]any{"name": "Web Tests", "default_branch": "trunk", "color": nil,
		"emoji": ":x:", "url": "ignored", "id": "ignored"})
	expect(t, r, 200)
	u := r.object(t)
	if u["name"] != "Web Tests" || u["slug"] != "web-tests" || u["default_branch"] != "trunk" || u["color"] != nil ||
		u["emoji"] != ":x:" || u["application_name"] != "web" || u["url"] != k.ts.URL+suitesPath+"/web-tests" ||
		u["id"] != id {
		t.Fatalf("update %v", u)
	}
	expectError(t, k.suites("GET", "/web-specs", nil), 404, "No suite found")

	// "" clears as null does, and the answer shows null (the official provider's users keep "" in state).
	u = k.suites("PATCH", "/web-tests", map[string]any{"application_name": "", "emoji": ""}).object(t)
	if u["application_name"] != nil || u["emoji"] != nil {
		t.Fatalf("update with \"\" %v, want null application_name and emoji", u)
	}

	r = k.suites("DELETE", "/web-tests", nil)
	expect(t, r, http.StatusNoContent)
	if len(r.raw) != 0 {
		t.Fatalf("204 with body %q", r.raw)
	}
	expectError(t, k.suites("GET", "/web-tests", nil), 404, "No suite found")
	expectError(t, k.suites("PATCH", "/web-tests", map[string]any{"name": "x"}), 404, "No suite found")
	expectError(t, k.suites("DELETE", "/web-tests", nil), 404, "No suite found")
	if l := k.api("GET", "/teams/"+team+"/suites", nil).list(t); len(l) != 2 {
		t.Fatalf("team still lists the deleted suite: %v", l)
	}
}

func TestSuiteValidation(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	teams := []string{team}
	for _, tt := range []struct {
		body    any
		message string
	}{
		{map[string]any{"default_branch": "main", "team_ids": teams}, "Name can't be blank"},
		{map[string]any{"name": "S", "team_ids": teams}, "Default branch can't be blank"},
		{map[string]any{"name": "S", "default_branch": "main"}, "Team ids can't be blank"},
		{map[string]any{"name": "S", "default_branch": "main", "team_ids": []string{}}, "Team ids can't be blank"},
		{map[string]any{"name": "S", "default_branch": "main", "teams_ids": []string{}}, "Teams ids can't be blank"},
		{map[string]any{"name": "S", "default_branch": "main", "team_ids": []string{team, "nope"}},
			"Team ids must be teams of the organization (unknown: nope)"},
		{map[string]any{"name": "S", "default_branch": "main", "team_ids": team}, "Team ids must be an array of strings"},
		{map[string]any{"name": "S", "default_branch": "main", "team_ids": teams, "show_api_token": "yes"},
			"Show api token must be a boolean"},
		{map[string]any{"name": "S", "default_branch": "main", "team_ids": teams, "color": 1}, "Color must be a string"},
		{map[string]any{"name": "???", "default_branch": "main", "team_ids": teams}, "Name must contain a letter or digit"},
		{map[string]any{}, "Name can't be blank, Default branch can't be blank, Team ids can't be blank"},
	} {
		expectError(t, k.suites("POST", "", tt.body), 422, "Validation failed: "+tt.message)
	}
	expectError(t, k.suites("POST", "", "{"), 400, "Problems parsing JSON")

	// The property list's teams_ids works as well as the sample's team_ids.
	r := k.suites("POST", "", map[string]any{"name": "Alias", "default_branch": "main", "teams_ids": teams})
	expect(t, r, http.StatusCreated)
	if g := k.api("GET", "/teams/"+team+"/suites/"+r.object(t)["id"].(string), nil); g.status != 200 {
		t.Fatalf("teams_ids gave no access: %s", g.raw)
	}

	expectError(t, k.suites("POST", "", map[string]any{"name": "alias!", "default_branch": "main", "team_ids": teams}),
		422, "Validation failed: Name has already been taken")
	k.createSuite("Other", team)
	expectError(t, k.suites("PATCH", "/other", map[string]any{"name": "Alias"}), 422,
		"Validation failed: Name has already been taken")
	expectError(t, k.suites("PATCH", "/other", map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	expectError(t, k.suites("PATCH", "/other", map[string]any{"default_branch": nil}), 422,
		"Validation failed: Default branch can't be blank")
	expectError(t, k.suites("PATCH", "/other", map[string]any{"emoji": false}), 422, "Validation failed: Emoji must be a string")
	expectError(t, k.suites("PATCH", "/other", "["), 400, "Problems parsing JSON")
	expect(t, k.suites("PATCH", "/other", map[string]any{"name": "other"}), 200) // its own slug

	// Without teams, team_ids is neither required nor used.
	k.setTeamsEnabled("acme", false)
	r = k.suites("POST", "", map[string]any{"name": "No Teams", "default_branch": "main"})
	expect(t, r, http.StatusCreated)
	r = k.suites("POST", "", map[string]any{"name": "Ignored Teams", "default_branch": "main", "team_ids": []string{"nope"}})
	expect(t, r, http.StatusCreated)
}

func TestSuiteAuth(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	slug, _ := k.createSuite("S", team)
	st := k.srv.Store()
	if err := st.SeedSuite("acme", SuiteFixture{Slug: slug, FlakyTests: []FlakyTestFixture{{Name: "t"}}}); err != nil {
		t.Fatal(err)
	}
	st.AddToken("reader", []string{"acme"}, []string{scopeReadSuites})
	st.AddToken("writer", []string{"acme"}, []string{scopeWriteSuites})
	st.AddToken("other-token", []string{"other"}, AllScopes())

	for _, tt := range []struct {
		method, path, token string
		status              int
		message             string
	}{
		{"GET", suitesPath, "", 401, "Authentication required. Please supply a valid API Access Token: " + authDocsURL},
		{"GET", suitesPath, "writer", 403, "Your access token doesn't have the read_suites scope"},
		{"GET", suitesPath + "/" + slug, "writer", 403, "Your access token doesn't have the read_suites scope"},
		{"GET", suitesPath + "/" + slug + "/flaky-tests", "writer", 403, "Your access token doesn't have the read_suites scope"},
		{"GET", suitesPath + "/" + slug + "/flaky-tests", "reader", 200, ""},
		{"POST", suitesPath, "reader", 403, "Your access token doesn't have the write_suites scope"},
		{"PATCH", suitesPath + "/" + slug, "reader", 403, "Your access token doesn't have the write_suites scope"},
		{"DELETE", suitesPath + "/" + slug, "reader", 403, "Your access token doesn't have the write_suites scope"},
		{"GET", suitesPath, "other-token", 404, "No organization found"},
		{"GET", "/v2/analytics/organizations/other/suites/" + slug, "other-token", 404, "No suite found"},
		{"GET", "/v2/analytics/organizations/other/suites/" + slug + "/flaky-tests", "other-token", 404, "No suite found"},
		{"DELETE", "/v2/analytics/organizations/other/suites/" + slug, "other-token", 404, "No suite found"},
	} {
		r := k.do(tt.method, tt.path, tt.token, nil)
		if tt.message != "" {
			expectError(t, r, tt.status, tt.message)
		} else {
			expect(t, r, tt.status)
		}
	}
	if l := k.do("GET", "/v2/analytics/organizations/other/suites", "other-token", nil).list(t); len(l) != 0 {
		t.Fatalf("other org lists %v", l)
	}
}

func TestFlakyTests(t *testing.T) {
	k := newTeamsKit(t)
	st := k.srv.Store()
	latest := time.Date(2025, 1, 2, 3, 4, 5, 678_000_000, time.UTC)
	resolved := time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)
	err := st.SeedSuite("acme", SuiteFixture{Name: "Seeded Suite", FlakyTests: []FlakyTestFixture{
		{Name: "logs in", Scope: "User#login", Location: "./spec/user_spec.rb:12", Branch: "main", Instances: 3, LatestAt: latest},
		{Name: "renders", Scope: "Page", Location: "./spec/page_spec.rb:40", FileName: "page_spec.rb", Branch: "feature",
			Instances: 1, LatestAt: latest, LastResolvedAt: &resolved},
		{Name: "TIMEOUT handling", Scope: "Net", Branch: "main", LatestAt: latest},
	}})
	if err != nil {
		t.Fatal(err)
	}
	id, ok := st.SuiteID("acme", "seeded-suite")
	if !ok || !st.Exists(KindSuite, "acme", id) {
		t.Fatalf("seeded suite %q %v", id, ok)
	}
	s := k.suites("GET", "/seeded-suite", nil).object(t)
	if s["name"] != "Seeded Suite" || s["default_branch"] != "main" {
		t.Fatalf("seeded suite %v", s)
	}

	path := "/seeded-suite/flaky-tests"
	l := k.suites("GET", path, nil).list(t)
	if len(l) != 3 {
		t.Fatalf("flaky tests %v", l)
	}
	f := l[0]
	hasKeys(t, f, "id", "web_url", "scope", "name", "location", "file_name", "instances", "latest_occurrence_at",
		"most_recent_instance_at", "last_resolved_at")
	if f["name"] != "logs in" || f["scope"] != "User#login" || f["location"] != "./spec/user_spec.rb:12" ||
		f["file_name"] != "./spec/user_spec.rb" || f["instances"] != float64(3) ||
		f["latest_occurrence_at"] != "2025-01-02T03:04:05.678Z" || f["most_recent_instance_at"] != "2025-01-02T03:04:05.678Z" ||
		f["last_resolved_at"] != nil {
		t.Fatalf("flaky test %v", f)
	}
	if f["web_url"] != k.ts.URL+"/organizations/acme/analytics/suites/seeded-suite/tests/"+f["id"].(string) {
		t.Fatalf("web_url %v", f["web_url"])
	}
	if l[1]["last_resolved_at"] != "2024-12-01T00:00:00.000Z" || l[1]["file_name"] != "page_spec.rb" ||
		l[2]["instances"] != float64(1) || l[2]["file_name"] != "" {
		t.Fatalf("flaky tests %v", l)
	}

	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"?search=timeout", []string{"TIMEOUT handling"}}, // name, any case
		{"?search=user%23", []string{"logs in"}},          // scope
		{"?search=page_spec", []string{"renders"}},        // location
		{"?search=SPEC", []string{"logs in", "renders"}},
		{"?branch=main", []string{"logs in", "TIMEOUT handling"}},
		{"?branch=feature&search=render", []string{"renders"}},
		{"?branch=main&search=render", nil},
		{"?branch=nowhere", nil},
		{"?per_page=2&page=2", []string{"TIMEOUT handling"}},
	} {
		got := k.suites("GET", path+tt.query, nil).list(t)
		var names []string
		for _, f := range got {
			names = append(names, f["name"].(string))
		}
		if strings.Join(names, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: %v, want %v", tt.query, names, tt.want)
		}
	}
	expectError(t, k.suites("GET", "/nope/flaky-tests", nil), 404, "No suite found")

	// Seeding an existing slug adds to it; AddFlakyTest adds one.
	if err := st.SeedSuite("acme", SuiteFixture{Slug: "seeded-suite", Name: "Ignored", FlakyTests: []FlakyTestFixture{{Name: "more"}}}); err != nil {
		t.Fatal(err)
	}
	fid, err := st.AddFlakyTest("acme", "seeded-suite", FlakyTestFixture{Name: "added", Location: "a_test.go:5"})
	if err != nil || fid == "" {
		t.Fatalf("AddFlakyTest %q %v", fid, err)
	}
	l = k.suites("GET", path, nil).list(t)
	if len(l) != 5 || l[3]["name"] != "more" || l[4]["id"] != fid || l[4]["file_name"] != "a_test.go" {
		t.Fatalf("after adding %v", l)
	}
	expectTimestamp(t, "latest_occurrence_at", l[4]["latest_occurrence_at"]) // defaults to now
	if g := k.suites("GET", "/seeded-suite", nil).object(t); g["name"] != "Seeded Suite" {
		t.Fatalf("reseeding renamed the suite: %v", g)
	}

	// Fixture errors.
	if _, err := st.AddFlakyTest("acme", "nope", FlakyTestFixture{Name: "x"}); err == nil {
		t.Fatal("AddFlakyTest to an unknown suite")
	}
	if _, err := st.AddFlakyTest("acme", "seeded-suite", FlakyTestFixture{}); err == nil || !strings.Contains(err.Error(), "Name can't be blank") {
		t.Fatalf("AddFlakyTest without a name: %v", err)
	}
	if err := st.SeedSuite("nowhere", SuiteFixture{Slug: "s"}); err == nil {
		t.Fatal("SeedSuite into an unknown org")
	}
	if err := st.SeedSuite("acme", SuiteFixture{}); err == nil {
		t.Fatal("SeedSuite without slug or name")
	}
	if err := st.SeedSuite("acme", SuiteFixture{Slug: "bad", FlakyTests: []FlakyTestFixture{{Name: "x", Instances: -1}}}); err == nil {
		t.Fatal("SeedSuite with negative instances")
	}
	if _, ok := st.SuiteID("acme", "bad"); ok {
		t.Fatal("a failed seed created its suite")
	}
}

func TestFlakyTestAdminRoute(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	slug, _ := k.createSuite("Admin Suite", team)
	admin := "/_fake/organizations/acme/suites/" + slug + "/flaky-tests"

	r := k.do("POST", admin, "", `{"name":"one","scope":"S","branch":"main","instances":2,"latest_occurrence_at":"2025-03-04T05:06:07Z"}`)
	expect(t, r, http.StatusCreated)
	one := r.object(t)
	if one["name"] != "one" || one["instances"] != float64(2) || one["latest_occurrence_at"] != "2025-03-04T05:06:07.000Z" {
		t.Fatalf("added %v", one)
	}
	r = k.do("POST", admin, "", []map[string]any{{"name": "two"}, {"name": "three", "last_resolved_at": "2025-01-01T00:00:00Z"}})
	expect(t, r, http.StatusCreated)
	if l := r.list(t); len(l) != 2 || l[1]["last_resolved_at"] != "2025-01-01T00:00:00.000Z" {
		t.Fatalf("added %v", l)
	}
	if l := k.suites("GET", "/"+slug+"/flaky-tests", nil).list(t); len(l) != 3 || l[0]["id"] != one["id"] {
		t.Fatalf("list %v", l)
	}

	expect(t, k.do("POST", admin, "", `{"name":`), 400)
	expect(t, k.do("POST", admin, "", `{"name":"x","scopes":"unknown property"}`), 400)
	expect(t, k.do("POST", admin, "", ""), 400)
	expectError(t, k.do("POST", admin, "", []map[string]any{{"name": "ok"}, {"scope": "no name"}}), 422,
		"Validation failed: Name can't be blank")
	expectError(t, k.do("POST", "/_fake/organizations/acme/suites/nope/flaky-tests", "", `{"name":"x"}`), 404, "No suite found")
	expectError(t, k.do("POST", "/_fake/organizations/nowhere/suites/"+slug+"/flaky-tests", "", `{"name":"x"}`), 404,
		"No organization found")
	if l := k.suites("GET", "/"+slug+"/flaky-tests", nil).list(t); len(l) != 3 {
		t.Fatalf("a failed admin request added tests: %v", l)
	}
}

func TestSuiteKindRemove(t *testing.T) {
	k := newTeamsKit(t)
	st := k.srv.Store()
	team := k.createTeam("T")
	slug, id := k.createSuite("S", team)
	if _, err := st.AddFlakyTest("acme", slug, FlakyTestFixture{Name: "f"}); err != nil {
		t.Fatal(err)
	}
	if st.Remove(KindSuite, "other", id) || !st.Remove(KindSuite, "acme", id) || st.Exists(KindSuite, "acme", id) ||
		st.Remove(KindSuite, "acme", id) {
		t.Fatal("Remove suite")
	}
	st.mu.RLock()
	n := st.suites.flaky.len() + st.teams.suites.len()
	st.mu.RUnlock()
	if n != 0 {
		t.Fatalf("%d flaky tests or team suites left", n)
	}
}

package fakeserver

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// teamsKit wraps a testEnv with this area's helpers; a distinct type keeps their names from colliding
// with other areas' test helpers.
type teamsKit struct{ *testEnv }

func newTeamsKit(t *testing.T) teamsKit { return teamsKit{newEnv(t, Options{})} }

// createTeam creates a team with only a name and returns its ID.
func (k teamsKit) createTeam(name string) string {
	k.t.Helper()
	r := k.api("POST", "/teams", map[string]any{"name": name})
	expect(k.t, r, http.StatusCreated)
	return r.object(k.t)["id"].(string)
}

// memberIDs returns the default user (an admin) and the second, non-admin member of acme.
func (k teamsKit) memberIDs() (admin, second string) {
	st := k.srv.Store()
	st.mu.RLock()
	defer st.mu.RUnlock()
	for id, m := range st.orgs["acme"].members {
		if m.admin {
			admin = id
		} else {
			second = id
		}
	}
	return admin, second
}

// outsider creates a user who belongs to no organization.
func (k teamsKit) outsider() string {
	st := k.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.addUser("Outsider", "outsider@example.com").id
}

// seedPipeline puts a pipeline straight into the store: the pipelines API is another area's.
func (k teamsKit) seedPipeline(org, name string) string {
	st := k.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.addOrg(org, titleCase(org))
	id := newID()
	st.insertPipeline(&pipelineRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Pipeline", id), slug: slugify(name), name: name,
	})
	return id
}

// dropPipeline deletes a pipeline behind the teams area's back, as the pipelines API would.
func (k teamsKit) dropPipeline(id string) {
	st := k.srv.Store()
	st.mu.Lock()
	defer st.mu.Unlock()
	if p, ok := st.pipelines.pipelines.get(id); ok {
		st.pipelines.pipelines.remove(p)
	}
}

// createSuite creates a test suite giving teamID access and returns its slug and ID.
func (k teamsKit) createSuite(name, teamID string) (slug, id string) {
	k.t.Helper()
	r := k.do("POST", "/v2/analytics/organizations/acme/suites", "test-token",
		map[string]any{"name": name, "default_branch": "main", "team_ids": []string{teamID}})
	expect(k.t, r, http.StatusCreated)
	o := r.object(k.t)
	return o["slug"].(string), o["id"].(string)
}

// expectTimestamp fails unless v is an RFC 3339 timestamp string.
func expectTimestamp(t *testing.T, what string, v any) {
	t.Helper()
	s, ok := v.(string)
	if !ok {
		t.Fatalf("%s = %v, want a timestamp", what, v)
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		t.Fatalf("%s = %q: %v", what, s, err)
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"Platform Team": "platform-team", "  Ops & SRE!! ": "ops-sre", "a--b__c": "a-b-c", "Ünïcode 42": "n-code-42",
		"!!!": "", "already-slug": "already-slug",
	} {
		if got := slugify(in); got != want {
			t.Errorf("slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTeamCRUD(t *testing.T) {
	k := newTeamsKit(t)

	r := k.api("POST", "/teams", map[string]any{
		"name": "Platform Team", "description": "the platform", "privacy": "secret", "is_default_team": true,
		"default_member_role": "maintainer", "members_can_create_pipelines": true,
	})
	expect(t, r, http.StatusCreated)
	team := r.object(t)
	hasKeys(t, team, "id", "graphql_id", "name", "slug", "description", "privacy", "default", "created_at",
		"created_by", "is_default_team", "default_member_role", "members_can_create_pipelines")
	id := team["id"].(string)
	if team["name"] != "Platform Team" || team["slug"] != "platform-team" || team["description"] != "the platform" ||
		team["privacy"] != "secret" || team["default"] != true || team["is_default_team"] != true ||
		team["default_member_role"] != "maintainer" || team["members_can_create_pipelines"] != true {
		t.Fatalf("created %v", team)
	}
	if team["graphql_id"] != graphQLID("Team", id) || team["created_by"].(map[string]any)["name"] != "Test User" {
		t.Fatalf("created %v", team)
	}
	expectTimestamp(t, "created_at", team["created_at"])

	// Only the name is required; the rest default.
	bare := k.api("POST", "/teams", map[string]any{"name": "Bare"}).object(t)
	if bare["description"] != "" || bare["privacy"] != "visible" || bare["default"] != false ||
		bare["default_member_role"] != "member" || bare["members_can_create_pipelines"] != false {
		t.Fatalf("defaults %v", bare)
	}

	r = k.api("GET", "/teams/"+id, nil)
	expect(t, r, 200)
	if r.object(t)["name"] != "Platform Team" {
		t.Fatalf("get %s", r.raw)
	}
	l := k.api("GET", "/teams", nil).list(t)
	if len(l) != 2 || l[0]["id"] != id || l[1]["name"] != "Bare" {
		t.Fatalf("list %v", l)
	}

	for _, method := range []string{"PATCH", "PUT"} {
		r = k.api(method, "/teams/"+id, map[string]any{"name": "Core " + method, "privacy": "visible"})
		expect(t, r, 200)
		u := r.object(t)
		if u["name"] != "Core "+method || u["slug"] != "core-"+strings.ToLower(method) || u["privacy"] != "visible" ||
			u["description"] != "the platform" || u["default_member_role"] != "maintainer" || u["default"] != true {
			t.Fatalf("%s: %v", method, u)
		}
	}
	u := k.api("PATCH", "/teams/"+id, map[string]any{"is_default_team": false, "members_can_create_pipelines": false,
		"default_member_role": "member", "description": nil}).object(t)
	if u["default"] != false || u["is_default_team"] != false || u["members_can_create_pipelines"] != false ||
		u["default_member_role"] != "member" || u["description"] != "" || u["name"] != "Core PUT" {
		t.Fatalf("update %v", u)
	}

	r = k.api("DELETE", "/teams/"+id, nil)
	expect(t, r, http.StatusNoContent)
	if len(r.raw) != 0 {
		t.Fatalf("204 with body %q", r.raw)
	}
	expectError(t, k.api("GET", "/teams/"+id, nil), 404, "No team found")
	expectError(t, k.api("PATCH", "/teams/"+id, map[string]any{"name": "x"}), 404, "No team found")
	expectError(t, k.api("DELETE", "/teams/"+id, nil), 404, "No team found")
}

func TestTeamValidation(t *testing.T) {
	k := newTeamsKit(t)
	for _, tt := range []struct {
		body    any
		message string
	}{
		{map[string]any{}, "Name can't be blank"},
		{map[string]any{"name": "  "}, "Name can't be blank"},
		{map[string]any{"name": nil}, "Name can't be blank"},
		{map[string]any{"name": 5}, "Name must be a string"},
		{map[string]any{"name": "!!!"}, "Name must contain a letter or digit"},
		{map[string]any{"name": "x", "privacy": "public"}, "Privacy must be visible or secret"},
		{map[string]any{"name": "x", "privacy": 1}, "Privacy must be a string"},
		{map[string]any{"name": "x", "default_member_role": "owner"}, "Default member role must be member or maintainer"},
		{map[string]any{"name": "x", "is_default_team": "yes"}, "Is default team must be a boolean"},
		{map[string]any{"name": "x", "members_can_create_pipelines": 1}, "Members can create pipelines must be a boolean"},
		{map[string]any{"name": "x", "description": []string{}}, "Description must be a string"},
	} {
		expectError(t, k.api("POST", "/teams", tt.body), 422, "Validation failed: "+tt.message)
	}
	expectError(t, k.api("POST", "/teams", "{"), 400, "Problems parsing JSON")
	expectError(t, k.api("POST", "/teams", "[]"), 400, "Request body must be a JSON object")

	id := k.createTeam("Alpha")
	other := k.createTeam("Beta")
	for _, dup := range []string{"Alpha", "alpha", "ALPHA!"} {
		expectError(t, k.api("POST", "/teams", map[string]any{"name": dup}), 422,
			"Validation failed: Name has already been taken")
	}
	expectError(t, k.api("PATCH", "/teams/"+other, map[string]any{"name": "Alpha"}), 422,
		"Validation failed: Name has already been taken")
	// Renaming a team to its own name (or another spelling of it) is fine.
	expect(t, k.api("PATCH", "/teams/"+id, map[string]any{"name": "alpha"}), 200)
	expectError(t, k.api("PATCH", "/teams/"+id, map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	expectError(t, k.api("PATCH", "/teams/"+id, map[string]any{"privacy": "open"}), 422,
		"Validation failed: Privacy must be visible or secret")
	expectError(t, k.api("PATCH", "/teams/"+id, "nope"), 400, "Problems parsing JSON")
	// A failed update changes nothing.
	if team := k.api("GET", "/teams/"+id, nil).object(t); team["name"] != "alpha" || team["privacy"] != "visible" {
		t.Fatalf("after failed updates %v", team)
	}
}

func TestTeamListByUser(t *testing.T) {
	k := newTeamsKit(t)
	_, second := k.memberIDs()
	a, b := k.createTeam("A"), k.createTeam("B")
	k.createTeam("C")
	for _, team := range []string{a, b} {
		expect(t, k.api("POST", "/teams/"+team+"/members", map[string]any{"user_id": second, "role": "member"}), 201)
	}
	l := k.api("GET", "/teams?user_id="+second, nil).list(t)
	if len(l) != 2 || l[0]["id"] != a || l[1]["id"] != b {
		t.Fatalf("teams of the second member %v", l)
	}
	if l := k.api("GET", "/teams?user_id="+newID(), nil).list(t); len(l) != 0 {
		t.Fatalf("teams of an unknown user %v", l)
	}
	if l := k.api("GET", "/teams", nil).list(t); len(l) != 3 {
		t.Fatalf("all teams %v", l)
	}
	r := k.api("GET", "/teams?per_page=2", nil)
	if l := r.list(t); len(l) != 2 || !strings.Contains(r.header.Get("Link"), `rel="next"`) {
		t.Fatalf("paginated %v, Link %q", l, r.header.Get("Link"))
	}
}

func TestTeamAuth(t *testing.T) {
	k := newTeamsKit(t)
	id := k.createTeam("T")
	st := k.srv.Store()
	st.AddToken("reader", []string{"acme"}, []string{scopeReadTeams})
	st.AddToken("viewer", []string{"acme"}, []string{scopeViewTeams})
	st.AddToken("other-token", []string{"other"}, AllScopes())
	base := "/v2/organizations/acme/teams"

	for _, tt := range []struct {
		method, path, token string
		status              int
		message             string
	}{
		{"GET", base, "", 401, ""},
		{"GET", base, "viewer", 403, "Your access token doesn't have the read_teams scope"},
		{"GET", base, "reader", 200, ""},
		{"GET", base + "/" + id, "reader", 403, "Your access token doesn't have the view_teams scope"},
		{"GET", base + "/" + id, "viewer", 200, ""},
		{"POST", base, "viewer", 403, "Your access token doesn't have the write_teams scope"},
		{"PATCH", base + "/" + id, "viewer", 403, "Your access token doesn't have the write_teams scope"},
		{"DELETE", base + "/" + id, "viewer", 403, "Your access token doesn't have the write_teams scope"},
		{"GET", base + "/" + id + "/members", "reader", 403, "Your access token doesn't have the view_teams scope"},
		{"GET", base + "/" + id + "/pipelines", "reader", 403, "Your access token doesn't have the view_teams scope"},
		{"GET", base + "/" + id + "/suites", "reader", 403, "Your access token doesn't have the view_teams scope"},
		{"POST", base + "/" + id + "/members", "viewer", 403, "Your access token doesn't have the write_teams scope"},
		{"POST", base + "/" + id + "/pipelines", "viewer", 403, "Your access token doesn't have the write_teams scope"},
		{"POST", base + "/" + id + "/suite", "viewer", 403, "Your access token doesn't have the write_teams scope"},
		{"GET", base + "/" + id, "other-token", 404, "No organization found"},
		{"GET", "/v2/organizations/other/teams/" + id, "other-token", 404, "No team found"},
		{"GET", "/v2/organizations/other/teams/" + id + "/members", "other-token", 404, "No team found"},
		{"DELETE", "/v2/organizations/other/teams/" + id, "other-token", 404, "No team found"},
	} {
		r := k.do(tt.method, tt.path, tt.token, nil)
		if tt.message != "" {
			expectError(t, r, tt.status, tt.message)
		} else {
			expect(t, r, tt.status)
		}
	}
	if l := k.do("GET", "/v2/organizations/other/teams", "other-token", nil).list(t); len(l) != 0 {
		t.Fatalf("other org lists %v", l)
	}
}

func TestTeamMembers(t *testing.T) {
	k := newTeamsKit(t)
	admin, second := k.memberIDs()
	team := k.createTeam("T")
	members := "/teams/" + team + "/members"

	// Both the documented trailing-slash path and go-buildkite's plain one add a member.
	r := k.api("POST", members+"/", map[string]any{"user_id": second, "role": "member"})
	expect(t, r, http.StatusCreated)
	m := r.object(t)
	hasKeys(t, m, "user_id", "user_name", "role", "created_at")
	if m["user_id"] != second || m["user_name"] != "Second Member" || m["role"] != "member" {
		t.Fatalf("added %v", m)
	}
	expectTimestamp(t, "created_at", m["created_at"])
	expect(t, k.api("POST", members, map[string]any{"user_id": admin, "role": "maintainer"}), http.StatusCreated)

	l := k.api("GET", members, nil).list(t)
	if len(l) != 2 || l[0]["user_id"] != second || l[1]["user_id"] != admin || l[1]["role"] != "maintainer" {
		t.Fatalf("list %v", l)
	}
	r = k.api("GET", members+"?per_page=1&page=2", nil)
	if l := r.list(t); len(l) != 1 || l[0]["user_id"] != admin || !strings.Contains(r.header.Get("Link"), `rel="prev"`) {
		t.Fatalf("page 2 %v, Link %q", l, r.header.Get("Link"))
	}
	if g := k.api("GET", members+"/"+second, nil).object(t); g["user_name"] != "Second Member" {
		t.Fatalf("get %v", g)
	}

	r = k.api("PATCH", members+"/"+second, map[string]any{"role": "maintainer"})
	expect(t, r, 200)
	if r.object(t)["role"] != "maintainer" {
		t.Fatalf("update %s", r.raw)
	}

	expect(t, k.api("DELETE", members+"/"+second, nil), http.StatusNoContent)
	expectError(t, k.api("GET", members+"/"+second, nil), 404, "No team member found")
	expectError(t, k.api("PATCH", members+"/"+second, map[string]any{"role": "member"}), 404, "No team member found")
	expectError(t, k.api("DELETE", members+"/"+second, nil), 404, "No team member found")
	if l := k.api("GET", members, nil).list(t); len(l) != 1 {
		t.Fatalf("after removal %v", l)
	}
}

func TestTeamMemberErrors(t *testing.T) {
	k := newTeamsKit(t)
	admin, second := k.memberIDs()
	team := k.createTeam("T")
	members := "/teams/" + team + "/members"
	expect(t, k.api("POST", members, map[string]any{"user_id": admin, "role": "member"}), 201)

	for _, tt := range []struct {
		body    any
		message string
	}{
		{map[string]any{"user_id": k.outsider(), "role": "member"}, "User must be a member of the organization"},
		{map[string]any{"user_id": newID(), "role": "member"}, "User must be a member of the organization"},
		{map[string]any{"user_id": admin, "role": "member"}, "User is already a member of the team"},
		{map[string]any{"user_id": second}, "Role can't be blank"},
		{map[string]any{"user_id": second, "role": "owner"}, "Role must be member or maintainer"},
		{map[string]any{"role": "member"}, "User can't be blank"},
		{map[string]any{"user_id": 7, "role": "member"}, "User must be a string"},
		{map[string]any{}, "User can't be blank, Role can't be blank"},
	} {
		expectError(t, k.api("POST", members, tt.body), 422, "Validation failed: "+tt.message)
	}
	expectError(t, k.api("POST", members, "{"), 400, "Problems parsing JSON")
	expectError(t, k.api("POST", "/teams/"+newID()+"/members", map[string]any{"user_id": second, "role": "member"}),
		404, "No team found")
	expectError(t, k.api("GET", "/teams/"+newID()+"/members", nil), 404, "No team found")
	expectError(t, k.api("PATCH", members+"/"+admin, map[string]any{"role": "boss"}), 422,
		"Validation failed: Role must be member or maintainer")
	expectError(t, k.api("PATCH", members+"/"+admin, map[string]any{}), 422, "Validation failed: Role can't be blank")
	expectError(t, k.api("PATCH", members+"/"+admin, "x"), 400, "Problems parsing JSON")
	expectError(t, k.api("GET", members+"/"+second, nil), 404, "No team member found")
	expectError(t, k.do("GET", "/v2/organizations/acme"+members, "", nil), 401,
		"Authentication required. Please supply a valid API Access Token: "+authDocsURL)
}

func TestTeamPipelines(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	p1, p2, p3 := k.seedPipeline("acme", "Web App"), k.seedPipeline("acme", "API"), k.seedPipeline("acme", "Docs")
	pipelines := "/teams/" + team + "/pipelines"

	r := k.api("POST", pipelines+"/", map[string]any{"pipeline_id": p1, "access_level": "read_only"})
	expect(t, r, http.StatusCreated)
	tp := r.object(t)
	hasKeys(t, tp, "pipeline_id", "pipeline_url", "access_level", "created_at")
	if tp["pipeline_id"] != p1 || tp["access_level"] != "read_only" ||
		tp["pipeline_url"] != k.ts.URL+"/v2/organizations/acme/pipelines/web-app" {
		t.Fatalf("added %v", tp)
	}
	expectTimestamp(t, "created_at", tp["created_at"])
	expect(t, k.api("POST", pipelines, map[string]any{"pipeline_id": p2, "access_level": "build_and_read"}), 201)
	expect(t, k.api("POST", pipelines, map[string]any{"pipeline_id": p3, "access_level": "manage_build_and_read"}), 201)

	r = k.api("GET", pipelines+"?per_page=2", nil)
	l := r.list(t)
	if len(l) != 2 || l[0]["pipeline_id"] != p1 || l[1]["pipeline_id"] != p2 ||
		!strings.Contains(r.header.Get("Link"), `page=2&per_page=2>; rel="next"`) {
		t.Fatalf("page 1 %v, Link %q", l, r.header.Get("Link"))
	}
	if g := k.api("GET", pipelines+"/"+p2, nil).object(t); g["access_level"] != "build_and_read" {
		t.Fatalf("get %v", g)
	}
	r = k.api("PATCH", pipelines+"/"+p2, map[string]any{"access_level": "read_only"})
	expect(t, r, 200)
	if r.object(t)["access_level"] != "read_only" {
		t.Fatalf("update %s", r.raw)
	}

	// go-buildkite's removal names the pipeline in the path; the documented one names it in the body.
	expect(t, k.api("DELETE", pipelines+"/"+p1, nil), http.StatusNoContent)
	expect(t, k.api("DELETE", pipelines+"/", map[string]any{"pipeline_id": p2}), http.StatusNoContent)
	expectError(t, k.api("GET", pipelines+"/"+p1, nil), 404, "No team pipeline found")
	expectError(t, k.api("DELETE", pipelines+"/", map[string]any{"pipeline_id": p2}), 404, "No team pipeline found")
	if l := k.api("GET", pipelines, nil).list(t); len(l) != 1 || l[0]["pipeline_id"] != p3 {
		t.Fatalf("after removals %v", l)
	}

	// A pipeline deleted by its own API disappears from its teams.
	k.dropPipeline(p3)
	if l := k.api("GET", pipelines, nil).list(t); len(l) != 0 {
		t.Fatalf("deleted pipeline still listed %v", l)
	}
	expectError(t, k.api("GET", pipelines+"/"+p3, nil), 404, "No pipeline found")
	if k.srv.Store().Exists(KindTeamPipeline, "acme", team+"/"+p3) {
		t.Fatal("association of a deleted pipeline exists")
	}
}

func TestTeamPipelineErrors(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	p := k.seedPipeline("acme", "P")
	fresh := k.seedPipeline("acme", "Fresh")
	foreign := k.seedPipeline("other", "Foreign")
	pipelines := "/teams/" + team + "/pipelines"
	expect(t, k.api("POST", pipelines, map[string]any{"pipeline_id": p, "access_level": "read_only"}), 201)

	for _, tt := range []struct {
		body    any
		message string
	}{
		{map[string]any{"pipeline_id": newID(), "access_level": "read_only"}, "Pipeline must be a pipeline of the organization"},
		{map[string]any{"pipeline_id": foreign, "access_level": "read_only"}, "Pipeline must be a pipeline of the organization"},
		{map[string]any{"pipeline_id": p, "access_level": "read_only"}, "Pipeline has already been added to the team"},
		{map[string]any{"pipeline_id": fresh, "access_level": "admin"},
			"Access level must be read_only, build_and_read or manage_build_and_read"},
		{map[string]any{"pipeline_id": fresh}, "Access level can't be blank"},
		{map[string]any{"access_level": "read_only"}, "Pipeline can't be blank"},
		{map[string]any{"pipeline_id": true, "access_level": "read_only"}, "Pipeline must be a string"},
	} {
		expectError(t, k.api("POST", pipelines, tt.body), 422, "Validation failed: "+tt.message)
	}
	expectError(t, k.api("POST", pipelines, "{"), 400, "Problems parsing JSON")
	expectError(t, k.api("POST", "/teams/"+newID()+"/pipelines", map[string]any{"pipeline_id": p, "access_level": "read_only"}),
		404, "No team found")
	expectError(t, k.api("GET", "/teams/"+newID()+"/pipelines", nil), 404, "No team found")
	expectError(t, k.api("GET", pipelines+"/"+newID(), nil), 404, "No pipeline found")
	expectError(t, k.api("GET", pipelines+"/"+foreign, nil), 404, "No pipeline found")
	expectError(t, k.api("PATCH", pipelines+"/"+p, map[string]any{"access_level": "all"}), 422,
		"Validation failed: Access level must be read_only, build_and_read or manage_build_and_read")
	expectError(t, k.api("PATCH", pipelines+"/"+p, map[string]any{}), 422, "Validation failed: Access level can't be blank")
	expectError(t, k.api("PATCH", pipelines+"/"+newID(), map[string]any{"access_level": "read_only"}), 404, "No pipeline found")
	expectError(t, k.api("DELETE", pipelines+"/", map[string]any{}), 422, "Validation failed: Pipeline can't be blank")
	expectError(t, k.api("DELETE", pipelines+"/", "{"), 400, "Problems parsing JSON")
	expectError(t, k.api("DELETE", pipelines+"/", map[string]any{"pipeline_id": newID()}), 404, "No pipeline found")
	expectError(t, k.api("DELETE", pipelines+"/"+newID(), nil), 404, "No pipeline found")
	expectError(t, k.api("DELETE", "/teams/"+newID()+"/pipelines/"+p, nil), 404, "No team found")
}

// TestAddTeamPipelineContract exercises the function the pipelines area calls when a pipeline is created
// with teams.
func TestAddTeamPipelineContract(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	p := k.seedPipeline("acme", "P")
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	st := k.srv.Store()
	st.mu.Lock()
	st.addTeamPipeline("acme", team, p, "build_and_read", at)
	st.addTeamPipeline("acme", newID(), p, "read_only", at) // unknown team: ignored
	st.addTeamPipeline("other", team, p, "read_only", at)   // team of another org: ignored
	st.mu.Unlock()
	l := k.api("GET", "/teams/"+team+"/pipelines", nil).list(t)
	if len(l) != 1 || l[0]["access_level"] != "build_and_read" || l[0]["created_at"] != "2024-05-06T07:08:09.123Z" {
		t.Fatalf("after addTeamPipeline %v", l)
	}
	st.mu.Lock()
	st.addTeamPipeline("acme", team, p, "read_only", time.Time{}) // again: changes the level
	st.mu.Unlock()
	if g := k.api("GET", "/teams/"+team+"/pipelines/"+p, nil).object(t); g["access_level"] != "read_only" {
		t.Fatalf("after second addTeamPipeline %v", g)
	}
}

func TestTeamSuites(t *testing.T) {
	k := newTeamsKit(t)
	owner, team := k.createTeam("Owner"), k.createTeam("T")
	suites := "/teams/" + team + "/suites"
	s1Slug, s1 := k.createSuite("Suite One", owner)
	_, s2 := k.createSuite("Suite Two", owner)
	_, s3 := k.createSuite("Suite Three", owner)

	// The documented /suite/, go-buildkite's /suite, and /suites all add a suite.
	r := k.api("POST", "/teams/"+team+"/suite/", map[string]any{"suite_id": s1, "access_level": []string{"read"}})
	expect(t, r, http.StatusCreated)
	ts := r.object(t)
	hasKeys(t, ts, "suite_id", "suite_url", "access_level", "created_at")
	if ts["suite_id"] != s1 || ts["suite_url"] != k.ts.URL+"/v2/analytics/organizations/acme/suites/"+s1Slug {
		t.Fatalf("added %v", ts)
	}
	if a := ts["access_level"].([]any); len(a) != 1 || a[0] != "read" {
		t.Fatalf("access %v", a)
	}
	expectTimestamp(t, "created_at", ts["created_at"])
	expect(t, k.api("POST", "/teams/"+team+"/suite", map[string]any{"suite_id": s2, "access_level": []string{"read", "edit", "read"}}), 201)
	expect(t, k.api("POST", suites, map[string]any{"suite_id": s3, "access_level": []string{"edit"}}), 201)

	l := k.api("GET", suites, nil).list(t)
	if len(l) != 3 || l[0]["suite_id"] != s1 || l[1]["suite_id"] != s2 || len(l[1]["access_level"].([]any)) != 2 {
		t.Fatalf("list %v", l)
	}
	r = k.api("GET", suites+"?per_page=1&page=3", nil)
	if l := r.list(t); len(l) != 1 || l[0]["suite_id"] != s3 {
		t.Fatalf("page 3 %v", l)
	}
	if g := k.api("GET", suites+"/"+s3, nil).object(t); g["access_level"].([]any)[0] != "edit" {
		t.Fatalf("get %v", g)
	}
	// The owner got read and edit when the suite was created with team_ids.
	if g := k.api("GET", "/teams/"+owner+"/suites/"+s1, nil).object(t); len(g["access_level"].([]any)) != 2 {
		t.Fatalf("owner's access %v", g)
	}

	r = k.api("PATCH", suites+"/"+s1, map[string]any{"access_level": []string{"read", "edit"}})
	expect(t, r, 200)
	if a := r.object(t)["access_level"].([]any); len(a) != 2 || a[1] != "edit" {
		t.Fatalf("update %v", a)
	}

	expect(t, k.api("DELETE", suites+"/"+s1+"/", nil), http.StatusNoContent)
	expect(t, k.api("DELETE", suites+"/"+s2, nil), http.StatusNoContent)
	expectError(t, k.api("GET", suites+"/"+s1, nil), 404, "No team suite found")
	expectError(t, k.api("DELETE", suites+"/"+s2, nil), 404, "No team suite found")
	if l := k.api("GET", suites, nil).list(t); len(l) != 1 {
		t.Fatalf("after removals %v", l)
	}

	// Deleting the suite removes it from its teams.
	st := k.srv.Store()
	if !st.Remove(KindSuite, "acme", s3) {
		t.Fatal("Remove suite")
	}
	if l := k.api("GET", suites, nil).list(t); len(l) != 0 {
		t.Fatalf("deleted suite still listed %v", l)
	}
	expectError(t, k.api("GET", suites+"/"+s3, nil), 404, "No suite found")

	// A suite dropped without cleaning up (as another area might) is filtered out too.
	_, s4 := k.createSuite("Suite Four", team)
	st.mu.Lock()
	if su, ok := st.suites.suites.get(s4); ok {
		st.suites.suites.remove(su)
	}
	st.mu.Unlock()
	if l := k.api("GET", suites, nil).list(t); len(l) != 0 {
		t.Fatalf("dangling suite association listed %v", l)
	}
	if st.Exists(KindTeamSuite, "acme", team+"/"+s4) {
		t.Fatal("dangling suite association exists")
	}
}

func TestTeamSuiteErrors(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("T")
	_, s := k.createSuite("S", team) // team already has access
	other := k.createTeam("Other")
	path := "/teams/" + other + "/suite"

	for _, tt := range []struct {
		body    any
		message string
	}{
		{map[string]any{"suite_id": newID(), "access_level": []string{"read"}}, "Suite must be a test suite of the organization"},
		{map[string]any{"suite_id": s, "access_level": []string{}}, "Access level can't be blank"},
		{map[string]any{"suite_id": s}, "Access level can't be blank"},
		{map[string]any{"suite_id": s, "access_level": []string{"read", "admin"}}, "Access level must contain only read and edit"},
		{map[string]any{"suite_id": s, "access_level": "read"}, "Access level must be an array of strings"},
		{map[string]any{"access_level": []string{"read"}}, "Suite can't be blank"},
	} {
		expectError(t, k.api("POST", path, tt.body), 422, "Validation failed: "+tt.message)
	}
	expectError(t, k.api("POST", "/teams/"+team+"/suites", map[string]any{"suite_id": s, "access_level": []string{"read"}}),
		422, "Validation failed: Suite has already been added to the team")
	expectError(t, k.api("POST", path, "{"), 400, "Problems parsing JSON")
	expectError(t, k.api("POST", "/teams/"+newID()+"/suite", map[string]any{"suite_id": s, "access_level": []string{"read"}}),
		404, "No team found")
	expectError(t, k.api("GET", "/teams/"+other+"/suites/"+s, nil), 404, "No team suite found")
	expectError(t, k.api("GET", "/teams/"+other+"/suites/"+newID(), nil), 404, "No suite found")
	expectError(t, k.api("PATCH", "/teams/"+team+"/suites/"+s, map[string]any{"access_level": []string{"write"}}), 422,
		"Validation failed: Access level must contain only read and edit")
	expectError(t, k.api("PATCH", "/teams/"+team+"/suites/"+s, map[string]any{}), 422,
		"Validation failed: Access level can't be blank")
	expectError(t, k.api("PATCH", "/teams/"+other+"/suites/"+s, map[string]any{"access_level": []string{"read"}}), 404,
		"No team suite found")
	expectError(t, k.api("DELETE", "/teams/"+team+"/suites/"+newID()+"/", nil), 404, "No suite found")
}

func TestTeamKinds(t *testing.T) {
	k := newTeamsKit(t)
	st := k.srv.Store()
	_, second := k.memberIDs()
	team := k.createTeam("T")
	p := k.seedPipeline("acme", "P")
	_, s := k.createSuite("S", team)
	expect(t, k.api("POST", "/teams/"+team+"/members", map[string]any{"user_id": second, "role": "member"}), 201)
	expect(t, k.api("POST", "/teams/"+team+"/pipelines", map[string]any{"pipeline_id": p, "access_level": "read_only"}), 201)

	ids := map[Kind]string{
		KindTeam: team, KindTeamMember: team + "/" + second, KindTeamPipeline: team + "/" + p,
		KindTeamSuite: team + "/" + s, KindSuite: s,
	}
	for kind, id := range ids {
		if !st.Exists(kind, "acme", id) {
			t.Errorf("%s %s does not exist", kind, id)
		}
		if st.Exists(kind, "other", id) {
			t.Errorf("%s %s exists in another org", kind, id)
		}
	}
	for _, kind := range []Kind{KindTeamMember, KindTeamPipeline, KindTeamSuite} {
		for _, bad := range []string{team, team + "/" + newID(), newID() + "/" + second, ""} {
			if st.Exists(kind, "acme", bad) || st.Remove(kind, "acme", bad) {
				t.Errorf("%s %q exists", kind, bad)
			}
		}
	}

	// Each association goes on its own, leaving the team.
	for _, kind := range []Kind{KindTeamMember, KindTeamPipeline, KindTeamSuite} {
		if !st.Remove(kind, "acme", ids[kind]) || st.Exists(kind, "acme", ids[kind]) || st.Remove(kind, "acme", ids[kind]) {
			t.Errorf("Remove %s", kind)
		}
	}
	if !st.Exists(KindTeam, "acme", team) || !st.Exists(KindSuite, "acme", s) {
		t.Fatal("removing associations removed the team or suite")
	}

	// Removing a team takes its associations with it.
	other := k.createTeam("Other")
	expect(t, k.api("POST", "/teams/"+other+"/members", map[string]any{"user_id": second, "role": "member"}), 201)
	expect(t, k.api("POST", "/teams/"+other+"/pipelines", map[string]any{"pipeline_id": p, "access_level": "read_only"}), 201)
	expect(t, k.api("POST", "/teams/"+other+"/suite", map[string]any{"suite_id": s, "access_level": []string{"read"}}), 201)
	if st.Remove(KindTeam, "other", other) || !st.Remove(KindTeam, "acme", other) || st.Exists(KindTeam, "acme", other) {
		t.Fatal("Remove team")
	}
	st.mu.RLock()
	n := st.teams.members.len() + st.teams.pipelines.len() + st.teams.suites.len()
	st.mu.RUnlock()
	if n != 0 {
		t.Fatalf("%d associations left after removing the team", n)
	}

	// Deleting a team through the API cascades the same way.
	expect(t, k.api("POST", "/teams/"+team+"/members", map[string]any{"user_id": second, "role": "member"}), 201)
	expect(t, k.api("DELETE", "/teams/"+team, nil), 204)
	if st.Exists(KindTeamMember, "acme", team+"/"+second) {
		t.Fatal("member left after deleting the team")
	}
	if l := k.api("GET", "/teams?user_id="+second, nil).list(t); len(l) != 0 {
		t.Fatalf("teams of the removed member %v", l)
	}
}

// TestAddTeamSuiteContract exercises the function suite creation calls for team_ids.
func TestAddTeamSuiteContract(t *testing.T) {
	k := newTeamsKit(t)
	team, other := k.createTeam("T"), k.createTeam("Other")
	_, s := k.createSuite("S", other)
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	st := k.srv.Store()
	st.mu.Lock()
	st.addTeamSuite("acme", team, s, []string{"read"}, at)
	st.addTeamSuite("acme", newID(), s, []string{"read"}, at) // unknown team: ignored
	st.addTeamSuite("other", team, s, []string{"read"}, at)   // team of another org: ignored
	st.mu.Unlock()
	g := k.api("GET", "/teams/"+team+"/suites/"+s, nil).object(t)
	if a := g["access_level"].([]any); len(a) != 1 || a[0] != "read" || g["created_at"] != "2024-01-02T03:04:05.000Z" {
		t.Fatalf("after addTeamSuite %v", g)
	}
	st.mu.Lock()
	st.addTeamSuite("acme", team, s, []string{"edit"}, time.Time{}) // again: replaces the access
	st.mu.Unlock()
	g = k.api("GET", "/teams/"+team+"/suites/"+s, nil).object(t)
	if a := g["access_level"].([]any); len(a) != 1 || a[0] != "edit" || g["created_at"] != "2024-01-02T03:04:05.000Z" {
		t.Fatalf("after second addTeamSuite %v", g)
	}
	expectError(t, k.api("GET", "/teams/"+newID()+"/members/"+newID(), nil), 404, "No team found")
	expectError(t, k.api("GET", "/teams/"+newID()+"/suites/"+s, nil), 404, "No team found")
}

package fakeserver

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// exampleFixtures is the documented example, which must always load.
const exampleFixtures = "../examples/fakeserver/fixtures.yaml"

func loadExample(t *testing.T) *Fixtures {
	t.Helper()
	f, err := LoadFixtures(exampleFixtures)
	if err != nil {
		t.Fatalf("the example fixtures do not load: %v", err)
	}
	return f
}

func TestExampleFixturesLoad(t *testing.T) {
	f := loadExample(t)
	if len(f.Organizations) != 2 || len(f.Users) != 2 || len(f.AccessTokens) != 3 || len(f.AgentTokens) != 1 ||
		len(f.Agents) != 3 || len(f.Jobs) != 3 || len(f.Suites) != 1 || len(f.Suites[0].FlakyTests) != 2 {
		t.Fatalf("example %+v", f)
	}
	s := f.Suites[0]
	if s.Org != "demo" || s.Slug != "rspec" || s.DefaultBranch != "main" || s.FlakyTests[0].LatestAt.IsZero() ||
		s.FlakyTests[0].LastResolvedAt != nil || s.FlakyTests[1].LastResolvedAt == nil {
		t.Fatalf("suite %+v", s)
	}
	if !reflect.DeepEqual([]string(f.AccessTokens[0].Scopes), []string{"all"}) {
		t.Fatalf("scopes %v", f.AccessTokens[0].Scopes)
	}
	// Checking does not fill defaults into the caller's fixtures.
	if f.AccessTokens[2].Orgs != nil || f.Organizations[1].Name != "" || f.Agents[2].Queue != "" {
		t.Fatalf("defaults leaked into the fixtures: %+v", f)
	}
}

func TestNewWithExampleFixtures(t *testing.T) {
	e := newEnv(t, Options{Fixtures: loadExample(t)})

	// The defaults of Options are not there.
	expect(t, e.do("GET", "/v2/organizations/acme", "test-token", nil), http.StatusUnauthorized)

	// Each token sees its own organizations only.
	for token, want := range map[string][]string{
		"demo-token":   {"demo"},
		"side-token":   {"side-project"},
		"member-token": {"demo"}, // defaulted to the user's memberships
	} {
		var got []string
		for _, o := range e.do("GET", "/v2/organizations", token, nil).list(t) {
			got = append(got, o["slug"].(string))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s sees %v, want %v", token, got, want)
		}
	}
	expectError(t, e.do("GET", "/v2/organizations/side-project", "demo-token", nil), 404, "No organization found")
	expectError(t, e.do("GET", "/v2/organizations/demo/members", "side-token", nil), 404, "No organization found")

	org := e.do("GET", "/v2/organizations/demo", "demo-token", nil).object(t)
	if org["name"] != "Demo Inc" {
		t.Errorf("demo %v", org)
	}
	if o := e.do("GET", "/v2/organizations/side-project", "side-token", nil).object(t); o["name"] != "Side Project" {
		t.Errorf("side-project %v", o)
	}

	// Scopes: all, a list, and what a list leaves out.
	expect(t, e.do("POST", "/v2/organizations/demo/clusters", "demo-token", map[string]any{"name": "c"}), 201)
	expectError(t, e.do("GET", "/v2/organizations/side-project/clusters", "side-token", nil), 403,
		"Your access token doesn't have the read_clusters scope")
	expect(t, e.do("GET", "/v2/organizations/demo/clusters", "member-token", nil), 200)
	expectError(t, e.do("POST", "/v2/organizations/demo/clusters", "member-token", map[string]any{"name": "c"}), 403,
		"Your access token doesn't have the write_clusters scope")

	// Members, with the non-admin one.
	members := e.do("GET", "/v2/organizations/demo/members", "member-token", nil).list(t)
	if len(members) != 2 || members[0]["name"] != "Dana Admin" || members[1]["email"] != "sam@example.com" {
		t.Fatalf("members %v", members)
	}
	if side := e.do("GET", "/v2/organizations/side-project/members", "side-token", nil).list(t); len(side) != 1 {
		t.Fatalf("side-project members %v", side)
	}

	st := e.srv.Store()
	st.mu.RLock()
	dana, sam := st.userByEmail("dana@example.com").id, st.userByEmail("sam@example.com").id
	demo, side := *st.orgs["demo"], *st.orgs["side-project"]
	danaAdmin, samAdmin, samInSide := st.isAdmin("demo", dana), st.isAdmin("demo", sam), st.isMember("side-project", sam)
	owner := st.tokens["member-token"].userID
	st.mu.RUnlock()
	if !danaAdmin || samAdmin || samInSide || owner != sam {
		t.Errorf("dana admin %v, sam admin %v, sam in side-project %v, member-token's user %s", danaAdmin, samAdmin, samInSide, owner)
	}
	if !demo.enterprise || !demo.teamsEnabled || side.enterprise || side.teamsEnabled {
		t.Errorf("plans: demo %v/%v side-project %v/%v", demo.enterprise, demo.teamsEnabled, side.enterprise, side.teamsEnabled)
	}

	// Metrics of the example's agent token.
	status, m, raw := getMetrics(t, e.srv, "/v3/metrics", "Token demo-agent-token", "")
	if status != 200 || m.Organization.Slug != "demo" || m.Agents.Total != 3 || m.Agents.Busy != 1 ||
		m.Jobs.Total != 7 || m.Jobs.Queues["default"].Waiting != 2 {
		t.Errorf("metrics %d %v", status, raw)
	}
}

func TestFixturesJSONAndScopeForms(t *testing.T) {
	const doc = `{
		"organizations": [{"slug": "solo", "plan": "pro", "teams_enabled": false}],
		"users": [{"name": "U", "email": "u@example.com", "memberships": [{"admin": true}]}],
		"access_tokens": [
			{"token": "one", "user": "u@example.com", "scopes": "read_organizations"},
			{"token": "none", "user": "U@EXAMPLE.COM", "scopes": []},
			{"token": "listed", "user": "u@example.com", "orgs": ["solo"], "scopes": ["all", "read_rules"]}
		],
		"agent_tokens": [{"token": "agent"}],
		"agents": [{"name": "a"}],
		"jobs": [{"state": "running", "count": 3}]
	}`
	for _, format := range []string{"json", ""} {
		f, err := ParseFixtures([]byte(doc), format)
		if err != nil {
			t.Fatalf("format %q: %v", format, err)
		}
		if got := f.AccessTokens[1].Scopes; got == nil || len(got) != 0 {
			t.Fatalf("empty scopes read as %#v", got)
		}
	}
	f, _ := ParseFixtures([]byte(doc), "json")
	e := newEnv(t, Options{Fixtures: f})
	expect(t, e.do("GET", "/v2/organizations/solo", "one", nil), 200)
	expectError(t, e.do("GET", "/v2/organizations/solo/clusters", "one", nil), 403,
		"Your access token doesn't have the read_clusters scope")
	expectError(t, e.do("GET", "/v2/organizations/solo", "none", nil), 403,
		"Your access token doesn't have the read_organizations scope")
	expect(t, e.do("GET", "/v2/organizations/solo/clusters", "listed", nil), 200)
	_, m, _ := getMetrics(t, e.srv, "/v3/metrics", "Token agent", "")
	if m.Organization.Slug != "solo" || m.Agents.Queues["default"].Idle != 1 || m.Jobs.Running != 3 {
		t.Errorf("metrics %+v", m)
	}

	// The same in YAML, with scopes as one string and as a sequence.
	y := `
organizations: [{slug: solo}]
users: [{name: U, email: u@example.com, memberships: [{org: solo}]}]
access_tokens:
  - {token: a, user: u@example.com, scopes: all}
  - {token: b, user: u@example.com, scopes: [read_organizations]}
  - {token: c, user: u@example.com, scopes: []}
`
	f, err := ParseFixtures([]byte(y), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.AccessTokens[0].Scopes.resolve(); len(got) != len(AllScopes()) {
		t.Errorf("all resolves to %v", got)
	}
	if got := f.AccessTokens[2].Scopes; got == nil || len(got) != 0 {
		t.Errorf("empty YAML scopes read as %#v", got)
	}
}

func TestLoadFixturesByExtension(t *testing.T) {
	dir := t.TempDir()
	const yamlDoc = "organizations:\n  - slug: y\n"
	const jsonDoc = `{"organizations": [{"slug": "j"}]}`
	for name, content := range map[string]string{
		"a.yaml": yamlDoc, "b.yml": yamlDoc, "c.json": jsonDoc, "d": yamlDoc, "e.txt": jsonDoc,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadFixtures(path); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// JSON in a .yaml file still parses (YAML reads JSON), YAML in a .json file does not.
	path := filepath.Join(dir, "wrong.json")
	if err := os.WriteFile(path, []byte(yamlDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFixtures(path); err == nil || !strings.Contains(err.Error(), "wrong.json") ||
		!strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("YAML in a .json file: %v", err)
	}
	if _, err := LoadFixtures(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("a missing file loaded")
	}
}

func TestParseFixturesErrors(t *testing.T) {
	const orgs = "organizations: [{slug: acme}, {slug: beta}]\n"
	const users = "users: [{name: U, email: u@example.com, memberships: [{org: acme}]}]\n"
	tests := []struct {
		name, doc, format string
		want              []string // substrings of the error
	}{
		{"empty", "  \n", "", []string{"empty"}},
		{"unknown format", orgs, "toml", []string{`unknown fixture format "toml"`}},
		{"not YAML", "organizations: [", "yaml", []string{"not valid YAML"}},
		{"not JSON", `{"organizations": [}`, "json", []string{"not valid JSON"}},
		{"JSON wrong type", "{\n\"organizations\": [{\"slug\": \"a\", \"teams_enabled\": 3}]}", "json",
			[]string{"line 2", "teams_enabled"}},
		{"unknown property YAML", orgs + "agentz: []\n", "yaml", []string{"agentz"}},
		{"unknown property JSON", `{"organizations": [{"slug": "a", "colour": "red"}]}`, "json", []string{"colour"}},
		{"wrong type", "organizations: [{slug: a, teams_enabled: maybe}]\n", "", []string{"line 1"}},
		{"two YAML documents", orgs + "---\n" + orgs, "yaml", []string{"more than one YAML document"}},
		{"trailing JSON", `{"organizations": [{"slug": "a"}]} {}`, "json", []string{"after the JSON object"}},
		{"bad scopes type", orgs + users + "access_tokens: [{token: t, user: u@example.com, scopes: {a: b}}]\n", "",
			[]string{"scopes must be a string or a list"}},
		{"bad scopes type JSON", `{"organizations":[{"slug":"a"}],"access_tokens":[{"scopes":1}]}`, "json",
			[]string{"scopes must be a string or an array"}},

		{"no organizations", "users: []\n", "", []string{"declare at least one organization"}},
		{"organization without slug", "organizations: [{name: X}]\n", "", []string{"organizations[0]: slug is required"}},
		{"bad slug", "organizations: [{slug: 'a b'}]\n", "", []string{`organizations[0] "a b": slug must be`}},
		{"duplicate slug", "organizations: [{slug: a}, {slug: a}]\n", "", []string{`organizations[1] "a": slug is declared twice`}},
		{"bad plan", "organizations: [{slug: a, plan: gold}]\n", "", []string{`organizations[0] "a": plan "gold" is not enterprise, pro or free`}},

		{"user without name", orgs + "users: [{email: u@example.com}]\n", "", []string{`users[0] "u@example.com": name is required`}},
		{"user without email", orgs + "users: [{name: U}]\n", "", []string{"users[0]: email is required"}},
		{"bad email", orgs + "users: [{name: U, email: nobody}]\n", "", []string{`email "nobody" is not an e-mail address`}},
		{"duplicate email", orgs + "users: [{name: U, email: u@x.io}, {name: V, email: U@X.IO}]\n", "",
			[]string{`users[1] "U@X.IO": email is declared twice`}},
		{"membership of unknown org", orgs + "users: [{name: U, email: u@x.io, memberships: [{org: nope}]}]\n", "",
			[]string{`users[0] "u@x.io": memberships[0]: organization "nope" is not declared in organizations`}},
		{"membership without org", orgs + "users: [{name: U, email: u@x.io, memberships: [{admin: true}]}]\n", "",
			[]string{"memberships[0]: org is required when more than one organization is declared"}},
		{"membership twice", orgs + "users: [{name: U, email: u@x.io, memberships: [{org: acme}, {org: acme}]}]\n", "",
			[]string{`memberships[1]: organization "acme" is listed twice`}},

		{"token without token", orgs + users + "access_tokens: [{user: u@example.com, scopes: all}]\n", "",
			[]string{"access_tokens[0]: token is required"}},
		{"duplicate token", orgs + users + "access_tokens: [{token: t, user: u@example.com, scopes: all}, {token: t, user: u@example.com, scopes: all}]\n", "",
			[]string{`access_tokens[1] "t": token is declared twice`}},
		{"token without user", orgs + users + "access_tokens: [{token: t, scopes: all}]\n", "",
			[]string{`access_tokens[0] "t": user is required`}},
		{"token of unknown user", orgs + users + "access_tokens: [{token: t, user: x@example.com, scopes: all}]\n", "",
			[]string{`user "x@example.com" is not declared in users`}},
		{"token for unknown org", orgs + users + "access_tokens: [{token: t, user: u@example.com, orgs: [nope], scopes: all}]\n", "",
			[]string{`access_tokens[0] "t": organization "nope" is not declared`}},
		{"token for org of which the user is not a member", orgs + users + "access_tokens: [{token: t, user: u@example.com, orgs: [beta], scopes: all}]\n", "",
			[]string{`user "u@example.com" is not a member of organization "beta"`}},
		{"token seeing nothing", orgs + "users: [{name: U, email: u@example.com}]\naccess_tokens: [{token: t, user: u@example.com, scopes: all}]\n", "",
			[]string{"the token would see no organization"}},
		{"token without scopes", orgs + users + "access_tokens: [{token: t, user: u@example.com}]\n", "",
			[]string{`access_tokens[0] "t": scopes are required`}},
		{"unknown scope", orgs + users + "access_tokens: [{token: t, user: u@example.com, scopes: [read_everything]}]\n", "",
			[]string{`unknown scope "read_everything"`}},

		{"agent token without token", orgs + "agent_tokens: [{org: acme}]\n", "", []string{"agent_tokens[0]: token is required"}},
		{"agent token twice", orgs + "agent_tokens: [{org: acme, token: a}, {org: beta, token: a}]\n", "",
			[]string{`agent_tokens[1] "a": token is declared twice`}},
		{"agent token without org", orgs + "agent_tokens: [{token: a}]\n", "",
			[]string{`agent_tokens[0] "a": org is required when more than one organization is declared`}},
		{"agent without name", orgs + "agents: [{org: acme}]\n", "", []string{"agents[0]: name is required"}},
		{"agent in a bad state", orgs + "agents: [{org: acme, name: x, state: sleeping}]\n", "",
			[]string{`agents[0] "x": state "sleeping" is not idle or busy`}},
		{"agent of unknown org", orgs + "agents: [{org: nope, name: x}]\n", "",
			[]string{`agents[0] "x": organization "nope" is not declared`}},
		{"jobs without state", orgs + "jobs: [{org: acme, count: 1}]\n", "", []string{"jobs[0]: state is required"}},
		{"jobs in a bad state", orgs + "jobs: [{org: acme, state: done}]\n", "", []string{`jobs[0]: state "done" is not scheduled`}},
		{"negative jobs", orgs + "jobs: [{org: acme, state: running, count: -2}]\n", "", []string{"jobs[0]: count -2 is negative"}},
		{"jobs twice", orgs + "jobs: [{org: acme, state: running}, {org: acme, queue: default, state: running}]\n", "",
			[]string{`jobs[1]: the running jobs of queue "default" are declared twice`}},
		{"suite of unknown org", orgs + "suites: [{org: nope, slug: s, name: S}]\n", "",
			[]string{`suites[0] "s": organization "nope" is not declared`}},

		{"every problem at once", "organizations: [{slug: a}, {plan: x}]\nagents: [{org: a}]\n", "",
			[]string{"3 problems", "organizations[1]: slug is required", "plan \"x\"", "agents[0]: name is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFixtures([]byte(tt.doc), tt.format)
			if err == nil {
				t.Fatalf("accepted: %+v", f)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestNewPanicsOnInvalidHandBuiltFixtures(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "organizations[0]: slug is required") {
			t.Fatalf("recovered %v", r)
		}
	}()
	New(Options{Fixtures: &Fixtures{Organizations: []OrganizationFixture{{Name: "no slug"}}}})
}

func TestHandBuiltFixtures(t *testing.T) {
	f := &Fixtures{
		Organizations: []OrganizationFixture{{Slug: "one"}, {Slug: "two"}},
		Users: []UserFixture{{Name: "Test User", Email: "test-user@example.com", Memberships: []MembershipFixture{
			{Org: "one", Admin: true}, {Org: "two"},
		}}},
		AccessTokens: []AccessTokenFixture{{Token: "tok", User: "test-user@example.com", Orgs: []string{"two"}, Scopes: Scopes{"all"}}},
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{Fixtures: f, Org: "ignored", Token: "ignored"})
	expect(t, e.do("GET", "/v2/organizations/two", "tok", nil), 200)
	expectError(t, e.do("GET", "/v2/organizations/one", "tok", nil), 404, "No organization found")
	expect(t, e.do("GET", "/v2/organizations/ignored", "ignored", nil), 401)
	// The default user is reused by e-mail rather than duplicated.
	st := e.srv.Store()
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.tokens["tok"].userID != st.defaultUserID || len(st.users) != 1 {
		t.Fatalf("users %d, token user %s, default %s", len(st.users), st.tokens["tok"].userID, st.defaultUserID)
	}
}

// A fixture user may carry the UUID a client already knows (the official provider's tests name theirs);
// its GraphQL ID follows from it, and a bad or repeated ID is refused by name.
func TestFixtureUserID(t *testing.T) {
	const id = "8db2920e-3c0a-4d6f-9c4e-2f1d6a1b7c3e"
	f := &Fixtures{
		Organizations: []OrganizationFixture{{Slug: "one"}},
		Users: []UserFixture{{ID: strings.ToUpper(id), Name: "Test User", Email: "test-user@example.com",
			Memberships: []MembershipFixture{{Org: "one", Admin: true}}}},
		AccessTokens: []AccessTokenFixture{{Token: "tok", User: "test-user@example.com", Scopes: Scopes{"all"}}},
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{Fixtures: f})
	r := e.do("GET", "/v2/organizations/one/members/"+id, "tok", nil)
	expect(t, r, 200)
	if !strings.Contains(string(r.raw), `"graphql_id":"`+graphQLID("User", id)+`"`) {
		t.Fatalf("member %s: %s", id, r.raw)
	}
	for _, bad := range []struct{ users, want string }{
		{"users: [{id: nope, name: U, email: u@example.com}]\n", `id "nope" is not a UUID`},
		{"users: [{id: " + id + ", name: U, email: u@example.com}, {id: " + strings.ToUpper(id) + ", name: V, email: v@example.com}]\n",
			"id " + id + " is declared twice"},
	} {
		_, err := ParseFixtures([]byte("organizations: [{slug: one}]\n"+bad.users), "yaml")
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.users, err, bad.want)
		}
	}
}

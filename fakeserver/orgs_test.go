package fakeserver

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/buildkite/go-buildkite/v4"
)

func TestOrganizationView(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("GET", "", nil)
	expect(t, r, http.StatusOK)
	o := r.object(t)
	hasKeys(t, o, "id", "graphql_id", "url", "web_url", "name", "slug", "pipelines_url", "agents_url",
		"emojis_url", "created_at")
	base := e.ts.URL + "/v2/organizations/acme"
	want := map[string]any{
		"name": "Acme", "slug": "acme", "url": base, "web_url": e.ts.URL + "/acme",
		"pipelines_url": base + "/pipelines", "agents_url": base + "/agents", "emojis_url": base + "/emojis",
	}
	for k, v := range want {
		if o[k] != v {
			t.Errorf("%s = %v, want %v", k, o[k], v)
		}
	}
	if _, err := time.Parse(time.RFC3339Nano, o["created_at"].(string)); err != nil {
		t.Errorf("created_at: %v", err)
	}
	if o["graphql_id"] != graphQLID("Organization", o["id"].(string)) {
		t.Errorf("graphql_id %v", o["graphql_id"])
	}
}

func TestListOrganizationsOnlyTheTokens(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	st.AddToken("two-orgs", []string{"zeta", "beta"}, AllScopes())
	st.AddOrg("hidden", "")

	l := e.do("GET", "/v2/organizations", "test-token", nil).list(t)
	if len(l) != 1 || l[0]["slug"] != "acme" {
		t.Fatalf("test-token sees %v", l)
	}
	r := e.do("GET", "/v2/organizations", "two-orgs", nil)
	expect(t, r, http.StatusOK)
	if l := r.list(t); len(l) != 2 || l[0]["slug"] != "beta" || l[1]["slug"] != "zeta" || l[0]["name"] != "Beta" {
		t.Fatalf("two-orgs sees %v", l)
	}

	// Paginated: one per page.
	r = e.do("GET", "/v2/organizations?per_page=1", "two-orgs", nil)
	if l := r.list(t); len(l) != 1 || l[0]["slug"] != "beta" {
		t.Fatalf("page 1: %v", l)
	}
	if link := r.header.Get("Link"); !strings.Contains(link, `page=2&per_page=1>; rel="next"`) {
		t.Fatalf("Link %q", link)
	}
	if l := e.do("GET", "/v2/organizations?per_page=1&page=2", "two-orgs", nil).list(t); len(l) != 1 || l[0]["slug"] != "zeta" {
		t.Fatalf("page 2: %v", l)
	}
	if l := e.do("GET", "/v2/organizations?page=9", "two-orgs", nil).list(t); len(l) != 0 {
		t.Fatalf("past the end: %v", l)
	}

	expectError(t, e.do("GET", "/v2/organizations/hidden", "two-orgs", nil), 404, "No organization found")
	expectError(t, e.do("GET", "/v2/organizations/acme", "two-orgs", nil), 404, "No organization found")
	expect(t, e.do("GET", "/v2/organizations/zeta", "two-orgs", nil), 200)
}

func TestOrganizationEndpointsAuth(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("no-orgs-scope", []string{"acme"}, []string{scopeReadClusters})
	var member string
	_ = e.srv.store.view(func() *apiError { member = e.srv.store.defaultUserID; return nil })
	unauthorized := "Authentication required. Please supply a valid API Access Token: " + authDocsURL
	for _, path := range []string{
		"/v2/organizations", "/v2/organizations/acme", "/v2/organizations/acme/members",
		"/v2/organizations/acme/members/" + member,
	} {
		expectError(t, e.do("GET", path, "", nil), 401, unauthorized)
		expectError(t, e.do("GET", path, "wrong", nil), 401, unauthorized)
		expectError(t, e.do("GET", path, "no-orgs-scope", nil), 403,
			"Your access token doesn't have the read_organizations scope")
		expect(t, e.do("GET", path, "test-token", nil), 200)
		expect(t, e.do("POST", path, "test-token", nil), 405)
	}
	for _, path := range []string{"/v2/organizations/nope", "/v2/organizations/nope/members",
		"/v2/organizations/nope/members/" + member} {
		expectError(t, e.do("GET", path, "test-token", nil), 404, "No organization found")
	}
}

func TestMembers(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	outsider := st.AddUser("other", "Outsider", "outsider@example.com", true)

	r := e.api("GET", "/members", nil)
	expect(t, r, http.StatusOK)
	l := r.list(t)
	if len(l) != 2 || l[0]["name"] != "Second Member" || l[1]["name"] != "Test User" ||
		l[1]["email"] != "test-user@example.com" {
		t.Fatalf("members %v", l)
	}
	hasKeys(t, l[0], "id", "graphql_id", "name", "email")

	// A new member appears in name order; pages are stable.
	added := st.AddUser("acme", "Alice", "alice@example.com", false)
	r = e.api("GET", "/members?per_page=2", nil)
	if l := r.list(t); len(l) != 2 || l[0]["id"] != added || l[1]["name"] != "Second Member" {
		t.Fatalf("page 1 %v", l)
	}
	if link := r.header.Get("Link"); !strings.Contains(link, `rel="next"`) || !strings.Contains(link, `rel="last"`) {
		t.Fatalf("Link %q", link)
	}
	if l := e.api("GET", "/members?per_page=2&page=2", nil).list(t); len(l) != 1 || l[0]["name"] != "Test User" {
		t.Fatalf("page 2 %v", l)
	}

	r = e.api("GET", "/members/"+added, nil)
	expect(t, r, http.StatusOK)
	if m := r.object(t); m["id"] != added || m["name"] != "Alice" || m["email"] != "alice@example.com" ||
		m["graphql_id"] != graphQLID("User", added) {
		t.Fatalf("member %v", m)
	}
	expectError(t, e.api("GET", "/members/"+outsider, nil), 404, "No member found")
	expectError(t, e.api("GET", "/members/00000000-0000-0000-0000-000000000000", nil), 404, "No member found")
}

func TestOrganizationsDecodeWithGoBuildkite(t *testing.T) {
	e := newEnv(t, Options{})
	second := e.srv.Store().AddUser("acme", "Second Member", "second-member@example.com", false)
	client := e.goBuildkite()
	ctx := context.Background()

	orgs, _, err := client.Organizations.List(ctx, nil)
	if err != nil || len(orgs) != 1 {
		t.Fatalf("List: %v %v", orgs, err)
	}
	o := orgs[0]
	if o.Slug != "acme" || o.Name != "Acme" || o.ID == "" || o.GraphQLID == "" || o.URL == "" || o.WebURL == "" ||
		o.PipelinesURL == "" || o.AgentsURL == "" || o.EmojisURL == "" || o.CreatedAt == nil || o.CreatedAt.IsZero() {
		t.Fatalf("organization %+v", o)
	}
	got, _, err := client.Organizations.Get(ctx, "acme")
	if err != nil || got.ID != o.ID {
		t.Fatalf("Get: %+v %v", got, err)
	}
	if _, _, err := client.Organizations.Get(ctx, "nope"); err == nil {
		t.Fatal("Get of an unknown organization succeeded")
	}

	members, resp, err := client.Members.List(ctx, "acme", &buildkite.MemberListOptions{
		ListOptions: buildkite.ListOptions{PerPage: 1},
	})
	if err != nil || len(members) != 1 || resp.NextPage != 2 || resp.LastPage != 2 {
		t.Fatalf("Members.List: %v %+v %v", members, resp, err)
	}
	m, _, err := client.Members.Get(ctx, "acme", second)
	if err != nil || m.UUID != second || m.Name != "Second Member" || m.Email != "second-member@example.com" {
		t.Fatalf("Members.Get: %+v %v", m, err)
	}
}

func TestOrgSeeding(t *testing.T) {
	st := New(Options{}).Store()
	if err := st.SetOrgPlan("nope", false, false); err == nil {
		t.Fatal("SetOrgPlan of an unknown organization succeeded")
	}
	st.AddOrg("fresh", "Fresh Org")
	if err := st.SetOrgPlan("fresh", false, false); err != nil {
		t.Fatal(err)
	}
	st.mu.RLock()
	o := *st.orgs["fresh"]
	st.mu.RUnlock()
	if o.name != "Fresh Org" || o.enterprise || o.teamsEnabled {
		t.Fatalf("fresh %+v", o)
	}

	// AddUser reuses a user by e-mail, changing only the membership.
	id := st.AddUser("fresh", "Someone", "someone@example.com", false)
	if again := st.AddUser("fresh", "Other Name", "SOMEONE@example.com", true); again != id {
		t.Fatalf("AddUser made a second user %s for %s", again, id)
	}
	st.mu.RLock()
	admin, name := st.isAdmin("fresh", id), st.users[id].name
	st.mu.RUnlock()
	if !admin || name != "Someone" {
		t.Fatalf("admin %v name %q", admin, name)
	}

	if err := st.AddTokenForUser("t", "no-such-user", []string{"fresh"}, AllScopes()); err == nil {
		t.Error("token for an unknown user")
	}
	if err := st.AddTokenForUser("t", id, []string{"acme"}, AllScopes()); err == nil {
		t.Error("token for an organization the user is not in")
	}
	if err := st.AddTokenForUser("t", id, []string{"nowhere"}, AllScopes()); err == nil {
		t.Error("token for an unknown organization")
	}
	if err := st.AddTokenForUser("", id, []string{"fresh"}, AllScopes()); err == nil {
		t.Error("empty token")
	}
	if err := st.AddTokenForUser("t", id, []string{"fresh"}, []string{scopeReadOrganizations}); err != nil {
		t.Fatal(err)
	}
}

func TestTokenForNonAdminUser(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	id := st.AddUser("acme", "Member", "member@example.com", false)
	if err := st.AddTokenForUser("member-token", id, []string{"acme"}, AllScopes()); err != nil {
		t.Fatal(err)
	}
	// The cluster's creator is the token's user.
	r := e.do("POST", "/v2/organizations/acme/clusters", "member-token", map[string]any{"name": "mine"})
	expect(t, r, http.StatusCreated)
	if by := r.object(t)["created_by"].(map[string]any); by["id"] != id || by["name"] != "Member" {
		t.Fatalf("created_by %v", by)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.isAdmin("acme", id) || !st.isMember("acme", id) {
		t.Fatal("member is an admin, or not a member")
	}
}

package fakeserver

import (
	"net/http"
	"testing"
)

// TestGraphQLMembersByEmail: Organization.members(email:) finds one member, as Buildkite's CLI asks
// (FindUserByEmail, for bk build list --creator <email>); search and paging work on the same list.
func TestGraphQLMembersByEmail(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	sam := st.AddUser("acme", "Sam Member", "sam@example.com", false)
	const q = `query FindUserByEmail($organization: ID!, $email: String!) {
	  organization(slug: $organization) { members(first: 1, email: $email) { edges { node { role user { id uuid email } } } } }
	}`
	a := e.gql(q, map[string]any{"organization": "acme", "email": "SAM@example.com"}).ok(t)
	if got := a.str(t, "organization", "members", "edges", 0, "node", "user", "uuid"); got != sam {
		t.Errorf("member by e-mail: %s, want %s", got, sam)
	}
	if got := a.str(t, "organization", "members", "edges", 0, "node", "role"); got != "MEMBER" {
		t.Errorf("role %s", got)
	}
	a = e.gql(q, map[string]any{"organization": "acme", "email": "nobody@example.com"}).ok(t)
	if edges := a.at(t, "organization", "members", "edges").([]any); len(edges) != 0 {
		t.Errorf("an unknown e-mail found %v", edges)
	}
	rest := e.api("GET", "/members", nil).list(t)
	a = e.gql(`{ organization(slug: "acme") { members(first: 10) { count edges { node { user { uuid } } } } } }`, nil).ok(t)
	if n := a.at(t, "organization", "members", "count"); n != float64(len(rest)) {
		t.Errorf("count %v, want %d as over REST", n, len(rest))
	}
	if got := a.str(t, "organization", "members", "edges", 0, "node", "user", "uuid"); got != sam {
		t.Errorf("newest member first: %s, want %s", got, sam)
	}
	a = e.gql(`{ organization(slug: "acme") { members(first: 10, search: "sam") { count } } }`, nil).ok(t)
	if n := a.at(t, "organization", "members", "count"); n != 1.0 {
		t.Errorf("search count %v, want 1", n)
	}
}

// TestGraphQLInvitationCreate: organizationInvitationCreate (bk user invite) makes pending invitations the
// REST API lists, with the REST checks: a member's address and a bad one are refused, and only an
// administrator may invite.
func TestGraphQLInvitationCreate(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	org := e.orgGraphQLID()
	const m = `mutation InviteUser($organization: ID!, $emails: [String!]!) {
	  organizationInvitationCreate(input: { organizationID: $organization, emails: $emails }) {
	    clientMutationId invitationEdges { node { email role state } }
	  }
	}`
	a := e.gql(m, map[string]any{"organization": org, "emails": []string{"new@example.com"}}).ok(t)
	if got := a.str(t, "organizationInvitationCreate", "invitationEdges", 0, "node", "state"); got != "PENDING" {
		t.Errorf("state %s", got)
	}
	r := e.api("GET", "/invitations", nil)
	expect(t, r, http.StatusOK)
	items, _ := r.object(t)["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["email"] != "new@example.com" {
		t.Errorf("invitations over REST: %s", r.raw)
	}

	sam := st.AddUser("acme", "Sam Member", "sam@example.com", false)
	a = e.gql(m, map[string]any{"organization": org, "emails": []string{"sam@example.com"}})
	if msg := a.errorMessage(t); msg != "Validation failed: Emails sam@example.com is already a member of this organization" {
		t.Errorf("inviting a member: %q", msg)
	}
	a = e.gql(m, map[string]any{"organization": org, "emails": []string{"not an address"}})
	if msg := a.errorMessage(t); msg == "" {
		t.Error("a bad address was taken")
	}
	if err := st.AddTokenForUser("sam-token", sam, []string{"acme"}, []string{"graphql"}); err != nil {
		t.Fatal(err)
	}
	a = e.gqlAs("sam-token", m, map[string]any{"organization": org, "emails": []string{"other@example.com"}}, "")
	if msg := a.errorMessage(t); msg != "Forbidden: only an administrator of the organization may do this" {
		t.Errorf("a member invited: %q", msg)
	}
}

package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestInvitationsLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/invitations", map[string]any{"emails": []string{"new@example.com", "NEW@example.com", "other@example.com"}, "role": "admin"})
	expect(t, r, http.StatusCreated)
	created := r.list(t)
	if len(created) != 2 || created[0]["state"] != "pending" || created[0]["role"] != "admin" || created[0]["sso_mode"] != "required" {
		t.Fatalf("created %v", created)
	}
	hasKeys(t, created[0], "id", "graphql_id", "url", "email", "state", "role", "sso_mode", "teams", "created_at", "created_by",
		"accepted_at", "accepted_by", "revoked_at", "revoked_by", "expired_at")
	id, other := created[0]["id"].(string), created[1]["id"].(string)

	// Accepted through the test-only route: the addressee is then a member with the invitation's role.
	expect(t, e.do("POST", "/_fake/organizations/acme/invitations/"+id+"/accept", "", nil), http.StatusOK)
	r = e.api("GET", "/invitations/"+id, nil)
	expect(t, r, http.StatusOK)
	inv := r.object(t)
	accepted, _ := inv["accepted_by"].(map[string]any)
	if inv["state"] != "accepted" || accepted == nil {
		t.Fatalf("accepted %v", inv)
	}
	r = e.api("GET", "/members/"+accepted["id"].(string), nil)
	expect(t, r, http.StatusOK)
	if m := r.object(t); m["role"] != "admin" || m["sso_mode"] != "required" || m["email"] != "new@example.com" {
		t.Fatalf("member %v", m)
	}
	// Only pending invitations are listed; only they can be revoked.
	r = e.api("GET", "/invitations", nil)
	expect(t, r, http.StatusOK)
	if items := r.object(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != other {
		t.Fatalf("pending %v", items)
	}
	expectError(t, e.api("DELETE", "/invitations/"+id, nil), http.StatusUnprocessableEntity, "Only a pending invitation can be revoked (this one is accepted)")
	expect(t, e.api("DELETE", "/invitations/"+other, nil), http.StatusNoContent)
	if got := e.api("GET", "/invitations/"+other, nil).object(t); got["state"] != "revoked" || got["revoked_by"] == nil {
		t.Fatalf("revoked %v", got)
	}

	// Members: role and SSO mode change; the last administrator and one's own membership are kept.
	member := accepted["id"].(string)
	r = e.api("PATCH", "/members/"+member, map[string]any{"role": "member", "sso_mode": "optional"})
	expect(t, r, http.StatusOK)
	if m := r.object(t); m["role"] != "member" || m["sso_mode"] != "optional" {
		t.Fatalf("patched %v", m)
	}
	self := e.api("GET", "/members", nil).list(t)
	var me string
	for _, m := range self {
		if m["email"] == "test-user@example.com" {
			me = m["id"].(string)
		}
	}
	expectError(t, e.api("PATCH", "/members/"+me, map[string]any{"role": "member"}), http.StatusForbidden, "You can't update your own organization membership")
	expectError(t, e.api("DELETE", "/members/"+me, nil), http.StatusUnprocessableEntity, "The organization must keep at least one administrator")
	expect(t, e.api("DELETE", "/members/"+member, nil), http.StatusNoContent)
	expect(t, e.api("GET", "/members/"+member, nil), http.StatusNotFound)
}

func TestInvitationsBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{}, "Validation failed: Emails can't be blank"},
		{map[string]any{"emails": []string{"not an address"}}, "Validation failed: Emails not an address is not a valid email address"},
		{map[string]any{"emails": []string{"a@example.com"}, "role": "owner"}, "Validation failed: Role must be admin or member"},
		{map[string]any{"emails": []string{"a@example.com"}, "sso_mode": "sometimes"}, "Validation failed: Sso mode must be required or optional"},
		{map[string]any{"emails": []string{"second-member@example.com"}}, "Validation failed: Emails second-member@example.com is already a member of this organization"},
		{map[string]any{"emails": []string{"a@example.com", "bad"}}, "Validation failed: Emails bad is not a valid email address"},
	} {
		expectError(t, e.api("POST", "/invitations", tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	// One bad address created nothing.
	if items := e.api("GET", "/invitations", nil).object(t)["items"].([]any); len(items) != 0 {
		t.Fatalf("after refused batches: %v", items)
	}
	for i := range 3 {
		expect(t, e.api("POST", "/invitations", map[string]any{"emails": []string{fmt.Sprintf("p%d@example.com", i)}}), http.StatusCreated)
	}
	var seen []string
	next := "/v2/organizations/acme/invitations?per_page=2"
	for next != "" {
		page := e.do("GET", strings.TrimPrefix(next, e.ts.URL), "test-token", nil).object(t)
		for _, it := range page["items"].([]any) {
			seen = append(seen, it.(map[string]any)["email"].(string))
		}
		next, _ = page["links"].(map[string]any)["next"].(string)
	}
	if strings.Join(seen, ",") != "p2@example.com,p1@example.com,p0@example.com" {
		t.Fatalf("newest first: %v", seen)
	}
	for _, q := range []string{"per_page=0", "per_page=101", "after=x", "after=a&before=b"} {
		expect(t, e.api("GET", "/invitations?"+q, nil), http.StatusBadRequest)
	}
	expect(t, e.api("GET", "/invitations/"+newID(), nil), http.StatusNotFound)
	expectError(t, e.api("PATCH", "/members/"+newID(), map[string]any{"role": "admin"}), http.StatusNotFound, "No member found")
}

func TestInvitationsScopes(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	st.AddToken("read", []string{"acme"}, []string{scopeReadOrganizations, scopeReadInvitations})
	expect(t, e.do("GET", "/v2/organizations/acme/invitations", "read", nil), http.StatusOK)
	expect(t, e.do("POST", "/v2/organizations/acme/invitations", "read", map[string]any{"emails": []string{"x@example.com"}}), http.StatusForbidden)
	second := st.AddUser("acme", "Second Member", "second-member@example.com", false)
	expect(t, e.do("PATCH", "/v2/organizations/acme/members/"+second, "read", map[string]any{"role": "admin"}), http.StatusForbidden)
	if err := st.AddTokenForUser("member", second, []string{"acme"}, AllScopes()); err != nil {
		t.Fatal(err)
	}
	expect(t, e.do("GET", "/v2/organizations/acme/invitations", "member", nil), http.StatusForbidden)
	// A non-administrator sees no sso_mode but its own.
	for _, m := range e.do("GET", "/v2/organizations/acme/members", "member", nil).list(t) {
		if _, has := m["sso_mode"]; has != (m["id"] == second) {
			t.Fatalf("member %v seen by a non-administrator", m)
		}
	}
}

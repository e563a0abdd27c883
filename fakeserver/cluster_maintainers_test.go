package fakeserver

import (
	"net/http"
	"strings"
	"testing"
)

func TestClusterMaintainers(t *testing.T) {
	k := newTeamsKit(t)
	c := k.createCluster("Maintained")
	team := k.createTeam("Platform")
	_, second := k.memberIDs()
	base := "/clusters/" + c + "/maintainers"

	byUser := k.api("POST", base, map[string]any{"user": second})
	expect(t, byUser, http.StatusCreated)
	u := byUser.object(t)
	actor := u["actor"].(map[string]any)
	if actor["id"] != second || actor["type"] != "user" || actor["name"] != "Second Member" ||
		actor["email"] != "second-member@example.com" || actor["graphql_id"] != graphQLID("User", second) {
		t.Errorf("user maintainer = %v", u)
	}
	if _, hasSlug := actor["slug"]; hasSlug {
		t.Errorf("a user actor has a slug: %v", actor)
	}
	byTeam := k.api("POST", base, map[string]any{"team": team}).object(t)
	teamActor := byTeam["actor"].(map[string]any)
	if teamActor["type"] != "team" || teamActor["slug"] != "platform" || teamActor["name"] != "Platform" {
		t.Errorf("team maintainer = %v", byTeam)
	}
	if _, hasEmail := teamActor["email"]; hasEmail {
		t.Errorf("a team actor has an email: %v", teamActor)
	}

	// The actor is shown as it is now.
	expect(t, k.api("PATCH", "/teams/"+team, map[string]any{"name": "Platform Ops"}), http.StatusOK)
	got := k.api("GET", base+"/"+byTeam["id"].(string), nil).object(t)
	if a := got["actor"].(map[string]any); a["name"] != "Platform Ops" || a["slug"] != "platform-ops" {
		t.Errorf("after the rename = %v", got)
	}
	if l := k.api("GET", base, nil).list(t); len(l) != 2 || l[0]["id"] != u["id"] {
		t.Errorf("list = %v", l)
	}

	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{}, "Validation failed: User or team must be given, but not both"},
		{map[string]any{"user": second, "team": team}, "Validation failed: User or team must be given, but not both"},
		{map[string]any{"user": unknownUUID}, "Validation failed: User is not a member of this organization"},
		{map[string]any{"team": unknownUUID}, "Validation failed: Team is not a team of this organization"},
		{map[string]any{"user": second}, "Validation failed: User is already a maintainer of this cluster"},
		{map[string]any{"team": 7}, "Validation failed: Team must be a string"},
	} {
		expectError(t, k.api("POST", base, tc.body), http.StatusUnprocessableEntity, tc.want)
	}

	// Deleting the team deletes its assignment; deleting the cluster, the rest.
	st := k.srv.Store()
	teamKey, userKey := c+"/"+byTeam["id"].(string), c+"/"+u["id"].(string)
	expect(t, k.api("DELETE", "/teams/"+team, nil), http.StatusNoContent)
	if st.Exists(KindClusterMaintainer, "acme", teamKey) || !st.Exists(KindClusterMaintainer, "acme", userKey) {
		t.Fatal("deleting the team did not delete exactly its assignment")
	}
	expect(t, k.api("DELETE", base+"/"+u["id"].(string), nil), http.StatusNoContent)
	expectError(t, k.api("DELETE", base+"/"+u["id"].(string), nil), http.StatusNotFound, "No cluster maintainer found")
	again := k.api("POST", base, map[string]any{"user": second}).object(t)["id"].(string)
	expect(t, k.api("DELETE", "/clusters/"+c, nil), http.StatusNoContent)
	if st.Exists(KindClusterMaintainer, "acme", c+"/"+again) || st.maintainers.maintainers.len() != 0 {
		t.Fatal("an assignment outlived its cluster")
	}
}

func TestMeta(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("no-scopes", []string{"acme"}, nil)
	got := e.do("GET", "/v2/meta", "no-scopes", nil)
	expect(t, got, http.StatusOK)
	ips, _ := got.object(t)["webhook_ips"].([]any)
	if len(ips) != len(DefaultWebhookIPs) || ips[0] != DefaultWebhookIPs[0] {
		t.Errorf("webhook_ips = %v, want %v", ips, DefaultWebhookIPs)
	}
	expectError(t, e.do("GET", "/v2/meta", "", nil), http.StatusUnauthorized, errUnauthorized().body.(messageBody).Message)

	for fixture, want := range map[string]string{
		"webhook_ips: [10.0.0.0/8, 192.168.1.7]\n": `{"webhook_ips":["10.0.0.0/8","192.168.1.7"]}`,
		"webhook_ips: []\n":                        `{"webhook_ips":[]}`,
	} {
		f, err := ParseFixtures([]byte("organizations: [{slug: acme}]\nusers: [{name: A, email: a@example.com, memberships: [{org: acme}]}]\n"+
			"access_tokens: [{token: t, user: a@example.com, scopes: all}]\n"+fixture), "yaml")
		if err != nil {
			t.Fatal(err)
		}
		fe := newEnv(t, Options{Fixtures: f})
		if r := fe.do("GET", "/v2/meta", "t", nil); string(r.raw) != want+"\n" {
			t.Errorf("with %q: %s, want %s", fixture, r.raw, want)
		}
	}
	_, err := ParseFixtures([]byte("organizations: [{slug: acme}]\nwebhook_ips: [10.0.0.0/33, nowhere]\n"), "yaml")
	for _, want := range []string{`webhook_ips[0] "10.0.0.0/33": is not an IP address`, `webhook_ips[1] "nowhere"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fixture error %v, want it to hold %q", err, want)
		}
	}
}

package fakeserver

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateRoundTripBeyondSpec: schedules, secrets (their values too), maintainers and the webhook list
// survive a restart from the state file.
func TestStateRoundTripBeyondSpec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	f, err := ParseFixtures([]byte("organizations: [{slug: acme}]\n"+
		"users: [{name: A, email: a@example.com, memberships: [{org: acme, admin: true}]}, {name: B, email: b@example.com, memberships: [{org: acme}]}]\n"+
		"access_tokens: [{token: test-token, user: a@example.com, scopes: all}]\nwebhook_ips: [10.1.0.0/16]\n"), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{StateFile: path, Fixtures: f, Now: func() time.Time { return scheduleClock }}
	first := newEnv(t, opts)
	first.createPipeline(map[string]any{"name": "App", "repository": githubRepo})
	expect(t, first.api("POST", "/pipelines/app/schedules", map[string]any{"cronline": "0 3 * * * Asia/Tokyo",
		"label": "Nightly", "message": "m", "env": map[string]any{"A": "b"}}), 201)
	c := first.createCluster("Platform")
	secret := first.api("POST", "/clusters/"+c+"/secrets", map[string]any{"key": "K", "value": secretValue, "policy": "- a: b\n"}).object(t)
	team := first.api("POST", "/teams", map[string]any{"name": "Core"}).object(t)["id"].(string)
	_, second := teamsKit{first}.memberIDs()
	expect(t, first.api("POST", "/clusters/"+c+"/maintainers", map[string]any{"team": team}), 201)
	expect(t, first.api("POST", "/clusters/"+c+"/maintainers", map[string]any{"user": second}), 201)

	read := func(e *testEnv) string {
		var out strings.Builder
		for _, p := range []string{"/pipelines/app/schedules", "/clusters/" + c + "/secrets", "/clusters/" + c + "/maintainers"} {
			out.WriteString(string(e.api("GET", p, nil).raw))
		}
		out.WriteString(string(e.do("GET", "/v2/meta", "test-token", nil).raw))
		return strings.ReplaceAll(out.String(), e.ts.URL, "<base>")
	}
	want := read(first)
	for _, sign := range []string{`* Asia/Tokyo"`, `"A":"b"`, `"- a: b\n"`, `"slug":"core"`, `"10.1.0.0/16"`} {
		if !strings.Contains(want, sign) {
			t.Fatalf("the populated server does not show %s: %s", sign, want)
		}
	}
	if err := first.srv.Close(); err != nil { // the state file's lock, which the restart takes
		t.Fatal(err)
	}
	resumed := newEnv(t, opts)
	if !resumed.srv.Resumed() {
		t.Fatal("the saved state was not resumed")
	}
	if got := read(resumed); got != want {
		t.Fatalf("reads differ after a restart:\n got %s\nwant %s", got, want)
	}
	if v, _ := resumed.srv.Store().ClusterSecretValue("acme", c, secret["id"].(string)); v != secretValue {
		t.Fatalf("the secret's value after a restart: %q", v)
	}
}

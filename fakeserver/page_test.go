package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// pageSeed makes one object of each kind that carries a secret, and returns the IDs the page must show and
// the secrets it must not.
func pageSeed(t *testing.T, e *testEnv) (ids, secrets []string) {
	t.Helper()
	cluster := e.createCluster("Platform")
	queue := e.createQueue(cluster, "linux")
	r := e.api("POST", "/clusters/"+cluster+"/tokens", map[string]any{"description": "agents"})
	expect(t, r, http.StatusCreated)
	clusterToken := r.object(t)
	r = e.api("POST", "/clusters/"+cluster+"/secrets", map[string]any{"key": "DEPLOY_KEY", "value": "secret-value-do-not-show"})
	expect(t, r, http.StatusCreated)
	secret := r.object(t)
	r = e.do("POST", "/v2/packages/organizations/acme/registries", "test-token", map[string]any{"name": "gems", "ecosystem": "ruby"})
	expect(t, r, http.StatusOK)
	registry := r.object(t)
	r = e.do("POST", "/v2/packages/organizations/acme/registries/gems/tokens", "test-token", map[string]any{"description": "ci"})
	expect(t, r, http.StatusOK)
	registryToken := r.object(t)
	r = e.api("POST", "/portals", map[string]any{"name": "Build Stats", "query": "{ viewer { user { name } } }"})
	expect(t, r, http.StatusCreated)
	portal := r.object(t)
	r = e.api("POST", "/services", map[string]any{"provider": "webhook",
		"settings": map[string]any{"url": "https://example.com/hook", "token": "webhook-secret-do-not-show"}})
	expect(t, r, http.StatusCreated)
	service := r.object(t)
	r = e.api("POST", "/teams", map[string]any{"name": "Platform"})
	expect(t, r, http.StatusCreated)
	team := r.object(t)["id"].(string)
	r = e.do("POST", "/v2/analytics/organizations/acme/suites", "test-token",
		map[string]any{"name": "Web", "default_branch": "main", "show_api_token": true, "team_ids": []string{team}})
	expect(t, r, http.StatusCreated)
	suite := r.object(t)
	ids = []string{team, cluster, queue, clusterToken["id"].(string), secret["id"].(string), registry["id"].(string),
		registryToken["id"].(string), portal["uuid"].(string), service["id"].(string), suite["id"].(string)}
	secrets = []string{"test-token", testAdminToken, clusterToken["token"].(string), "secret-value-do-not-show",
		registryToken["token"].(string), portal["token"].(string), "webhook-secret-do-not-show", suite["api_token"].(string)}
	for i, s := range secrets {
		if s == "" {
			t.Fatalf("secret %d is empty: the seed did not get it", i)
		}
	}
	return ids, secrets
}

// TestPageShowsObjectsRequestsAndSettingsNeverSecrets: the page lists the organization's objects by type
// with their IDs, the requests with their status and the settings in force, and no token or secret value
// it holds appears anywhere in it.
func TestPageShowsObjectsRequestsAndSettingsNeverSecrets(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken, RateLimit: 50, Faults: Faults{Latency: 1, Except: func(*http.Request) bool { return true }}})
	ids, secrets := pageSeed(t, e)
	e.srv.AimFault(AimedFault{Operation: "ruleUpdate", Kind: FaultNullData, Times: 1})
	e.api("GET", "/pipelines/missing", nil)
	r := e.do("GET", "/_emulator/", testAdminToken, nil)
	expect(t, r, http.StatusOK)
	page := string(r.raw)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type %q", ct)
	}
	for _, id := range ids {
		if !strings.Contains(page, id) {
			t.Errorf("the page does not show ID %s", id)
		}
	}
	for _, want := range []string{"Clusters", "Cluster queues", "Cluster secrets", "DEPLOY_KEY", "Registry tokens", "Portals",
		"Notification services", "Test suites", "/v2/organizations/acme/pipelines/missing", ">404<",
		"50 requests per 1m0s per token", "Faults: Latency", "ruleUpdate", "Aimed fault"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	for _, secret := range secrets {
		if strings.Contains(page, secret) {
			t.Errorf("the page shows the secret %q", secret)
		}
	}
	for _, external := range []string{"<script", "src=", "href=\"http", "@import", "url("} {
		if strings.Contains(page, external) {
			t.Errorf("the page holds %q: it must load nothing", external)
		}
	}
}

// TestPageNeedsTheAdminTokenWhenOneIsSet: open without an admin token; with one, 401 (asking a browser
// for basic authentication) unless the token comes as a bearer token, as the basic-auth password or as
// ?token=, which the emulator's log line shows redacted.
func TestPageNeedsTheAdminTokenWhenOneIsSet(t *testing.T) {
	open := newEnv(t, Options{})
	expect(t, open.do("GET", "/_emulator/", "", nil), http.StatusOK)

	var mu sync.Mutex
	var lines []string
	e := newEnv(t, Options{AdminToken: testAdminToken, Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}})
	for _, token := range []string{"", "test-token", testAdminToken + "x"} {
		r := e.do("GET", "/_emulator/", token, nil)
		expect(t, r, http.StatusUnauthorized)
		if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic ") {
			t.Fatalf("401 without a basic-authentication challenge: %v", r.header)
		}
	}
	expect(t, e.do("GET", "/_emulator/?token=wrong", "", nil), http.StatusUnauthorized)
	expect(t, e.do("GET", "/_emulator/", testAdminToken, nil), http.StatusOK)
	expect(t, e.do("GET", "/_emulator/?token="+testAdminToken, "", nil), http.StatusOK)
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/_emulator/", nil)
	req.SetBasicAuth("anyone", testAdminToken)
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("basic authentication with the admin token: %d", resp.StatusCode)
	}
	req.SetBasicAuth("anyone", "test-token")
	if resp, err = e.ts.Client().Do(req); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("basic authentication with an API token: %d", resp.StatusCode)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range lines {
		if strings.Contains(l, testAdminToken) {
			t.Errorf("a log line shows the admin token: %q", l)
		}
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("the page's requests are in the request log: %d", n)
	}
}

package fakeserver

import (
	"net/http"
	"testing"
)

// settingsEnv is an emulator with a token of a member who is not an administrator ("member-token") and one
// without the settings scopes ("noscope-token"), beside the default administrator's.
func settingsEnv(t *testing.T) *testEnv {
	t.Helper()
	e := newEnv(t, Options{})
	st := e.srv.Store()
	member := st.AddUser("acme", "Member", "member@example.com", false)
	if err := st.AddTokenForUser("member-token", member, []string{"acme"}, AllScopes()); err != nil {
		t.Fatal(err)
	}
	st.AddToken("noscope-token", []string{"acme"}, []string{scopeReadOrganizations, scopeReadClusters})
	return e
}

func TestAPISettings(t *testing.T) {
	e := settingsEnv(t)
	const path = "/v2/organizations/acme/api-settings"

	got := e.api("GET", "/api-settings", nil).object(t)
	if got["allowed_ip_addresses"] != nil || got["revoke_inactive_tokens_after_days"] != nil ||
		got["restrict_user_api_token_creation"] != false || got["url"] != e.ts.URL+path {
		t.Errorf("defaults = %v", got)
	}
	if f := got["features"].(map[string]any); f["api_ip_allow_list"] != true || f["inactive_api_token_revocation"] != true {
		t.Errorf("features = %v", f)
	}

	// A PATCH changes only what it names and answers the whole settings.
	r := e.api("PATCH", "/api-settings", map[string]any{"allowed_ip_addresses": " 0.0.0.0/0   1.1.1.1/32 ", "revoke_inactive_tokens_after_days": 90})
	expect(t, r, http.StatusOK)
	if o := r.object(t); o["allowed_ip_addresses"] != "0.0.0.0/0 1.1.1.1/32" || o["revoke_inactive_tokens_after_days"] != float64(90) {
		t.Errorf("after the patch = %v", o)
	}
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"restrict_user_api_token_creation": true}), http.StatusOK)
	if ips, days, restrict := e.srv.Store().APISettings("acme"); ips != "0.0.0.0/0 1.1.1.1/32" || days != 90 || !restrict {
		t.Errorf("store = %q %d %v", ips, days, restrict)
	}
	// null removes the list and the interval; a blank list is no list.
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"allowed_ip_addresses": nil, "revoke_inactive_tokens_after_days": nil}), http.StatusOK)
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"allowed_ip_addresses": "  "}), http.StatusOK)
	if o := e.api("GET", "/api-settings", nil).object(t); o["allowed_ip_addresses"] != nil || o["revoke_inactive_tokens_after_days"] != nil {
		t.Errorf("after clearing = %v", o)
	}

	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"allowed_ip_addresses": "10.0.0.0/8 not-a-network"}, "Validation failed: Allowed ip addresses must be IP networks in CIDR notation, separated by spaces"},
		{map[string]any{"revoke_inactive_tokens_after_days": 45}, "Validation failed: Revoke inactive tokens after days must be one of 30, 60, 90, 180 or 365"},
		{map[string]any{"restrict_user_api_token_creation": "yes"}, "Validation failed: Restrict user api token creation must be a boolean"},
		{map[string]any{"restrict_user_api_token_creation": nil}, "Validation failed: Restrict user api token creation must be a boolean"},
	} {
		r := e.api("PATCH", "/api-settings", tc.body)
		expect(t, r, http.StatusUnprocessableEntity)
		if got := r.message(t); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.body, got, tc.want)
		}
	}
	// Nothing of a refused PATCH is applied.
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"allowed_ip_addresses": "10.0.0.0/8", "revoke_inactive_tokens_after_days": 45}), http.StatusUnprocessableEntity)
	if ips, _, _ := e.srv.Store().APISettings("acme"); ips != "" {
		t.Errorf("a refused PATCH changed the allowlist to %q", ips)
	}

	// Administrators with the scopes only.
	expect(t, e.do("GET", path, "member-token", nil), http.StatusForbidden)
	expect(t, e.do("PATCH", path, "member-token", map[string]any{"restrict_user_api_token_creation": true}), http.StatusForbidden)
	expect(t, e.do("GET", path, "noscope-token", nil), http.StatusForbidden)
	expect(t, e.do("PATCH", path, "noscope-token", map[string]any{}), http.StatusForbidden)
	expect(t, e.do("GET", path, "", nil), http.StatusUnauthorized)

	// A plan without a feature refuses the field that needs it, and only that one.
	e.srv.Store().SetAPISettingsFeatures("acme", false, false)
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"allowed_ip_addresses": nil}), http.StatusForbidden)
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"revoke_inactive_tokens_after_days": 30}), http.StatusForbidden)
	expect(t, e.api("PATCH", "/api-settings", map[string]any{"restrict_user_api_token_creation": false}), http.StatusOK)
	if f := e.api("GET", "/api-settings", nil).object(t)["features"].(map[string]any); f["api_ip_allow_list"] != false || f["inactive_api_token_revocation"] != false {
		t.Errorf("features = %v", f)
	}
}

func TestBanner(t *testing.T) {
	e := settingsEnv(t)
	const path = "/v2/organizations/acme/banner"
	expectError(t, e.api("GET", "/banner", nil), http.StatusNotFound, "No banner found")
	expectError(t, e.api("DELETE", "/banner", nil), http.StatusNotFound, "No banner found")

	created := e.api("PUT", "/banner", map[string]any{"message": ":wave: Hello **all**"})
	expect(t, created, http.StatusCreated)
	b := created.object(t)
	id, _ := b["uuid"].(string)
	if b["message"] != ":wave: Hello **all**" || b["graphql_id"] != graphQLID("OrganizationBanner", id) || b["url"] != e.ts.URL+path {
		t.Errorf("created = %v", b)
	}
	updated := e.api("PUT", "/banner", map[string]any{"message": "Changed"})
	expect(t, updated, http.StatusOK)
	if u := updated.object(t); u["uuid"] != id || u["message"] != "Changed" {
		t.Errorf("updated = %v", u)
	}
	if g := e.api("GET", "/banner", nil).object(t); g["message"] != "Changed" {
		t.Errorf("read = %v", g)
	}
	if !e.srv.Store().Exists(KindOrganizationBanner, "acme", "acme") || !e.srv.Store().Exists(KindOrganizationBanner, "acme", id) ||
		e.srv.Store().Exists(KindOrganizationBanner, "acme", unknownUUID) {
		t.Error("Exists does not find the banner by the organization's slug and its UUID alone")
	}

	long := make([]byte, maxBannerMessage+1)
	for i := range long {
		long[i] = 'x'
	}
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{}, "Validation failed: Message can't be blank"},
		{map[string]any{"message": "  "}, "Validation failed: Message can't be blank"},
		{map[string]any{"message": 5}, "Validation failed: Message must be a string"},
		{map[string]any{"message": string(long)}, "Validation failed: Message is too long (maximum is 2000 characters)"},
	} {
		expectError(t, e.api("PUT", "/banner", tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	expect(t, e.api("PUT", "/banner", "not json"), http.StatusBadRequest)

	expect(t, e.do("GET", path, "member-token", nil), http.StatusForbidden)
	expect(t, e.do("PUT", path, "member-token", map[string]any{"message": "x"}), http.StatusForbidden)
	expect(t, e.do("DELETE", path, "noscope-token", nil), http.StatusForbidden)

	expect(t, e.api("DELETE", "/banner", nil), http.StatusNoContent)
	if _, ok := e.srv.Store().BannerMessage("acme"); ok {
		t.Error("the banner survived its DELETE")
	}
	// Put again, it is a new banner.
	again := e.api("PUT", "/banner", map[string]any{"message": "Back"})
	expect(t, again, http.StatusCreated)
	if again.object(t)["uuid"] == id {
		t.Error("a banner put after a delete kept the old UUID")
	}
}

func TestNetworkRanges(t *testing.T) {
	e := settingsEnv(t)
	c := e.createCluster("Hosted")
	path := "/clusters/" + c + "/network_ranges"

	if l := e.api("GET", path, nil).list(t); len(l) != 0 {
		t.Errorf("a new cluster's ranges = %v", l)
	}
	cidr, kind := "64.6.39.248/29", "NAMESPACE_MANAGED"
	e.srv.Store().SetNetworkRanges(c, []NetworkRange{{CIDRRange: &cidr, Kind: &kind}, {Kind: &kind}})
	l := e.api("GET", path, nil).list(t)
	if len(l) != 2 || l[0]["cidr_range"] != cidr || l[0]["kind"] != kind || l[1]["cidr_range"] != nil {
		t.Errorf("ranges = %v", l)
	}
	if _, present := l[1]["cidr_range"]; !present {
		t.Error("a null cidr_range is left out instead of answered as null")
	}

	e.srv.Store().FailNetworkRanges(c, 1)
	expectError(t, e.api("GET", path, nil), http.StatusServiceUnavailable, "Could not load network ranges: the hosted agents' network is not answering")
	expect(t, e.api("GET", path, nil), http.StatusOK)

	expectError(t, e.api("GET", "/clusters/"+unknownUUID+"/network_ranges", nil), http.StatusNotFound, "No cluster found")
	// A member who cannot manage the cluster is refused; made its maintainer, it may read them.
	expect(t, e.do("GET", "/v2/organizations/acme"+path, "member-token", nil), http.StatusForbidden)
	member := e.srv.Store().AddUser("acme", "Member", "member@example.com", false)
	expect(t, e.api("POST", "/clusters/"+c+"/maintainers", map[string]any{"user": member}), http.StatusCreated)
	expect(t, e.do("GET", "/v2/organizations/acme"+path, "member-token", nil), http.StatusOK)
	st := e.srv.Store()
	st.AddToken("noclusters-token", []string{"acme"}, []string{scopeReadOrganizations})
	expect(t, e.do("GET", "/v2/organizations/acme"+path, "noclusters-token", nil), http.StatusForbidden)
}

func TestPipelineWebhook(t *testing.T) {
	e := settingsEnv(t)
	gh := e.createPipeline(map[string]any{"name": "Web", "repository": "git@github.com:acme/web.git", "configuration": "steps: []"})
	e.createPipeline(map[string]any{"name": "Lab", "repository": "https://gitlab.com/acme/lab.git", "configuration": "steps: []"})
	id := gh["id"].(string)
	st := e.srv.Store()
	if st.Exists(KindPipelineWebhook, "acme", id) {
		t.Fatal("a new pipeline has a repository webhook")
	}
	r := e.api("POST", "/pipelines/web/webhook", nil)
	expect(t, r, http.StatusCreated)
	if o := r.object(t); o["id"] != "github" || o["webhook_url"] != gh["provider"].(map[string]any)["webhook_url"] {
		t.Errorf("created = %v", o)
	}
	if !st.Exists(KindPipelineWebhook, "acme", id) {
		t.Error("the webhook is not in the store")
	}
	expectError(t, e.api("POST", "/pipelines/web/webhook", nil), http.StatusUnprocessableEntity, "Webhooks could not be created for your repository.")
	expectError(t, e.api("POST", "/pipelines/lab/webhook", nil), http.StatusUnprocessableEntity, "Auto-creating webhooks is not supported for your repository.")
	expectError(t, e.api("POST", "/pipelines/nope/webhook", nil), http.StatusNotFound, "No pipeline found")
	expect(t, e.do("POST", "/v2/organizations/acme/pipelines/web/webhook", "noscope-token", nil), http.StatusForbidden)
	// Deleted on GitHub, it can be created again; REST has no way to read or delete it.
	if !st.Remove(KindPipelineWebhook, "acme", id) {
		t.Fatal("Remove found no webhook")
	}
	expect(t, e.api("POST", "/pipelines/web/webhook", nil), http.StatusCreated)
	expect(t, e.api("GET", "/pipelines/web/webhook", nil), http.StatusMethodNotAllowed)
	expect(t, e.api("DELETE", "/pipelines/web/webhook", nil), http.StatusMethodNotAllowed)
}

func TestBanner_enterpriseOnly(t *testing.T) {
	e := settingsEnv(t)
	if err := e.srv.Store().SetOrgPlan("acme", false, true); err != nil {
		t.Fatal(err)
	}
	expectError(t, e.api("PUT", "/banner", map[string]any{"message": "x"}), http.StatusForbidden, "Organization banners are available on the Enterprise plan")
	expectError(t, e.api("GET", "/banner", nil), http.StatusForbidden, "Organization banners are available on the Enterprise plan")
}

package fakeserver

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

func webhookBody(u string) map[string]any {
	return map[string]any{"provider": "webhook", "settings": map[string]any{"url": u}}
}

func TestNotificationServicesWebhookLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/services", map[string]any{
		"provider": "webhook", "description": "hooks",
		"settings": map[string]any{"url": "https://example.com/hook", "events": []string{"build.finished", "job.started"}},
	})
	expect(t, r, http.StatusCreated)
	s := r.object(t)
	hasKeys(t, s, "id", "graphql_id", "url", "provider", "description", "enabled", "scope", "scope_uuids",
		"branch_configuration", "build_states", "settings", "created_at", "created_by")
	id := s["id"].(string)
	settings := s["settings"].(map[string]any)
	if s["enabled"] != true || s["scope"] != "all" || s["graphql_id"] != graphQLID("NotificationServiceWebhook", id) ||
		settings["token"] == "" || settings["token"] == nil || settings["token_mode"] != "token" || settings["version"] != float64(3) ||
		settings["tls_verify"] != true || len(settings["events"].([]any)) != 2 ||
		s["provider"].(map[string]any)["id"] != "webhook" || len(s["scope_uuids"].([]any)) != 0 {
		t.Fatalf("created %v", s)
	}
	token := settings["token"]

	// PATCH keeps omitted fields and settings keys; null clears the description.
	r = e.api("PATCH", "/services/"+id, map[string]any{"description": nil, "settings": map[string]any{"tls_verify": false}})
	expect(t, r, http.StatusOK)
	s = r.object(t)
	settings = s["settings"].(map[string]any)
	if s["description"] != nil || settings["tls_verify"] != false || settings["token"] != token || settings["url"] != "https://example.com/hook" {
		t.Fatalf("patched %v", s)
	}

	r = e.api("PUT", "/services/"+id+"/disable", nil)
	expect(t, r, http.StatusOK)
	if r.object(t)["enabled"] != false {
		t.Fatal("not disabled")
	}
	r = e.api("PUT", "/services/"+id+"/enable", nil)
	expect(t, r, http.StatusOK)
	if r.object(t)["enabled"] != true {
		t.Fatal("not enabled")
	}
	expect(t, e.api("DELETE", "/services/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", "/services/"+id, nil), http.StatusNotFound, "No notification service found")
	expectError(t, e.api("PUT", "/services/"+id+"/enable", nil), http.StatusNotFound, "No notification service found")
	expectError(t, e.api("DELETE", "/services/"+id, nil), http.StatusNotFound, "No notification service found")
}

func TestNotificationServicesSecrets(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/services", map[string]any{"provider": "aws_event_bridge",
		"settings": map[string]any{"aws_region": "us-east-1", "aws_account_id": "123456789012"}})
	expect(t, r, http.StatusCreated)
	s := r.object(t)
	id := s["id"].(string)
	settings := s["settings"].(map[string]any)
	if settings["aws_account_id"] != "XXXXXXXX9012" || settings["event_source_name"] == nil || settings["include_build_meta_data"] != nil {
		t.Fatalf("event bridge %v", settings)
	}
	// The masked value sent back keeps the secret; another value cannot be set.
	expect(t, e.api("PATCH", "/services/"+id, map[string]any{"settings": map[string]any{"aws_account_id": "XXXXXXXX9012", "include_build_meta_data": "deploy:*"}}), http.StatusOK)
	expectError(t, e.api("PATCH", "/services/"+id, map[string]any{"settings": map[string]any{"aws_account_id": "999999999999"}}),
		http.StatusUnprocessableEntity, "Validation failed: Settings aws_account_id cannot be changed")
	expectError(t, e.api("PATCH", "/services/"+id, map[string]any{"settings": map[string]any{"event_source_name": "x"}}),
		http.StatusUnprocessableEntity, "Validation failed: Settings event_source_name is read-only")

	r = e.api("POST", "/services", map[string]any{"provider": "datadog_pipeline_visibility", "settings": map[string]any{"api_key": "supersecret"}})
	expect(t, r, http.StatusCreated)
	if got := r.object(t)["settings"].(map[string]any); got["api_key"] != "XXXXXXXXcret" || got["datadog_site"] != "datadoghq.com" {
		t.Fatalf("datadog %v", got)
	}
	r = e.api("POST", "/services", map[string]any{"provider": "open_telemetry_tracing",
		"settings": map[string]any{"endpoint": "https://otel.example.com", "headers": map[string]string{"authorization": "secret"}}})
	expect(t, r, http.StatusCreated)
	got := r.object(t)["settings"].(map[string]any)
	if _, shown := got["headers"]; shown || got["service_name"] != "buildkite" {
		t.Fatalf("otel %v", got)
	}
}

func TestNotificationServicesBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	team := e.api("POST", "/teams", map[string]any{"name": "Ops"})
	expect(t, team, http.StatusCreated)
	teamID := team.object(t)["id"].(string)
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{"settings": map[string]any{}}, "Validation failed: Provider can't be blank"},
		{map[string]any{"provider": "pager"}, "Validation failed: Provider pager is not a known provider"},
		{map[string]any{"provider": "linear"}, "Validation failed: Provider linear is not available through the API: connect it in the web interface"},
		{map[string]any{"provider": "webhook"}, "Validation failed: Settings url can't be blank"},
		{map[string]any{"provider": "webhook", "settings": map[string]any{"url": "ftp://x"}}, "Validation failed: Settings url must be an http or https URL"},
		{map[string]any{"provider": "webhook", "settings": map[string]any{"url": "https://x", "token_mode": "plain"}}, "Validation failed: Settings token_mode must be one of token, signature"},
		{map[string]any{"provider": "webhook", "settings": map[string]any{"url": "https://x", "api_key": "k"}}, "Validation failed: Settings api_key is not a setting of this provider"},
		{map[string]any{"provider": "webhook", "settings": map[string]any{"url": "https://x", "version": 9}}, "Validation failed: Settings version must be between 1 and 3"},
		{map[string]any{"provider": "aws_event_bridge", "settings": map[string]any{"aws_region": "us-east-1", "aws_account_id": "12"}}, "Validation failed: Settings aws_account_id must be a 12-digit AWS account ID"},
		{map[string]any{"provider": "webhook", "scope": "everything", "settings": map[string]any{"url": "https://x"}}, "Validation failed: Scope must be one of all, some_projects, some_teams, some_clusters"},
		{map[string]any{"provider": "webhook", "scope": "all", "scope_uuids": []string{teamID}, "settings": map[string]any{"url": "https://x"}}, "Validation failed: Scope uuids must be empty when scope is all"},
		{map[string]any{"provider": "webhook", "scope": "some_projects", "scope_uuids": []string{teamID}, "settings": map[string]any{"url": "https://x"}}, "Validation failed: Scope uuids " + teamID + " is not a project of the organization"},
		{map[string]any{"provider": "webhook", "enabled": false, "settings": map[string]any{"url": "https://x"}}, "Validation failed: Enabled is not a known field"},
	} {
		expectError(t, e.api("POST", "/services", tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	r := e.api("POST", "/services", map[string]any{"provider": "webhook", "scope": "some_teams", "scope_uuids": []string{teamID},
		"settings": map[string]any{"url": "https://x", "version": 2}})
	expect(t, r, http.StatusCreated)
	id := r.object(t)["id"].(string)
	expectError(t, e.api("PATCH", "/services/"+id, map[string]any{"provider": "slack"}), http.StatusUnprocessableEntity,
		"Validation failed: Provider cannot be changed")
	expectError(t, e.api("PATCH", "/services/"+id, map[string]any{"settings": map[string]any{"version": 1}}), http.StatusUnprocessableEntity,
		"Validation failed: Settings version can only move up (it is 2)")
	// scope all without scope_uuids empties them.
	r = e.api("PATCH", "/services/"+id, map[string]any{"scope": "all"})
	expect(t, r, http.StatusOK)
	if got := r.object(t); len(got["scope_uuids"].([]any)) != 0 {
		t.Fatalf("scope all kept %v", got["scope_uuids"])
	}

	// Enterprise-only providers on another plan: 403.
	e.setEnterprise(false)
	expectError(t, e.api("POST", "/services", map[string]any{"provider": "datadog_pipeline_visibility", "settings": map[string]any{"api_key": "k"}}),
		http.StatusForbidden, "The Datadog Pipeline Visibility notification service is only available on the Enterprise plan")
	expect(t, e.api("POST", "/services", webhookBody("https://y")), http.StatusCreated)
}

func TestNotificationServicesScopesAndAdmins(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.Store().AddToken("narrow", []string{"acme"}, []string{scopeReadNotificationServices})
	base := "/v2/organizations/acme/services"
	expect(t, e.do("GET", base, "narrow", nil), http.StatusOK)
	expectError(t, e.do("POST", base, "narrow", webhookBody("https://x")), http.StatusForbidden,
		"Your access token doesn't have the write_notification_services scope")
	member := e.memberToken()
	expectError(t, e.do("GET", base, member, nil), http.StatusForbidden, "Forbidden")
}

func TestNotificationServicesCursorPaging(t *testing.T) {
	e := newEnv(t, Options{})
	var ids []string
	for i := range 5 {
		r := e.api("POST", "/services", webhookBody(fmt.Sprintf("https://example.com/%d", i)))
		expect(t, r, http.StatusCreated)
		ids = append(ids, r.object(t)["id"].(string))
	}
	page := func(query string) ([]string, *string) {
		t.Helper()
		r := e.api("GET", "/services?"+query, nil)
		expect(t, r, http.StatusOK)
		body := r.object(t)
		var got []string
		for _, it := range body["items"].([]any) {
			got = append(got, it.(map[string]any)["id"].(string))
		}
		links := body["links"].(map[string]any)
		if links["self"] == nil {
			t.Fatalf("no self link: %v", links)
		}
		if next, ok := links["next"].(string); ok {
			return got, &next
		}
		return got, nil
	}
	got, next := page("per_page=2")
	if fmt.Sprint(got) != fmt.Sprint(ids[:2]) || next == nil {
		t.Fatalf("first page %v next %v", got, next)
	}
	u, err := url.Parse(*next)
	if err != nil || u.Query().Get("after") != ids[1] {
		t.Fatalf("next %v", *next)
	}
	got, next = page(u.RawQuery)
	if fmt.Sprint(got) != fmt.Sprint(ids[2:4]) || next == nil {
		t.Fatalf("second page %v", got)
	}
	got, next = page("per_page=2&after=" + ids[3])
	if fmt.Sprint(got) != fmt.Sprint(ids[4:]) || next != nil {
		t.Fatalf("last page %v %v", got, next)
	}
	got, _ = page("per_page=2&before=" + ids[3])
	if fmt.Sprint(got) != fmt.Sprint(ids[1:3]) {
		t.Fatalf("before %v", got)
	}
	expectError(t, e.api("GET", "/services?after=nope", nil), http.StatusBadRequest, "Invalid cursor: after")
}

func TestNotificationServicesSeededOAuth(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.srv.Store().AddNotificationService("acme", "slack_workspace", nil)
	r := e.api("GET", "/services/"+id, nil)
	expect(t, r, http.StatusOK)
	if got := r.object(t); got["provider"].(map[string]any)["id"] != "slack_workspace" {
		t.Fatalf("%v", got)
	}
	expect(t, e.api("PATCH", "/services/"+id, map[string]any{"description": "managed"}), http.StatusOK)
	if !e.srv.Store().Remove(KindNotificationService, "acme", id) || e.srv.Store().Exists(KindNotificationService, "acme", id) {
		t.Fatal("Remove")
	}
}

// TestNotificationServicesSecretsShown: each secret is answered as the docs say (a webhook token in full,
// a Slack URL and OpenTelemetry headers omitted, a Datadog API key masked), while the service holds each
// one in full.
func TestNotificationServicesSecretsShown(t *testing.T) {
	e := newEnv(t, Options{})
	for _, c := range []struct {
		provider, key string
		sent, shown   any
		settings      map[string]any
	}{
		{"webhook", "token", "hook-token-1234", "hook-token-1234", map[string]any{"url": "https://example.com/hook"}},
		{"slack", "url", "https://hooks.slack.com/services/T0/B0/secret", nil, map[string]any{}},
		{"datadog_pipeline_visibility", "api_key", "dd-key-98765", "XXXXXXXX8765", map[string]any{}},
		{"open_telemetry_tracing", "headers", map[string]any{"authorization": "Bearer otel"}, nil, map[string]any{"endpoint": "https://otel.example.com"}},
	} {
		c.settings[c.key] = c.sent
		r := e.api("POST", "/services", map[string]any{"provider": c.provider, "settings": c.settings})
		expect(t, r, http.StatusCreated)
		created := r.object(t)
		for _, s := range []map[string]any{created, e.api("GET", "/services/"+created["id"].(string), nil).object(t)} {
			got, shown := s["settings"].(map[string]any)[c.key]
			if c.shown == nil && shown {
				t.Errorf("%s: settings.%s is shown (%v); the service omits it", c.provider, c.key, got)
			}
			if c.shown != nil && got != c.shown {
				t.Errorf("%s: settings.%s is %v, want %v", c.provider, c.key, got, c.shown)
			}
		}
		held, ok := e.srv.Store().NotificationServiceSetting("acme", created["id"].(string), c.key)
		if !ok || fmt.Sprint(held) != fmt.Sprint(c.sent) {
			t.Errorf("%s: the service holds settings.%s = %v, want %v in full", c.provider, c.key, held, c.sent)
		}
	}
}

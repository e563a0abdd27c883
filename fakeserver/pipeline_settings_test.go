package fakeserver

import (
	"net/http"
	"strings"
	"testing"
)

func TestPipelineSettings(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("GET", "/pipeline-settings", nil)
	expect(t, r, http.StatusOK)
	got := r.object(t)
	hasKeys(t, got, "url", "default_branch", "default_cluster_id", "default_timeout_in_minutes", "maximum_timeout_in_minutes",
		"scheduled_job_expiry_in_minutes", "hosted_agents_terminal_access", "public_pipeline_creation", "advanced_queue_metrics", "build_exports")
	if got["default_branch"] != "main" || got["default_cluster_id"] != nil || got["scheduled_job_expiry_in_minutes"] != nil {
		t.Fatalf("defaults %v", got)
	}
	if aqm := got["advanced_queue_metrics"].(map[string]any); aqm["disable_supported"] != false || aqm["enabled"] != false {
		t.Fatalf("advanced queue metrics %v", aqm)
	}

	cluster := e.createCluster("Primary")
	r = e.api("PATCH", "/pipeline-settings", map[string]any{"default_branch": "trunk", "default_cluster_id": cluster,
		"default_timeout_in_minutes": 30, "scheduled_job_expiry_in_minutes": 120})
	expect(t, r, http.StatusOK)
	got = r.object(t)
	if got["default_branch"] != "trunk" || got["default_cluster_id"] != cluster || got["default_timeout_in_minutes"] != 30.0 ||
		got["scheduled_job_expiry_in_minutes"] != 120.0 || got["maximum_timeout_in_minutes"] != nil {
		t.Fatalf("patched %v", got)
	}
	// Only what is sent changes; null clears.
	r = e.api("PATCH", "/pipeline-settings", map[string]any{"default_cluster_id": nil, "default_timeout_in_minutes": nil})
	expect(t, r, http.StatusOK)
	if got = r.object(t); got["default_branch"] != "trunk" || got["default_cluster_id"] != nil || got["default_timeout_in_minutes"] != nil {
		t.Fatalf("cleared %v", got)
	}

	// The switches: on records who, off forgets.
	r = e.api("PUT", "/pipeline-settings/public-pipelines", nil)
	expect(t, r, http.StatusOK)
	if sw := r.object(t)["public_pipeline_creation"].(map[string]any); sw["enabled"] != true || sw["enabled_by"].(map[string]any)["name"] != "Test User" {
		t.Fatalf("public pipelines %v", sw)
	}
	r = e.api("DELETE", "/pipeline-settings/public-pipelines", nil)
	expect(t, r, http.StatusOK)
	if sw := r.object(t)["public_pipeline_creation"].(map[string]any); sw["enabled"] != false || sw["enabled_by"] != nil {
		t.Fatalf("public pipelines off %v", sw)
	}
	expect(t, e.api("PUT", "/pipeline-settings/hosted-agents-ssh", nil), http.StatusOK)
	expect(t, e.api("PUT", "/pipeline-settings/advanced-queue-metrics", nil), http.StatusOK)
	// Advanced queue metrics are one-way.
	expect(t, e.api("DELETE", "/pipeline-settings/advanced-queue-metrics", nil), http.StatusMethodNotAllowed)

	// Build export: a scheme is stripped; DELETE stops it.
	r = e.api("PUT", "/pipeline-settings/build-export", map[string]any{"location": "s3://my-bucket", "strategy_id": "s3"})
	expect(t, r, http.StatusOK)
	if be := r.object(t)["build_exports"].(map[string]any); be["enabled"] != true || be["location"] != "my-bucket" || be["strategy_id"] != "s3" {
		t.Fatalf("build export %v", be)
	}
	r = e.api("DELETE", "/pipeline-settings/build-export", nil)
	expect(t, r, http.StatusOK)
	if be := r.object(t)["build_exports"].(map[string]any); be["enabled"] != false || be["location"] != nil || be["strategy_id"] != nil {
		t.Fatalf("build export stopped %v", be)
	}

	// A default cluster deleted later reads as null.
	expect(t, e.api("PATCH", "/pipeline-settings", map[string]any{"default_cluster_id": cluster}), http.StatusOK)
	expect(t, e.api("DELETE", "/clusters/"+cluster, nil), http.StatusNoContent)
	if got = e.api("GET", "/pipeline-settings", nil).object(t); got["default_cluster_id"] != nil {
		t.Fatalf("deleted default cluster %v", got["default_cluster_id"])
	}
}

func TestPipelineSettingsBadInput(t *testing.T) {
	e := newEnv(t, Options{})
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{"default_cluster_id": "not-a-uuid"}, "Validation failed: Default cluster is not a valid UUID"},
		{map[string]any{"default_cluster_id": "0b7d6f0e-8d5f-4b43-9a67-5a1f2c3d4e5f"}, "Validation failed: Default cluster must be a cluster of this organization"},
		{map[string]any{"default_timeout_in_minutes": -1}, "Validation failed: Default timeout in minutes must be greater than or equal to 0"},
		{map[string]any{"scheduled_job_expiry_in_minutes": 59}, "Validation failed: Scheduled job expiry in minutes must be between 60 and 43200"},
		{map[string]any{"default_timeout_in_minutes": "ten"}, "Validation failed: Default timeout in minutes must be an integer"},
		{map[string]any{"default_branch": " "}, "Validation failed: Default branch can't be blank"},
		{map[string]any{"colour": "red"}, "Validation failed: Colour is not a known field"},
	} {
		r := e.api("PATCH", "/pipeline-settings", tc.body)
		expectError(t, r, http.StatusUnprocessableEntity, tc.want)
	}
	expect(t, e.api("PATCH", "/pipeline-settings", "[1]"), http.StatusBadRequest)
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{"strategy_id": "s3"}, "Validation failed: Location can't be blank"},
		{map[string]any{"location": "b"}, "Validation failed: Strategy can't be blank"},
		{map[string]any{"location": "b", "strategy_id": "azure"}, "Validation failed: Strategy is not a supported strategy (supported: s3, gcs)"},
		{map[string]any{"location": "unreachable-bucket", "strategy_id": "gcs"}, "Validation failed: Location could not be reached by Buildkite: check the bucket's name and policy"},
	} {
		expectError(t, e.api("PUT", "/pipeline-settings/build-export", tc.body), http.StatusUnprocessableEntity, tc.want)
	}
	e.srv.Store().SetBuildExportAvailable("acme", false)
	expectError(t, e.api("PUT", "/pipeline-settings/build-export", map[string]any{"location": "b", "strategy_id": "s3"}),
		http.StatusForbidden, "Build export is not available on this organization's plan")
	r := e.api("GET", "/pipeline-settings", nil)
	if be := r.object(t)["build_exports"].(map[string]any); be["available"] != false {
		t.Fatalf("build export available %v", be)
	}
}

func TestPipelineSettingsScopes(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	st.AddToken("read-only", []string{"acme"}, []string{scopeReadOrganizationSettings})
	expect(t, e.do("GET", "/v2/organizations/acme/pipeline-settings", "read-only", nil), http.StatusOK)
	for _, m := range []string{"PATCH /pipeline-settings", "PUT /pipeline-settings/public-pipelines",
		"DELETE /pipeline-settings/hosted-agents-ssh", "PUT /pipeline-settings/build-export", "DELETE /pipeline-settings/build-export"} {
		method, path, _ := strings.Cut(m, " ")
		expect(t, e.do(method, "/v2/organizations/acme"+path, "read-only", map[string]any{}), http.StatusForbidden)
	}
	st.AddToken("no-scope", []string{"acme"}, []string{scopeReadOrganizations})
	expect(t, e.do("GET", "/v2/organizations/acme/pipeline-settings", "no-scope", nil), http.StatusForbidden)
	// A member who is not an administrator is refused even with the scopes.
	second := st.AddUser("acme", "Second Member", "second-member@example.com", false)
	if err := st.AddTokenForUser("member", second, []string{"acme"}, AllScopes()); err != nil {
		t.Fatal(err)
	}
	expectError(t, e.do("GET", "/v2/organizations/acme/pipeline-settings", "member", nil), http.StatusForbidden,
		"Only organization administrators can manage organization settings")
	expect(t, e.do("PUT", "/v2/organizations/acme/pipeline-settings/public-pipelines", "member", nil), http.StatusForbidden)
	if _, _, public, _, _ := st.PipelineSettings("acme"); public {
		t.Fatal("a refused PUT changed the setting")
	}
}

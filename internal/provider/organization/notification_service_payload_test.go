package organization_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
)

const nsTestUUID = "0b4f2ce2-3b8d-4e5c-9f4c-6a1d2e3f4a5b"

func datadogModel(key, site, tags types.String) organization.NotificationServiceModelForTest {
	return organization.NotificationServiceModelForTest{
		ProviderType: types.StringValue(organization.NsProviderDatadogForTest), Scope: types.StringValue("all"), ScopeUUIDs: types.SetNull(types.StringType),
		Description: types.StringValue("before"), BranchConfiguration: types.StringValue("main"), Enabled: types.BoolValue(true),
		Datadog: &organization.NsDatadogModelForTest{APIKey: key, DatadogSite: site, DatadogTags: tags},
	}
}

// The PATCH carries only what changed; a setting not configured (unknown) is not sent; null clears.
func TestNotificationServiceUpdateBody_onlyChanges(t *testing.T) {
	ctx := context.Background()
	state := datadogModel(types.StringValue("secret"), types.StringValue("datadoghq.com"), types.StringValue("team:a"))
	plan := datadogModel(types.StringUnknown(), types.StringValue("datadoghq.eu"), types.StringNull())
	plan.Description = types.StringValue("after")
	plan.BranchConfiguration = types.StringNull()
	var diags diag.Diagnostics
	got := wire(t, plan.UpdateBody(ctx, &state, &diags))
	want := `{"description":"after","branch_configuration":null,"settings":{"datadog_site":"datadoghq.eu","datadog_tags":null}}`
	if diags.HasError() || got != want {
		t.Fatalf("updateBody = %s (%v), want %s", got, diags, want)
	}
	if same := state.UpdateBody(ctx, &state, &diags); !same.IsZero() {
		t.Fatalf("no change gives %s, want an empty body", wire(t, same))
	}
}

// Scope UUIDs are sent lower-cased, and [] when removed.
func TestNotificationServiceBodies_scopeUUIDs(t *testing.T) {
	ctx := context.Background()
	upper := types.SetValueMust(types.StringType, []attr.Value{types.StringValue("0B4F2CE2-3B8D-4E5C-9F4C-6A1D2E3F4A5B")})
	m := organization.NotificationServiceModelForTest{ProviderType: types.StringValue(organization.NsProviderWebhookForTest), Scope: types.StringValue("some_teams"),
		ScopeUUIDs: upper, Webhook: &organization.NsWebhookModelForTest{URL: types.StringValue("https://example.com"), Token: types.StringUnknown(),
			TokenMode: types.StringUnknown(), Version: types.Int64Unknown(), Events: types.SetUnknown(types.StringType), TLSVerify: types.BoolUnknown()}}
	var diags diag.Diagnostics
	created := wire(t, m.CreateBody(ctx, &diags))
	want := `{"provider":"webhook","scope":"some_teams","scope_uuids":["` + nsTestUUID + `"],"settings":{"url":"https://example.com"}}`
	if diags.HasError() || created != want {
		t.Fatalf("createBody = %s, want %s", created, want)
	}
	removed := m
	removed.Scope, removed.ScopeUUIDs = types.StringValue("all"), types.SetNull(types.StringType)
	if got := wire(t, removed.UpdateBody(ctx, &m, &diags)); got != `{"scope":"all","scope_uuids":[]}` {
		t.Fatalf("updateBody = %s", got)
	}
}

// wire is a request body as it is sent.
func wire(t *testing.T, body any) string {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// Secrets the service masks are kept while the mask agrees with them, and become the mask (a difference
// from the configuration) when it does not; headers, never shown, are kept.
func TestNotificationServiceFromAPI_secrets(t *testing.T) {
	answer := func(provider, settings string) *buildkite.NotificationService {
		s := &buildkite.NotificationService{ID: nsTestUUID, Provider: buildkite.NotificationServiceProvider{ID: provider},
			Scope: "all", Enabled: true}
		if err := json.Unmarshal([]byte(settings), &s.Settings); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct{ configured, shown, want string }{
		{"123456789012", "XXXXXXXX9012", "123456789012"},
		{"999999999999", "XXXXXXXX9012", "XXXXXXXX9012"},
		{"123456789012", "XXXXXXXXXXXX", "123456789012"},
	} {
		m := organization.NotificationServiceModelForTest{AWSEventBridge: &organization.NsEventBridgeModelForTest{AWSAccountID: types.StringValue(tc.configured)}}
		m.FromAPI(answer(organization.NsProviderEventBridgeForTest, `{"aws_region":"us-east-1","aws_account_id":"`+tc.shown+`","event_source_name":"x","include_build_meta_data":null}`))
		if m.AWSEventBridge.AWSAccountID.ValueString() != tc.want || !m.AWSEventBridge.IncludeBuildMetaData.IsNull() {
			t.Errorf("configured %s, shown %s: got %v, want %s", tc.configured, tc.shown, m.AWSEventBridge, tc.want)
		}
	}
	headers := types.MapValueMust(types.StringType, map[string]attr.Value{"authorization": types.StringValue("secret")})
	m := organization.NotificationServiceModelForTest{OpenTelemetry: &organization.NsOpenTelemetryModelForTest{Headers: headers}}
	m.FromAPI(answer(organization.NsProviderOpenTelemetryForTest, `{"endpoint":"https://otel","service_name":"buildkite","resource_attributes":{},"tracestate":{}}`))
	if !m.OpenTelemetry.Headers.Equal(headers) || m.OpenTelemetry.ServiceName.ValueString() != "buildkite" {
		t.Errorf("otel: %+v", m.OpenTelemetry)
	}
	unknownHeaders := organization.NotificationServiceModelForTest{OpenTelemetry: &organization.NsOpenTelemetryModelForTest{Headers: types.MapUnknown(types.StringType)}}
	unknownHeaders.FromAPI(answer(organization.NsProviderOpenTelemetryForTest, `{"endpoint":"https://otel"}`))
	if !unknownHeaders.OpenTelemetry.Headers.IsNull() {
		t.Errorf("unknown headers became %v, want null", unknownHeaders.OpenTelemetry.Headers)
	}
	// A provider the resource does not manage is an error naming it.
	if _, err := organization.ManagedServiceForTest(answer("event_log_api", `{}`), nil); err == nil || !strings.Contains(err.Error(), "event_log_api") {
		t.Errorf("event_log_api was accepted (%v)", err)
	}
}

// An unsupported provider_type (the official tests' legacy "slack") gets only the OneOf validator's error:
// the configuration checks add none of their own about a settings object that type does not have.
func TestCheckNotificationService_unsupportedProviderOnly(t *testing.T) {
	cfg := organization.NotificationServiceModelForTest{
		ProviderType: types.StringValue("slack"), Scope: types.StringNull(), ScopeUUIDs: types.SetNull(types.StringType),
		BranchConfiguration: types.StringNull(),
	}
	var diags diag.Diagnostics
	organization.CheckNotificationServiceForTest(&cfg, &diags)
	if diags.HasError() {
		t.Fatalf("checkNotificationService(provider_type slack) = %v, want no diagnostics", diags)
	}
}

package organization

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The settings objects of buildkite_notification_service, one for each provider that has settings: their
// models, schema, REST settings keys, the secrets among them (kept from the configuration where the
// service masks or never shows them, or given write-only) and how the service's answer fills them.

type nsWebhookModel struct {
	URL       types.String `tfsdk:"url"`
	Token     types.String `tfsdk:"token"`
	TokenMode types.String `tfsdk:"token_mode"`
	Version   types.Int64  `tfsdk:"version"`
	Events    types.Set    `tfsdk:"events"`
	TLSVerify types.Bool   `tfsdk:"tls_verify"`
	// TokenWO is write-only: known in the configuration only, null in plan and state.
	TokenWO        types.String `tfsdk:"token_wo"`
	TokenWOVersion types.String `tfsdk:"token_wo_version"`
}

type nsEventBridgeModel struct {
	AWSRegion            types.String `tfsdk:"aws_region"`
	AWSAccountID         types.String `tfsdk:"aws_account_id"`
	EventSourceName      types.String `tfsdk:"event_source_name"`
	IncludeBuildMetaData types.String `tfsdk:"include_build_meta_data"`
}

type nsDatadogModel struct {
	APIKey      types.String `tfsdk:"api_key"`
	DatadogSite types.String `tfsdk:"datadog_site"`
	DatadogTags types.String `tfsdk:"datadog_tags"`
	// APIKeyWO is write-only: known in the configuration only, null in plan and state.
	APIKeyWO        types.String `tfsdk:"api_key_wo"`
	APIKeyWOVersion types.String `tfsdk:"api_key_wo_version"`
}

type nsOpenTelemetryModel struct {
	Endpoint           types.String `tfsdk:"endpoint"`
	ServiceName        types.String `tfsdk:"service_name"`
	Headers            types.Map    `tfsdk:"headers"`
	ResourceAttributes types.Map    `tfsdk:"resource_attributes"`
	// HeadersWO is write-only: known in the configuration only, null in plan and state.
	HeadersWO        types.Map    `tfsdk:"headers_wo"`
	HeadersWOVersion types.String `tfsdk:"headers_wo_version"`
}

var (
	// nsRequired are the settings a create needs, by provider.
	nsRequired = map[string][]string{
		nsProviderWebhook:       {"url"},
		nsProviderEventBridge:   {"aws_region", "aws_account_id"},
		nsProviderDatadog:       {"api_key"},
		nsProviderOpenTelemetry: {"endpoint"},
	}
	// nsAlwaysRequired are those of them that are not kept from the service when left out (Optional, not
	// Computed): without them any plan would clear them, which the service refuses, so they are required in
	// every configuration, and checked before the provider is configured.
	nsAlwaysRequired = map[string]bool{"url": true, "endpoint": true}
)

// configured returns the names of the settings objects m sets.
func (m *notificationServiceModel) configured() []string {
	var names []string
	for name, set := range map[string]bool{
		nsProviderWebhook: m.Webhook != nil, nsProviderEventBridge: m.AWSEventBridge != nil,
		nsProviderDatadog: m.Datadog != nil, nsProviderOpenTelemetry: m.OpenTelemetry != nil,
	} {
		if set {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// settings returns the values of the settings object of m's provider by REST settings key, or nil when it
// has none.
func (m *notificationServiceModel) settings() map[string]attr.Value {
	switch {
	case m.Webhook != nil && m.ProviderType.ValueString() == nsProviderWebhook:
		w := m.Webhook
		return map[string]attr.Value{"url": w.URL, "token": w.Token, "token_mode": w.TokenMode, "version": w.Version,
			"events": w.Events, "tls_verify": w.TLSVerify}
	case m.AWSEventBridge != nil && m.ProviderType.ValueString() == nsProviderEventBridge:
		a := m.AWSEventBridge
		return map[string]attr.Value{"aws_region": a.AWSRegion, "aws_account_id": a.AWSAccountID,
			"include_build_meta_data": a.IncludeBuildMetaData}
	case m.Datadog != nil && m.ProviderType.ValueString() == nsProviderDatadog:
		d := m.Datadog
		return map[string]attr.Value{"api_key": d.APIKey, "datadog_site": d.DatadogSite, "datadog_tags": d.DatadogTags}
	case m.OpenTelemetry != nil && m.ProviderType.ValueString() == nsProviderOpenTelemetry:
		o := m.OpenTelemetry
		return map[string]attr.Value{"endpoint": o.Endpoint, "service_name": o.ServiceName, "headers": o.Headers,
			"resource_attributes": o.ResourceAttributes}
	}
	return nil
}

// setSetting puts the setting key of v into out: its value, or null (cleared) where v is null.
func setSetting(ctx context.Context, out *buildkite.NotificationServiceSettings, key string, v attr.Value, diags *diag.Diagnostics) {
	str := func(f *buildkite.Optional[string]) {
		if v.IsNull() {
			*f = buildkite.Cleared[string]()
		} else {
			*f = buildkite.Value(v.(types.String).ValueString())
		}
	}
	strMap := func(f *buildkite.Optional[map[string]string]) {
		if v.IsNull() {
			*f = buildkite.Cleared[map[string]string]()
			return
		}
		m := map[string]string{}
		diags.Append(v.(types.Map).ElementsAs(ctx, &m, false)...)
		*f = buildkite.Value(m)
	}
	switch key {
	case "url":
		str(&out.URL)
	case "token":
		str(&out.Token)
	case "token_mode":
		str(&out.TokenMode)
	case "aws_region":
		str(&out.AWSRegion)
	case "aws_account_id":
		str(&out.AWSAccountID)
	case "include_build_meta_data":
		str(&out.IncludeBuildMetaData)
	case "api_key":
		str(&out.APIKey)
	case "datadog_site":
		str(&out.DatadogSite)
	case "datadog_tags":
		str(&out.DatadogTags)
	case "endpoint":
		str(&out.Endpoint)
	case "service_name":
		str(&out.ServiceName)
	case "headers":
		strMap(&out.Headers)
	case "resource_attributes":
		strMap(&out.ResourceAttributes)
	case "version":
		if v.IsNull() {
			out.Version = buildkite.Cleared[int64]()
		} else {
			out.Version = buildkite.Value(v.(types.Int64).ValueInt64())
		}
	case "tls_verify":
		if v.IsNull() {
			out.TLSVerify = buildkite.Cleared[bool]()
		} else {
			out.TLSVerify = buildkite.Value(v.(types.Bool).ValueBool())
		}
	case "events":
		if v.IsNull() {
			out.Events = buildkite.Cleared[[]string]()
			return
		}
		var events []string
		diags.Append(v.(types.Set).ElementsAs(ctx, &events, false)...)
		out.Events = buildkite.Value(nonNilStrings(events))
	default:
		diags.AddError("Unsupported Setting", fmt.Sprintf("A notification service setting %q; please report this issue to the provider developers.", key))
	}
}

// ---- secrets ----

// nsSecret is the secret setting of a provider that has a write-only form: the REST settings key (also
// the plain attribute's name), the write-only value (known in the configuration only) and its version.
type nsSecret struct {
	key     string
	value   attr.Value
	version types.String
}

// nsSecretKeys are the settings keys that have a write-only form, by provider: those the service takes
// and never returns in full (a Datadog API key masked, OpenTelemetry headers never shown), and the
// webhook's token, which it shows, so that a configuration can keep every secret out of state.
var nsSecretKeys = map[string]string{nsProviderWebhook: "token", nsProviderDatadog: "api_key", nsProviderOpenTelemetry: "headers"}

// secret returns the secret setting of m's provider that has a write-only form, if m sets its object.
func (m *notificationServiceModel) secret() (nsSecret, bool) {
	switch {
	case m.Webhook != nil && m.ProviderType.ValueString() == nsProviderWebhook:
		return nsSecret{"token", m.Webhook.TokenWO, m.Webhook.TokenWOVersion}, true
	case m.Datadog != nil && m.ProviderType.ValueString() == nsProviderDatadog:
		return nsSecret{"api_key", m.Datadog.APIKeyWO, m.Datadog.APIKeyWOVersion}, true
	case m.OpenTelemetry != nil && m.ProviderType.ValueString() == nsProviderOpenTelemetry:
		return nsSecret{"headers", m.OpenTelemetry.HeadersWO, m.OpenTelemetry.HeadersWOVersion}, true
	}
	return nsSecret{}, false
}

// writeOnly tells whether m keeps its secret write-only: a version is set. The plain attribute is then
// null in plan and state.
func (m *notificationServiceModel) writeOnly() bool {
	s, ok := m.secret()
	return ok && !s.version.IsNull()
}

// takeWriteOnly copies into the plan m, before a create or update, the write-only values only the
// configuration holds; fromAPI nulls them again. A settings object is in the plan exactly where it is in
// the configuration (it is not computed).
func (m *notificationServiceModel) takeWriteOnly(config *notificationServiceModel) {
	if m.Webhook != nil && config.Webhook != nil {
		m.Webhook.TokenWO = config.Webhook.TokenWO
	}
	if m.Datadog != nil && config.Datadog != nil {
		m.Datadog.APIKeyWO = config.Datadog.APIKeyWO
	}
	if m.OpenTelemetry != nil && config.OpenTelemetry != nil {
		m.OpenTelemetry.HeadersWO = config.OpenTelemetry.HeadersWO
	}
}

// keepWriteOnly carries the write-only version of prior into m (built from the service's answer), with the
// write-only value null as Terraform requires; while a version is set, the plain secret is null too, so
// that what the service shows (the webhook's token in full) never reaches state.
func (m *notificationServiceModel) keepWriteOnly(prior *notificationServiceModel) {
	version := types.StringNull()
	if s, ok := prior.secret(); ok {
		version = s.version
	}
	wo := !version.IsNull()
	switch {
	case m.Webhook != nil:
		m.Webhook.TokenWO, m.Webhook.TokenWOVersion = types.StringNull(), version
		if wo {
			m.Webhook.Token = types.StringNull()
		}
	case m.Datadog != nil:
		m.Datadog.APIKeyWO, m.Datadog.APIKeyWOVersion = types.StringNull(), version
		if wo {
			m.Datadog.APIKey = types.StringNull()
		}
	case m.OpenTelemetry != nil:
		m.OpenTelemetry.HeadersWO, m.OpenTelemetry.HeadersWOVersion = types.MapNull(types.StringType), version
		if wo {
			m.OpenTelemetry.Headers = types.MapNull(types.StringType)
		}
	}
}

// keptSecret is the value of a secret the service masks to its last characters (XXXXXXXX9012): the prior
// value (configuration or state) while it ends as the mask does; otherwise the mask itself, so that a
// secret changed outside Terraform shows as a difference from the configuration. A secret the service
// does not show at all is the prior value.
func keptSecret(prior types.String, shown *string) types.String {
	if prior.IsUnknown() {
		prior = types.StringNull()
	}
	if shown == nil || prior.IsNull() {
		return prior
	}
	tail := strings.TrimLeft(*shown, "X")
	if strings.HasSuffix(prior.ValueString(), tail) {
		return prior
	}
	return types.StringValue(*shown)
}

// settingsFromAPI sets the settings object of provider from the service's settings, and clears the others;
// prior is m before the answer, whose secrets and write-only versions are kept.
func (m *notificationServiceModel) settingsFromAPI(provider string, set *buildkite.NotificationServiceShown, prior *notificationServiceModel) {
	m.Webhook, m.AWSEventBridge, m.Datadog, m.OpenTelemetry = nil, nil, nil, nil
	switch provider {
	case nsProviderWebhook:
		m.Webhook = &nsWebhookModel{URL: types.StringPointerValue(set.URL), Token: types.StringPointerValue(set.Token), TokenMode: types.StringPointerValue(set.TokenMode),
			Version: types.Int64PointerValue(set.Version), Events: kit.StringSet(set.Events), TLSVerify: types.BoolPointerValue(set.TLSVerify)}
		if set.Events == nil {
			m.Webhook.Events = types.SetNull(types.StringType)
		}
	case nsProviderEventBridge:
		priorAccount := types.StringNull()
		if prior.AWSEventBridge != nil {
			priorAccount = prior.AWSEventBridge.AWSAccountID
		}
		m.AWSEventBridge = &nsEventBridgeModel{AWSRegion: types.StringPointerValue(set.AWSRegion), AWSAccountID: keptSecret(priorAccount, set.AWSAccountID),
			EventSourceName: types.StringPointerValue(set.EventSourceName), IncludeBuildMetaData: types.StringPointerValue(set.IncludeBuildMetaData)}
	case nsProviderDatadog:
		priorKey := types.StringNull()
		if prior.Datadog != nil {
			priorKey = prior.Datadog.APIKey
		}
		m.Datadog = &nsDatadogModel{APIKey: keptSecret(priorKey, set.APIKey), DatadogSite: types.StringPointerValue(set.DatadogSite),
			DatadogTags: types.StringPointerValue(set.DatadogTags)}
	case nsProviderOpenTelemetry:
		headers := types.MapNull(types.StringType)
		if prior.OpenTelemetry != nil && kit.IsKnownValue(prior.OpenTelemetry.Headers) {
			headers = prior.OpenTelemetry.Headers
		}
		attrs := types.MapNull(types.StringType)
		if set.ResourceAttributes != nil {
			attrs = kit.StringMap(set.ResourceAttributes)
		}
		m.OpenTelemetry = &nsOpenTelemetryModel{Endpoint: types.StringPointerValue(set.Endpoint), ServiceName: types.StringPointerValue(set.ServiceName),
			Headers: headers, ResourceAttributes: attrs}
	}
	m.keepWriteOnly(prior)
}

// ---- schema ----

// nsSettingsAttributes are the settings objects of the schema, by provider.
func nsSettingsAttributes() map[string]schema.Attribute {
	settingsNote := " Set it only when `provider_type` is `%s`."
	return map[string]schema.Attribute{
		"webhook": schema.SingleNestedAttribute{
			MarkdownDescription: "The settings of a webhook." + fmt.Sprintf(settingsNote, nsProviderWebhook),
			Optional:            true,
			Attributes: map[string]schema.Attribute{
				"url": nsOptional("The URL events are posted to; required to create one."),
				"token": keepString("The token sent with each event (or used to sign it); kept in state. Unset, the service "+
					"generates one (unless `token_wo` is set). Conflicts with `token_wo`.", true),
				"token_wo":         nsWriteOnlyString("token", "The token sent with each event (or used to sign it)"),
				"token_wo_version": nsWriteOnlyVersion("token"),
				"token_mode":       keepString("How the token is sent: `token` (a header) or `signature` (an HMAC signature).", false, stringvalidator.OneOf("token", "signature")),
				"version": schema.Int64Attribute{MarkdownDescription: "The payload version; it can only move up to the newest.",
					Optional: true, Computed: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
				"events": schema.SetAttribute{MarkdownDescription: "The events sent, such as `build.finished`.", ElementType: types.StringType,
					Optional: true, Computed: true, PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()}},
				"tls_verify": schema.BoolAttribute{MarkdownDescription: "Whether the receiver's TLS certificate is verified.",
					Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
			},
		},
		"aws_event_bridge": schema.SingleNestedAttribute{
			MarkdownDescription: "The settings of an Amazon EventBridge partner event source." + fmt.Sprintf(settingsNote, nsProviderEventBridge),
			Optional:            true,
			Attributes: map[string]schema.Attribute{
				"aws_region": schema.StringAttribute{MarkdownDescription: "The AWS region; required to create one. Changing it replaces the service.",
					Optional: true, Computed: true,
					PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured()}},
				"aws_account_id": schema.StringAttribute{
					MarkdownDescription: "The 12-digit AWS account ID; required to create one. The service shows only its last digits, so " +
						"it is kept from the configuration. Changing it replaces the service; setting it after an import adopts the service's.",
					Optional: true, Computed: true, Sensitive: true,
					PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIf(
						accountChanged, "Changing the AWS account replaces the service.", "Changing the AWS account replaces the service.")},
				},
				"event_source_name":       kit.ComputedString("The name of the partner event source the service created in the AWS account."),
				"include_build_meta_data": nsOptional("Which build meta-data to include in events, such as `deploy:*`."),
			},
		},
		"datadog_pipeline_visibility": schema.SingleNestedAttribute{
			MarkdownDescription: "The settings of Datadog Pipeline Visibility." + fmt.Sprintf(settingsNote, nsProviderDatadog),
			Optional:            true,
			Attributes: map[string]schema.Attribute{
				"api_key": keepString("The Datadog API key; required to create one (or `api_key_wo`). The service shows only its "+
					"last characters, so it is kept from the configuration, in state. Conflicts with `api_key_wo`.", true),
				"api_key_wo":         nsWriteOnlyString("api_key", "The Datadog API key"),
				"api_key_wo_version": nsWriteOnlyVersion("api_key"),
				"datadog_site":       keepString("The Datadog site, such as `datadoghq.com` (the service's default).", false),
				"datadog_tags":       nsOptional("Tags added to every event: `key:value` pairs, one a line."),
			},
		},
		"open_telemetry_tracing": schema.SingleNestedAttribute{
			MarkdownDescription: "The settings of OpenTelemetry tracing." + fmt.Sprintf(settingsNote, nsProviderOpenTelemetry),
			Optional:            true,
			Attributes: map[string]schema.Attribute{
				"endpoint":     nsOptional("The OTLP endpoint traces are sent to; required to create one."),
				"service_name": keepString("The service name of the traces (the service's default is `buildkite`).", false),
				"headers": schema.MapAttribute{MarkdownDescription: "Headers sent with each export, such as an authorization header. " +
					"The service never shows them, so they are kept from the configuration, in state. Conflicts with `headers_wo`.", ElementType: types.StringType,
					Optional: true, Computed: true, Sensitive: true, PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown()}},
				"headers_wo": schema.MapAttribute{MarkdownDescription: nsWriteOnlyDescription("headers", "Headers sent with each export"),
					ElementType: types.StringType, Optional: true, WriteOnly: true},
				"headers_wo_version": nsWriteOnlyVersion("headers"),
				"resource_attributes": schema.MapAttribute{MarkdownDescription: "Resource attributes added to every span.", ElementType: types.StringType,
					Optional: true, Computed: true, PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown()}},
			},
		},
	}
}

// keepString is an Optional+Computed setting: unset, it keeps what the service holds.
func keepString(description string, sensitive bool, validators ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: description, Optional: true, Computed: true, Sensitive: sensitive,
		Validators: validators, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

// nsWriteOnlyDescription describes the write-only form of the secret setting key.
func nsWriteOnlyDescription(key, what string) string {
	return fmt.Sprintf("%[2]s, write-only (Terraform 1.11 or later): sent to the service and kept in neither plan nor "+
		"state. Requires `%[1]s_wo_version`; conflicts with `%[1]s`.", key, what)
}

// The write-only forms are not marked sensitive: Terraform keeps them in neither plan nor state and shows
// none, and a mark that a state written by the official provider (which has no such attribute) does not
// record would make its first plan after replace-provider -refresh=false an update that changes nothing.
func nsWriteOnlyString(key, what string) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: nsWriteOnlyDescription(key, what), Optional: true, WriteOnly: true}
}

// nsWriteOnlyVersion is the label whose change sends the write-only form of key again.
func nsWriteOnlyVersion(key string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: fmt.Sprintf("A label of `%[1]s_wo`, not secret, such as its version in your secret manager: "+
			"Terraform cannot see a write-only value change, so changing this label is what sends `%[1]s_wo` again; "+
			"an apply that leaves it as it is sends nothing. Required with `%[1]s_wo`.", key),
		Optional:   true,
		Validators: []validator.String{kit.NotBlank()},
	}
}

// accountChanged replaces the service when a known account ID changes; setting one where the state has
// none (after an import) adopts the service's.
func accountChanged(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = kit.IsKnownValue(req.StateValue) && kit.IsKnownValue(req.PlanValue) && !req.PlanValue.Equal(req.StateValue)
}

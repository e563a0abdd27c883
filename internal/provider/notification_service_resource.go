package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ resource.Resource                     = (*notificationServiceResource)(nil)
	_ resource.ResourceWithConfigure        = (*notificationServiceResource)(nil)
	_ resource.ResourceWithImportState      = (*notificationServiceResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*notificationServiceResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*notificationServiceResource)(nil)
	_ resource.ResourceWithIdentity         = (*notificationServiceResource)(nil)
	_ resource.ResourceWithUpgradeState     = (*notificationServiceResource)(nil)
	_ resource.ResourceWithConfigValidators = (*notificationServiceResource)(nil)
)

// notificationServiceIdentity names a notification service by its UUID, its import ID.
var notificationServiceIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The notification service's UUID."))

// NewNotificationServiceResource returns the buildkite_notification_service resource.
func NewNotificationServiceResource() resource.Resource {
	return &notificationServiceResource{ResourceBase: kit.NewResourceBase("notification_service",
		kit.WriteScopes("write_notification_services"), notificationServiceIdentity)}
}

type notificationServiceResource struct {
	kit.ResourceBase
}

// The providers this resource manages: four with settings, and two connected in the web interface (OAuth),
// which can only be imported.
const (
	nsProviderWebhook        = "webhook"
	nsProviderEventBridge    = "aws_event_bridge"
	nsProviderDatadog        = "datadog_pipeline_visibility"
	nsProviderOpenTelemetry  = "open_telemetry_tracing"
	nsProviderLinear         = "linear"
	nsProviderSlackWorkspace = "slack_workspace"
)

var (
	nsProviderTypes = []string{nsProviderWebhook, nsProviderEventBridge, nsProviderDatadog, nsProviderOpenTelemetry, nsProviderLinear, nsProviderSlackWorkspace}
	nsScopeValues   = []string{"all", "some_projects", "some_teams", "some_clusters"}
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

func nsIsOAuth(provider string) bool {
	return provider == nsProviderLinear || provider == nsProviderSlackWorkspace
}

// ---- model ----

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

// notificationServiceModel is the state: the common fields and one settings object, that of the
// service's provider (none for the OAuth providers).
type notificationServiceModel struct {
	ID                  types.String          `tfsdk:"id"`
	GraphQLID           types.String          `tfsdk:"graphql_id"`
	ProviderType        types.String          `tfsdk:"provider_type"`
	Description         types.String          `tfsdk:"description"`
	BranchConfiguration types.String          `tfsdk:"branch_configuration"`
	Enabled             types.Bool            `tfsdk:"enabled"`
	Scope               types.String          `tfsdk:"scope"`
	ScopeUUIDs          types.Set             `tfsdk:"scope_uuids"`
	CreatedAt           types.String          `tfsdk:"created_at"`
	Webhook             *nsWebhookModel       `tfsdk:"webhook"`
	AWSEventBridge      *nsEventBridgeModel   `tfsdk:"aws_event_bridge"`
	Datadog             *nsDatadogModel       `tfsdk:"datadog_pipeline_visibility"`
	OpenTelemetry       *nsOpenTelemetryModel `tfsdk:"open_telemetry_tracing"`
}

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

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// scopeUUIDs returns the configured scope UUIDs, lower-cased as the service stores them.
func (m *notificationServiceModel) scopeUUIDs() []string {
	if !kit.IsKnownValue(m.ScopeUUIDs) {
		return nil
	}
	var ids []string
	for _, e := range m.ScopeUUIDs.Elements() {
		if s, ok := e.(types.String); ok && kit.IsKnownValue(s) {
			ids = append(ids, strings.ToLower(s.ValueString()))
		}
	}
	slices.Sort(ids)
	return nonNilStrings(ids)
}

// createBody is the body of a create: the provider, the scope, what else is set, and the settings set.
func (m *notificationServiceModel) createBody(ctx context.Context, diags *diag.Diagnostics) buildkite.NotificationServiceCreate {
	body := buildkite.NotificationServiceCreate{
		Provider:            m.ProviderType.ValueString(),
		Scope:               m.Scope.ValueString(),
		Description:         kit.StringPtrIfSet(m.Description),
		BranchConfiguration: kit.StringPtrIfSet(m.BranchConfiguration),
	}
	if ids := m.scopeUUIDs(); len(ids) > 0 {
		body.ScopeUUIDs = ids
	}
	for k, v := range m.settings() {
		if kit.IsKnownValue(v) {
			setSetting(ctx, &body.Settings, k, v, diags)
		}
	}
	return body
}

// updateBody is the body of a PATCH: only what changed from state; null clears. Of EventBridge's settings
// only include_build_meta_data can change, except after an import (no settings in state), when every
// configured setting is sent as on a create.
func (m *notificationServiceModel) updateBody(ctx context.Context, state *notificationServiceModel, diags *diag.Diagnostics) buildkite.NotificationServiceUpdate {
	var body buildkite.NotificationServiceUpdate
	for _, f := range []struct {
		field       *buildkite.Optional[string]
		plan, state types.String
	}{{&body.Description, m.Description, state.Description}, {&body.BranchConfiguration, m.BranchConfiguration, state.BranchConfiguration}} {
		if f.plan.IsUnknown() || f.plan.Equal(f.state) {
			continue
		}
		if f.plan.IsNull() {
			*f.field = buildkite.Cleared[string]()
		} else {
			*f.field = buildkite.Value(f.plan.ValueString())
		}
	}
	if kit.IsKnownValue(m.Scope) && !m.Scope.Equal(state.Scope) {
		body.Scope = buildkite.Value(m.Scope.ValueString())
	}
	if planIDs, stateIDs := m.scopeUUIDs(), state.scopeUUIDs(); !m.ScopeUUIDs.IsUnknown() && !slices.Equal(planIDs, stateIDs) {
		body.ScopeUUIDs = buildkite.Value(nonNilStrings(planIDs))
	}
	prior := state.settings()
	for k, v := range m.settings() {
		if v.IsUnknown() {
			continue
		}
		if prior == nil {
			if !v.IsNull() && (k != nsSecretKeys[m.ProviderType.ValueString()] || !m.writeOnly()) {
				setSetting(ctx, &body.Settings, k, v, diags)
			}
			continue
		}
		if m.ProviderType.ValueString() == nsProviderEventBridge && k != "include_build_meta_data" {
			continue
		}
		if k == nsSecretKeys[m.ProviderType.ValueString()] && m.writeOnly() {
			continue // the write-only form is sent, when its version changes (writeOnlyUpdate)
		}
		if old, ok := prior[k]; ok && v.Equal(old) {
			continue
		}
		if v.IsNull() && !kit.IsKnownValue(prior[k]) {
			continue
		}
		setSetting(ctx, &body.Settings, k, v, diags)
	}
	return body
}

// sendWriteOnly puts the configured write-only secret of config into out, when config gives one; plan and
// state are those of the operation (state nil for a create), and the value is sent on a create, or when
// its version changed.
func sendWriteOnly(ctx context.Context, out *buildkite.NotificationServiceSettings, config, plan, state *notificationServiceModel, diags *diag.Diagnostics) {
	s, ok := config.secret()
	if !ok || s.value.IsNull() || s.value.IsUnknown() {
		return
	}
	if state != nil {
		planned, _ := plan.secret()
		prior, hadPrior := state.secret()
		if hadPrior && planned.version.Equal(prior.version) {
			return
		}
	}
	setSetting(ctx, out, s.key, s.value, diags)
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

// fromAPI sets m from the service's answer; prior is the state or plan before it, whose secrets (which the
// service masks or never shows) and spellings of scope UUIDs are kept.
func (m *notificationServiceModel) fromAPI(s *buildkite.NotificationService, diags *diag.Diagnostics) {
	prior := *m
	provider := s.Provider.ID
	if !slices.Contains(nsProviderTypes, provider) {
		diags.AddError("Unsupported Notification Service Provider", fmt.Sprintf(
			"provider_type %q is not supported: notification service %s is of a kind buildkite_notification_service "+
				"does not manage (it manages %s). Manage it in the web interface instead.", provider, s.ID, strings.Join(nsProviderTypes, ", ")))
		return
	}
	m.ID = types.StringValue(s.ID)
	m.GraphQLID = types.StringPointerValue(s.GraphQLID)
	m.ProviderType = types.StringValue(provider)
	m.Description = kit.KeepEmpty(prior.Description, s.Description)
	m.BranchConfiguration = kit.KeepEmpty(prior.BranchConfiguration, s.BranchConfiguration)
	m.Enabled = types.BoolValue(s.Enabled)
	m.Scope = types.StringValue(s.Scope)
	m.CreatedAt = kit.TimeValue(s.CreatedAt)

	// Scope UUIDs: [] stays null where the prior value was null; the same UUIDs in other letter case keep
	// the configured spelling.
	answered := lowerSorted(s.ScopeUUIDs)
	switch {
	case len(answered) == 0 && (!kit.IsKnownValue(prior.ScopeUUIDs)):
		m.ScopeUUIDs = types.SetNull(types.StringType)
	case kit.IsKnownValue(prior.ScopeUUIDs) && slices.Equal(prior.scopeUUIDs(), answered):
		m.ScopeUUIDs = prior.ScopeUUIDs
	default:
		m.ScopeUUIDs = kit.StringSet(s.ScopeUUIDs)
	}

	set := &s.Settings
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
	m.keepWriteOnly(&prior)
}

func lowerSorted(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strings.ToLower(id)
	}
	slices.Sort(out)
	return out
}

// ---- schema ----

// keepString is an Optional+Computed setting: unset, it keeps what the service holds.
func keepString(description string, sensitive bool, validators ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: description, Optional: true, Computed: true, Sensitive: sensitive,
		Validators: validators, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

func nsOptional(description string) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: description, Optional: true}
}

func (r *notificationServiceResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	settingsNote := " Set it only when `provider_type` is `%s`."
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A notification service: where the organization's build events go (a webhook, Amazon " +
			"EventBridge, Datadog Pipeline Visibility or OpenTelemetry tracing). Services connected in the web " +
			"interface (`linear`, `slack_workspace`) can be imported and their description changed, but not created. " +
			"Secrets the service masks or never returns (`aws_account_id`, `api_key`, `headers`) are kept from the " +
			"configuration; a masked value that no longer ends as the configured one shows as a change. The webhook's " +
			"`token`, the Datadog `api_key` and the OpenTelemetry `headers` can instead be given write-only (`token_wo`, " +
			"`api_key_wo`, `headers_wo`, each with a `*_wo_version` whose change sends it again), to keep every secret out " +
			"of plan and state. Import a service by its UUID.",
		Attributes: map[string]schema.Attribute{
			"id":         kit.ComputedString("The notification service's UUID."),
			"graphql_id": kit.ComputedString("The notification service's GraphQL ID, null when the service gives none."),
			"provider_type": schema.StringAttribute{
				MarkdownDescription: "The kind of service: one of " + kit.Backquoted(nsProviderTypes) + " (the last two only by " +
					"import). Changing it replaces the service.",
				Required:      true,
				Validators:    []validator.String{stringvalidator.OneOf(nsProviderTypes...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"description":          nsOptional("A description of the service. Removing it clears it."),
			"branch_configuration": nsOptional("The branches whose builds notify, as a branch filter such as `main release/*`. Unset, every branch."),
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the service is enabled. Default `true`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(true),
			},
			"scope": schema.StringAttribute{
				MarkdownDescription: "Which builds notify: one of " + kit.Backquoted(nsScopeValues) + ". Default `all`.",
				Optional:            true, Computed: true, Default: stringdefault.StaticString("all"),
				Validators: []validator.String{stringvalidator.OneOf(nsScopeValues...)},
			},
			"scope_uuids": schema.SetAttribute{
				MarkdownDescription: "The UUIDs of the pipelines, teams or clusters a `some_*` scope names.",
				Optional:            true, ElementType: types.StringType,
				Validators: []validator.Set{setvalidator.ValueStringsAre(stringvalidator.RegexMatches(kit.UuidPattern, "must be a UUID"))},
			},
			"created_at": kit.ComputedString(kit.CommonDescription(kit.AttrCreatedAt, "notification service")),
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
		},
	}
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

// ConfigValidators: each secret is given plain or write-only, not both, and a write-only one with its
// version.
func (r *notificationServiceResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	var out []resource.ConfigValidator
	for _, provider := range []string{nsProviderWebhook, nsProviderDatadog, nsProviderOpenTelemetry} {
		block, key := path.MatchRoot(provider), nsSecretKeys[provider]
		out = append(out,
			resourcevalidator.Conflicting(block.AtName(key), block.AtName(key+"_wo")),
			resourcevalidator.RequiredTogether(block.AtName(key+"_wo"), block.AtName(key+"_wo_version")))
	}
	return out
}

// accountChanged replaces the service when a known account ID changes; setting one where the state has
// none (after an import) adopts the service's.
func accountChanged(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = kit.IsKnownValue(req.StateValue) && kit.IsKnownValue(req.PlanValue) && !req.PlanValue.Equal(req.StateValue)
}

// UpgradeState moves the official provider's states (version 0, the same attributes) to version 1.
func (r *notificationServiceResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{})
}

// ValidateConfig refuses what the service would refuse and the configuration alone shows, with the
// official provider's summaries. It runs before the provider is configured, so it holds even where the
// service cannot be reached, and it asks the service nothing.
func (r *notificationServiceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg notificationServiceModel
	if d := req.Config.Get(ctx, &cfg); d.HasError() {
		return // an unknown settings object: checked again when it is known
	}
	checkNotificationService(&cfg, &resp.Diagnostics)
}

// ModifyPlan checks scopes (the base) and, for a create, what only a create needs: a provider that can be
// created, and its required settings. Nothing here asks the service.
func (r *notificationServiceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
	if req.Plan.Raw.IsNull() || req.Config.Raw.IsNull() {
		return
	}
	var cfg notificationServiceModel
	if d := req.Config.Get(ctx, &cfg); d.HasError() {
		return
	}
	if cfg.writeOnly() {
		// The secret is write-only: the plain attribute, computed from what the service holds, is planned
		// null, so that a move from it clears the stored secret from state.
		p := path.Root(cfg.ProviderType.ValueString()).AtName(nsSecretKeys[cfg.ProviderType.ValueString()])
		if cfg.ProviderType.ValueString() == nsProviderOpenTelemetry {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, p, types.MapNull(types.StringType))...)
		} else {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, p, types.StringNull())...)
		}
	}
	if req.State.Raw.IsNull() {
		checkNotificationServiceCreate(&cfg, &resp.Diagnostics)
	}
}

// nsScope is the configured scope ("all" when unset) and the configured scope UUIDs that are known, and
// whether some are not known yet (a team created in the same apply; they are checked when they are).
func nsScope(cfg *notificationServiceModel) (scope string, ids []string, unknownIDs bool) {
	scope = "all"
	if !cfg.Scope.IsNull() {
		scope = cfg.Scope.ValueString()
	}
	if kit.IsKnownValue(cfg.ScopeUUIDs) {
		for _, e := range cfg.ScopeUUIDs.Elements() {
			if s, ok := e.(types.String); ok && kit.IsKnownValue(s) {
				ids = append(ids, s.ValueString())
			}
		}
	}
	return scope, ids, kit.IsKnownValue(cfg.ScopeUUIDs) && len(ids) < len(cfg.ScopeUUIDs.Elements())
}

// checkNotificationService adds the errors the configuration alone shows.
func checkNotificationService(cfg *notificationServiceModel, diags *diag.Diagnostics) {
	provider := cfg.ProviderType.ValueString()
	if cfg.ProviderType.IsUnknown() || !slices.Contains(nsProviderTypes, provider) {
		return // an unsupported provider_type is the OneOf validator's one error: it has no settings object
	}
	scope, ids, unknownIDs := nsScope(cfg)
	seen := map[string]string{}
	for _, id := range ids {
		if other, dup := seen[strings.ToLower(id)]; dup {
			diags.AddAttributeError(path.Root("scope_uuids"), "Duplicate notification service scope UUID",
				fmt.Sprintf("scope_uuids holds %q and %q, the same UUID in different letter case; list it once.", other, id))
		}
		seen[strings.ToLower(id)] = id
	}
	if (len(ids) > 0 || unknownIDs) && !cfg.Scope.IsUnknown() && !strings.HasPrefix(scope, "some_") {
		diags.AddAttributeError(path.Root("scope_uuids"), "Notification service scope UUIDs require a scoped service",
			fmt.Sprintf("scope_uuids names pipelines, teams or clusters only for a scope of some_projects, some_teams or some_clusters; "+
				"scope is %q. Set the scope, or remove scope_uuids.", scope))
	}
	blocks := cfg.configured()
	switch {
	case len(blocks) > 1:
		diags.AddError("Multiple notification service settings configured", fmt.Sprintf(
			"Only the settings object of provider_type %q may be set; the configuration sets %s.", provider, strings.Join(blocks, ", ")))
		return
	case len(blocks) == 1 && blocks[0] != provider:
		diags.AddAttributeError(path.Root(blocks[0]), "Notification service settings do not match provider_type", fmt.Sprintf(
			"The configuration sets %s, but provider_type is %q: set the %s object instead.", blocks[0], provider, provider))
		return
	case len(blocks) == 0 && !nsIsOAuth(provider):
		diags.AddError("Notification service settings are required", fmt.Sprintf(
			"A notification service of provider_type %q needs its %s object; it cannot be removed.", provider, provider))
		return
	}
	if nsIsOAuth(provider) {
		if !cfg.BranchConfiguration.IsNull() || (scope != "all" && !cfg.Scope.IsUnknown()) || len(ids) > 0 || unknownIDs {
			diags.AddError("Notification filters are not supported", fmt.Sprintf(
				"A %s service takes no branch_configuration, scope other than \"all\" or scope_uuids: its filters are set "+
					"where it was connected, in the web interface.", provider))
		}
		return
	}
	missingSettings(cfg, provider, func(k string) bool { return nsAlwaysRequired[k] }, diags)
}

// checkNotificationServiceCreate adds the errors of a configuration that only a create would meet.
func checkNotificationServiceCreate(cfg *notificationServiceModel, diags *diag.Diagnostics) {
	provider := cfg.ProviderType.ValueString()
	switch {
	case cfg.ProviderType.IsUnknown():
	case nsIsOAuth(provider):
		diags.AddAttributeError(path.Root("provider_type"), "OAuth-managed notification service cannot be created", fmt.Sprintf(
			"A %s service is connected in Buildkite's web interface; import it by its UUID instead.", provider))
	case len(cfg.configured()) == 1:
		missingSettings(cfg, provider, func(k string) bool { return !nsAlwaysRequired[k] }, diags)
	}
}

// missingSettings adds an error for each required setting of provider that pick selects and cfg leaves
// null (an unknown one is checked when it is known).
func missingSettings(cfg *notificationServiceModel, provider string, pick func(key string) bool, diags *diag.Diagnostics) {
	settings := cfg.settings()
	if settings == nil {
		return
	}
	secret, _ := cfg.secret()
	for _, k := range nsRequired[provider] {
		if k == secret.key && !secret.value.IsNull() {
			continue // given write-only
		}
		if v := settings[k]; pick(k) && (v == nil || v.IsNull()) {
			diags.AddAttributeError(path.Root(provider).AtName(k), "Missing notification service setting",
				fmt.Sprintf("%s.%s is required when creating this notification service%s.", provider, k, writeOnlyAlternative(provider, k)))
		}
	}
}

// writeOnlyAlternative names the write-only form of a required setting, if it has one.
func writeOnlyAlternative(provider, key string) string {
	if nsSecretKeys[provider] == key {
		return fmt.Sprintf(" (or %[1]s_wo with %[1]s_wo_version)", key)
	}
	return ""
}

// ---- operations ----

func (r *notificationServiceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan, config notificationServiceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	body := plan.createBody(ctx, &resp.Diagnostics)
	sendWriteOnly(ctx, &body.Settings, &config, &plan, nil, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	s, err := r.Client().NotificationServices.Create(ctx, body)
	if err != nil {
		r.CreateFailed(ctx, &resp.Diagnostics, err, "notification service", plan.ProviderType.ValueString(), nil)
		return
	}
	wantEnabled := plan.Enabled
	plan.fromAPI(s, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// The service is in state before it is disabled, so a failure to disable it leaves nothing untracked.
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if kit.IsKnownValue(wantEnabled) && !wantEnabled.ValueBool() && s.Enabled {
		off, err := r.Client().NotificationServices.SetEnabled(ctx, s.ID, false)
		if err != nil {
			resp.Diagnostics.AddError("Unable to disable notification service", fmt.Sprintf("Disabling notification service %s after creating it: %s. "+
				"It is in state as enabled; the next apply disables it.", s.ID, kit.DescribeError(err)))
			return
		}
		plan.fromAPI(off, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

func (r *notificationServiceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state notificationServiceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	s, err := r.Client().NotificationServices.Get(ctx, kit.RestID(state.ID))
	if err != nil {
		r.ReadFailed(ctx, resp, err, "notification service", state.ID.ValueString())
		return
	}
	state.fromAPI(s, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *notificationServiceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan, state, config notificationServiceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := plan.updateBody(ctx, &state, &resp.Diagnostics)
	sendWriteOnly(ctx, &body.Settings, &config, &plan, &state, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpUpdate)
	defer cancel()
	id := kit.RestID(state.ID)
	wantEnabled := plan.Enabled
	var s *buildkite.NotificationService
	var err error
	patched := !body.IsZero()
	if patched {
		if s, err = r.Client().NotificationServices.Update(ctx, id, body); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "update", "notification service", id, err)
			return
		}
	}
	if kit.IsKnownValue(wantEnabled) && !wantEnabled.Equal(state.Enabled) {
		if patched {
			// What the PATCH changed is in state before the second call, whose failure then leaves only the
			// enabled state to change.
			saved := plan
			saved.fromAPI(s, &resp.Diagnostics)
			resp.Diagnostics.Append(resp.State.Set(ctx, &saved)...)
		}
		if s, err = r.Client().NotificationServices.SetEnabled(ctx, id, wantEnabled.ValueBool()); err != nil {
			resp.Diagnostics.AddError("Unable to change notification service enabled state", fmt.Sprintf(
				"Setting enabled = %t on notification service %s: %s.", wantEnabled.ValueBool(), id, kit.DescribeError(err)))
			if !patched {
				resp.State.Raw = req.State.Raw
			}
			return
		}
	}
	if s == nil {
		if s, err = r.Client().NotificationServices.Get(ctx, id); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "read", "notification service", id, err)
			return
		}
	}
	plan.fromAPI(s, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *notificationServiceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state notificationServiceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	err := r.Client().NotificationServices.Delete(ctx, kit.RestID(state.ID))
	r.DeleteFailed(ctx, &resp.Diagnostics, err, "notification service", state.ID.ValueString())
}

// ImportState accepts the service's UUID (the official provider's import ID) or its GraphQL ID, as the
// import ID or as the identity; the first Read fills in the rest.
func (r *notificationServiceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.ImportParts(ctx, req, resp, kit.UuidPart("<notification service UUID>", nsGraphQLTypes...))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), strings.ToLower(parts[0]))...)
}

// nsGraphQLTypes are the GraphQL types of the services this resource manages.
var nsGraphQLTypes = []string{
	"NotificationServiceWebhook", "NotificationServiceAmazonEventBridge", "NotificationServiceDatadogPipelineVisibility",
	"NotificationServiceOpenTelemetryTracing", "NotificationServiceLinear", "NotificationServiceSlackWorkspace",
}

package organization

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// notificationServiceIdentity names a notification service by its UUID, its import ID.
var notificationServiceIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The notification service's UUID."))

// NewNotificationServiceResource returns the buildkite_notification_service resource.
func NewNotificationServiceResource() resource.Resource {
	return kit.NewObject(notificationServiceKind)
}

// notificationServiceKind declares buildkite_notification_service: a service of one of six providers, with
// the settings object of its provider (notification_service_settings.go), whose secrets may be given
// write-only; the configuration checks are in notification_service_checks.go. The service has no name: a
// refused create names its provider. Whether it is enabled is a call of its own after the create or PATCH,
// whose failure keeps what was made or changed before it in state.
var notificationServiceKind = &kit.ObjectKind[buildkite.NotificationService, notificationServiceModel]{
	Name:     "notification_service",
	What:     "notification service",
	Scopes:   kit.WriteScopes("write_notification_services"),
	Identity: notificationServiceIdentity,
	Schema:   notificationServiceSchema,
	// The official provider's states (version 0) have the same attributes: the upgrade only raises the version.
	Moves:   kit.StateMoves{},
	Key:     kit.AttrID,
	FromAPI: func(m *notificationServiceModel, _ string, s *buildkite.NotificationService) { m.FromAPI(s) },
	Create:  createNotificationService,
	Get: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.NotificationService, error) {
		return managedService(c.NotificationServices.Get(ctx, id))
	},
	Update: updateNotificationService,
	Remove: func(ctx context.Context, c *buildkite.Client, _, id string) error {
		return c.NotificationServices.Delete(ctx, id)
	},
	// The service's UUID (the official provider's import ID) or its GraphQL ID; the first Read fills in the rest.
	ImportParts: []kit.ImportPart{kit.UuidPart("<notification service UUID>", nsGraphQLTypes...)},
	Named:       func(plan *notificationServiceModel) string { return plan.ProviderType.ValueString() },
	WriteOnly:   (*notificationServiceModel).takeWriteOnly,
	ModifyPlan:  notificationServiceModifyPlan,
	Validators:  notificationServiceValidators(),
}

// nsGraphQLTypes are the GraphQL types of the services this resource manages.
var nsGraphQLTypes = []string{
	"NotificationServiceWebhook", "NotificationServiceAmazonEventBridge", "NotificationServiceDatadogPipelineVisibility",
	"NotificationServiceOpenTelemetryTracing", "NotificationServiceLinear", "NotificationServiceSlackWorkspace",
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
)

func nsIsOAuth(provider string) bool {
	return provider == nsProviderLinear || provider == nsProviderSlackWorkspace
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

// ---- calls ----

// createNotificationService creates the service, then disables it where the plan says so: the service
// takes no enabled state on create. A failed disable answers the service as created (enabled) with the
// error, so that it is in state, neither lost nor made twice, and the next apply disables it.
func createNotificationService(ctx context.Context, c *buildkite.Client, _ string, plan *notificationServiceModel) (*buildkite.NotificationService, error) {
	var diags diag.Diagnostics
	body := plan.CreateBody(ctx, &diags)
	sendWriteOnly(ctx, &body.Settings, plan, nil, &diags)
	if diags.HasError() {
		return nil, nsDiagnosed(diags)
	}
	s, err := managedService(c.NotificationServices.Create(ctx, body))
	if err != nil || !kit.IsKnownValue(plan.Enabled) || plan.Enabled.ValueBool() || !s.Enabled {
		return s, err
	}
	off, err := c.NotificationServices.SetEnabled(ctx, s.ID, false)
	if err != nil {
		return s, &kit.DiagnosedError{Summary: "Unable to disable notification service", Detail: fmt.Sprintf(
			"Disabling notification service %s after creating it: %s. It is in state as enabled; the next apply disables it.",
			s.ID, kit.DescribeError(err))}
	}
	return managedService(off, nil)
}

// updateNotificationService PATCHes what changed, then sets the enabled state where it changed. A failed
// enable or disable after a PATCH answers the PATCH's result with the error, so that what it changed is in
// state and the next apply only changes the enabled state; without a PATCH the state stays as it was.
func updateNotificationService(ctx context.Context, c *buildkite.Client, _, id string, plan, state *notificationServiceModel) (*buildkite.NotificationService, error) {
	var diags diag.Diagnostics
	body := plan.UpdateBody(ctx, state, &diags)
	sendWriteOnly(ctx, &body.Settings, plan, state, &diags)
	if diags.HasError() {
		return nil, nsDiagnosed(diags)
	}
	var s *buildkite.NotificationService
	var err error
	if !body.IsZero() {
		if s, err = c.NotificationServices.Update(ctx, id, body); err != nil {
			return nil, err
		}
	}
	if want := plan.Enabled; kit.IsKnownValue(want) && !want.Equal(state.Enabled) {
		set, err := c.NotificationServices.SetEnabled(ctx, id, want.ValueBool())
		if err != nil {
			return s, &kit.DiagnosedError{Summary: "Unable to change notification service enabled state", Detail: fmt.Sprintf(
				"Setting enabled = %t on notification service %s: %s.", want.ValueBool(), id, kit.DescribeError(err))}
		}
		s = set
	}
	if s == nil {
		if s, err = c.NotificationServices.Get(ctx, id); err != nil {
			return nil, &kit.ReportedAs{Op: "read", What: "notification service", Err: err}
		}
	}
	return managedService(s, nil)
}

// managedService passes on an answer, refusing a service of a provider this resource does not manage.
func managedService(s *buildkite.NotificationService, err error) (*buildkite.NotificationService, error) {
	if err != nil || slices.Contains(nsProviderTypes, s.Provider.ID) {
		return s, err
	}
	return nil, &kit.DiagnosedError{Summary: "Unsupported Notification Service Provider", Detail: fmt.Sprintf(
		"provider_type %q is not supported: notification service %s is of a kind buildkite_notification_service "+
			"does not manage (it manages %s). Manage it in the web interface instead.", s.Provider.ID, s.ID, strings.Join(nsProviderTypes, ", "))}
}

// nsDiagnosed is the first error of diags, for a call that must not be made with a body it could not build.
func nsDiagnosed(diags diag.Diagnostics) error {
	first := diags.Errors()[0]
	return &kit.DiagnosedError{Summary: first.Summary(), Detail: first.Detail()}
}

// ---- request bodies ----

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
func (m *notificationServiceModel) CreateBody(ctx context.Context, diags *diag.Diagnostics) buildkite.NotificationServiceCreate {
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
func (m *notificationServiceModel) UpdateBody(ctx context.Context, state *notificationServiceModel, diags *diag.Diagnostics) buildkite.NotificationServiceUpdate {
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
			continue // the write-only form is sent, when its version changes (sendWriteOnly)
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

// sendWriteOnly puts the configured write-only secret into out, when the plan (which holds it, takeWriteOnly)
// gives one; state is nil for a create. The value is sent on a create, or when its version changed.
func sendWriteOnly(ctx context.Context, out *buildkite.NotificationServiceSettings, plan, state *notificationServiceModel, diags *diag.Diagnostics) {
	s, ok := plan.secret()
	if !ok || s.value.IsNull() || s.value.IsUnknown() {
		return
	}
	if state != nil {
		if prior, hadPrior := state.secret(); hadPrior && s.version.Equal(prior.version) {
			return
		}
	}
	setSetting(ctx, out, s.key, s.value, diags)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ---- the service's answer ----

// fromAPI sets m from the service's answer (of a provider managedService let through); the prior values of
// m are the state or plan before it, whose secrets (which the service masks or never shows) and spellings
// of scope UUIDs are kept.
func (m *notificationServiceModel) FromAPI(s *buildkite.NotificationService) {
	prior := *m
	m.ID = types.StringValue(s.ID)
	m.GraphQLID = types.StringPointerValue(s.GraphQLID)
	m.ProviderType = types.StringValue(s.Provider.ID)
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
	m.settingsFromAPI(s.Provider.ID, &s.Settings, &prior)
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

// notificationServiceSchema is the schema of buildkite_notification_service: the common attributes here,
// the settings objects in notification_service_settings.go.
func notificationServiceSchema() schema.Schema {
	attrs := map[string]schema.Attribute{
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
	}
	for name, a := range nsSettingsAttributes() {
		attrs[name] = a
	}
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A notification service: where the organization's build events go (a webhook, Amazon " +
			"EventBridge, Datadog Pipeline Visibility or OpenTelemetry tracing). Services connected in the web " +
			"interface (`linear`, `slack_workspace`) can be imported and their description changed, but not created. " +
			"Secrets the service masks or never returns (`aws_account_id`, `api_key`, `headers`) are kept from the " +
			"configuration; a masked value that no longer ends as the configured one shows as a change. The webhook's " +
			"`token`, the Datadog `api_key` and the OpenTelemetry `headers` can instead be given write-only (`token_wo`, " +
			"`api_key_wo`, `headers_wo`, each with a `*_wo_version` whose change sends it again), to keep every secret out " +
			"of plan and state. Import a service by its UUID.",
		Attributes: attrs,
	}
}

func nsOptional(description string) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: description, Optional: true}
}

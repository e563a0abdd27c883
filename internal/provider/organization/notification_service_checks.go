package organization

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The checks of a buildkite_notification_service configuration: what the service would refuse and the
// configuration alone shows, made before anything is sent, with the official provider's summaries.

// notificationServiceValidators: each secret is given plain or write-only, not both, and a write-only one
// with its version; then the checks of the whole configuration (nsConfigChecks).
func notificationServiceValidators() []resource.ConfigValidator {
	var out []resource.ConfigValidator
	for _, provider := range []string{nsProviderWebhook, nsProviderDatadog, nsProviderOpenTelemetry} {
		block, key := path.MatchRoot(provider), nsSecretKeys[provider]
		out = append(out,
			resourcevalidator.Conflicting(block.AtName(key), block.AtName(key+"_wo")),
			resourcevalidator.RequiredTogether(block.AtName(key+"_wo"), block.AtName(key+"_wo_version")))
	}
	return append(out, nsConfigChecks{})
}

// nsConfigChecks refuses what the service would refuse and the configuration alone shows
// (checkNotificationService). It runs before the provider is configured, so it holds even where the
// service cannot be reached, and it asks the service nothing.
type nsConfigChecks struct{}

func (nsConfigChecks) Description(context.Context) string {
	return "the settings object, scope and filters fit provider_type, with the settings the service requires"
}

func (v nsConfigChecks) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (nsConfigChecks) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg notificationServiceModel
	if d := req.Config.Get(ctx, &cfg); d.HasError() {
		return // an unknown settings object: checked again when it is known
	}
	checkNotificationService(&cfg, &resp.Diagnostics)
}

// notificationServiceModifyPlan checks, after the scopes every resource checks, what only a create needs:
// a provider that can be created, and its required settings. Nothing here asks the service.
func notificationServiceModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
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

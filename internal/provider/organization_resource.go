package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ resource.Resource                 = (*organizationResource)(nil)
	_ resource.ResourceWithConfigure    = (*organizationResource)(nil)
	_ resource.ResourceWithImportState  = (*organizationResource)(nil)
	_ resource.ResourceWithIdentity     = (*organizationResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*organizationResource)(nil)
	_ resource.ResourceWithUpgradeState = (*organizationResource)(nil)
)

// organizationIdentity names the organization by its slug, for import blocks.
var organizationIdentity = kit.IdentifiedBy(kit.IdentityAttr("slug", "The organization's slug."))

// NewOrganizationResource returns the buildkite_organization resource.
func NewOrganizationResource() resource.Resource {
	return &organizationResource{
		ResourceBase: kit.NewResourceBase("organization", kit.WriteScopes("write_organization_settings"), organizationIdentity).
			WithGraphQLAttrs("enforce_2fa"),
	}
}

// organizationResource manages the settings of the provider's organization that REST serves (its API
// settings). The organization itself is neither created nor deleted: Create takes over its settings and
// Delete gives the allowlist back.
type organizationResource struct {
	kit.ResourceBase
}

// revocationValues are the official provider's spellings of the revocation interval, NEVER first.
var revocationValues = []string{"NEVER", "DAYS_30", "DAYS_60", "DAYS_90", "DAYS_180", "DAYS_365"}

// revocationDays are the intervals revoke_inactive_tokens_after_days accepts.
var revocationDays = []int64{30, 60, 90, 180, 365}

type organizationResourceModel struct {
	ID                            types.String `tfsdk:"id"`
	UUID                          types.String `tfsdk:"uuid"`
	GraphQLID                     types.String `tfsdk:"graphql_id"`
	Slug                          types.String `tfsdk:"slug"`
	AllowedAPIIPAddresses         types.List   `tfsdk:"allowed_api_ip_addresses"`
	Enforce2FA                    types.Bool   `tfsdk:"enforce_2fa"`
	RevokeInactiveTokensAfter     types.String `tfsdk:"revoke_inactive_tokens_after"`
	RevokeInactiveTokensAfterDays types.Int64  `tfsdk:"revoke_inactive_tokens_after_days"`
	RestrictUserAPITokenCreation  types.Bool   `tfsdk:"restrict_user_api_token_creation"`
}

// fromOrganization copies the organization's identifiers.
func (m *organizationResourceModel) fromOrganization(o *buildkite.Organization) {
	m.ID = types.StringValue(o.ID)
	m.UUID = types.StringValue(o.ID)
	m.GraphQLID = types.StringValue(o.GraphQLID)
	m.Slug = types.StringValue(o.Slug)
}

// fromSettings copies the API settings the service answered. The allowlist is kept as the state or plan
// holds it when it means the same (null, [] and [""] all say "no allowlist"), so that no spelling of
// "none" shows as a change; the days attribute is kept only where it is managed.
func (m *organizationResourceModel) fromSettings(s *buildkite.APISettings) {
	live := s.AllowedIPs()
	if m.AllowedAPIIPAddresses.IsUnknown() || !slices.Equal(live, allowlistOf(m.AllowedAPIIPAddresses)) {
		m.AllowedAPIIPAddresses = types.ListNull(types.StringType)
		if len(live) > 0 {
			m.AllowedAPIIPAddresses = kit.StringList(live)
		}
	}
	m.RevokeInactiveTokensAfter = types.StringValue(revocationName(s.RevokeInactiveTokensAfterDays))
	if !m.RevokeInactiveTokensAfterDays.IsNull() {
		m.RevokeInactiveTokensAfterDays = types.Int64PointerValue(s.RevokeInactiveTokensAfterDays)
	}
	m.RestrictUserAPITokenCreation = types.BoolValue(s.RestrictUserAPITokenCreation)
}

// allowlistOf returns the networks of a list attribute, without blanks: null, [] and [""] give none.
func allowlistOf(l types.List) []string {
	var out []string
	for _, e := range l.Elements() {
		if s, ok := e.(types.String); ok && strings.TrimSpace(s.ValueString()) != "" {
			out = append(out, strings.TrimSpace(s.ValueString()))
		}
	}
	return out
}

// revocationName is the official spelling of an interval: NEVER for none, DAYS_<n> otherwise.
func revocationName(days *int64) string {
	if days == nil || *days == 0 {
		return "NEVER"
	}
	return fmt.Sprintf("DAYS_%d", *days)
}

// revocationDaysOf is the interval of an official spelling, 0 for NEVER.
func revocationDaysOf(name string) int64 {
	n, _ := strconv.ParseInt(strings.TrimPrefix(strings.ToUpper(name), "DAYS_"), 10, 64)
	return n
}

func (r *organizationResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "The settings of the provider's organization that Buildkite's REST API serves: the networks " +
			"the API may be called from, the revocation of inactive API tokens, and whether only administrators may " +
			"create API tokens. The token's user must be an administrator, and the token needs the " +
			"`read_organization_settings` and `write_organization_settings` scopes. Creating the resource takes " +
			"over the existing organization's settings that the configuration sets: a setting left out is read and " +
			"never written, except an allowlist the configuration set and then left out, which is removed. Destroying it removes the allowlist where the configuration set one, leaves every other " +
			"setting as it is, and says so in a warning. " + enforce2FANote + " Import with the organization's slug, UUID or GraphQL ID.",
		Attributes: kit.WithCommon("organization", map[string]schema.Attribute{
			"slug": kit.ComputedString("The organization's slug."),
			"allowed_api_ip_addresses": schema.ListAttribute{
				MarkdownDescription: "The networks the API may be called from, one CIDR block per element; `[]` for anywhere. " +
					"Left out from the start, the organization's allowlist (set in the web interface, say) is read and left " +
					"alone, and destroy leaves it; removed from a configuration that set it, or set to `[]`, it removes " +
					"the allowlist. The allowlist applies at once: a list that leaves out " +
					"the network Terraform runs from locks it out. Needs the API IP allowlist in the organization's plan.",
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Validators:  []validator.List{listvalidator.ValueStringsAre(kit.OneCIDR())},
			},
			"enforce_2fa": schema.BoolAttribute{
				MarkdownDescription: enforce2FADescription,
				Optional:            true,
				Computed:            true,
			},
			"revoke_inactive_tokens_after": schema.StringAttribute{
				MarkdownDescription: "How long an API token may go unused before it is revoked: " + kit.Backquoted(revocationValues) +
					". Left out, the organization's setting is read and left alone. Needs inactive API token revocation " +
					"in the organization's plan; setting it revokes tokens already inactive that long at once.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{stringvalidator.OneOf(revocationValues...)},
			},
			"revoke_inactive_tokens_after_days": schema.Int64Attribute{
				MarkdownDescription: "The same interval in days (30, 60, 90, 180 or 365), as a development version of the " +
					"official provider spelled it; removing it turns revocation off. Conflicts with `revoke_inactive_tokens_after`.",
				Optional: true,
				Validators: []validator.Int64{
					int64validator.OneOf(revocationDays...),
					int64validator.ConflictsWith(path.MatchRoot("revoke_inactive_tokens_after")),
				},
			},
			"restrict_user_api_token_creation": schema.BoolAttribute{
				MarkdownDescription: "Whether only administrators may create API tokens for the organization. Left out, the " +
					"organization's setting is read and left alone.",
				Optional: true,
				Computed: true,
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID),
	}
}

// UpgradeState moves the official provider's states (id its GraphQL ID) to version 1. Its v1.38.0 wrote
// [""] for an organization without an allowlist: that becomes null, as this provider writes "none".
func (r *organizationResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{Official: func(_ int64, a kit.StateAttrs) error {
		if l, ok := a["allowed_api_ip_addresses"].([]any); ok {
			blank := true
			for _, e := range l {
				if s, _ := e.(string); strings.TrimSpace(s) != "" {
					blank = false
				}
			}
			if blank {
				a["allowed_api_ip_addresses"] = nil
			}
		}
		return nil
	}})
}

// ModifyPlan checks scopes and warns of enforce_2fa (ResourceBase), then plans what the service will hold:
// a setting left out of the configuration keeps the state's value, and the days attribute decides the
// interval where it is used.
func (r *organizationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return
	}
	kit.PlanSettings(ctx, req, resp)
	var config, plan organizationResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	creating := req.State.Raw.IsNull()
	var state organizationResourceModel
	if !creating {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	// Left out, enforce_2fa is never written: a create reads it where GraphQL can be reached (unknown until
	// then) and holds null where it cannot; later plans keep what the state holds.
	if config.Enforce2FA.IsNull() {
		switch {
		case !creating:
			plan.Enforce2FA = state.Enforce2FA
		case r.Data.GraphQLReachable():
			plan.Enforce2FA = types.BoolUnknown()
		default:
			plan.Enforce2FA = types.BoolNull()
		}
	}
	if !creating && releasesAllowlist(ctx, req.Private, !config.AllowedAPIIPAddresses.IsNull()) {
		plan.AllowedAPIIPAddresses = types.ListNull(types.StringType)
	}
	if !creating {
		if config.RevokeInactiveTokensAfter.IsNull() {
			plan.RevokeInactiveTokensAfter = state.RevokeInactiveTokensAfter
		}
		if config.RestrictUserAPITokenCreation.IsNull() {
			plan.RestrictUserAPITokenCreation = state.RestrictUserAPITokenCreation
		}
	}
	switch days := config.RevokeInactiveTokensAfterDays; {
	case days.IsUnknown():
		plan.RevokeInactiveTokensAfter = types.StringUnknown()
	case !days.IsNull():
		plan.RevokeInactiveTokensAfter = types.StringValue(revocationName(days.ValueInt64Pointer()))
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// releasesAllowlist reports whether the configuration has just stopped setting the allowlist that the last
// create or update managed. Removing it then removes the allowlist, as the official provider does (its
// attribute is optional, so null means "no allowlist") and as destroy would; an allowlist the configuration
// never set stays unmanaged.
func releasesAllowlist(ctx context.Context, private kit.PrivateReader, configured bool) bool {
	if configured {
		return false
	}
	managed, _ := kit.ManagedSettings(ctx, private)
	return managed["allowed_api_ip_addresses"]
}

// settingsChange is what a create or an update sends: of the settings the configuration sets (configured),
// what plan asks for that live (nil when it could not be read) does not hold. A setting the configuration
// leaves out is never sent (kit/singleton_settings.go).
func settingsChange(plan *organizationResourceModel, configured map[string]bool, live *buildkite.APISettings) buildkite.APISettingsUpdate {
	var u buildkite.APISettingsUpdate
	var liveIPs []string
	var liveDays *int64
	liveRestrict := false
	if live != nil {
		liveIPs, liveDays, liveRestrict = live.AllowedIPs(), live.RevokeInactiveTokensAfterDays, live.RestrictUserAPITokenCreation
	}
	if want := allowlistOf(plan.AllowedAPIIPAddresses); configured["allowed_api_ip_addresses"] && (live == nil || !slices.Equal(want, liveIPs)) {
		u.AllowedIPAddresses = allowlistUpdate(want)
	}
	// The days attribute, where set, decides; it may have been unknown when the interval was planned.
	days, known := int64(0), false
	switch {
	case configured["revoke_inactive_tokens_after_days"] && !plan.RevokeInactiveTokensAfterDays.IsUnknown():
		days, known = plan.RevokeInactiveTokensAfterDays.ValueInt64(), true
	case configured["revoke_inactive_tokens_after"] && !plan.RevokeInactiveTokensAfter.IsUnknown():
		days, known = revocationDaysOf(plan.RevokeInactiveTokensAfter.ValueString()), true
	}
	if known && (live == nil || days != kit.Deref(liveDays)) {
		u.RevokeInactiveTokensAfterDays = revocationUpdate(days)
	}
	if configured["restrict_user_api_token_creation"] && !plan.RestrictUserAPITokenCreation.IsUnknown() {
		if restrict := plan.RestrictUserAPITokenCreation.ValueBool(); live == nil || restrict != liveRestrict {
			u.RestrictUserAPITokenCreation = buildkite.Value(restrict)
		}
	}
	return u
}

// allowlistUpdate is what an update sends for the allowlist cidrs: them joined by spaces, or null, which
// removes the allowlist, when there are none.
func allowlistUpdate(cidrs []string) buildkite.Optional[string] {
	if len(cidrs) == 0 {
		return buildkite.Cleared[string]()
	}
	return buildkite.Value(strings.Join(cidrs, " "))
}

// revocationUpdate is what an update sends for revoking inactive tokens after days: the days, or null
// (never) for 0.
func revocationUpdate(days int64) buildkite.Optional[int64] {
	if days == 0 {
		return buildkite.Cleared[int64]()
	}
	return buildkite.Value(days)
}

// apply reads the organization and its settings, sends what plan changes of the configured settings and
// leaves in plan what the service then holds.
func (r *organizationResource) apply(ctx context.Context, plan *organizationResourceModel, configured map[string]bool, action string, diags *diag.Diagnostics) {
	o, err := r.Client().Organizations.Get(ctx)
	if err != nil {
		kit.AddAPIError(diags, "read", "organization", r.Client().Organization(), err)
		return
	}
	plan.fromOrganization(o)
	live, err := r.Client().OrgSettings.GetAPISettings(ctx)
	switch {
	case buildkite.IsForbidden(err):
		diags.AddWarning("Unable to Read Organization API Settings", fmt.Sprintf(
			"Reading the API settings of organization %s: %s. Every configured setting is sent as configured; the "+
				"token's user must be an administrator and the token needs read_organization_settings for Terraform to "+
				"see what the organization holds.", o.Slug, kit.DescribeError(err)))
		live = nil
	case err != nil:
		kit.AddAPIError(diags, "read", "organization API settings", o.Slug, err)
		return
	}
	change := settingsChange(plan, configured, live)
	if !change.IsZero() {
		answer, err := r.Client().OrgSettings.UpdateAPISettings(ctx, change)
		if err != nil {
			diags.AddError("Unable to "+kit.Capitalize(action)+" Organization API Settings", fmt.Sprintf(
				"%s the API settings of organization %s: %s.%s", kit.Gerund(action), o.Slug, kit.DescribeError(err), featureHint(err, change, live)))
			return
		}
		live = answer
	}
	kept := *plan
	if live != nil {
		plan.fromSettings(live)
	} else {
		plan.RevokeInactiveTokensAfter = orString(plan.RevokeInactiveTokensAfter, "NEVER")
		if plan.RestrictUserAPITokenCreation.IsUnknown() {
			plan.RestrictUserAPITokenCreation = types.BoolValue(false)
		}
	}
	// An optional attribute ends an apply as configured: the allowlist as written ([""] included) when it
	// means what the service holds, the days as configured.
	if !kept.AllowedAPIIPAddresses.IsUnknown() && slices.Equal(allowlistOf(kept.AllowedAPIIPAddresses), allowlistOf(plan.AllowedAPIIPAddresses)) {
		plan.AllowedAPIIPAddresses = kept.AllowedAPIIPAddresses
	}
	plan.RevokeInactiveTokensAfterDays = kept.RevokeInactiveTokensAfterDays
}

// orString returns v, or def when v is unknown or null.
func orString(v types.String, def string) types.String {
	if !kit.IsKnownValue(v) {
		return types.StringValue(def)
	}
	return v
}

// featureHint explains a refused PATCH by what the organization's plan lacks.
func featureHint(err error, change buildkite.APISettingsUpdate, live *buildkite.APISettings) string {
	if !buildkite.IsForbidden(err) {
		return ""
	}
	if live == nil {
		return " The token's user must be an administrator and the token needs write_organization_settings; the " +
			"allowlist and token revocation also need the features in the organization's plan."
	}
	var hints []string
	if !change.AllowedIPAddresses.IsZero() && !live.Features.APIIPAllowList {
		hints = append(hints, " The API IP allowlist is not available on this organization's plan: remove "+
			"`allowed_api_ip_addresses` from the configuration.")
	}
	if !change.RevokeInactiveTokensAfterDays.IsZero() && !live.Features.InactiveAPITokenRevocation {
		hints = append(hints, " Inactive API token revocation is not available on this organization's plan: remove "+
			"`revoke_inactive_tokens_after` from the configuration.")
	}
	if len(hints) == 0 {
		hints = append(hints, " The token's user must be an administrator and the token needs write_organization_settings.")
	}
	return strings.Join(hints, "")
}

func (r *organizationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan organizationResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	configured, diags := kit.ConfiguredSingletonSettings(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	r.apply(ctx, &plan, configured, "create", &resp.Diagnostics)
	r.apply2FA(ctx, req.Config, &plan, "create", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(kit.RecordManaged(ctx, resp.Private, configured)...)
}

func (r *organizationResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state organizationResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	o, err := r.Client().Organizations.Get(ctx)
	if err != nil {
		// The organization cannot be deleted through the API: a failure to read it is never "gone".
		kit.AddAPIError(&resp.Diagnostics, "read", "organization", r.Client().Organization(), err)
		return
	}
	state.fromOrganization(o)
	live, err := r.Client().OrgSettings.GetAPISettings(ctx)
	switch {
	case buildkite.IsForbidden(err):
		resp.Diagnostics.AddWarning("Unable to Read Organization API Settings", fmt.Sprintf(
			"Reading the API settings of organization %s: %s. The state keeps the last values read; the token's user "+
				"must be an administrator and the token needs read_organization_settings.", o.Slug, kit.DescribeError(err)))
		state.RevokeInactiveTokensAfter = orString(state.RevokeInactiveTokensAfter, "NEVER")
		if state.RestrictUserAPITokenCreation.IsNull() {
			state.RestrictUserAPITokenCreation = types.BoolValue(false)
		}
	case err != nil:
		kit.AddAPIError(&resp.Diagnostics, "read", "organization API settings", o.Slug, err)
		return
	default:
		state.fromSettings(live)
	}
	r.read2FA(ctx, &state, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *organizationResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan organizationResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	configured, diags := kit.ConfiguredSingletonSettings(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpUpdate)
	defer cancel()
	// An allowlist just removed from the configuration is sent as none (plan holds null); it is not
	// recorded as managed any more.
	send := configured
	if releasesAllowlist(ctx, req.Private, configured["allowed_api_ip_addresses"]) {
		send = maps.Clone(configured)
		send["allowed_api_ip_addresses"] = true
	}
	r.apply(ctx, &plan, send, "update", &resp.Diagnostics)
	r.apply2FA(ctx, req.Config, &plan, "update", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(kit.RecordManaged(ctx, resp.Private, configured)...)
}

// Delete puts back only what the configuration managed (kit/singleton_settings.go): the allowlist, removed
// where the configuration set one; the organization and every other setting stay, and a warning says so.
func (r *organizationResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state organizationResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	managed, known := kit.ManagedSettings(ctx, req.Private)
	var undone, left []string
	if managed["allowed_api_ip_addresses"] && len(allowlistOf(state.AllowedAPIIPAddresses)) > 0 {
		if _, err := r.Client().OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPAddresses: buildkite.Cleared[string]()}); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "remove", "organization API allowlist", state.Slug.ValueString(), err)
			return
		}
		undone = append(undone, "allowed_api_ip_addresses (removed)")
	}
	var schemaResp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &schemaResp)
	for _, name := range kit.SettingAttributes(schemaResp.Schema) {
		if name == "revoke_inactive_tokens_after_days" || (name == "allowed_api_ip_addresses" && len(undone) > 0) {
			continue // the days are another spelling of revoke_inactive_tokens_after
		}
		left = append(left, name)
	}
	kit.SettingsLeftWarning(&resp.Diagnostics, "buildkite_organization", kit.DisplayOr(state.Slug.ValueString(), r.Client().Organization()), undone, left, known)
}

// ImportState takes the provider's organization by its slug, its UUID or its GraphQL ID (the official
// provider's ID); another organization is refused.
func (r *organizationResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.ImportParts(ctx, req, resp, kit.KeyPart("<organization slug>", "Organization"))
	if !ok {
		return
	}
	o, err := r.Client().Organizations.Get(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "organization", r.Client().Organization(), err)
		return
	}
	if !strings.EqualFold(parts[0], o.Slug) && !strings.EqualFold(parts[0], o.ID) {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf(
			"%q does not name organization %s, the one the provider is configured for: import it by its slug (%s), "+
				"UUID (%s) or GraphQL ID (%s).", req.ID, o.Slug, o.Slug, o.ID, o.GraphQLID))
		return
	}
	var m organizationResourceModel
	m.fromOrganization(o)
	m.AllowedAPIIPAddresses = types.ListNull(types.StringType)
	r.readUnset2FA(ctx, &m, "Importing", &resp.Diagnostics)
	m.RevokeInactiveTokensAfter = types.StringNull()
	m.RevokeInactiveTokensAfterDays = types.Int64Null()
	m.RestrictUserAPITokenCreation = types.BoolNull()
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

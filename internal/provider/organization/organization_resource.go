package organization

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

// organizationIdentity names the organization by its slug, for import blocks.
var organizationIdentity = kit.IdentifiedBy(kit.IdentityAttr("slug", "The organization's slug."))

// NewOrganizationResource returns the buildkite_organization resource.
func NewOrganizationResource() resource.Resource {
	return kit.NewObject(organizationKind)
}

// organizationKind declares buildkite_organization, the settings of the provider's organization that REST
// serves (its API settings) and its enforce_2fa, which GraphQL serves (organization_2fa.go). The organization
// itself is neither created nor deleted: Create takes over the settings the configuration sets, Delete gives
// back the allowlist it managed (kit/singleton_settings.go), and an import reads the whole organization, its
// enforce_2fa included, as a create does.
var organizationKind = &kit.ObjectKind[organizationAnswer, organizationResourceModel]{
	Name:         "organization",
	What:         "organization",
	Scopes:       kit.WriteScopes("write_organization_settings"),
	Identity:     organizationIdentity,
	Schema:       organizationSchema,
	Moves:        kit.StateMoves{Official: blankAllowlistIsNone},
	Singleton:    true,
	GraphQLAttrs: []string{"enforce_2fa"},
	Key:          kit.AttrID,
	FromAPI:      func(m *organizationResourceModel, _ string, a *organizationAnswer) { m.fromAPI(a) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *organizationResourceModel) (*organizationAnswer, error) {
		return applyOrganization(ctx, c, plan, "create")
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, _ string) (*organizationAnswer, error) {
		return readOrganization(ctx, c)
	},
	Update: func(ctx context.Context, c *buildkite.Client, _, _ string, plan, _ *organizationResourceModel) (*organizationAnswer, error) {
		return applyOrganization(ctx, c, plan, "update")
	},
	// Read: after the settings, enforce_2fa, wherever GraphQL can be reached.
	ReadPart: func(ctx context.Context, d *kit.ProviderData, got *organizationResourceModel, diags *diag.Diagnostics) {
		warnUnread(diags, got.Slug.ValueString(), got.unread, false)
		read2FA(ctx, d, got, diags)
	},
	Settings: &kit.SettingsCalls[organizationResourceModel]{
		Plan: planOrganization,
		Send: func(plan *organizationResourceModel, configured, managed map[string]bool) {
			plan.send = configured
			// An allowlist just removed from the configuration is sent as none (plan holds null); it is not
			// recorded as managed any more.
			if releasesAllowlist(managed, configured["allowed_api_ip_addresses"]) {
				plan.send = maps.Clone(configured)
				plan.send["allowed_api_ip_addresses"] = true
			}
		},
		Write: writeOrganization,
		Undo:  undoOrganization,
	},
	// The import ID is the provider's organization's slug, UUID or GraphQL ID (the official provider's ID).
	ImportParts: []kit.ImportPart{kit.KeyPart("<organization slug>", "Organization")},
	ImportWhole: importOrganization,
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
	// send is, in a create or update, the settings it sends: those the configuration sets, and an allowlist it
	// has just stopped setting.
	send map[string]bool
	// unread is why the API settings could not be read (a 403), for the warning that says so.
	unread error
}

// organizationAnswer is what the calls answer: the organization and its API settings, nil where the token may
// not read them (unread says why); applied, for the answer of a create or update.
type organizationAnswer struct {
	org     *buildkite.Organization
	api     *buildkite.APISettings
	unread  error
	applied bool
}

// fromAPI fills the model from an answer. Where the API settings could not be read, the interval and the token
// restriction hold what they held (NEVER and false where that was nothing). An apply ends with its optional
// attributes as configured: the allowlist as written ([""] included) where it means what the service holds,
// the days as configured.
func (m *organizationResourceModel) fromAPI(a *organizationAnswer) {
	m.fromOrganization(a.org)
	m.unread = a.unread
	kept := *m
	if a.api != nil {
		m.fromSettings(a.api)
	} else {
		m.RevokeInactiveTokensAfter = orString(m.RevokeInactiveTokensAfter, "NEVER")
		if m.RestrictUserAPITokenCreation.IsUnknown() || (!a.applied && m.RestrictUserAPITokenCreation.IsNull()) {
			m.RestrictUserAPITokenCreation = types.BoolValue(false)
		}
	}
	if !a.applied {
		return
	}
	if !kept.AllowedAPIIPAddresses.IsUnknown() && slices.Equal(allowlistOf(kept.AllowedAPIIPAddresses), allowlistOf(m.AllowedAPIIPAddresses)) {
		m.AllowedAPIIPAddresses = kept.AllowedAPIIPAddresses
	}
	m.RevokeInactiveTokensAfterDays = kept.RevokeInactiveTokensAfterDays
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

// organizationSchema is the schema of buildkite_organization (version 1: the official provider's states are
// upgraded, kit/upgrade.go).
func organizationSchema() schema.Schema {
	return schema.Schema{
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

// blankAllowlistIsNone moves the official provider's states (id its GraphQL ID) to version 1. Its v1.38.0
// wrote [""] for an organization without an allowlist: that becomes null, as this provider writes "none".
func blankAllowlistIsNone(_ int64, a kit.StateAttrs) error {
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
}

// planOrganization plans what the service will hold, once the scopes are checked, enforce_2fa warned of
// (ResourceBase) and the settings left out planned (kit.PlanSettings): a setting left out of the configuration
// keeps the state's value (state is nil for a create), and the days attribute decides the interval where it
// is used.
func planOrganization(d *kit.ProviderData, config, plan, state *organizationResourceModel, managed map[string]bool) {
	creating := state == nil
	// Left out, enforce_2fa is never written: a create reads it where GraphQL can be reached (unknown until
	// then) and holds null where it cannot; later plans keep what the state holds.
	if config.Enforce2FA.IsNull() {
		switch {
		case !creating:
			plan.Enforce2FA = state.Enforce2FA
		case d.GraphQLReachable():
			plan.Enforce2FA = types.BoolUnknown()
		default:
			plan.Enforce2FA = types.BoolNull()
		}
	}
	if !creating && releasesAllowlist(managed, !config.AllowedAPIIPAddresses.IsNull()) {
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
}

// releasesAllowlist reports whether the configuration has just stopped setting the allowlist that the last
// create or update managed. Removing it then removes the allowlist, as the official provider does (its
// attribute is optional, so null means "no allowlist") and as destroy would; an allowlist the configuration
// never set stays unmanaged.
func releasesAllowlist(managed map[string]bool, configured bool) bool {
	return !configured && managed["allowed_api_ip_addresses"]
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
		u.AllowedIPAddresses = AllowlistUpdate(want)
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
		u.RevokeInactiveTokensAfterDays = RevocationUpdate(days)
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
func AllowlistUpdate(cidrs []string) buildkite.Optional[string] {
	if len(cidrs) == 0 {
		return buildkite.Cleared[string]()
	}
	return buildkite.Value(strings.Join(cidrs, " "))
}

// revocationUpdate is what an update sends for revoking inactive tokens after days: the days, or null
// (never) for 0.
func RevocationUpdate(days int64) buildkite.Optional[int64] {
	if days == 0 {
		return buildkite.Cleared[int64]()
	}
	return buildkite.Value(days)
}

// readOrganization reads the organization and its API settings; settings the token may not read (a 403)
// are left out of the answer, and a warning will say why.
func readOrganization(ctx context.Context, c *buildkite.Client) (*organizationAnswer, error) {
	o, err := c.Organizations.Get(ctx)
	if err != nil {
		// The organization cannot be deleted through the API: a failure to read it is never "gone".
		return nil, &kit.ReportedAs{Op: "read", What: "organization", Err: err}
	}
	a := &organizationAnswer{org: o}
	live, err := c.OrgSettings.GetAPISettings(ctx)
	switch {
	case buildkite.IsForbidden(err):
		a.unread = err
	case err != nil:
		return nil, apiError("read", "organization API settings", o.Slug, err)
	default:
		a.api = live
	}
	return a, nil
}

// applyOrganization reads the organization and its settings and sends what plan changes of the settings it
// sends (plan.send). A refused change is reported with the warning that the settings could not be read, if
// they could not.
func applyOrganization(ctx context.Context, c *buildkite.Client, plan *organizationResourceModel, action string) (*organizationAnswer, error) {
	a, err := readOrganization(ctx, c)
	if err != nil {
		return nil, err
	}
	a.applied = true
	change := settingsChange(plan, plan.send, a.api)
	if change.IsZero() {
		return a, nil
	}
	answer, err := c.OrgSettings.UpdateAPISettings(ctx, change)
	if err != nil {
		var diags diag.Diagnostics
		warnUnread(&diags, a.org.Slug, a.unread, true)
		diags.AddError("Unable to "+kit.Capitalize(action)+" Organization API Settings", fmt.Sprintf(
			"%s the API settings of organization %s: %s.%s", kit.Gerund(action), a.org.Slug, kit.DescribeError(err), featureHint(err, change, a.api)))
		return nil, kit.AsReported(diags)
	}
	a.api = answer
	return a, nil
}

// writeOrganization completes a create or update once its API settings are recorded in got: the warning that
// they could not be read, then enforce_2fa (organization_2fa.go).
func writeOrganization(ctx context.Context, d *kit.ProviderData, planned, prior, got *organizationResourceModel, diags *diag.Diagnostics) {
	action := "create"
	if prior != nil {
		action = "update"
	}
	warnUnread(diags, got.Slug.ValueString(), got.unread, true)
	// At apply, a configured attribute is planned as the configuration sets it.
	want := types.BoolNull()
	if planned.send["enforce_2fa"] {
		want = planned.Enforce2FA
	}
	apply2FA(ctx, d, want, got, action, diags)
}

// warnUnread warns, where err says the API settings of organization slug could not be read, of what an apply
// or a refresh does without them.
func warnUnread(diags *diag.Diagnostics, slug string, err error, applying bool) {
	if err == nil {
		return
	}
	then := "The state keeps the last values read; the token's user must be an administrator and the token needs " +
		"read_organization_settings."
	if applying {
		then = "Every configured setting is sent as configured; the token's user must be an administrator and the " +
			"token needs read_organization_settings for Terraform to see what the organization holds."
	}
	diags.AddWarning("Unable to Read Organization API Settings", fmt.Sprintf(
		"Reading the API settings of organization %s: %s. %s", slug, kit.DescribeError(err), then))
}

// apiError is the error kit.AddAPIError reports, for an object named otherwise than the kind names it.
func apiError(action, what, ident string, err error) error {
	return kit.APIError(action, what, ident, err)
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

// undoOrganization puts back only what the configuration managed (kit/singleton_settings.go): the allowlist,
// removed where the configuration set one; the organization and every other setting stay, and a warning says
// so.
func undoOrganization(ctx context.Context, d *kit.ProviderData, state *organizationResourceModel, managed map[string]bool, known bool, diags *diag.Diagnostics) {
	c := d.Client
	var undone, left []string
	if managed["allowed_api_ip_addresses"] && len(allowlistOf(state.AllowedAPIIPAddresses)) > 0 {
		if _, err := c.OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPAddresses: buildkite.Cleared[string]()}); err != nil {
			kit.AddAPIError(diags, "remove", "organization API allowlist", state.Slug.ValueString(), err)
			return
		}
		undone = append(undone, "allowed_api_ip_addresses (removed)")
	}
	for _, name := range kit.SettingAttributes(organizationSchema()) {
		if name == "revoke_inactive_tokens_after_days" || (name == "allowed_api_ip_addresses" && len(undone) > 0) {
			continue // the days are another spelling of revoke_inactive_tokens_after
		}
		left = append(left, name)
	}
	kit.SettingsLeftWarning(diags, "buildkite_organization", kit.DisplayOr(state.Slug.ValueString(), c.Organization()), undone, left, known)
}

// importOrganization takes the provider's organization by its slug, its UUID or its GraphQL ID (id, as given;
// parts[0] with a GraphQL ID read as the UUID it names); another organization is refused. The settings are
// left for the Read that follows; enforce_2fa is read here, as a create reads it.
func importOrganization(ctx context.Context, d *kit.ProviderData, id string, parts []string, m *organizationResourceModel, diags *diag.Diagnostics) {
	c := d.Client
	o, err := c.Organizations.Get(ctx)
	if err != nil {
		kit.AddAPIError(diags, "read", "organization", c.Organization(), err)
		return
	}
	if !strings.EqualFold(parts[0], o.Slug) && !strings.EqualFold(parts[0], o.ID) {
		diags.AddError("Invalid Import ID", fmt.Sprintf(
			"%q does not name organization %s, the one the provider is configured for: import it by its slug (%s), "+
				"UUID (%s) or GraphQL ID (%s).", id, o.Slug, o.Slug, o.ID, o.GraphQLID))
		return
	}
	m.fromOrganization(o)
	m.AllowedAPIIPAddresses = types.ListNull(types.StringType)
	readUnset2FA(ctx, d, m, "Importing", diags)
	m.RevokeInactiveTokensAfter = types.StringNull()
	m.RevokeInactiveTokensAfterDays = types.Int64Null()
	m.RestrictUserAPITokenCreation = types.BoolNull()
}

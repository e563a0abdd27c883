package organization

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// organizationPipelineSettingsIdentity names the settings by the organization's slug, for import blocks.
var organizationPipelineSettingsIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The organization's slug."))

// NewOrganizationPipelineSettingsResource returns the buildkite_organization_pipeline_settings resource.
func NewOrganizationPipelineSettingsResource() resource.Resource {
	return kit.NewObject(organizationPipelineSettingsKind)
}

// organizationPipelineSettingsKind declares buildkite_organization_pipeline_settings, the organization's
// pipeline settings, of which there is one per organization: Create takes them over, Delete leaves them as
// they are. Only the attributes in the configuration are managed (the model carries the configuration to
// the create and update calls); the others are read into state and never sent. A change refused half-way
// records what the service last answered.
var organizationPipelineSettingsKind = &kit.ObjectKind[buildkite.PipelineSettings, organizationPipelineSettingsModel]{
	Name:      "organization_pipeline_settings",
	What:      "organization pipeline settings",
	Scopes:    kit.OperationScopes{Create: []string{"write_organization_settings"}, Update: []string{"write_organization_settings"}},
	Identity:  organizationPipelineSettingsIdentity,
	Schema:    organizationPipelineSettingsSchema,
	Singleton: true,
	Key:       kit.AttrID,
	FromAPI:   func(m *organizationPipelineSettingsModel, _ string, s *buildkite.PipelineSettings) { m.fromAPI(s) },
	Create:    applyPipelineSettings,
	Get: func(ctx context.Context, c *buildkite.Client, _, _ string) (*buildkite.PipelineSettings, error) {
		s, err := c.PipelineSettings.Get(ctx)
		if err != nil {
			// The settings cannot be deleted: no answer means they are gone, and nothing leaves state.
			return nil, settingsError(c, "Unable to read organization pipeline settings", "reading", err, nil)
		}
		return s, nil
	},
	Update: func(ctx context.Context, c *buildkite.Client, _, _ string, plan, _ *organizationPipelineSettingsModel) (*buildkite.PipelineSettings, error) {
		return applyPipelineSettings(ctx, c, "", plan)
	},
	Kept: func(c *buildkite.Client) (string, string) {
		return "Organization pipeline settings left intact", fmt.Sprintf(
			"buildkite_organization_pipeline_settings no longer manages the pipeline settings of organization %s; they stay "+
				"as they are. Change them in the web interface if need be.", c.Organization())
	},
	// The import ID is the provider's organization's slug; another organization is refused.
	ImportParts: []kit.ImportPart{kit.KeyPart("<organization slug>")},
	Resolve: func(_ context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		org := c.Organization()
		if !strings.EqualFold(parts[0], org) {
			return "", "", &kit.DiagnosedError{Summary: "Organization does not match provider configuration", Detail: fmt.Sprintf(
				"%q is not organization %s, the one the provider is configured for: import its pipeline settings by its slug (%s).",
				parts[0], org, org)}
		}
		return "", org, nil
	},
	WriteOnly: func(plan, config *organizationPipelineSettingsModel) { plan.config = config },
	Validators: []resource.ConfigValidator{
		resourcevalidator.RequiredTogether(path.MatchRoot("build_export_location"), path.MatchRoot("build_export_strategy_id")),
		buildExportPair{},
	},
}

type organizationPipelineSettingsModel struct {
	ID                                types.String `tfsdk:"id"`
	DefaultBranch                     types.String `tfsdk:"default_branch"`
	DefaultClusterID                  types.String `tfsdk:"default_cluster_id"`
	DefaultTimeoutInMinutes           types.Int64  `tfsdk:"default_timeout_in_minutes"`
	MaximumTimeoutInMinutes           types.Int64  `tfsdk:"maximum_timeout_in_minutes"`
	ScheduledJobExpiryInMinutes       types.Int64  `tfsdk:"scheduled_job_expiry_in_minutes"`
	PublicPipelineCreationEnabled     types.Bool   `tfsdk:"public_pipeline_creation_enabled"`
	HostedAgentsTerminalAccessEnabled types.Bool   `tfsdk:"hosted_agents_terminal_access_enabled"`
	BuildExportLocation               types.String `tfsdk:"build_export_location"`
	BuildExportStrategyID             types.String `tfsdk:"build_export_strategy_id"`
	BuildExportAvailable              types.Bool   `tfsdk:"build_export_available"`
	BuildExportSupportedStrategies    types.List   `tfsdk:"build_export_supported_strategies"`
	// config is the configuration, for create and update: what it sets is what is managed.
	config *organizationPipelineSettingsModel
}

// fromAPI sets the model from an answer. A "" the model holds where the service answers null (a cleared
// default cluster, a stopped build export) stays "", as configured.
// The id (the organization's slug) is set by create and import.
func (m *organizationPipelineSettingsModel) fromAPI(s *buildkite.PipelineSettings) {
	m.DefaultBranch = types.StringValue(s.DefaultBranch)
	m.DefaultClusterID = kit.KeepEmpty(m.DefaultClusterID, s.DefaultClusterID)
	m.DefaultTimeoutInMinutes = types.Int64PointerValue(s.DefaultTimeoutInMinutes)
	m.MaximumTimeoutInMinutes = types.Int64PointerValue(s.MaximumTimeoutInMinutes)
	m.ScheduledJobExpiryInMinutes = types.Int64PointerValue(s.ScheduledJobExpiryInMinutes)
	m.PublicPipelineCreationEnabled = types.BoolValue(s.PublicPipelineCreation.Enabled)
	m.HostedAgentsTerminalAccessEnabled = types.BoolValue(s.HostedAgentsTerminalAccess.Enabled)
	m.BuildExportLocation = kit.KeepEmpty(m.BuildExportLocation, s.BuildExports.Location)
	m.BuildExportStrategyID = kit.KeepEmpty(m.BuildExportStrategyID, s.BuildExports.StrategyID)
	m.BuildExportAvailable = types.BoolValue(s.BuildExports.Available)
	m.BuildExportSupportedStrategies = kit.StringList(s.BuildExports.SupportedStrategies)
}

// bareBucket is the official provider's check of build_export_location.
var bareBucket = regexp.MustCompile(`^[^:]*$`)

// organizationPipelineSettingsSchema is the schema of buildkite_organization_pipeline_settings (version 1:
// the official provider's states pass through kit/upgrade.go).
func organizationPipelineSettingsSchema() schema.Schema {
	optionalString := func(description string, validators ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Optional: true, Computed: true, Validators: validators,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	optionalInt := func(description string, v validator.Int64) schema.Int64Attribute {
		return schema.Int64Attribute{MarkdownDescription: description, Optional: true, Computed: true, Validators: []validator.Int64{v},
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
	}
	optionalBool := func(description string) schema.BoolAttribute {
		return schema.BoolAttribute{MarkdownDescription: description, Optional: true, Computed: true,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
	}
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states pass through kit/upgrade.go
		MarkdownDescription: "The organization's pipeline settings: defaults for new pipelines, timeouts, public pipeline " +
			"creation, remote access to hosted agents and build export. There is one per organization: creating this " +
			"resource takes the settings over, and destroying it changes nothing (a warning says so). Only the attributes " +
			"in the configuration are managed, and only those that differ from the organization's are sent; the others " +
			"are read into state and never written, so removing one from the configuration stops managing it without " +
			"resetting it. Advanced queue metrics are not managed (turning them on cannot be undone through the API). " +
			"The token's user must be an administrator, with the `read_organization_settings` and " +
			"`write_organization_settings` scopes. Import with the organization's slug.",
		Attributes: map[string]schema.Attribute{
			"id":             kit.ComputedString("The organization's slug."),
			"default_branch": optionalString("The branch new pipelines build by default.", kit.NotBlank()),
			"default_cluster_id": optionalString("The UUID of the cluster new pipelines are created in; `\"\"` clears it.",
				stringvalidator.Any(kit.UuidValidator(), stringvalidator.OneOf(""))),
			"default_timeout_in_minutes": optionalInt("The default command step timeout, in minutes (0 or more). Set through "+
				"the API, it can be removed only in the web interface.", int64validator.AtLeast(0)),
			"maximum_timeout_in_minutes": optionalInt("The longest command step timeout, in minutes (0 or more). Set through "+
				"the API, it can be removed only in the web interface.", int64validator.AtLeast(0)),
			"scheduled_job_expiry_in_minutes": optionalInt("How long a scheduled job waits for an agent before it expires, in "+
				"minutes (60 to 43200).", int64validator.Between(60, 43200)),
			"public_pipeline_creation_enabled":      optionalBool("Whether members may create public pipelines."),
			"hosted_agents_terminal_access_enabled": optionalBool("Whether remote (terminal) access to hosted agents is on."),
			"build_export_location": optionalString("The bucket builds are exported to, without a scheme (`my-bucket`, not "+
				"`s3://my-bucket`); `\"\"` together with an empty `build_export_strategy_id` stops build export.",
				stringvalidator.RegexMatches(bareBucket, `must be a bare bucket name, without a scheme such as "s3://". The scheme follows from build_export_strategy_id`)),
			"build_export_strategy_id": optionalString("Where builds are exported: one of `build_export_supported_strategies` " +
				"(`s3`, `gcs`); `\"\"` together with an empty `build_export_location` stops build export."),
			"build_export_available": schema.BoolAttribute{MarkdownDescription: "Whether the organization's plan has build export.", Computed: true},
			"build_export_supported_strategies": schema.ListAttribute{MarkdownDescription: "The strategies build export supports.",
				Computed: true, ElementType: types.StringType},
		},
	}
}

// buildExportPair refuses a build export with exactly one of its pair empty, at plan time.
type buildExportPair struct{}

func (buildExportPair) Description(context.Context) string {
	return "build_export_location and build_export_strategy_id are both empty or both set"
}

func (v buildExportPair) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (buildExportPair) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m organizationPipelineSettingsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !kit.IsKnownValue(m.BuildExportLocation) || !kit.IsKnownValue(m.BuildExportStrategyID) {
		return
	}
	if (m.BuildExportLocation.ValueString() == "") != (m.BuildExportStrategyID.ValueString() == "") {
		resp.Diagnostics.AddAttributeError(path.Root("build_export_location"), "Mismatched build export location and strategy",
			"build_export_location and build_export_strategy_id are set together (both non-empty to export builds) or "+
				"cleared together (both \"\" to stop build export).")
	}
}

// pipelineSettingsPatch is what a create or update PATCHes: the configured, known simple fields that differ
// from live.
func pipelineSettingsPatch(config, plan *organizationPipelineSettingsModel, live *buildkite.PipelineSettings) buildkite.PipelineSettingsUpdate {
	var u buildkite.PipelineSettingsUpdate
	managed := func(c, p interface {
		IsNull() bool
		IsUnknown() bool
	}) bool {
		return !c.IsNull() && !p.IsUnknown()
	}
	if managed(config.DefaultBranch, plan.DefaultBranch) && plan.DefaultBranch.ValueString() != live.DefaultBranch {
		u.DefaultBranch = buildkite.Value(plan.DefaultBranch.ValueString())
	}
	if managed(config.DefaultClusterID, plan.DefaultClusterID) &&
		!strings.EqualFold(plan.DefaultClusterID.ValueString(), kit.Deref(live.DefaultClusterID)) {
		u.DefaultClusterID = buildkite.Value(plan.DefaultClusterID.ValueString())
		if plan.DefaultClusterID.ValueString() == "" {
			u.DefaultClusterID = buildkite.Cleared[string]()
		}
	}
	ints := []struct {
		config, plan types.Int64
		live         *int64
		set          *buildkite.Optional[int64]
	}{
		{config.DefaultTimeoutInMinutes, plan.DefaultTimeoutInMinutes, live.DefaultTimeoutInMinutes, &u.DefaultTimeoutInMinutes},
		{config.MaximumTimeoutInMinutes, plan.MaximumTimeoutInMinutes, live.MaximumTimeoutInMinutes, &u.MaximumTimeoutInMinutes},
		{config.ScheduledJobExpiryInMinutes, plan.ScheduledJobExpiryInMinutes, live.ScheduledJobExpiryInMinutes, &u.ScheduledJobExpiryInMinutes},
	}
	for _, f := range ints {
		if managed(f.config, f.plan) && (f.live == nil || *f.live != f.plan.ValueInt64()) {
			*f.set = buildkite.Value(f.plan.ValueInt64())
		}
	}
	return u
}

// applyPipelineSettings sends what the configuration manages and differs, in the official provider's order,
// and returns what the service last answered. After a refusal it returns that answer with the error, and
// the state records it as the official provider does, so that what was applied is not lost.
func applyPipelineSettings(ctx context.Context, c *buildkite.Client, _ string, plan *organizationPipelineSettingsModel) (*buildkite.PipelineSettings, error) {
	live, err := c.PipelineSettings.Get(ctx)
	if err != nil {
		return nil, settingsError(c, "Unable to read organization pipeline settings", "reading", err, nil)
	}
	plan.ID = types.StringValue(c.Organization())
	a := settingsApply{c: c, live: live}
	a.changes(ctx, plan.config, *plan)
	if a.err != nil {
		return a.live, a.err
	}
	return a.live, nil
}

// settingsApply is one create or update: the last answer, and where refusals go.
type settingsApply struct {
	c    *buildkite.Client
	live *buildkite.PipelineSettings
	err  *kit.DiagnosedError
}

// step keeps an answer, or adds the refusal and reports false.
func (a *settingsApply) step(summary, doing string, s *buildkite.PipelineSettings, err error) bool {
	if err != nil {
		a.err = settingsError(a.c, summary, doing, err, a.live)
		return false
	}
	a.live = s
	return true
}

// changes sends, one after another, the PATCH, the switches and the build export that wanted needs; it
// stops at the first refusal.
func (a *settingsApply) changes(ctx context.Context, config *organizationPipelineSettingsModel, wanted organizationPipelineSettingsModel) {
	svc := a.c.PipelineSettings
	if u := pipelineSettingsPatch(config, &wanted, a.live); !u.IsZero() {
		s, err := svc.Update(ctx, u)
		if !a.step("Unable to update organization pipeline settings", "updating", s, err) {
			return
		}
	}
	switches := []struct {
		config, plan types.Bool
		live         func() bool
		name, what   string
	}{
		{config.PublicPipelineCreationEnabled, wanted.PublicPipelineCreationEnabled,
			func() bool { return a.live.PublicPipelineCreation.Enabled }, buildkite.SwitchPublicPipelines, "public pipeline creation"},
		{config.HostedAgentsTerminalAccessEnabled, wanted.HostedAgentsTerminalAccessEnabled,
			func() bool { return a.live.HostedAgentsTerminalAccess.Enabled }, buildkite.SwitchHostedAgentsSSH, "hosted agent remote access"},
	}
	for _, sw := range switches {
		if sw.config.IsNull() || sw.plan.IsUnknown() || sw.plan.ValueBool() == sw.live() {
			continue
		}
		verb := map[bool]string{true: "enable", false: "disable"}[sw.plan.ValueBool()]
		s, err := svc.SetSwitch(ctx, sw.name, sw.plan.ValueBool())
		if !a.step("Unable to "+verb+" "+sw.what, kit.Gerund(verb)+" "+sw.what+" in", s, err) {
			return
		}
	}
	a.buildExport(ctx, config, &wanted)
}

// buildExport configures or stops build export when the configuration manages it and it differs.
func (a *settingsApply) buildExport(ctx context.Context, config, wanted *organizationPipelineSettingsModel) {
	if config.BuildExportLocation.IsNull() || !kit.IsKnownValue(wanted.BuildExportLocation) || !kit.IsKnownValue(wanted.BuildExportStrategyID) {
		return
	}
	location, strategy := wanted.BuildExportLocation.ValueString(), wanted.BuildExportStrategyID.ValueString()
	be := a.live.BuildExports
	const summary = "Unable to update build data export"
	switch {
	case location == "" && strategy == "":
		if be.Enabled {
			s, err := a.c.PipelineSettings.StopBuildExport(ctx)
			a.step(summary, "stopping build export in", s, err)
		}
	case be.Enabled && kit.Deref(be.Location) == location && kit.Deref(be.StrategyID) == strategy:
	default:
		s, err := a.c.PipelineSettings.ConfigureBuildExport(ctx, location, strategy)
		a.step(summary, "configuring build export in", s, err)
	}
}

// settingsError is the service's refusal, with what a 403 means here: the scope and an administrator, and
// for build export a plan without it.
func settingsError(c *buildkite.Client, summary, doing string, err error, live *buildkite.PipelineSettings) *kit.DiagnosedError {
	detail := fmt.Sprintf("%s the pipeline settings of organization %s: %s.", kit.Capitalize(doing), c.Organization(), kit.DescribeError(err))
	if buildkite.IsForbidden(err) {
		scope := "write_organization_settings"
		if strings.HasPrefix(doing, "reading") {
			scope = "read_organization_settings"
		}
		detail += fmt.Sprintf(" The token needs the %s scope and its user must be an administrator of the organization.", scope)
		if strings.Contains(summary, "build data export") && live != nil && !live.BuildExports.Available {
			detail += " Build export is not available on the organization's plan: remove build_export_location and " +
				"build_export_strategy_id from the configuration."
		}
	}
	return &kit.DiagnosedError{Summary: summary, Detail: detail}
}

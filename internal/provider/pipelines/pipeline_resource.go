package pipelines

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// pipelineIdentity names a pipeline for import blocks and terraform query by its slug, which is what a
// person sees in its URLs. A rename changes the slug, so the identity is mutable and Read keeps it current.
var pipelineIdentity = kit.MutableIdentity(kit.IdentityAttr("slug", "The pipeline's slug, as in its URLs."))

// pipelineKind is buildkite_pipeline on the object kind. What is its own: it is addressed by its slug, which a
// rename changes, and found by the slug and its UUID together (findPipeline); a create and an update are
// several calls (pipeline_resource_steps.go: the GitHub webhook switch, archiving, the default team), a create
// saving the pipeline before a later step fails; a Delete archives where configured; the private state keeps
// whether provider_settings are held blank and whether the configuration set the slug; a Read completes the
// state with what REST does not show (emoji and color through GraphQL, the webhook switch, the cluster's name).
var pipelineKind = &kit.ObjectKind[buildkite.Pipeline, pipelineModel]{
	Name:     "pipeline",
	What:     "pipeline",
	Scopes:   kit.WriteScopes("write_pipelines"),
	Identity: pipelineIdentity,
	Schema:   pipelineSchema,
	// The official provider's states of versions 0 and 1 and ours of version 0 move to version 2.
	Moves: kit.StateMoves{
		Refs: []string{"cluster_id", "pipeline_template_id", "default_team_id"},
		// Its version 0 held provider_settings as a list of one object.
		Official: func(version int64, a kit.StateAttrs) error {
			if list, ok := a["provider_settings"].([]any); ok && version == 0 {
				a["provider_settings"] = nil
				if len(list) > 0 {
					a["provider_settings"] = list[0]
				}
			}
			return nil
		},
	},
	Key:     "slug",
	FromAPI: func(m *pipelineModel, _ string, p *buildkite.Pipeline) { m.fromAnswer(p) },
	Create:  createPipeline,
	Get: func(ctx context.Context, c *buildkite.Client, _, slug string) (*buildkite.Pipeline, error) {
		return c.Pipelines.Get(ctx, slug)
	},
	Update:      updatePipeline,
	ImportParts: []kit.ImportPart{kit.KeyPart("<pipeline slug or UUID>", "Pipeline")},
	Resolve:     resolvePipelineImport,
	Named:       func(plan *pipelineModel) string { return plan.Name.ValueString() },
	Holder: func(c *buildkite.Client, plan *pipelineModel) kit.HolderLookup {
		return pipelineNames.HolderOf(c, plan.Name.ValueString(), plan.Slug.ValueString())
	},
	ModifyPlan: planPipeline,
	// What the steps need of the configuration: the provider_settings it sets (only those are sent), and
	// whether it sets the slug (recorded in the private state).
	WriteOnly: func(plan, config *pipelineModel) {
		plan.configSettings = config.ProviderSettings
		plan.slugConfigured = !config.Slug.IsNull()
	},
	ReadPart:   readPipelineParts,
	Find:       findPipeline,
	RemoveFrom: removePipeline,
	LoadPrivate: func(state *pipelineModel, get func(string) []byte) {
		state.heldBlank = string(get(blankSettingsKey)) == "true"
	},
	SavePrivate: pipelinePrivate,
}

// NewPipelineResource returns the buildkite_pipeline resource.
func NewPipelineResource() resource.Resource { return kit.NewObject(pipelineKind) }

// pipelineModel is the resource's state: the shared fields and those only a configuration has.
type pipelineModel struct {
	pipelineFields
	DefaultTeamID   kit.RefValue `tfsdk:"default_team_id"`
	ArchiveOnDelete types.Bool   `tfsdk:"archive_on_delete"`
	// Emoji and Color are sent over REST, which never shows them; Read takes them from GraphQL where it can
	// (pipeline_looks.go), else they are kept as last applied.
	Emoji types.String `tfsdk:"emoji"`
	Color types.String `tfsdk:"color"`
	// GitHubWebhooksEnabled is the GitHub webhook processing switch, null while not configured
	// (pipeline_resource_webhooks.go).
	GitHubWebhooksEnabled types.Bool `tfsdk:"github_webhooks_enabled"`

	// heldBlank keeps provider_settings blank rather than the service's (pipeline_resource_settings.go).
	heldBlank bool
	// configSettings and slugConfigured are what the configuration of a create or update sets (WriteOnly).
	configSettings types.Object
	slugConfigured bool
	// slugSource is where the slug came from ("user" or "api"), to record once a create or update succeeded.
	slugSource string
	// answer is the service's pipeline the model was last filled from, for what a Read adds to it.
	answer *buildkite.Pipeline
}

// fromAnswer fills the model from the service's pipeline, keeping from the plan or prior state what the
// service does not return, and the cluster's name (a create or update looks it up where the plan does not
// know it, a Read always: readPipelineParts).
func (m *pipelineModel) fromAnswer(p *buildkite.Pipeline) {
	prior := *m
	*m = pipelineModel{DefaultTeamID: prior.DefaultTeamID, ArchiveOnDelete: prior.ArchiveOnDelete, Emoji: prior.Emoji,
		Color: prior.Color, GitHubWebhooksEnabled: prior.GitHubWebhooksEnabled, heldBlank: prior.heldBlank, answer: p}
	// settingsFromAPI builds provider_settings of its own attribute types, which the framework cannot refuse.
	_ = m.fromAPI(context.Background(), p, &prior.pipelineFields)
	if prior.heldBlank {
		m.ProviderSettings = BlankSettings()
	}
	m.ClusterName = prior.ClusterName
}

// toCreate builds the create body from the plan; settings are those the configuration sets.
func (m *pipelineModel) toCreate(ctx context.Context, settings map[string]any) (buildkite.PipelineCreate, diag.Diagnostics) {
	in := buildkite.PipelineCreate{
		Name:                            m.Name.ValueString(),
		Repository:                      m.Repository.ValueString(),
		Slug:                            kit.StringPtrIfSet(m.Slug),
		ClusterID:                       m.ClusterID.UUIDPtr(),
		PipelineTemplateUUID:            m.PipelineTemplateID.UUIDPtr(),
		Description:                     stringOrEmpty(m.Description),
		DefaultBranch:                   stringOrEmpty(m.DefaultBranch),
		BranchConfiguration:             kit.StringPtrIfSet(m.BranchConfiguration),
		SkipQueuedBranchBuilds:          boolOrFalse(m.SkipIntermediateBuilds),
		SkipQueuedBranchBuildsFilter:    stringOrEmpty(m.SkipIntermediateBuildsBranchFilter),
		CancelRunningBranchBuilds:       boolOrFalse(m.CancelIntermediateBuilds),
		CancelRunningBranchBuildsFilter: stringOrEmpty(m.CancelIntermediateBuildsBranchFilter),
		AllowRebuilds:                   m.AllowRebuilds.ValueBoolPointer(),
		ProviderSettings:                settings,
		DefaultCommandStepTimeout:       timeoutPtr(m.DefaultTimeoutInMinutes),
		MaximumCommandStepTimeout:       timeoutPtr(m.MaximumTimeoutInMinutes),
		Emoji:                           kit.StringPtrIfSet(m.Emoji),
		Color:                           kit.StringPtrIfSet(m.Color),
		CloneMirrorURL:                  kit.StringPtrIfSet(m.CloneMirrorURL),
	}
	if kit.IsKnownValue(m.Visibility) {
		v := m.Visibility.API()
		in.Visibility = &v
	}
	if in.PipelineTemplateUUID == nil {
		in.Configuration = kit.StringPtrIfSet(m.Steps.StringValue)
	}
	tags, diags := setStrings(ctx, m.Tags)
	in.Tags = tags
	if kit.IsKnownValue(m.DefaultTeamID) {
		in.Teams = map[string]string{m.DefaultTeamID.UUID(): "manage_build_and_read"}
	}
	return in, diags
}

// stringOrEmpty is what a create sends of a string attribute the official provider creates as "" when
// unset: the configured value, or "".
func stringOrEmpty(v types.String) *string {
	s := ""
	if kit.IsKnownValue(v) {
		s = v.ValueString()
	}
	return &s
}

// boolOrFalse is what a create sends of a flag that is false when unset.
func boolOrFalse(v types.Bool) *bool {
	b := kit.IsKnownValue(v) && v.ValueBool()
	return &b
}

// timeoutPtr is a timeout as the service takes it: nil for none (unset, unknown or 0, as state holds none).
func timeoutPtr(v types.Int64) *int64 {
	if !kit.IsKnownValue(v) || v.ValueInt64() == 0 {
		return nil
	}
	return v.ValueInt64Pointer()
}

// toUpdate builds an update holding only what differs between the plan and the state: visibility needs
// more rights than the other fields (official provider #1069), and a PATCH of a field the YAML does not
// hold can fail.
func (m *pipelineModel) toUpdate(ctx context.Context, state *pipelineModel, config types.Object) (buildkite.PipelineUpdate, diag.Diagnostics) {
	var u buildkite.PipelineUpdate
	m.whereChanges(state, &u)
	m.optionChanges(state, &u)
	m.looksChanges(state, &u)
	diags := m.tagChanges(ctx, state, &u)
	u.ProviderSettings = changedSettings(state.ProviderSettings, config)
	return u, diags
}

// changed reports whether a planned value is known and differs from the prior one.
func changed(plan, prior attr.Value) bool { return !plan.IsUnknown() && !plan.Equal(prior) }

// whereChanges adds what names the pipeline and what it runs: name, slug, repository, cluster, template
// and steps. Steps are sent when they differ in meaning, or with a change of template.
func (m *pipelineModel) whereChanges(state *pipelineModel, u *buildkite.PipelineUpdate) {
	if changed(m.Name, state.Name) {
		u.Name = kit.StringPtr(m.Name)
	}
	if changed(m.Slug, state.Slug) {
		u.Slug = kit.StringPtr(m.Slug)
	}
	if changed(m.Repository, state.Repository) {
		u.Repository = kit.StringPtr(m.Repository)
	}
	if changed(m.ClusterID, state.ClusterID) {
		u.ClusterID = orCleared(m.ClusterID.UUIDPtr()) // null takes the pipeline out of its cluster
	}
	templateChanged := changed(m.PipelineTemplateID, state.PipelineTemplateID)
	if templateChanged {
		u.PipelineTemplateUUID = orCleared(m.PipelineTemplateID.UUIDPtr())
	}
	if m.PipelineTemplateID.IsNull() && kit.IsKnownValue(m.Steps) &&
		(templateChanged || !kit.YamlFormat.Equal(m.Steps.ValueString(), state.Steps.ValueString())) {
		u.Configuration = kit.StringPtr(m.Steps.StringValue)
	}
}

// optionChanges adds the options that changed: the branch settings, rebuilds and visibility (only when it
// changes in value, not in spelling).
func (m *pipelineModel) optionChanges(state *pipelineModel, u *buildkite.PipelineUpdate) {
	for _, f := range []struct {
		plan, prior types.String
		dst         **string
	}{
		{m.Description, state.Description, &u.Description},
		{m.DefaultBranch, state.DefaultBranch, &u.DefaultBranch},
		{m.BranchConfiguration, state.BranchConfiguration, &u.BranchConfiguration},
		{m.SkipIntermediateBuildsBranchFilter, state.SkipIntermediateBuildsBranchFilter, &u.SkipQueuedBranchBuildsFilter},
		{m.CancelIntermediateBuildsBranchFilter, state.CancelIntermediateBuildsBranchFilter, &u.CancelRunningBranchBuildsFilter},
	} {
		if changed(f.plan, f.prior) {
			*f.dst = kit.StringPtr(f.plan) // null is sent as "", which clears the field
		}
	}
	for _, f := range []struct {
		plan, prior types.Bool
		dst         **bool
	}{
		{m.SkipIntermediateBuilds, state.SkipIntermediateBuilds, &u.SkipQueuedBranchBuilds},
		{m.CancelIntermediateBuilds, state.CancelIntermediateBuilds, &u.CancelRunningBranchBuilds},
		{m.AllowRebuilds, state.AllowRebuilds, &u.AllowRebuilds},
	} {
		if changed(f.plan, f.prior) {
			b := f.plan.ValueBool()
			*f.dst = &b
		}
	}
	if changed(m.Visibility, state.Visibility) && !strings.EqualFold(m.Visibility.ValueString(), state.Visibility.ValueString()) {
		v := m.Visibility.API()
		u.Visibility = &v
	}
	for _, f := range []struct {
		plan, prior types.Int64
		dst         *buildkite.Optional[int64]
	}{
		{m.DefaultTimeoutInMinutes, state.DefaultTimeoutInMinutes, &u.DefaultCommandStepTimeout},
		{m.MaximumTimeoutInMinutes, state.MaximumTimeoutInMinutes, &u.MaximumCommandStepTimeout},
	} {
		if changed(f.plan, f.prior) {
			*f.dst = orCleared(timeoutPtr(f.plan)) // null (0) removes the timeout
		}
	}
}

// looksChanges adds emoji, color and clone_mirror_url when they changed; removed from the configuration, each
// is sent as null, which clears it (as the official provider does).
func (m *pipelineModel) looksChanges(state *pipelineModel, u *buildkite.PipelineUpdate) {
	for _, f := range []struct {
		plan, prior types.String
		dst         *buildkite.Optional[string]
	}{
		{m.Emoji, state.Emoji, &u.Emoji},
		{m.Color, state.Color, &u.Color},
		{m.CloneMirrorURL, state.CloneMirrorURL, &u.CloneMirrorURL},
	} {
		if changed(f.plan, f.prior) {
			*f.dst = orCleared(kit.StringPtrIfSet(f.plan))
		}
	}
}

// orCleared is what an update sends for a field that changed to *p: the value, or null when p is nil.
func orCleared[T any](p *T) buildkite.Optional[T] {
	if p == nil {
		return buildkite.Cleared[T]()
	}
	return buildkite.Value(*p)
}

// tagChanges adds the tags when they changed; none is sent as an empty list, which clears them.
func (m *pipelineModel) tagChanges(ctx context.Context, state *pipelineModel, u *buildkite.PipelineUpdate) diag.Diagnostics {
	if !changed(m.Tags, state.Tags) {
		return nil
	}
	tags, diags := setStrings(ctx, m.Tags)
	if tags == nil {
		tags = []string{}
	}
	u.Tags = &tags
	return diags
}

// changedSettings is what an update sends of provider_settings: only the settings the configuration sets,
// and of those only the ones that differ from the state (nil when none does).
func changedSettings(state types.Object, config types.Object) map[string]any {
	stateSettings := map[string]attr.Value{}
	if kit.IsKnownValue(state) {
		stateSettings = state.Attributes()
	}
	var out map[string]any
	for k, v := range configuredSettings(config) {
		prior, ok := stateSettings[k]
		if ok && !prior.IsNull() && fmt.Sprint(SettingValue(prior)) == fmt.Sprint(v) {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = v
	}
	return out
}

// settingValue is the Go value of a provider setting.
func SettingValue(v attr.Value) any {
	switch tv := v.(type) {
	case types.String:
		return tv.ValueString()
	case types.Bool:
		return tv.ValueBool()
	}
	return nil
}

// pipelineSchema is the schema of buildkite_pipeline.
func pipelineSchema() schema.Schema {
	settings := make(map[string]schema.Attribute, len(PipelineSettings))
	for _, s := range PipelineSettings {
		if s.isString {
			a := schema.StringAttribute{
				MarkdownDescription: s.description + " Unset, it keeps the service's value.",
				Optional:            true, Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			}
			switch s.Key {
			case "trigger_mode":
				a.Validators = []validator.String{stringvalidator.OneOf("code", "deployment", "fork", "none")}
			case "issue_comment_match_mode", "review_comment_match_mode":
				a.Validators = []validator.String{stringvalidator.OneOf(settingMatchModes...)}
			case "pull_request_branch_filter_configuration":
				a.Validators = []validator.String{branchFilterValidator{}}
			case "filter_condition":
				a.Validators = []validator.String{filterConditionValidator{}}
			}
			settings[s.Key] = a
			continue
		}
		settings[s.Key] = schema.BoolAttribute{
			MarkdownDescription: s.description + " Unset, it keeps the service's value.",
			Optional:            true, Computed: true,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
		}
	}
	// kept: Optional+Computed, created as "" (false, 0) when unset, and keeping the service's value when removed
	// from the configuration, as the official provider has them.
	kept := func(description string, validators ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: description + " Unset at create, `\"\"`; removed from the configuration, the service's value is kept.",
			Optional:            true, Computed: true,
			Validators:    validators,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		}
	}
	keptBool := func(description string) schema.BoolAttribute {
		return schema.BoolAttribute{
			MarkdownDescription: description + " Unset at create, `false`; removed from the configuration, the service's value is kept.",
			Optional:            true, Computed: true,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
		}
	}
	timeout := func(description string) schema.Int64Attribute {
		return schema.Int64Attribute{
			MarkdownDescription: description + " Unset, the pipeline has none, which state holds as `0`; removed from " +
				"the configuration, the service's value is kept.",
			Optional: true, Computed: true,
			Validators:    []validator.Int64{int64validator.AtLeast(0)},
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		}
	}
	return schema.Schema{
		Version: 2, // above the official provider's 1, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A pipeline: the steps a build runs for a repository. Attribute names follow the official " +
			"provider, so its configurations need only their `source` changed.\n\n" +
			"Without `steps` and without `pipeline_template_id`, the pipeline gets the standard upload step, which " +
			"reads `.buildkite/pipeline.yml` from the repository:\n\n```yaml\n" + buildkite.DefaultSteps + "\n```\n\n" +
			"`steps` is compared by meaning: line endings, a byte-order mark, trailing newlines and the service's " +
			"re-rendering never show as a difference.",
		Attributes: kit.WithCommon("pipeline", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The pipeline's name, unique in the organization.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"repository": schema.StringAttribute{
				MarkdownDescription: "The URL of the repository the pipeline builds.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"slug": schema.StringAttribute{
				MarkdownDescription: "The pipeline's slug, used in its URLs. Unset, it is derived from the name by the service " +
					"and follows a rename.",
				Optional: true, Computed: true,
				Validators: []validator.String{
					stringvalidator.LengthBetween(1, 100),
					stringvalidator.RegexMatches(pipelineSlugRule, "can only contain lowercase characters, numbers and hyphens"),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"steps": schema.StringAttribute{
				CustomType: kit.YamlStringType,
				MarkdownDescription: "The pipeline's steps as YAML (the REST API's `configuration`). Unset: the standard " +
					"upload step. Conflicts with `pipeline_template_id`: a pipeline using a template runs the template's " +
					"configuration, and `steps` is then null in state.",
				Optional: true, Computed: true,
				Validators:    []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("pipeline_template_id"))},
				PlanModifiers: []planmodifier.String{kit.KeepSemanticallyEqualState(kit.YamlFormat)},
			},
			"pipeline_template_id": kit.OptionalRefAttribute("The UUID of the pipeline template whose configuration the pipeline "+
				"runs (REST `pipeline_template_uuid`; enterprise plan).", "PipelineTemplate"),
			"cluster_id": kit.OptionalRefAttribute("The UUID of the cluster the pipeline's builds run in. Unset, the pipeline "+
				"is in no cluster.", "Cluster"),
			"cluster_name": schema.StringAttribute{
				MarkdownDescription: "The name of the pipeline's cluster, null when it is in none.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{kit.KeepWhileUnchanged{Other: "cluster_id"}},
			},
			"default_timeout_in_minutes": timeout("The timeout, in minutes, of command steps that set none (REST " +
				"`default_command_step_timeout`)."),
			"maximum_timeout_in_minutes": timeout("The longest timeout, in minutes, a command step may have (REST " +
				"`maximum_command_step_timeout`); at least `default_timeout_in_minutes`."),
			"emoji": schema.StringAttribute{
				MarkdownDescription: "An emoji shown with the pipeline, such as `:rocket:`. " + pipelineLooksNote,
				Optional:            true,
			},
			"color":                   pipelineColorAttribute(),
			"github_webhooks_enabled": githubWebhooksAttribute(),
			"clone_mirror_url": schema.StringAttribute{
				MarkdownDescription: "The URL of a mirror agents clone the repository from (no credentials, query or " +
					"fragment). Needs the organization's clone-mirror feature. Removed, it is cleared.",
				Optional: true,
			},
			"description":    kept("A description of the pipeline."),
			"default_branch": kept("The branch builds default to."),
			"branch_configuration": schema.StringAttribute{
				MarkdownDescription: "A branch filter pattern: only pushes to matching branches build. Removed, the filter is cleared.",
				Optional:            true,
				Validators:          []validator.String{branchFilterValidator{}},
			},
			"skip_intermediate_builds": keptBool("Skip builds of a branch that are not yet running when a newer one is " +
				"created (REST `skip_queued_branch_builds`)."),
			"skip_intermediate_builds_branch_filter": kept("The branches `skip_intermediate_builds` applies to (a branch "+
				"filter pattern).", branchFilterValidator{}),
			"cancel_intermediate_builds": keptBool("Cancel running builds of a branch when a newer one is created " +
				"(REST `cancel_running_branch_builds`)."),
			"cancel_intermediate_builds_branch_filter": kept("The branches `cancel_intermediate_builds` applies to (a "+
				"branch filter pattern).", branchFilterValidator{}),
			"allow_rebuilds": schema.BoolAttribute{
				MarkdownDescription: "Whether builds may be rebuilt. Defaults to `true`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(true),
			},
			"visibility": pipelineVisibilityAttribute(),
			"tags": schema.SetAttribute{
				MarkdownDescription: "Tags shown with the pipeline. Defaults to none; removed, the tags are cleared.",
				ElementType:         types.StringType,
				Optional:            true, Computed: true,
				Default: setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{})),
			},
			"default_team_id": kit.OptionalRefAttribute("The UUID of a team given `manage_build_and_read` access when the pipeline "+
				"is created. Changing it gives the new team that access and removes the old team's. Access changed outside "+
				"Terraform is left alone, and an import leaves it unset (the REST API does not record which team this was).", "Team"),
			"provider_settings": schema.SingleNestedAttribute{
				MarkdownDescription: "Settings of the repository's source provider. Only the keys a configuration sets are " +
					"managed; the others show the service's values and never differ. Keys a provider does not have " +
					"(GitHub's on a GitLab repository) are ignored by the service. " + emptySettingsNote,
				Optional: true, Computed: true,
				Attributes:    settings,
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
			},
			"archived": schema.BoolAttribute{
				MarkdownDescription: "Whether the pipeline is archived (read-only). Changes to an archived pipeline unarchive " +
					"it first and archive it again last. Defaults to `false`.",
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"archive_on_delete": schema.BoolAttribute{
				MarkdownDescription: "Archive the pipeline instead of deleting it when it is destroyed. Unset, the provider " +
					"block's `archive_pipeline_on_delete` decides (default `false`).",
				Optional: true,
			},
			"badge_url": kit.ComputedString("The URL of the pipeline's build status badge."),
			// These URLs hold the slug or the source provider: ModifyPlan marks them unknown when those change.
			"builds_url": kit.ComputedString("The API URL of the pipeline's builds."),
			"webhook_url": kit.ComputedString("The URL the source provider sends events to (empty when the token cannot " +
				"edit the pipeline)."),
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt),
	}
}

// planPipeline plans what the attributes' own modifiers cannot, because it depends on other attributes:
// the steps a pipeline without steps gets, the slug and URLs after a rename, and whether steps given
// together with a template mean the same.
func planPipeline(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() {
		return
	}
	var plan, config pipelineModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	var state *pipelineModel
	if !req.State.Raw.IsNull() {
		state = &pipelineModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	// steps: null in template mode (the template's are not the pipeline's own), the default upload step
	// when neither is configured; nothing is decided while either is unknown.
	switch {
	case config.Steps.IsUnknown() || config.PipelineTemplateID.IsUnknown():
	case !config.PipelineTemplateID.IsNull():
		plan.Steps = kit.YamlNull()
	case config.Steps.IsNull():
		if state == nil || !state.PipelineTemplateID.IsNull() || !kit.YamlFormat.Equal(state.Steps.ValueString(), buildkite.DefaultSteps) {
			plan.Steps = kit.YamlString(buildkite.DefaultSteps)
		} else {
			plan.Steps = state.Steps
		}
	}

	// Without a slug: a slug the configuration set before is removed, so the slug derived from the name is
	// planned (and sent); a new name re-derives the slug on the service. The URLs that hold it follow.
	if state != nil && config.Slug.IsNull() {
		switch {
		case slugSetByUser(ctx, req.Private) && !plan.Name.IsUnknown():
			if derived, err := kit.PipelineSlug(plan.Name.ValueString()); err == nil {
				plan.Slug = types.StringValue(derived)
			} else {
				plan.Slug = types.StringUnknown()
			}
		case !plan.Name.Equal(state.Name):
			plan.Slug = types.StringUnknown()
		}
	}
	if state != nil && !plan.Slug.Equal(state.Slug) {
		plan.URL, plan.WebURL, plan.BuildsURL = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	}
	if state != nil && !plan.Repository.Equal(state.Repository) {
		// The source provider, and with it the webhook and the settings the service has, may change.
		plan.WebhookURL = types.StringUnknown()
		if config.ProviderSettings.IsNull() {
			plan.ProviderSettings = types.ObjectUnknown(settingsAttrTypes())
		}
	}
	planSettingsBlank(ctx, state == nil, state != nil && settingsHeldBlank(ctx, req.Private), config.ProviderSettings, &plan.ProviderSettings)
	warnFilterWithoutCode(config.ProviderSettings, plan.ProviderSettings, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// warnFilterWithoutCode warns, as the official provider does, of a build filter that cannot apply: the
// service evaluates filter_condition only when builds are triggered by code, and trigger_mode is "none".
func warnFilterWithoutCode(config, plan types.Object, diags *diag.Diagnostics) {
	if !kit.IsKnownValue(config) || !kit.IsKnownValue(plan) {
		return
	}
	c, p := config.Attributes(), plan.Attributes()
	cond, _ := c["filter_condition"].(types.String)
	enabled, _ := c["filter_enabled"].(types.Bool)
	mode, _ := p["trigger_mode"].(types.String)
	if (cond.ValueString() != "" || enabled.ValueBool()) && !mode.IsUnknown() && mode.ValueString() == "none" {
		diags.AddAttributeWarning(path.Root("provider_settings").AtName("filter_condition"),
			"`filter_condition` requires `trigger_mode` to be `code`",
			"The service applies a build filter only to builds triggered by code; with trigger_mode \"none\" no build is "+
				"triggered, so the filter has no effect.")
	}
}

// slugSourceKey is the private-state key that records whether the configuration set the slug ("user") or
// the service derived it ("api"). Removing a slug the configuration set plans the derived one.
const slugSourceKey = "slugSource"

// slugSetByUser reports whether the private state records a slug the configuration set.
func slugSetByUser(ctx context.Context, p kit.PrivateReader) bool {
	data, diags := p.GetKey(ctx, slugSourceKey)
	return !diags.HasError() && strings.Contains(string(data), `"user"`)
}

// pipelinePrivate is what the private state records after a create or update: whether provider_settings are
// held blank, and, once one succeeded, where the slug came from.
func pipelinePrivate(plan *pipelineModel) map[string][]byte {
	keys := map[string][]byte{blankSettingsKey: nil} // nil removes the key
	if plan.heldBlank {
		keys[blankSettingsKey] = []byte("true")
	}
	if plan.slugSource != "" {
		keys[slugSourceKey] = []byte(`{"source":"` + plan.slugSource + `"}`)
	}
	return keys
}

// slugSourceOf is where the slug of a configuration comes from.
func slugSourceOf(configured bool) string {
	if configured {
		return "user"
	}
	return "api"
}

// pipelineNames finds the pipeline that holds a name or slug, both unique in the organization. A pipeline
// is adopted by its slug, its identity.
var pipelineNames = &kit.UniqueNames[buildkite.Pipeline]{
	What: "pipeline",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Pipeline, error) {
		return c.Pipelines.List(ctx, nil)
	},
	Name:     func(p *buildkite.Pipeline) string { return p.Name },
	Slug:     func(p *buildkite.Pipeline) string { return p.Slug },
	Id:       func(p *buildkite.Pipeline) string { return p.ID },
	ImportID: func(p *buildkite.Pipeline) string { return p.Slug },
}

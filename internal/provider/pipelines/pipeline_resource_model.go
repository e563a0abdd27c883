package pipelines

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The pipeline's model and its mapping from the service's pipeline, shared by the buildkite_pipeline
// resource and the buildkite_pipeline(s) data sources, which show the same attributes.

// pipelineFields are the attributes the resource and the data sources share.
type pipelineFields struct {
	ID                                   types.String       `tfsdk:"id"`
	UUID                                 types.String       `tfsdk:"uuid"`
	GraphQLID                            types.String       `tfsdk:"graphql_id"`
	URL                                  types.String       `tfsdk:"url"`
	WebURL                               types.String       `tfsdk:"web_url"`
	CreatedAt                            types.String       `tfsdk:"created_at"`
	Name                                 types.String       `tfsdk:"name"`
	Slug                                 types.String       `tfsdk:"slug"`
	Repository                           types.String       `tfsdk:"repository"`
	Steps                                kit.SemanticString `tfsdk:"steps"`
	PipelineTemplateID                   kit.RefValue       `tfsdk:"pipeline_template_id"`
	ClusterID                            kit.RefValue       `tfsdk:"cluster_id"`
	ClusterName                          types.String       `tfsdk:"cluster_name"`
	DefaultTimeoutInMinutes              types.Int64        `tfsdk:"default_timeout_in_minutes"`
	MaximumTimeoutInMinutes              types.Int64        `tfsdk:"maximum_timeout_in_minutes"`
	CloneMirrorURL                       types.String       `tfsdk:"clone_mirror_url"`
	Description                          types.String       `tfsdk:"description"`
	DefaultBranch                        types.String       `tfsdk:"default_branch"`
	BranchConfiguration                  types.String       `tfsdk:"branch_configuration"`
	SkipIntermediateBuilds               types.Bool         `tfsdk:"skip_intermediate_builds"`
	SkipIntermediateBuildsBranchFilter   types.String       `tfsdk:"skip_intermediate_builds_branch_filter"`
	CancelIntermediateBuilds             types.Bool         `tfsdk:"cancel_intermediate_builds"`
	CancelIntermediateBuildsBranchFilter types.String       `tfsdk:"cancel_intermediate_builds_branch_filter"`
	AllowRebuilds                        types.Bool         `tfsdk:"allow_rebuilds"`
	Visibility                           kit.EnumValue      `tfsdk:"visibility"`
	Tags                                 types.Set          `tfsdk:"tags"`
	ProviderSettings                     types.Object       `tfsdk:"provider_settings"`
	Archived                             types.Bool         `tfsdk:"archived"`
	BadgeURL                             types.String       `tfsdk:"badge_url"`
	BuildsURL                            types.String       `tfsdk:"builds_url"`
	WebhookURL                           types.String       `tfsdk:"webhook_url"`
}

// fromAPI sets the fields from the service's pipeline. prior is what state (or the plan) held before, so
// that a value the service renders differently from how the user wrote it (an empty string for unset, a
// YAML document re-rendered) keeps the user's form; an upper-case visibility and a GraphQL ID in a
// reference are kept by their semantic equality. A configured "" clone_mirror_url stays "" while none is
// set; cluster_name is left to the caller (withClusterName), which knows the clusters.
func (m *pipelineFields) fromAPI(ctx context.Context, p *buildkite.Pipeline, prior *pipelineFields) diag.Diagnostics {
	var diags diag.Diagnostics
	if prior == nil {
		prior = &pipelineFields{}
	}
	m.ID = types.StringValue(p.ID)
	m.UUID = types.StringValue(p.ID)
	m.GraphQLID = types.StringValue(p.GraphQLID)
	m.URL = types.StringValue(p.URL)
	m.WebURL = types.StringValue(p.WebURL)
	m.CreatedAt = types.StringNull()
	if p.CreatedAt != nil {
		m.CreatedAt = kit.TimeValue(&p.CreatedAt.Time)
	}
	m.Name = types.StringValue(p.Name)
	m.Slug = types.StringValue(p.Slug)
	m.Repository = types.StringValue(p.Repository)
	m.Steps = kit.YamlNull()
	// In template mode the template's configuration is not the pipeline's own: steps stays null, as the
	// official provider stores it.
	if p.Configuration != nil && kit.Deref(p.PipelineTemplateUUID) == "" {
		m.Steps = kit.YamlString(*p.Configuration)
	}
	m.PipelineTemplateID = kit.NewRefPtr(p.PipelineTemplateUUID)
	m.ClusterID = kit.NewRefPtr(p.ClusterID)
	// No timeout is 0, as the official provider's state holds it.
	m.DefaultTimeoutInMinutes = types.Int64Value(kit.Deref(p.DefaultCommandStepTimeout))
	m.MaximumTimeoutInMinutes = types.Int64Value(kit.Deref(p.MaximumCommandStepTimeout))
	m.CloneMirrorURL = kit.KeepEmpty(prior.CloneMirrorURL, p.CloneMirrorURL)
	m.ClusterName = types.StringNull() // see withClusterName
	m.Description = types.StringValue(kit.Deref(p.Description))
	m.DefaultBranch = types.StringValue(p.DefaultBranch)
	m.BranchConfiguration = kit.KeepEmpty(prior.BranchConfiguration, p.BranchConfiguration)
	m.SkipIntermediateBuilds = types.BoolValue(p.SkipQueuedBranchBuilds)
	m.SkipIntermediateBuildsBranchFilter = types.StringValue(kit.Deref(p.SkipQueuedBranchBuildsFilter))
	m.CancelIntermediateBuilds = types.BoolValue(p.CancelRunningBranchBuilds)
	m.CancelIntermediateBuildsBranchFilter = types.StringValue(kit.Deref(p.CancelRunningBranchBuildsFilter))
	m.AllowRebuilds = types.BoolValue(p.AllowRebuilds)
	m.Visibility = kit.NewEnumValue(p.Visibility)
	m.Tags = tagsValue(p.Tags)
	m.ProviderSettings, diags = settingsFromAPI(ctx, prior.ProviderSettings, p.Provider.Settings)
	m.Archived = types.BoolValue(p.Archived())
	m.BadgeURL = types.StringValue(p.BadgeURL)
	m.BuildsURL = types.StringValue(p.BuildsURL)
	m.WebhookURL = types.StringValue(p.Provider.WebhookURL)
	return diags
}

// withClusterName sets cluster_name from the names of the organization's clusters by ID (names answers one),
// null when the pipeline is in no cluster.
func (m *pipelineFields) withClusterName(p *buildkite.Pipeline, names func(clusterID string) (string, error)) error {
	m.ClusterName = types.StringNull()
	id := kit.Deref(p.ClusterID)
	if id == "" {
		return nil
	}
	name, err := names(id)
	if err != nil {
		return fmt.Errorf("reading the name of cluster %s: %w", id, err)
	}
	m.ClusterName = kit.OptionalString(name)
	return nil
}

// clusterNameByGet names one cluster by reading it: during a refresh the client answers from the
// organization's cluster listing, one call for every pipeline.
func clusterNameByGet(ctx context.Context, c *buildkite.Client) func(string) (string, error) {
	return func(id string) (string, error) {
		cl, err := c.Clusters.Get(ctx, id)
		if buildkite.IsNotFound(err) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		return cl.Name, nil
	}
}

// clusterNamesByList names clusters from one listing, for the readers of many pipelines at once.
func clusterNamesByList(ctx context.Context, c *buildkite.Client) func(string) (string, error) {
	var names map[string]string
	return func(id string) (string, error) {
		if names == nil {
			all, err := c.Clusters.List(ctx)
			if err != nil {
				return "", err
			}
			names = make(map[string]string, len(all))
			for _, cl := range all {
				names[cl.ID] = cl.Name
			}
		}
		return names[id], nil
	}
}

// tagsValue is the tag set, empty (never null) when the service has none, as the official provider's
// default of an empty set stores it.
func tagsValue(tags []string) types.Set {
	values := make([]attr.Value, len(tags))
	for i, t := range tags {
		values[i] = types.StringValue(t)
	}
	return types.SetValueMust(types.StringType, values)
}

// setStrings returns the elements of a known set of strings, sorted.
func setStrings(ctx context.Context, s types.Set) ([]string, diag.Diagnostics) {
	if !kit.IsKnownValue(s) {
		return nil, nil
	}
	var out []string
	diags := s.ElementsAs(ctx, &out, false)
	sort.Strings(out)
	return out, diags
}

// ---- provider settings ----

// pipelineSetting is one key of provider_settings: every key the real service's notes list for writes.
type pipelineSetting struct {
	Key         string
	isString    bool
	description string
}

var PipelineSettings = []pipelineSetting{
	{"trigger_mode", true, "What triggers builds (GitHub): `code`, `deployment`, `fork` or `none`."},
	{"build_pull_requests", false, "Build pull requests (GitHub)."},
	{"pull_request_branch_filter_enabled", false, "Build only pull requests whose branch matches `pull_request_branch_filter_configuration` (GitHub)."},
	{"pull_request_branch_filter_configuration", true, "The branch filter for pull requests (GitHub)."},
	{"skip_builds_for_existing_commits", false, "Skip creating a build for a commit that already has one (GitHub)."},
	{"skip_pull_request_builds_for_existing_commits", false, "Skip pull request builds for commits already built on a branch (GitHub)."},
	{"build_pull_request_ready_for_review", false, "Build when a draft pull request becomes ready for review (GitHub)."},
	{"build_pull_request_labels_changed", false, "Build when a pull request's labels change (GitHub)."},
	{"build_pull_request_forks", false, "Build pull requests from forks (GitHub)."},
	{"prefix_pull_request_fork_branch_names", false, "Prefix the branch names of fork pull requests with the fork's owner (GitHub)."},
	{"build_branches", false, "Build pushes to branches (GitHub)."},
	{"build_tags", false, "Build pushed tags (GitHub)."},
	{"cancel_deleted_branch_builds", false, "Cancel builds of a branch when it is deleted (GitHub)."},
	{"publish_commit_status", false, "Publish commit statuses (GitHub)."},
	{"publish_commit_status_per_step", false, "Publish a commit status per step (GitHub)."},
	{"separate_pull_request_statuses", false, "Publish separate statuses for pull request builds (GitHub)."},
	{"publish_blocked_as_pending", false, "Show blocked builds as pending (GitHub)."},
	{"use_step_key_as_commit_status", false, "Name commit statuses by step key (GitHub)."},
	{"filter_enabled", false, "Build only when `filter_condition` holds (every source provider)."},
	{"filter_condition", true, "The condition builds must meet when `filter_enabled` is true (every source provider)."},
	// The keys of the official provider's schema beyond those Buildkite's REST documentation lists.
	{"build_pull_request_merge_commits", false, "Build the merge commits of pull requests (GitHub)."},
	{"build_pull_request_base_branch_changed", false, "Build when a pull request's base branch changes (GitHub)."},
	{"build_pull_request_converted_to_draft", false, "Build when a pull request becomes a draft (GitHub)."},
	{"build_pull_request_dequeued", false, "Build when a pull request leaves the merge queue (GitHub)."},
	{"build_pull_request_reopened", false, "Build when a pull request is reopened (GitHub)."},
	{"build_pull_request_review_comment_created", false, "Build when a review comment matches `review_comment_command_word` (GitHub)."},
	{"build_pull_request_review_dismissed", false, "Build when a pull request review is dismissed (GitHub)."},
	{"build_pull_request_review_requested", false, "Build when a pull request review is requested (GitHub)."},
	{"build_pull_request_review_submitted", false, "Build when a pull request review is submitted (GitHub)."},
	{"build_issue_comment_created", false, "Build when a pull request comment matches `issue_comment_command_word` (GitHub)."},
	{"issue_comment_command_word", true, "The word a pull request comment holds to start a build (GitHub)."},
	{"issue_comment_match_mode", true, "How a comment is matched against `issue_comment_command_word`: `exact` or `contains` (GitHub)."},
	{"review_comment_command_word", true, "The word a review comment holds to start a build (GitHub)."},
	{"review_comment_match_mode", true, "How a review comment is matched against `review_comment_command_word`: `exact` or `contains` (GitHub)."},
	{"build_check_run_completed", false, "Build when a check run completes (GitHub)."},
	{"build_create_event", false, "Build when a branch or tag is created (GitHub)."},
	{"build_deployment_status_created", false, "Build when a deployment status is created (GitHub)."},
	{"build_release_created", false, "Build when a release is created (GitHub)."},
	{"build_release_published", false, "Build when a release is published (GitHub)."},
	{"build_release_released", false, "Build when a release is released (GitHub)."},
	{"build_merge_group_checks_requested", false, "Build merge groups of the merge queue (GitHub)."},
	{"cancel_when_merge_group_destroyed", false, "Cancel a merge group's builds when the group is destroyed (GitHub)."},
	{"use_merge_group_base_commit_for_git_diff_base", false, "Diff a merge group's changes against its base commit (GitHub)."},
	{"ignore_default_branch_pull_requests", false, "Do not build pull requests from the default branch (GitHub)."},
	// Keys added after the official snapshot (official provider #1222, #1236, #1275).
	{"build_pull_request_edited", false, "Build when a pull request is edited; needs `build_pull_requests` (GitHub)."},
	{"build_issues", false, "Build on issue events (GitHub)."},
	{"build_pull_request_stacks", false, "Build pull request stacks; needs `build_pull_requests`; private preview (GitHub)."},
	{"github_workflow_access_tokens_enabled", false, "Give GitHub workflow access tokens to builds; needs the organization feature; private preview (GitHub, not GitHub Enterprise Server)."},
	{"skip_builds_for_closed_pull_requests", false, "Skip builds of pull requests that are closed (GitHub)."},
	{"prevent_custom_statuses_from_using_buildkite_prefix", false, "Refuse custom commit statuses named with the `buildkite` prefix; private preview (GitHub)."},
}

// settingMatchModes are the values of the two match modes.
var settingMatchModes = []string{"exact", "contains"}

// settingsAttrTypes is the object type of provider_settings.
func settingsAttrTypes() map[string]attr.Type {
	out := make(map[string]attr.Type, len(PipelineSettings))
	for _, s := range PipelineSettings {
		if s.isString {
			out[s.Key] = types.StringType
		} else {
			out[s.Key] = types.BoolType
		}
	}
	return out
}

// settingsFromAPI builds provider_settings from the service's settings. Every key the service answers is
// shown (an unset key is computed, so the service's value never diffs); a key the service does not answer
// for this repository's provider keeps its prior value.
func settingsFromAPI(_ context.Context, prior types.Object, settings map[string]any) (types.Object, diag.Diagnostics) {
	priorAttrs := map[string]attr.Value{}
	if kit.IsKnownValue(prior) {
		priorAttrs = prior.Attributes()
	}
	values := make(map[string]attr.Value, len(PipelineSettings))
	for _, s := range PipelineSettings {
		v, ok := settings[s.Key]
		p, hasPrior := priorAttrs[s.Key]
		switch {
		case ok && s.isString:
			str, _ := v.(string)
			values[s.Key] = types.StringValue(str)
		case ok:
			b, _ := v.(bool)
			values[s.Key] = types.BoolValue(b)
		case hasPrior && !p.IsUnknown():
			values[s.Key] = p
		case s.isString:
			values[s.Key] = types.StringNull()
		default:
			values[s.Key] = types.BoolNull()
		}
	}
	return types.ObjectValue(settingsAttrTypes(), values)
}

// configuredSettings returns the keys of provider_settings the configuration sets, with their values:
// only these are sent, so that the others stay the service's.
func configuredSettings(config types.Object) map[string]any {
	if !kit.IsKnownValue(config) {
		return nil
	}
	out := map[string]any{}
	for k, v := range config.Attributes() {
		if !kit.IsKnownValue(v) {
			continue
		}
		switch tv := v.(type) {
		case types.String:
			out[k] = tv.ValueString()
		case types.Bool:
			out[k] = tv.ValueBool()
		}
	}
	return out
}

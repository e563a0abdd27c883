package fakeserver

import (
	"net/url"
	"strings"
	"sync"
)

// A pipeline's source provider, told from its repository URL, and the provider_settings each provider takes.

// repositoryHostPath splits a repository URL (https://host/path, ssh://user@host/path or the scp-like
// user@host:path) into its lowercased host and its path without slashes at either end or ".git".
func repositoryHostPath(repo string) (host, path string) {
	if strings.Contains(repo, "://") {
		u, err := url.Parse(repo)
		if err != nil {
			return "", ""
		}
		host, path = u.Hostname(), u.Path
	} else {
		rest := repo
		if at := strings.Index(rest, "@"); at >= 0 && at < strings.Index(rest, ":") {
			rest = rest[at+1:]
		}
		var ok bool
		if host, path, ok = strings.Cut(rest, ":"); !ok {
			return "", ""
		}
	}
	return strings.ToLower(host), strings.TrimSuffix(strings.Trim(path, "/"), ".git")
}

// repositoryProvider names the source provider of a repository URL by its host.
func repositoryProvider(repo string) string {
	host, _ := repositoryHostPath(repo)
	switch {
	case host == "github.com":
		return "github"
	case strings.Contains(host, "gitlab"):
		return "gitlab"
	case strings.Contains(host, "bitbucket"):
		return "bitbucket"
	default:
		return "git"
	}
}

// settingKind tells how a provider setting is typed.
type settingKind int

const (
	boolSetting settingKind = iota
	stringSetting
)

// githubSettings are the provider_settings a GitHub pipeline holds: the 44 keys of the official provider's
// schema (official-schema.json, buildkite_pipeline.provider_settings), which it writes through REST and the
// service returns (https://buildkite.com/docs/apis/rest-api/pipelines), and the six keys added since; the
// reference lists the first 19. Seven are strings, the rest booleans.
var githubSettings = map[string]settingKind{
	"trigger_mode": stringSetting, "filter_enabled": boolSetting, "filter_condition": stringSetting,
	"build_pull_requests": boolSetting, "pull_request_branch_filter_enabled": boolSetting,
	"pull_request_branch_filter_configuration": stringSetting, "skip_builds_for_existing_commits": boolSetting,
	"skip_pull_request_builds_for_existing_commits": boolSetting, "build_pull_request_ready_for_review": boolSetting,
	"build_pull_request_labels_changed": boolSetting, "build_pull_request_forks": boolSetting,
	"prefix_pull_request_fork_branch_names": boolSetting, "build_branches": boolSetting, "build_tags": boolSetting,
	"cancel_deleted_branch_builds": boolSetting, "publish_commit_status": boolSetting,
	"publish_commit_status_per_step": boolSetting, "separate_pull_request_statuses": boolSetting,
	"publish_blocked_as_pending": boolSetting, "use_step_key_as_commit_status": boolSetting,
	// The official provider's further keys.
	"build_check_run_completed": boolSetting, "build_create_event": boolSetting,
	"build_deployment_status_created": boolSetting, "build_issue_comment_created": boolSetting,
	"build_merge_group_checks_requested": boolSetting, "build_pull_request_base_branch_changed": boolSetting,
	"build_pull_request_converted_to_draft": boolSetting, "build_pull_request_dequeued": boolSetting,
	"build_pull_request_merge_commits": boolSetting, "build_pull_request_reopened": boolSetting,
	"build_pull_request_review_comment_created": boolSetting, "build_pull_request_review_dismissed": boolSetting,
	"build_pull_request_review_requested": boolSetting, "build_pull_request_review_submitted": boolSetting,
	"build_release_created": boolSetting, "build_release_published": boolSetting,
	"build_release_released": boolSetting, "cancel_when_merge_group_destroyed": boolSetting,
	"ignore_default_branch_pull_requests": boolSetting, "use_merge_group_base_commit_for_git_diff_base": boolSetting,
	"issue_comment_command_word": stringSetting, "issue_comment_match_mode": stringSetting,
	"review_comment_command_word": stringSetting, "review_comment_match_mode": stringSetting,
	// Keys added after the official provider's schema was taken, all off by default.
	"build_pull_request_edited": boolSetting, "build_issues": boolSetting, "build_pull_request_stacks": boolSetting,
	"github_workflow_access_tokens_enabled": boolSetting, "skip_builds_for_closed_pull_requests": boolSetting,
	"prevent_custom_statuses_from_using_buildkite_prefix": boolSetting,
}

// commonSettings are the provider_settings every other provider holds (filter_enabled and
// filter_condition are for all providers).
var commonSettings = map[string]settingKind{"filter_enabled": boolSetting, "filter_condition": stringSetting}

// settingEnums are the string settings that take one of a few values. The match modes say how a comment's
// command word is matched (exact or contains).
var settingEnums = map[string][]string{
	"trigger_mode":              githubTriggerModes,
	"issue_comment_match_mode":  {"exact", "contains"},
	"review_comment_match_mode": {"exact", "contains"},
}

// providerSettingKeys lists the provider_settings a pipeline of provider accepts; the caller must not
// change the map.
func providerSettingKeys(provider string) map[string]settingKind {
	if provider == "github" {
		return githubSettings
	}
	return commonSettings
}

// sharedProviderSettings holds each provider's defaults, built once: most pipelines keep them, and one
// map per pipeline was most of a pipeline's memory.
var sharedProviderSettings sync.Map // provider → map[string]any

// defaultProviderSettings is what a new pipeline of the provider starts with. The map is shared: like
// every map of a record it is replaced, never changed in place.
func defaultProviderSettings(provider string) map[string]any {
	if m, ok := sharedProviderSettings.Load(provider); ok {
		return m.(map[string]any)
	}
	m, _ := sharedProviderSettings.LoadOrStore(provider, buildProviderSettings(provider))
	return m.(map[string]any)
}

// buildProviderSettings builds the provider's default settings.
func buildProviderSettings(provider string) map[string]any {
	out := map[string]any{}
	for k, kind := range providerSettingKeys(provider) {
		if kind == boolSetting {
			out[k] = false
		} else {
			out[k] = ""
		}
	}
	if provider == "github" {
		out["trigger_mode"] = "code"
		out["issue_comment_match_mode"], out["review_comment_match_mode"] = "exact", "exact"
		for _, k := range []string{"build_pull_requests", "build_branches", "publish_commit_status"} {
			out[k] = true
		}
	}
	return out
}

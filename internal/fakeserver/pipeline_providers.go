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

// providerSettingKeys lists the provider_settings each provider accepts (the notes: every provider has
// filter_enabled and filter_condition; GitHub adds the rest).
func providerSettingKeys(provider string) map[string]settingKind {
	keys := map[string]settingKind{"filter_enabled": boolSetting, "filter_condition": stringSetting}
	if provider != "github" {
		return keys
	}
	for _, k := range []string{
		"build_pull_requests", "pull_request_branch_filter_enabled", "skip_builds_for_existing_commits",
		"skip_pull_request_builds_for_existing_commits", "build_pull_request_ready_for_review",
		"build_pull_request_labels_changed", "build_pull_request_forks", "prefix_pull_request_fork_branch_names",
		"build_branches", "build_tags", "cancel_deleted_branch_builds", "publish_commit_status",
		"publish_commit_status_per_step", "separate_pull_request_statuses", "publish_blocked_as_pending",
		"use_step_key_as_commit_status",
	} {
		keys[k] = boolSetting
	}
	keys["trigger_mode"] = stringSetting
	keys["pull_request_branch_filter_configuration"] = stringSetting
	return keys
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
		for _, k := range []string{"build_pull_requests", "build_branches", "publish_commit_status"} {
			out[k] = true
		}
	}
	return out
}

package fakeserver

import (
	"net/http"
	"strings"
	"testing"
)

// The fields Buildkite's documentation has added to entities the emulator already had (issue 15): each is
// stored on create, changed on update, returned on read, and refused with a 422 when it is not valid.

func TestPipelineStepTimeouts(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "p", "repository": "git@github.com:a/b.git",
		"configuration": "steps: []\n", "default_command_step_timeout": 30, "maximum_command_step_timeout": 60})
	if p["default_command_step_timeout"] != 30.0 || p["maximum_command_step_timeout"] != 60.0 {
		t.Fatalf("created %v / %v", p["default_command_step_timeout"], p["maximum_command_step_timeout"])
	}
	expect(t, e.api("PATCH", "/pipelines/p", map[string]any{"default_command_step_timeout": 45}), http.StatusOK)
	got := e.api("GET", "/pipelines/p", nil).object(t)
	if got["default_command_step_timeout"] != 45.0 || got["maximum_command_step_timeout"] != 60.0 {
		t.Fatalf("read %v / %v", got["default_command_step_timeout"], got["maximum_command_step_timeout"])
	}
	// null removes a timeout.
	got = e.api("PATCH", "/pipelines/p", map[string]any{"maximum_command_step_timeout": nil}).object(t)
	if got["maximum_command_step_timeout"] != nil {
		t.Fatalf("cleared maximum %v", got["maximum_command_step_timeout"])
	}

	expectFieldErrors(t, e.api("PATCH", "/pipelines/p", map[string]any{"default_command_step_timeout": -1}),
		"default_command_step_timeout", "must be greater than or equal to 0")
	expectFieldErrors(t, e.api("PATCH", "/pipelines/p", map[string]any{"maximum_command_step_timeout": -5}),
		"maximum_command_step_timeout", "must be greater than or equal to 0")
	expectFieldErrors(t, e.api("PATCH", "/pipelines/p", map[string]any{"maximum_command_step_timeout": 10}),
		"maximum_command_step_timeout", "must be greater than or equal to default_command_step_timeout")
	expectFieldErrors(t, e.api("PATCH", "/pipelines/p", map[string]any{"default_command_step_timeout": "30"}),
		"default_command_step_timeout", "must be an integer")
	if got := e.api("GET", "/pipelines/p", nil).object(t); got["default_command_step_timeout"] != 45.0 {
		t.Fatalf("a refused update changed the timeout: %v", got["default_command_step_timeout"])
	}
	// 0 is no limit, as the official provider sends for a timeout left unset.
	if got := e.api("PATCH", "/pipelines/p", map[string]any{"default_command_step_timeout": 0}).object(t); got["default_command_step_timeout"] != 0.0 {
		t.Fatalf("default 0: %v", got["default_command_step_timeout"])
	}
}

// officialSettingKeys are the 44 provider_settings of the official provider's schema
// (official-schema.json, buildkite_pipeline.provider_settings), strings marked.
var officialSettingKeys = map[string]bool{ // key → is a string
	"build_branches": false, "build_check_run_completed": false, "build_create_event": false,
	"build_deployment_status_created": false, "build_issue_comment_created": false,
	"build_merge_group_checks_requested": false, "build_pull_request_base_branch_changed": false,
	"build_pull_request_converted_to_draft": false, "build_pull_request_dequeued": false,
	"build_pull_request_forks": false, "build_pull_request_labels_changed": false,
	"build_pull_request_merge_commits": false, "build_pull_request_ready_for_review": false,
	"build_pull_request_reopened": false, "build_pull_request_review_comment_created": false,
	"build_pull_request_review_dismissed": false, "build_pull_request_review_requested": false,
	"build_pull_request_review_submitted": false, "build_pull_requests": false, "build_release_created": false,
	"build_release_published": false, "build_release_released": false, "build_tags": false,
	"cancel_deleted_branch_builds": false, "cancel_when_merge_group_destroyed": false, "filter_condition": true,
	"filter_enabled": false, "ignore_default_branch_pull_requests": false, "issue_comment_command_word": true,
	"issue_comment_match_mode": true, "prefix_pull_request_fork_branch_names": false,
	"publish_blocked_as_pending": false, "publish_commit_status": false, "publish_commit_status_per_step": false,
	"pull_request_branch_filter_configuration": true, "pull_request_branch_filter_enabled": false,
	"review_comment_command_word": true, "review_comment_match_mode": true, "separate_pull_request_statuses": false,
	"skip_builds_for_existing_commits": false, "skip_pull_request_builds_for_existing_commits": false,
	"trigger_mode": true, "use_merge_group_base_commit_for_git_diff_base": false,
	"use_step_key_as_commit_status": false,
}

func settingsOf(p map[string]any) map[string]any {
	return p["provider"].(map[string]any)["settings"].(map[string]any)
}

func TestPipelineProviderSettingsAllKeys(t *testing.T) {
	if len(officialSettingKeys) != 44 {
		t.Fatalf("%d keys listed", len(officialSettingKeys))
	}
	e := newEnv(t, Options{})
	// A new GitHub pipeline holds every key, booleans false unless the service sets them otherwise.
	p := e.createPipeline(map[string]any{"name": "gh", "repository": "https://github.com/acme/app.git", "configuration": "steps: []\n"})
	defaults := settingsOf(p)
	for k := range officialSettingKeys {
		if _, ok := defaults[k]; !ok {
			t.Errorf("new GitHub pipeline lacks %s", k)
		}
	}
	if defaults["issue_comment_match_mode"] != "exact" || defaults["build_release_created"] != false {
		t.Fatalf("defaults %v", defaults)
	}

	// Every key set on create, flipped on update, and read back.
	set := func(flip bool) map[string]any {
		out := map[string]any{}
		for k, isString := range officialSettingKeys {
			switch {
			case k == "trigger_mode":
				out[k] = map[bool]string{false: "fork", true: "deployment"}[flip]
			case k == "issue_comment_match_mode" || k == "review_comment_match_mode":
				out[k] = map[bool]string{false: "contains", true: "exact"}[flip]
			case isString:
				out[k] = map[bool]string{false: "!build", true: "!ship"}[flip]
			default:
				out[k] = !flip
			}
		}
		return out
	}
	check := func(what string, got, want map[string]any) {
		t.Helper()
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v", what, k, got[k], v)
			}
		}
	}
	p = e.createPipeline(map[string]any{"name": "all", "repository": "https://github.com/acme/all.git",
		"configuration": "steps: []\n", "provider_settings": set(false)})
	check("create", settingsOf(p), set(false))
	check("update", settingsOf(e.api("PATCH", "/pipelines/all", map[string]any{"provider_settings": set(true)}).object(t)), set(true))
	check("read", settingsOf(e.api("GET", "/pipelines/all", nil).object(t)), set(true))

	for body, want := range map[string][]string{
		`{"provider_settings":{"issue_comment_match_mode":"fuzzy"}}`: {"provider_settings", "issue_comment_match_mode must be one of exact, contains"},
		`{"provider_settings":{"issue_comment_command_word":true}}`:  {"provider_settings", "issue_comment_command_word must be a string"},
		`{"provider_settings":{"build_release_created":"yes"}}`:      {"provider_settings", "build_release_created must be a boolean"},
	} {
		expectFieldErrors(t, e.api("PATCH", "/pipelines/all", body), want...)
	}
	// A blank enum setting is kept blank: the official provider sends "" for a setting it has no value for
	// yet (an unknown computed attribute), and its tests read "" back from the service.
	got := settingsOf(e.api("PATCH", "/pipelines/all", map[string]any{"provider_settings": map[string]any{
		"review_comment_match_mode": "", "trigger_mode": ""}}).object(t))
	if got["review_comment_match_mode"] != "" || got["trigger_mode"] != "" {
		t.Fatalf("blank enum settings: %v", got)
	}

	// Another provider holds only the settings every provider has.
	p = e.createPipeline(map[string]any{"name": "gl", "repository": "git@gitlab.com:acme/app.git", "configuration": "steps: []\n",
		"provider_settings": map[string]any{"build_release_created": true, "filter_enabled": true}})
	if s := settingsOf(p); len(s) != 3 || s["filter_enabled"] != true || s["repository"] != "acme/app" {
		t.Fatalf("GitLab settings %v", s)
	}
}

func TestQueueRetryAgentAffinity(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.createCluster("c")
	q := e.api("POST", "/clusters/"+c+"/queues", map[string]any{"key": "default"}).object(t)
	if q["retry_agent_affinity"] != "prefer-warmest" {
		t.Fatalf("default %v", q["retry_agent_affinity"])
	}
	r := e.api("POST", "/clusters/"+c+"/queues", map[string]any{"key": "other", "retry_agent_affinity": "prefer-different"})
	expect(t, r, http.StatusCreated)
	id := r.object(t)["id"].(string)
	if got := e.api("GET", "/clusters/"+c+"/queues/"+id, nil).object(t)["retry_agent_affinity"]; got != "prefer-different" {
		t.Fatalf("read %v", got)
	}
	expect(t, e.api("PATCH", "/clusters/"+c+"/queues/"+id, map[string]any{"retry_agent_affinity": "prefer-warmest"}), http.StatusOK)
	if l := e.api("GET", "/clusters/"+c+"/queues", nil).list(t); l[1]["retry_agent_affinity"] != "prefer-warmest" {
		t.Fatalf("listed %v", l[1])
	}

	const bad = "Validation failed: Retry agent affinity must be prefer-warmest or prefer-different"
	expectError(t, e.api("POST", "/clusters/"+c+"/queues", map[string]any{"key": "third", "retry_agent_affinity": "nearest"}), 422, bad)
	expectError(t, e.api("PATCH", "/clusters/"+c+"/queues/"+id, map[string]any{"retry_agent_affinity": ""}), 422, bad)
	expectError(t, e.api("PATCH", "/clusters/"+c+"/queues/"+id, map[string]any{"retry_agent_affinity": 5}), 422,
		"Validation failed: Retry agent affinity must be a string")
}

func TestTeamPermissionsBeyondSpec(t *testing.T) {
	e := newEnv(t, Options{})
	perms := []string{"members_can_create_suites", "members_can_create_registries", "members_can_destroy_registries",
		"members_can_destroy_packages"}
	plain := e.api("POST", "/teams", map[string]any{"name": "Plain"}).object(t)
	body := map[string]any{"name": "Perms"}
	for _, p := range perms {
		if plain[p] != false {
			t.Errorf("default %s = %v", p, plain[p])
		}
		body[p] = true
	}
	r := e.api("POST", "/teams", body)
	expect(t, r, http.StatusCreated)
	id := r.object(t)["id"].(string)
	expect(t, e.api("PATCH", "/teams/"+id, map[string]any{"members_can_destroy_packages": false}), http.StatusOK)
	got := e.api("GET", "/teams/"+id, nil).object(t)
	for _, p := range perms {
		if want := p != "members_can_destroy_packages"; got[p] != want {
			t.Errorf("read %s = %v, want %v", p, got[p], want)
		}
	}
	expectError(t, e.api("PATCH", "/teams/"+id, map[string]any{"members_can_create_suites": "yes"}), 422,
		"Validation failed: Members can create suites must be a boolean")
}

func TestRegistryFieldsBeyondSpec(t *testing.T) {
	e := newEnv(t, Options{})
	const policy = `[{"iss":"https://agent.buildkite.com","claims":{"pipeline_slug":{"equals":"app"}}}]`
	r := e.regAPI("POST", "", map[string]any{"name": "gems", "ecosystem": "ruby", "emoji": ":gem:", "color": "#FF0000",
		"oidc_policy": policy, "public": true})
	expect(t, r, http.StatusOK)
	reg := r.object(t)
	if reg["emoji"] != ":gem:" || reg["color"] != "#FF0000" || reg["oidc_policy"] != policy || reg["public"] != true {
		t.Fatalf("created %v", reg)
	}
	expect(t, e.regAPI("PATCH", "/gems", map[string]any{"emoji": ":ruby:", "color": "#00FF00",
		"oidc_policy": "- iss: https://agent.buildkite.com\n", "public": false}), http.StatusOK)
	reg = e.regAPI("GET", "/gems", nil).object(t)
	if reg["emoji"] != ":ruby:" || reg["color"] != "#00FF00" || reg["oidc_policy"] != "- iss: https://agent.buildkite.com\n" ||
		reg["public"] != false {
		t.Fatalf("read %v", reg)
	}
	// An update without public leaves it.
	expect(t, e.regAPI("PATCH", "/gems", map[string]any{"public": true}), http.StatusOK)
	if reg = e.regAPI("PATCH", "/gems", map[string]any{"emoji": ":x:"}).object(t); reg["public"] != true {
		t.Fatalf("public dropped: %v", reg)
	}

	expectError(t, e.regAPI("PATCH", "/gems", map[string]any{"public": "yes"}), 422, "Validation failed: Public must be a boolean")
	r = e.regAPI("PATCH", "/gems", map[string]any{"oidc_policy": "- iss: [unclosed\n"})
	expect(t, r, 422)
	if msg := r.message(t); !strings.HasPrefix(msg, "Validation failed: Oidc policy is not valid YAML or JSON: yaml: ") {
		t.Fatalf("message %q", msg)
	}
	expectError(t, e.regAPI("PATCH", "/gems", map[string]any{"emoji": 7}), 422, "Validation failed: Emoji must be a string")
}

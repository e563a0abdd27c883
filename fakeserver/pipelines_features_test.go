package fakeserver

import (
	"testing"
)

func TestPipelineEmojiColorStoredNotShown(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "looks", "repository": "https://github.com/acme/app.git",
		"emoji": ":rocket:", "color": "#FF5733"})
	for _, k := range []string{"emoji", "color"} {
		if _, ok := p[k]; ok {
			t.Fatalf("the create answer shows %s: %v", k, p)
		}
	}
	emoji, color, ok := e.srv.Store().PipelineLooks("acme", "looks")
	if !ok || deref(emoji) != ":rocket:" || deref(color) != "#FF5733" {
		t.Fatalf("stored %v %v %v", emoji, color, ok)
	}
	// An update changes one and leaves the other; null clears.
	expect(t, e.api("PATCH", "/pipelines/looks", map[string]any{"color": "#000000"}), 200)
	if emoji, color, _ = e.srv.Store().PipelineLooks("acme", "looks"); deref(emoji) != ":rocket:" || deref(color) != "#000000" {
		t.Fatalf("after update %v %v", emoji, color)
	}
	expect(t, e.api("PATCH", "/pipelines/looks", map[string]any{"emoji": nil, "color": ""}), 200)
	if emoji, color, _ = e.srv.Store().PipelineLooks("acme", "looks"); emoji != nil || color != nil {
		t.Fatalf("after clearing %v %v", emoji, color)
	}
	g := e.api("GET", "/pipelines/looks", nil).object(t)
	if _, ok := g["emoji"]; ok {
		t.Fatalf("GET shows emoji: %v", g)
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/looks", map[string]any{"emoji": 1}), "emoji", "must be a string")
}

func TestPipelineCloneMirrorURL(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "plain", "repository": "https://github.com/acme/app.git"})
	if v, ok := p["clone_mirror_url"]; !ok || v != nil {
		t.Fatalf("unset clone_mirror_url with the feature on: %v %v", v, ok)
	}
	p = e.createPipeline(map[string]any{"name": "mirrored", "repository": "https://github.com/acme/app.git",
		"clone_mirror_url": "https://mirror.example/acme/app.git"})
	if p["clone_mirror_url"] != "https://mirror.example/acme/app.git" {
		t.Fatalf("created %v", p["clone_mirror_url"])
	}
	r := e.api("PATCH", "/pipelines/mirrored", map[string]any{"clone_mirror_url": "git@mirror.example:acme/app.git"})
	expect(t, r, 200)
	if got := e.api("GET", "/pipelines/mirrored", nil).object(t)["clone_mirror_url"]; got != "git@mirror.example:acme/app.git" {
		t.Fatalf("updated %v", got)
	}
	expect(t, e.api("PATCH", "/pipelines/mirrored", map[string]any{"clone_mirror_url": nil}), 200)
	if got, ok := e.api("GET", "/pipelines/mirrored", nil).object(t)["clone_mirror_url"]; !ok || got != nil {
		t.Fatalf("after null %v %v", got, ok)
	}

	refused := map[string]string{
		"https://user:secret@mirror.example/app.git": "must not contain credentials",
		"https://token@mirror.example/app.git":       "must not contain credentials",
		"ssh://git:pw@mirror.example/app.git":        "must not contain credentials",
		"https://mirror.example/app.git?ref=main":    "must not contain a query",
		"https://mirror.example/app.git#main":        "must not contain a fragment",
		"https://mirror.example/%zz":                 "is not a valid URL",
	}
	for value, code := range refused {
		expectFieldErrors(t, e.api("PATCH", "/pipelines/mirrored", map[string]any{"clone_mirror_url": value}), "clone_mirror_url", code)
		expectFieldErrors(t, e.api("POST", "/pipelines", map[string]any{"name": "refused", "repository": "https://github.com/acme/app.git",
			"configuration": uploadYAML, "clone_mirror_url": value}), "clone_mirror_url", code)
	}
	expect(t, e.api("PATCH", "/pipelines/mirrored", map[string]any{"clone_mirror_url": "ssh://git@mirror.example/app.git"}), 200)
	expectFieldErrors(t, e.api("PATCH", "/pipelines/mirrored", map[string]any{"clone_mirror_url": 7}), "clone_mirror_url", "must be a string")
}

func TestPipelineCloneMirrorFeatureOff(t *testing.T) {
	e := newEnv(t, Options{NoCloneMirror: true})
	p := e.createPipeline(map[string]any{"name": "plain", "repository": "https://github.com/acme/app.git"})
	if _, ok := p["clone_mirror_url"]; ok {
		t.Fatalf("unset clone_mirror_url shown with the feature off: %v", p)
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/plain", map[string]any{"clone_mirror_url": "https://mirror.example/app.git"}),
		"clone_mirror_url", "can't be set: the organization does not have the clone mirror feature")
	// null and "" still remove one (set before the feature went off).
	e.srv.Store().SetPipelineCloneMirrorURL("acme", "plain", stringPtr("https://old.example/app.git"))
	if got := e.api("GET", "/pipelines/plain", nil).object(t)["clone_mirror_url"]; got != "https://old.example/app.git" {
		t.Fatalf("set one shown as %v", got)
	}
	expect(t, e.api("PATCH", "/pipelines/plain", map[string]any{"clone_mirror_url": ""}), 200)
	if _, ok := e.api("GET", "/pipelines/plain", nil).object(t)["clone_mirror_url"]; ok {
		t.Fatal("a removed clone_mirror_url is still shown")
	}
	expect(t, e.api("PATCH", "/pipelines/plain", map[string]any{"clone_mirror_url": nil}), 200)
}

func TestPipelineProviderSettingsAddedKeys(t *testing.T) {
	e := newEnv(t, Options{})
	added := []string{"build_pull_request_edited", "build_issues", "build_pull_request_stacks",
		"github_workflow_access_tokens_enabled", "skip_builds_for_closed_pull_requests",
		"prevent_custom_statuses_from_using_buildkite_prefix"}
	p := e.createPipeline(map[string]any{"name": "gh", "repository": "https://github.com/acme/app.git"})
	for _, k := range added {
		if v, ok := settingsOf(p)[k]; !ok || v != false {
			t.Fatalf("%s starts as %v %v", k, v, ok)
		}
	}
	on := map[string]any{}
	for _, k := range added {
		on[k] = true
	}
	r := e.api("PATCH", "/pipelines/gh", map[string]any{"provider_settings": on})
	expect(t, r, 200)
	got := settingsOf(e.api("GET", "/pipelines/gh", nil).object(t))
	for _, k := range added {
		if got[k] != true {
			t.Errorf("%s = %v after update", k, got[k])
		}
	}
	expectFieldErrors(t, e.api("PATCH", "/pipelines/gh", map[string]any{"provider_settings": map[string]any{"build_issues": "yes"}}),
		"provider_settings", "build_issues must be a boolean")
	// A GitLab pipeline does not hold them: they are ignored there, as other unknown keys are.
	gl := e.createPipeline(map[string]any{"name": "gl", "repository": "https://gitlab.com/acme/app.git",
		"provider_settings": map[string]any{"build_issues": true}})
	if _, ok := settingsOf(gl)["build_issues"]; ok {
		t.Fatalf("gitlab settings %v", settingsOf(gl))
	}
}

func TestPipelineGitHubWebhooks(t *testing.T) {
	e := newEnv(t, Options{})
	e.createPipeline(map[string]any{"name": "gh", "repository": "https://github.com/acme/app.git"})
	path := "/pipelines/gh/github-webhooks"
	s := e.api("GET", path, nil).object(t)
	if s["enabled"] != true || s["disabled_at"] != nil || s["disabled_by"] != nil || s["url"] != e.ts.URL+"/v2/organizations/acme"+path {
		t.Fatalf("new pipeline %v", s)
	}
	for range 2 { // idempotent, 200 with a body
		r := e.api("DELETE", path, nil)
		expect(t, r, 200)
		if s = r.object(t); s["enabled"] != false || s["disabled_at"] == nil || s["disabled_by"] != "Test User" {
			t.Fatalf("disabled %v", s)
		}
	}
	if enabled, ok := e.srv.Store().PipelineGitHubWebhooksEnabled("acme", "gh"); !ok || enabled {
		t.Fatal("store still enabled")
	}
	for range 2 {
		r := e.api("PUT", path, nil)
		expect(t, r, 200)
		if s = r.object(t); s["enabled"] != true || s["disabled_at"] != nil {
			t.Fatalf("enabled %v", s)
		}
	}
	expectError(t, e.api("GET", "/pipelines/none/github-webhooks", nil), 404, "No pipeline found")
	e.createPipeline(map[string]any{"name": "gl", "repository": "https://gitlab.com/acme/app.git"})
	expect(t, e.api("GET", "/pipelines/gl/github-webhooks", nil), 404)
	expect(t, e.api("PUT", "/pipelines/gl/github-webhooks", nil), 404)

	e.srv.Store().AddToken("read-only", []string{"acme"}, []string{"read_pipelines"})
	expect(t, e.do("GET", "/v2/organizations/acme"+path, "read-only", nil), 200)
	expect(t, e.do("DELETE", "/v2/organizations/acme"+path, "read-only", nil), 403)
	expect(t, e.do("PUT", "/v2/organizations/acme"+path, "read-only", nil), 403)
}

func TestPipelineGitHubWebhooksNotEnrolled(t *testing.T) {
	e := newEnv(t, Options{NoExpandedWebhookTriggers: true})
	e.createPipeline(map[string]any{"name": "gh", "repository": "https://github.com/acme/app.git"})
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		expect(t, e.api(m, "/pipelines/gh/github-webhooks", nil), 404)
	}
}

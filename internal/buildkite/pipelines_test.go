package buildkite

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// newEmulatorClient is a client of a fresh emulator (organization "acme", token "test-token").
func newEmulatorClient(t *testing.T) *Client {
	t.Helper()
	return newTestClient(t, fakeserver.StartTest(t, fakeserver.Options{}).URL())
}

func TestPipelines_lifecycle(t *testing.T) {
	ctx := context.Background()
	c := newEmulatorClient(t)
	cl, err := c.Clusters.Create(ctx, ClusterCreate{Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Pipelines.Create(ctx, PipelineCreate{
		Name: "My App", Repository: "https://github.com/acme/app.git", ClusterID: &cl.ID,
		Configuration: ptr(DefaultSteps), Tags: []string{"a", "b"}, Description: ptr("d"),
		ProviderSettings: map[string]any{"trigger_mode": "none", "build_tags": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.Slug != "my-app" || p.ClusterID == nil || *p.ClusterID != cl.ID || p.Configuration == nil ||
		*p.Configuration != DefaultSteps || len(p.Tags) != 2 || p.CreatedAt == nil || p.Archived() {
		t.Errorf("created %+v", p)
	}
	if p.Provider.Settings["trigger_mode"] != "none" || p.Provider.Settings["build_tags"] != true {
		t.Errorf("settings = %v", p.Provider.Settings)
	}

	got, err := c.Pipelines.Get(ctx, "my-app")
	if err != nil || got.ID != p.ID {
		t.Fatalf("Get = %v, %v", got, err)
	}

	// A rename re-derives the slug; Find follows the pipeline by its UUID.
	if _, err := c.Pipelines.Update(ctx, "my-app", PipelineUpdate{Name: ptr("Renamed")}); err != nil {
		t.Fatal(err)
	}
	found, err := c.Pipelines.Find(ctx, p.ID, "my-app")
	if err != nil || found.Slug != "renamed" {
		t.Fatalf("Find after rename = %v, %v", found, err)
	}

	// Clearing the cluster sends an explicit null.
	upd, err := c.Pipelines.Update(ctx, "renamed", PipelineUpdate{ClusterID: Cleared[string]()})
	if err != nil || upd.ClusterID != nil {
		t.Fatalf("clear cluster = %+v, %v", upd, err)
	}

	arch, err := c.Pipelines.Archive(ctx, "renamed")
	if err != nil || !arch.Archived() {
		t.Fatalf("Archive = %+v, %v", arch, err)
	}
	if _, err := c.Pipelines.Update(ctx, "renamed", PipelineUpdate{Description: ptr("x")}); !IsValidation(err) {
		t.Errorf("update of an archived pipeline = %v, want 422", err)
	}
	un, err := c.Pipelines.Unarchive(ctx, "renamed")
	if err != nil || un.Archived() {
		t.Fatalf("Unarchive = %+v, %v", un, err)
	}

	list, err := c.Pipelines.List(ctx, &PipelineListOptions{Name: "renam"})
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}

	if err := c.Pipelines.Delete(ctx, "renamed"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pipelines.Find(ctx, p.ID, "renamed"); !IsNotFound(err) {
		t.Errorf("Find after delete = %v, want not found", err)
	}
}

// TestPipelines_FindSlugTaken: when another pipeline took the old slug, Find still returns the pipeline
// asked for by UUID.
func TestPipelines_FindSlugTaken(t *testing.T) {
	ctx := context.Background()
	c := newEmulatorClient(t)
	a, err := c.Pipelines.Create(ctx, PipelineCreate{Name: "one", Repository: "git@github.com:a/b.git", Configuration: ptr(DefaultSteps)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pipelines.Update(ctx, "one", PipelineUpdate{Name: ptr("two")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pipelines.Create(ctx, PipelineCreate{Name: "one", Repository: "git@github.com:a/b.git", Configuration: ptr(DefaultSteps)}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Pipelines.Find(ctx, a.ID, "one")
	if err != nil || got.ID != a.ID || got.Slug != "two" {
		t.Fatalf("Find = %+v, %v", got, err)
	}
}

func TestPipelines_teams(t *testing.T) {
	ctx := context.Background()
	c := newEmulatorClient(t)
	p, err := c.Pipelines.Create(ctx, PipelineCreate{Name: "p", Repository: "git@github.com:a/b.git", Configuration: ptr(DefaultSteps)})
	if err != nil {
		t.Fatal(err)
	}
	teamPath, _ := c.orgPath("teams")
	team, err := create[struct {
		ID string `json:"id"`
	}](ctx, c, teamPath, map[string]any{"name": "Team A"})
	if err != nil {
		t.Fatal(err)
	}
	level := func() string {
		item, _ := c.orgPath("teams", team.ID, "pipelines", p.ID)
		got, err := get[struct {
			AccessLevel string `json:"access_level"`
		}](ctx, c, item, nil)
		if IsNotFound(err) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return got.AccessLevel
	}
	if err := c.Pipelines.GrantTeam(ctx, team.ID, p.ID, "read_only"); err != nil {
		t.Fatal(err)
	}
	// Granting again changes the level instead of failing on the existing access.
	if err := c.Pipelines.GrantTeam(ctx, team.ID, p.ID, "manage_build_and_read"); err != nil {
		t.Fatal(err)
	}
	if l := level(); l != "manage_build_and_read" {
		t.Errorf("level = %q", l)
	}
	if err := c.Pipelines.RevokeTeam(ctx, team.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.Pipelines.RevokeTeam(ctx, team.ID, p.ID); err != nil {
		t.Errorf("revoking twice = %v", err)
	}
	if l := level(); l != "" {
		t.Errorf("level after revoke = %q", l)
	}
}

// TestPipelines_UpdateSendsOnlyWhatIsSet: visibility needs more rights than other fields, so an update
// carries only the fields given, plus explicit nulls to leave a cluster or template.
func TestPipelines_UpdateSendsOnlyWhatIsSet(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"id":"x","slug":"s","created_at":"2024-01-02 03:04:05 UTC"}`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Pipelines.Update(context.Background(), "s", PipelineUpdate{Description: ptr(""), PipelineTemplateUUID: Cleared[string]()})
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "PATCH", "/v2/organizations/acme/pipelines/s", `{"description":"","pipeline_template_uuid":null}`)
	if got.CreatedAt == nil || got.CreatedAt.Year() != 2024 || got.CreatedAt.Hour() != 3 {
		t.Errorf("created_at in the service's other form = %v", got.CreatedAt)
	}
	if !(PipelineUpdate{}).IsZero() || (PipelineUpdate{ClusterID: Cleared[string]()}).IsZero() {
		t.Error("IsEmpty")
	}
}

func TestPipelineTemplates_lifecycle(t *testing.T) {
	ctx := context.Background()
	c := newEmulatorClient(t)
	tpl, err := c.PipelineTemplates.Create(ctx, PipelineTemplateCreate{Name: "T", Configuration: "steps:\n- command: x\n", Available: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if tpl.UUID == "" || !tpl.Available || tpl.CreatedAt == nil {
		t.Errorf("created %+v", tpl)
	}
	p, err := c.Pipelines.Create(ctx, PipelineCreate{Name: "p", Repository: "git@github.com:a/b.git", PipelineTemplateUUID: &tpl.UUID})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.PipelineTemplates.Delete(ctx, tpl.UUID); !IsValidation(err) {
		t.Errorf("deleting a template in use = %v, want 422", err)
	}
	upd, err := c.PipelineTemplates.Update(ctx, tpl.UUID, PipelineTemplateUpdate{Description: ptr("d")})
	if err != nil || upd.Description != "d" {
		t.Fatalf("Update = %+v, %v", upd, err)
	}
	if _, err := c.Pipelines.Update(ctx, p.Slug, PipelineUpdate{PipelineTemplateUUID: Cleared[string](), Configuration: ptr(DefaultSteps)}); err != nil {
		t.Fatal(err)
	}
	list, err := c.PipelineTemplates.List(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	if err := c.PipelineTemplates.Delete(ctx, tpl.UUID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PipelineTemplates.Get(ctx, tpl.UUID); !IsNotFound(err) {
		t.Errorf("Get after delete = %v", err)
	}
}

func TestRules_lifecycle(t *testing.T) {
	ctx := context.Background()
	c := newEmulatorClient(t)
	var ids []string
	for _, n := range []string{"src", "dst"} {
		p, err := c.Pipelines.Create(ctx, PipelineCreate{Name: n, Repository: "git@github.com:a/b.git", Configuration: ptr(DefaultSteps)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	r, err := c.Rules.Create(ctx, RuleCreate{
		Type: "pipeline.trigger_build.pipeline", Value: json.RawMessage(`{"source_pipeline":"src","target_pipeline":"` + ids[1] + `"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.SourceUUID != ids[0] || r.TargetUUID != ids[1] || r.Action != "trigger_build" || r.Effect != "allow" {
		t.Errorf("created %+v", r)
	}
	for ref, want := range map[string]bool{"src": true, ids[0]: true, "dst": false, "nope": false} {
		if got, err := c.Pipelines.RefersTo(ctx, ref, ids[0]); err != nil || got != want {
			t.Errorf("RefersTo(%q) = %v, %v", ref, got, err)
		}
	}
	got, err := c.Rules.Get(ctx, r.UUID)
	if err != nil || got.UUID != r.UUID {
		t.Fatalf("Get = %v, %v", got, err)
	}
	_, err = c.Rules.Create(ctx, RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: json.RawMessage(`{"source_pipeline":"src","target_pipeline":"dst"}`)})
	if !IsValidation(err) || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("duplicate rule = %v", err)
	}
	list, err := c.Rules.List(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	if err := c.Rules.Delete(ctx, r.UUID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Rules.Get(ctx, r.UUID); !IsNotFound(err) {
		t.Errorf("Get after delete = %v", err)
	}
}

// TestPipelineUpdate_bodies pins the bytes an update sends: only the fields set, in the struct's order,
// and a field cleared as null. Where a null goes with another field, only the meaning is pinned (anyOrder):
// before the Optional fields the nulls were added through a map, which sorted the keys.
func TestPipelineUpdate_bodies(t *testing.T) {
	for _, tc := range []struct {
		in       PipelineUpdate
		want     string
		anyOrder bool
	}{
		{PipelineUpdate{}, `{}`, false},
		{PipelineUpdate{Name: ptr("n"), Tags: &[]string{}}, `{"name":"n","tags":[]}`, false},
		{PipelineUpdate{
			Name: ptr("n"), Slug: ptr("s"), Repository: ptr("r"), ClusterID: Value("c"), Configuration: ptr("steps: []"),
			PipelineTemplateUUID: Value("t"), Description: ptr("<d&>"), DefaultBranch: ptr("main"),
			BranchConfiguration: ptr("main"), SkipQueuedBranchBuilds: ptr(true), SkipQueuedBranchBuildsFilter: ptr("!main"),
			CancelRunningBranchBuilds: ptr(false), CancelRunningBranchBuildsFilter: ptr(""), AllowRebuilds: ptr(true),
			Visibility: ptr("private"), Tags: &[]string{"a"}, ProviderSettings: map[string]any{"z": 1, "a": "x"},
			DefaultCommandStepTimeout: Value(int64(10)), MaximumCommandStepTimeout: Value(int64(20)),
			Emoji: Value(":rocket:"), Color: Value("#FF5733"), CloneMirrorURL: Value("https://mirror"),
		}, `{"name":"n","slug":"s","repository":"r","cluster_id":"c","configuration":"steps: []",` +
			`"pipeline_template_uuid":"t","description":"\u003cd\u0026\u003e","default_branch":"main",` +
			`"branch_configuration":"main","skip_queued_branch_builds":true,"skip_queued_branch_builds_filter":"!main",` +
			`"cancel_running_branch_builds":false,"cancel_running_branch_builds_filter":"","allow_rebuilds":true,` +
			`"visibility":"private","tags":["a"],"provider_settings":{"a":"x","z":1},` +
			`"default_command_step_timeout":10,"maximum_command_step_timeout":20,` +
			`"emoji":":rocket:","color":"#FF5733","clone_mirror_url":"https://mirror"}`, false},
		{PipelineUpdate{ClusterID: Cleared[string]()}, `{"cluster_id":null}`, false},
		{PipelineUpdate{PipelineTemplateUUID: Cleared[string]()}, `{"pipeline_template_uuid":null}`, false},
		{PipelineUpdate{DefaultCommandStepTimeout: Cleared[int64]()}, `{"default_command_step_timeout":null}`, false},
		{PipelineUpdate{MaximumCommandStepTimeout: Cleared[int64]()}, `{"maximum_command_step_timeout":null}`, false},
		{PipelineUpdate{Emoji: Cleared[string]()}, `{"emoji":null}`, false},
		{PipelineUpdate{Color: Cleared[string]()}, `{"color":null}`, false},
		{PipelineUpdate{CloneMirrorURL: Cleared[string]()}, `{"clone_mirror_url":null}`, false},
		{PipelineUpdate{ClusterID: Cleared[string](), PipelineTemplateUUID: Cleared[string](), DefaultCommandStepTimeout: Cleared[int64](),
			MaximumCommandStepTimeout: Cleared[int64](), Emoji: Cleared[string](), Color: Cleared[string](), CloneMirrorURL: Cleared[string]()},
			`{"cluster_id":null,"pipeline_template_uuid":null,"default_command_step_timeout":null,` +
				`"maximum_command_step_timeout":null,"emoji":null,"color":null,"clone_mirror_url":null}`, true},
		{PipelineUpdate{Description: ptr(""), PipelineTemplateUUID: Cleared[string]()}, `{"pipeline_template_uuid":null,"description":""}`, true},
		{PipelineUpdate{Name: ptr("n"), ClusterID: Cleared[string](), DefaultCommandStepTimeout: Value(int64(5)), Color: Cleared[string]()},
			`{"name":"n","cluster_id":null,"default_command_step_timeout":5,"color":null}`, true},
	} {
		if tc.in.IsZero() != (tc.want == `{}`) {
			t.Errorf("%+v: IsZero = %t, but it sends %s", tc.in, tc.in.IsZero(), tc.want)
		}
		s := newStub(t, respond(http.StatusOK, `{"id":"x","slug":"s"}`))
		c := newTestClient(t, s.srv.URL)
		if _, err := c.Pipelines.Update(context.Background(), "s", tc.in); err != nil {
			t.Fatal(err)
		}
		switch got := s.only(t).Body; {
		case tc.anyOrder:
			assertJSONEqual(t, got, tc.want)
		case got != tc.want:
			t.Errorf("body = %s\nwant   %s", got, tc.want)
		}
	}
}

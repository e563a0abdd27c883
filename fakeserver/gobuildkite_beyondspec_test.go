package fakeserver

import (
	"context"
	"testing"

	gbk "github.com/buildkite/go-buildkite/v4"
)

// TestGoBuildkiteBeyondSpecAreas drives the official Go client, unchanged, through every method of the
// areas beyond the first REST reference: pipeline schedules, cluster secrets, cluster maintainers and meta.
func TestGoBuildkiteBeyondSpecAreas(t *testing.T) {
	e := newEnv(t, Options{})
	c := e.goBuildkite()
	ctx := context.Background()
	const org = "acme"
	must := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	want := func(name string, ok bool, got any) {
		t.Helper()
		if !ok {
			t.Errorf("%s: got %+v", name, got)
		}
	}
	e.createPipeline(map[string]any{"name": "App", "repository": githubRepo})
	cl, _, err := c.Clusters.Create(ctx, org, gbk.ClusterCreate{Name: "Platform"})
	must("Clusters.Create", err)

	enabled := false
	s, _, err := c.PipelineSchedules.Create(ctx, org, "app", gbk.CreatePipelineSchedule{
		Cronline: "0 3 * * *", Label: "Nightly", Branch: "main", Env: map[string]string{"A": "b"}, Enabled: &enabled,
	})
	must("PipelineSchedules.Create", err)
	want("PipelineSchedules.Create", s.ID != "" && s.Label == "Nightly" && !s.Enabled && s.Env["A"] == "b" &&
		s.Commit == "HEAD" && s.NextBuildAt == nil && s.Pipeline != nil && s.Pipeline.Slug == "app", s)
	list, _, err := c.PipelineSchedules.List(ctx, org, "app", nil)
	must("PipelineSchedules.List", err)
	want("PipelineSchedules.List", len(list) == 1 && list[0].ID == s.ID, list)
	enabled = true
	s, _, err = c.PipelineSchedules.Update(ctx, org, "app", s.ID, gbk.UpdatePipelineSchedule{Cronline: "@hourly", Enabled: &enabled})
	must("PipelineSchedules.Update", err)
	want("PipelineSchedules.Update", s.Cronline == "@hourly" && s.Enabled && s.NextBuildAt != nil, s)
	s, _, err = c.PipelineSchedules.Get(ctx, org, "app", s.ID)
	must("PipelineSchedules.Get", err)
	want("PipelineSchedules.Get", s.Label == "Nightly" && s.CreatedBy != nil, s)
	_, err = c.PipelineSchedules.Delete(ctx, org, "app", s.ID)
	must("PipelineSchedules.Delete", err)

	sec, _, err := c.ClusterSecrets.Create(ctx, org, cl.ID, gbk.ClusterSecretCreate{Key: "DEPLOY_KEY", Value: secretValue,
		Description: "Deploys", Policy: "- pipeline_slug: app\n"})
	must("ClusterSecrets.Create", err)
	want("ClusterSecrets.Create", sec.ID != "" && sec.Key == "DEPLOY_KEY" && sec.CreatedBy.Email != "" &&
		sec.Organization.Slug == org, sec)
	secrets, _, err := c.ClusterSecrets.List(ctx, org, cl.ID, nil)
	must("ClusterSecrets.List", err)
	want("ClusterSecrets.List", len(secrets) == 1, secrets)
	sec, _, err = c.ClusterSecrets.Update(ctx, org, cl.ID, sec.ID, gbk.ClusterSecretUpdate{Description: "Rotated monthly"})
	must("ClusterSecrets.Update", err)
	want("ClusterSecrets.Update", sec.Description == "Rotated monthly" && sec.UpdatedBy != nil, sec)
	_, err = c.ClusterSecrets.UpdateValue(ctx, org, cl.ID, sec.ID, gbk.ClusterSecretValueUpdate{Value: "new-" + secretValue})
	must("ClusterSecrets.UpdateValue", err)
	sec, _, err = c.ClusterSecrets.Get(ctx, org, cl.ID, sec.ID)
	must("ClusterSecrets.Get", err)
	if v, _ := e.srv.Store().ClusterSecretValue(org, cl.ID, sec.ID); v != "new-"+secretValue {
		t.Errorf("ClusterSecrets.UpdateValue stored %q", v)
	}
	_, err = c.ClusterSecrets.Delete(ctx, org, cl.ID, sec.ID)
	must("ClusterSecrets.Delete", err)

	_, second := teamsKit{e}.memberIDs()
	m, _, err := c.ClusterMaintainers.Create(ctx, org, cl.ID, gbk.ClusterMaintainer{UserID: second})
	must("ClusterMaintainers.Create", err)
	want("ClusterMaintainers.Create", m.ID != "" && m.Actor.ID == second && m.Actor.Type == "user" && m.Actor.Email != "", m)
	maintainers, _, err := c.ClusterMaintainers.List(ctx, org, cl.ID, nil)
	must("ClusterMaintainers.List", err)
	want("ClusterMaintainers.List", len(maintainers) == 1 && maintainers[0].ID == m.ID, maintainers)
	m, _, err = c.ClusterMaintainers.Get(ctx, org, cl.ID, m.ID)
	must("ClusterMaintainers.Get", err)
	want("ClusterMaintainers.Get", m.Actor.Name == "Second Member", m)
	_, err = c.ClusterMaintainers.Delete(ctx, org, cl.ID, m.ID)
	must("ClusterMaintainers.Delete", err)

	meta, _, err := c.Meta.Get(ctx)
	must("Meta.Get", err)
	want("Meta.Get", len(meta.WebhookIPs) == len(DefaultWebhookIPs), meta)
}

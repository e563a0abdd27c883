package provider

import (
	"context"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// seededBeyondSpec is what seedBeyondSpec made outside Terraform.
type seededBeyondSpec struct {
	p1, p2                 *buildkite.Pipeline
	nightly, hourly, other *buildkite.PipelineSchedule // nightly and hourly of p1
	a, b                   *buildkite.Cluster
	deployKey, token       *buildkite.ClusterSecret // of a
	otherSecret            *buildkite.ClusterSecret // of b
	userOfA, teamOfA       *buildkite.ClusterMaintainer
	teamOfB                *buildkite.ClusterMaintainer
	member                 buildkite.Member
	team                   *buildkite.Team
}

// seedBeyondSpec makes, through the API as someone outside Terraform would: pipeline "<base>-p1" with a
// disabled nightly schedule (message, env) and an hourly one, and "<base>-p2" with one schedule; cluster
// "<base>-a" with two secrets (one with a description and policy) and the organization's second member and
// a team as maintainers, and cluster "<base>-b" with one secret and the team as maintainer.
func (e *testEnv) seedBeyondSpec(t *testing.T, base string) seededBeyondSpec {
	t.Helper()
	ctx := context.Background()
	must := seeding(t)
	var s seededBeyondSpec
	var err error
	s.p1, s.p2 = e.pipelineNamed(base+"-p1"), e.pipelineNamed(base+"-p2")
	s.nightly, err = e.client.PipelineSchedules.Create(ctx, s.p1.Slug, buildkite.PipelineScheduleWrite{
		Cronline: "0 3 * * 1-5 Europe/Berlin", Label: ptrTo("Nightly"), Branch: ptrTo("main"), Message: ptrTo("Nightly build"),
		Env: map[string]string{"DEPLOY": "false"}, Enabled: ptrTo(false),
	})
	must(err)
	s.hourly, err = e.client.PipelineSchedules.Create(ctx, s.p1.Slug, buildkite.PipelineScheduleWrite{Cronline: "@hourly", Label: ptrTo("Hourly"), Branch: ptrTo("main")})
	must(err)
	s.other, err = e.client.PipelineSchedules.Create(ctx, s.p2.Slug, buildkite.PipelineScheduleWrite{Cronline: "@weekly", Label: ptrTo("Weekly"), Branch: ptrTo("main")})
	must(err)

	s.a, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-a"})
	must(err)
	s.b, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"})
	must(err)
	t.Cleanup(func() {
		_ = e.client.Clusters.Delete(context.Background(), s.a.ID)
		_ = e.client.Clusters.Delete(context.Background(), s.b.ID)
	})
	secret := func(cluster *buildkite.Cluster, in buildkite.ClusterSecretCreate) *buildkite.ClusterSecret {
		sec, err := e.client.ClusterSecrets.Create(ctx, cluster.ID, in)
		must(err)
		return sec
	}
	s.deployKey = secret(s.a, buildkite.ClusterSecretCreate{Key: "DEPLOY_KEY", Value: "v1", Description: ptrTo("Deploys"),
		Policy: ptrTo("- pipeline_slug: " + s.p1.Slug + "\n")})
	s.token = secret(s.a, buildkite.ClusterSecretCreate{Key: "TOKEN", Value: "v2"})
	s.otherSecret = secret(s.b, buildkite.ClusterSecretCreate{Key: "OTHER", Value: "v3"})

	members, err := e.client.Organizations.ListMembers(ctx)
	must(err)
	for _, m := range members {
		if m.Email == e.secondMemberEmail() {
			s.member = m
		}
	}
	s.team = e.seedTeam(base + "-team")
	maintainer := func(cluster *buildkite.Cluster, in buildkite.ClusterMaintainerCreate) *buildkite.ClusterMaintainer {
		m, err := e.client.ClusterMaintainers.Create(ctx, cluster.ID, in)
		must(err)
		return m
	}
	s.userOfA = maintainer(s.a, buildkite.ClusterMaintainerCreate{UserID: s.member.ID})
	s.teamOfA = maintainer(s.a, buildkite.ClusterMaintainerCreate{TeamID: s.team.ID})
	s.teamOfB = maintainer(s.b, buildkite.ClusterMaintainerCreate{TeamID: s.team.ID})
	return s
}

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// What the query tests (query_test.go) find: objects made through the API, as someone outside Terraform
// would, one set per area, and the configuration of list blocks that finds them.

// queryConfig is a .tfquery.hcl: the provider block and listBlocks(blocks...).
func (e *testEnv) queryConfig(blocks ...string) string {
	return e.config("") + listBlocks(blocks...)
}

// listBlocks renders list blocks that include the resources, from triples of resource type, name and the
// body of the config block ("" for none).
func listBlocks(blocks ...string) string {
	cfg := ""
	for i := 0; i+2 < len(blocks); i += 3 {
		cfg += fmt.Sprintf(`
list %q %q {
  provider         = buildkite
  include_resource = true
  config {
%s
  }
}
`, blocks[i], blocks[i+1], blocks[i+2])
	}
	return cfg
}

// seededClusters is what seedClusters made outside Terraform.
type seededClusters struct {
	a, b              *buildkite.Cluster
	linux, mac, other *buildkite.Queue
	tokenA, tokenB    *buildkite.ClusterToken
}

// seedClusters makes, through the API as someone outside Terraform would, cluster "<base>-a" with every
// optional attribute, a described queue that is its default, a paused queue with a note and a restricted,
// expiring token; and cluster "<base>-b" with nothing optional, one queue, one token and no default queue.
func (e *testEnv) seedClusters(t *testing.T, base string) seededClusters {
	t.Helper()
	ctx := context.Background()
	must := seeding(t)
	var s seededClusters
	var err error
	s.a, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{
		Name: base + "-a", Description: ptrTo("Builds for the platform"), Emoji: ptrTo(":rocket:"), Color: ptrTo("#A8D5FF"),
	})
	must(err)
	s.b, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"})
	must(err)
	s.linux, err = e.client.Queues.Create(ctx, s.a.ID, buildkite.QueueCreate{Key: "linux", Description: ptrTo("Linux agents")})
	must(err)
	s.mac, err = e.client.Queues.Create(ctx, s.a.ID, buildkite.QueueCreate{Key: "mac"})
	must(err)
	_, err = e.client.Queues.Pause(ctx, s.a.ID, s.mac.ID, "Patching hosts")
	must(err)
	s.other, err = e.client.Queues.Create(ctx, s.b.ID, buildkite.QueueCreate{Key: "other"})
	must(err)
	_, err = e.client.Clusters.Update(ctx, s.a.ID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Value(s.linux.ID)})
	must(err)
	expires := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s.tokenA, err = e.client.ClusterTokens.Create(ctx, s.a.ID, buildkite.ClusterTokenCreate{
		Description: "CI agents", AllowedIPAddresses: ptrTo("10.0.0.0/8 192.168.1.0/24"), ExpiresAt: &expires,
	})
	must(err)
	s.tokenB, err = e.client.ClusterTokens.Create(ctx, s.b.ID, buildkite.ClusterTokenCreate{Description: "Other agents"})
	must(err)
	return s
}

// seededTeams is what seedTeams made outside Terraform.
type seededTeams struct {
	a, b   *buildkite.Team
	member buildkite.Member // the organization's second member, in both teams
	p1, p2 *buildkite.Pipeline
	suite  *buildkite.TestSuite
}

// seedTeams makes, through the API as someone outside Terraform would, team "<base>-a" with every optional
// attribute set and team "<base>-b" with none; the organization's second member is a maintainer of a and a
// member of b. Team a may build pipeline p1 and owns a suite (which gives it manage_and_read access); team
// b may read p1, manage p2 and read the suite. That is 2 teams, 2 memberships, 3 pipeline accesses and 2
// suite accesses.
func (e *testEnv) seedTeams(t *testing.T, base string) seededTeams {
	t.Helper()
	ctx := context.Background()
	must := seeding(t)
	var s seededTeams
	var err error
	s.a, err = e.client.Teams.Create(ctx, buildkite.TeamWrite{
		Name: base + "-a", Description: "Runs the platform", Privacy: "secret", DefaultMemberRole: "maintainer",
		MembersCanCreatePipelines: true,
	})
	must(err)
	t.Cleanup(func() { _ = e.client.Teams.Delete(context.Background(), s.a.ID) })
	s.b = e.seedTeam(base + "-b")

	members, err := e.client.Organizations.ListMembers(ctx)
	must(err)
	for _, m := range members {
		if m.Email == e.secondMemberEmail() {
			s.member = m
		}
	}
	if s.member.ID == "" {
		t.Fatalf("seeding: no member of the organization has the email %q", e.secondMemberEmail())
	}
	_, err = e.client.TeamMembers.Create(ctx, s.a.ID, buildkite.TeamMemberCreate{UserID: s.member.ID, Role: "maintainer"})
	must(err)
	_, err = e.client.TeamMembers.Create(ctx, s.b.ID, buildkite.TeamMemberCreate{UserID: s.member.ID, Role: "member"})
	must(err)

	s.p1, s.p2 = e.pipelineNamed(base+"-p1"), e.pipelineNamed(base+"-p2")
	for _, access := range []struct {
		team     *buildkite.Team
		pipeline *buildkite.Pipeline
		level    string
	}{{s.a, s.p1, "build_and_read"}, {s.b, s.p1, "read_only"}, {s.b, s.p2, "manage_build_and_read"}} {
		_, err = e.client.TeamPipelines.Create(ctx, access.team.ID,
			buildkite.TeamPipelineCreate{PipelineID: access.pipeline.ID, AccessLevel: access.level})
		must(err)
	}

	s.suite = e.seedSuite(base+"-suite", s.a.ID)
	_, err = e.client.TeamSuites.Create(ctx, s.b.ID, buildkite.TeamSuiteCreate{SuiteID: s.suite.ID, AccessLevel: []string{"read"}})
	must(err)
	return s
}

// seededPipelines is what seedPipelines made outside Terraform.
type seededPipelines struct {
	cluster             *buildkite.Cluster
	web, api, templated *buildkite.Pipeline
	standard, other     *buildkite.PipelineTemplate
	trigger, artifacts  *buildkite.Rule
}

// seedPipelines makes, through the API as someone outside Terraform would: pipeline "<base>-web" in a
// cluster, with its own steps, a description, a tag and a branch filter; pipeline "<base>-api", tagged and
// archived; pipeline "<base>-templated", which runs template "<base>-standard"; a second template; a rule
// letting web trigger api and one letting api read the artifacts of templated.
func (e *testEnv) seedPipelines(t *testing.T, base string) seededPipelines {
	t.Helper()
	ctx := context.Background()
	must := seeding(t)
	var s seededPipelines
	var err error
	s.cluster, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-cluster"})
	must(err)
	s.standard, err = e.client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name: base + "-standard", Configuration: "steps:\n  - command: make ci\n", Description: ptrTo("The standard build"),
	})
	must(err)
	s.other, err = e.client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name: base + "-other", Configuration: "steps:\n  - command: make other\n", Available: ptrTo(true),
	})
	must(err)
	s.web, err = e.client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-web", Repository: "https://github.com/acme/web.git", ClusterID: &s.cluster.ID,
		Configuration: ptrTo("steps:\n  - label: build\n    command: make web\n"), Description: ptrTo("The web site"),
		BranchConfiguration: ptrTo("main release/*"), Tags: []string{"frontend"},
	})
	must(err)
	s.api, err = e.client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-api", Repository: "https://github.com/acme/api.git",
		Configuration: ptrTo(buildkite.DefaultSteps), Tags: []string{"backend", "legacy"},
	})
	must(err)
	s.api, err = e.client.Pipelines.Archive(ctx, s.api.Slug)
	must(err)
	s.templated, err = e.client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-templated", Repository: "https://github.com/acme/tools.git", PipelineTemplateUUID: &s.standard.UUID,
	})
	must(err)
	rule := func(typ string, source, target *buildkite.Pipeline) *buildkite.Rule {
		t.Helper()
		value, err := json.Marshal(map[string]string{"source_pipeline": source.ID, "target_pipeline": target.ID})
		must(err)
		r, err := e.client.Rules.Create(ctx, buildkite.RuleCreate{Type: typ, Value: value})
		must(err)
		return r
	}
	s.trigger = rule("pipeline.trigger_build.pipeline", s.web, s.api)
	s.artifacts = rule("pipeline.artifacts_read.pipeline", s.api, s.templated)
	return s
}

// seededSuites is what seedSuites made outside Terraform.
type seededSuites struct {
	team         string // the ID of the team that owns both suites
	web, api     *buildkite.TestSuite
	gems, pypi   *buildkite.Registry
	ci, deploy   *buildkite.RegistryToken // of gems
	readerOfPypi *buildkite.RegistryToken
}

// seedSuites makes, through the API as someone outside Terraform would, suite "<base>-web" with every
// optional attribute and a bare suite "<base>-api" (both for a team, which the organization requires);
// registry "<base>-gems" with every optional attribute and two tokens, and a bare registry "<base>-pypi"
// with one token.
func (e *testEnv) seedSuites(t *testing.T, base string) seededSuites {
	t.Helper()
	ctx := context.Background()
	must := seeding(t)
	team := e.team("suites")
	s := seededSuites{team: team}
	var err error
	s.web, err = e.client.TestSuites.Create(ctx, buildkite.TestSuiteCreate{
		Name: base + "-web", DefaultBranch: "main", TeamIDs: []string{team},
		Emoji: ptrTo(":test_tube:"), Color: ptrTo("#E0F1FF"), ApplicationName: ptrTo("web"),
	})
	must(err)
	s.api, err = e.client.TestSuites.Create(ctx, buildkite.TestSuiteCreate{
		Name: base + "-api", DefaultBranch: "trunk", TeamIDs: []string{team},
	})
	must(err)
	s.gems, err = e.client.Registries.Create(ctx, buildkite.RegistryCreate{
		Name: base + "-gems", Ecosystem: "ruby", Description: ptrTo("Internal gems"), Emoji: ptrTo(":gem:"),
		Color: ptrTo("#FFE0E0"), OIDCPolicy: ptrTo("- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"),
	})
	must(err)
	s.pypi, err = e.client.Registries.Create(ctx, buildkite.RegistryCreate{Name: base + "-pypi", Ecosystem: "python"})
	must(err)
	s.ci, err = e.client.RegistryTokens.Create(ctx, s.gems.Slug, buildkite.RegistryTokenWrite{Description: "CI"})
	must(err)
	s.deploy, err = e.client.RegistryTokens.Create(ctx, s.gems.Slug, buildkite.RegistryTokenWrite{Description: "Deploys"})
	must(err)
	s.readerOfPypi, err = e.client.RegistryTokens.Create(ctx, s.pypi.Slug, buildkite.RegistryTokenWrite{Description: "Readers"})
	must(err)
	t.Cleanup(func() {
		for _, slug := range []string{s.web.Slug, s.api.Slug} {
			_ = e.client.TestSuites.Delete(context.Background(), slug)
		}
		for _, slug := range []string{s.gems.Slug, s.pypi.Slug} {
			_ = e.client.Registries.Delete(context.Background(), slug)
		}
	})
	return s
}

// seeding returns a function that fails t on an error of the seeding.
func seeding(t *testing.T) func(error) {
	return func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
}

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

// seededMemberships is what seedMemberships found and made.
type seededMemberships struct {
	admin                    *buildkite.Member // an administrator: the token's user, in the emulator
	members, admins, pending int               // how many members, administrators and pending invitations there are
	invitation               *buildkite.Invitation
}

// seedMemberships invites "<base>-invitee@example.com" as a member who must sign in with SSO (the
// invitation is revoked when the test ends), and counts the organization's members and pending invitations
// (the one made included).
func (e *testEnv) seedMemberships(t *testing.T, base string) seededMemberships {
	ctx := t.Context()
	invited, err := e.client.Invitations.Create(ctx, buildkite.InvitationCreate{
		Emails: []string{strings.ToLower(base) + "-invitee@example.com"}, Role: "member", SSOMode: "required"})
	if err != nil || len(invited) != 1 {
		t.Fatalf("inviting: %v, %d invitations", err, len(invited))
	}
	t.Cleanup(func() { _ = e.client.Invitations.Revoke(context.Background(), invited[0].ID) })
	members, err := e.client.Organizations.ListMembers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := e.client.Invitations.ListPending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := seededMemberships{members: len(members), pending: len(pending), invitation: &invited[0]}
	for i := range members {
		if members[i].Role == "admin" {
			s.admins++
			if s.admin == nil {
				s.admin = &members[i]
			}
		}
	}
	if s.admin == nil {
		t.Fatal("the organization has no administrator")
	}
	return s
}

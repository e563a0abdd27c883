package acctest

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
func (e *TestEnv) QueryConfig(blocks ...string) string {
	return e.Config("") + ListBlocks(blocks...)
}

// listBlocks renders list blocks that include the resources, from triples of resource type, name and the
// body of the config block ("" for none).
func ListBlocks(blocks ...string) string {
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
	A, B              *buildkite.Cluster
	Linux, Mac, Other *buildkite.Queue
	TokenA, TokenB    *buildkite.ClusterToken
}

// seedClusters makes, through the API as someone outside Terraform would, cluster "<base>-a" with every
// optional attribute, a described queue that is its default, a paused queue with a note and a restricted,
// expiring token; and cluster "<base>-b" with nothing optional, one queue, one token and no default queue.
func (e *TestEnv) SeedClusters(t *testing.T, base string) seededClusters {
	t.Helper()
	ctx := context.Background()
	must := Seeding(t)
	var s seededClusters
	var err error
	s.A, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{
		Name: base + "-a", Description: PtrTo("Builds for the platform"), Emoji: PtrTo(":rocket:"), Color: PtrTo("#A8D5FF"),
	})
	must(err)
	s.B, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"})
	must(err)
	s.Linux, err = e.Client.Queues.Create(ctx, s.A.ID, buildkite.QueueCreate{Key: "linux", Description: PtrTo("Linux agents")})
	must(err)
	s.Mac, err = e.Client.Queues.Create(ctx, s.A.ID, buildkite.QueueCreate{Key: "mac"})
	must(err)
	_, err = e.Client.Queues.Pause(ctx, s.A.ID, s.Mac.ID, "Patching hosts")
	must(err)
	s.Other, err = e.Client.Queues.Create(ctx, s.B.ID, buildkite.QueueCreate{Key: "other"})
	must(err)
	_, err = e.Client.Clusters.Update(ctx, s.A.ID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Value(s.Linux.ID)})
	must(err)
	expires := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s.TokenA, err = e.Client.ClusterTokens.Create(ctx, s.A.ID, buildkite.ClusterTokenCreate{
		Description: "CI agents", AllowedIPAddresses: PtrTo("10.0.0.0/8 192.168.1.0/24"), ExpiresAt: &expires,
	})
	must(err)
	s.TokenB, err = e.Client.ClusterTokens.Create(ctx, s.B.ID, buildkite.ClusterTokenCreate{Description: "Other agents"})
	must(err)
	return s
}

// seededTeams is what seedTeams made outside Terraform.
type seededTeams struct {
	A, B   *buildkite.Team
	Member buildkite.Member // the organization's second member, in both teams
	P1, P2 *buildkite.Pipeline
	Suite  *buildkite.TestSuite
}

// seedTeams makes, through the API as someone outside Terraform would, team "<base>-a" with every optional
// attribute set and team "<base>-b" with none; the organization's second member is a maintainer of a and a
// member of b. Team a may build pipeline p1 and owns a suite (which gives it manage_and_read access); team
// b may read p1, manage p2 and read the suite. That is 2 teams, 2 memberships, 3 pipeline accesses and 2
// suite accesses.
func (e *TestEnv) SeedTeams(t *testing.T, base string) seededTeams {
	t.Helper()
	ctx := context.Background()
	must := Seeding(t)
	var s seededTeams
	var err error
	s.A, err = e.Client.Teams.Create(ctx, buildkite.TeamWrite{
		Name: base + "-a", Description: "Runs the platform", Privacy: "secret", DefaultMemberRole: "maintainer",
		MembersCanCreatePipelines: true,
	})
	must(err)
	t.Cleanup(func() { _ = e.Client.Teams.Delete(context.Background(), s.A.ID) })
	s.B = e.SeedTeam(base + "-b")

	members, err := e.Client.Organizations.ListMembers(ctx)
	must(err)
	for _, m := range members {
		if m.Email == e.SecondMemberEmail() {
			s.Member = m
		}
	}
	if s.Member.ID == "" {
		t.Fatalf("seeding: no member of the organization has the email %q", e.SecondMemberEmail())
	}
	_, err = e.Client.TeamMembers.Create(ctx, s.A.ID, buildkite.TeamMemberCreate{UserID: s.Member.ID, Role: "maintainer"})
	must(err)
	_, err = e.Client.TeamMembers.Create(ctx, s.B.ID, buildkite.TeamMemberCreate{UserID: s.Member.ID, Role: "member"})
	must(err)

	s.P1, s.P2 = e.PipelineNamed(base+"-p1"), e.PipelineNamed(base+"-p2")
	for _, access := range []struct {
		team     *buildkite.Team
		pipeline *buildkite.Pipeline
		level    string
	}{{s.A, s.P1, "build_and_read"}, {s.B, s.P1, "read_only"}, {s.B, s.P2, "manage_build_and_read"}} {
		_, err = e.Client.TeamPipelines.Create(ctx, access.team.ID,
			buildkite.TeamPipelineCreate{PipelineID: access.pipeline.ID, AccessLevel: access.level})
		must(err)
	}

	s.Suite = e.SeedSuite(base+"-suite", s.A.ID)
	_, err = e.Client.TeamSuites.Create(ctx, s.B.ID, buildkite.TeamSuiteCreate{SuiteID: s.Suite.ID, AccessLevel: []string{"read"}})
	must(err)
	return s
}

// seededPipelines is what seedPipelines made outside Terraform.
type seededPipelines struct {
	Cluster             *buildkite.Cluster
	Web, API, Templated *buildkite.Pipeline
	Standard, Other     *buildkite.PipelineTemplate
	Trigger, Artifacts  *buildkite.Rule
}

// seedPipelines makes, through the API as someone outside Terraform would: pipeline "<base>-web" in a
// cluster, with its own steps, a description, a tag and a branch filter; pipeline "<base>-api", tagged and
// archived; pipeline "<base>-templated", which runs template "<base>-standard"; a second template; a rule
// letting web trigger api and one letting api read the artifacts of templated.
func (e *TestEnv) SeedPipelines(t *testing.T, base string) seededPipelines {
	t.Helper()
	ctx := context.Background()
	must := Seeding(t)
	var s seededPipelines
	var err error
	s.Cluster, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-cluster"})
	must(err)
	s.Standard, err = e.Client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name: base + "-standard", Configuration: "steps:\n  - command: make ci\n", Description: PtrTo("The standard build"),
	})
	must(err)
	s.Other, err = e.Client.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name: base + "-other", Configuration: "steps:\n  - command: make other\n", Available: PtrTo(true),
	})
	must(err)
	s.Web, err = e.Client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-web", Repository: "https://github.com/acme/web.git", ClusterID: &s.Cluster.ID,
		Configuration: PtrTo("steps:\n  - label: build\n    command: make web\n"), Description: PtrTo("The web site"),
		BranchConfiguration: PtrTo("main release/*"), Tags: []string{"frontend"},
	})
	must(err)
	s.API, err = e.Client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-api", Repository: "https://github.com/acme/api.git",
		Configuration: PtrTo(buildkite.DefaultSteps), Tags: []string{"backend", "legacy"},
	})
	must(err)
	s.API, err = e.Client.Pipelines.Archive(ctx, s.API.Slug)
	must(err)
	s.Templated, err = e.Client.Pipelines.Create(ctx, buildkite.PipelineCreate{
		Name: base + "-templated", Repository: "https://github.com/acme/tools.git", PipelineTemplateUUID: &s.Standard.UUID,
	})
	must(err)
	rule := func(typ string, source, target *buildkite.Pipeline) *buildkite.Rule {
		t.Helper()
		value, err := json.Marshal(map[string]string{"source_pipeline": source.ID, "target_pipeline": target.ID})
		must(err)
		r, err := e.Client.Rules.Create(ctx, buildkite.RuleCreate{Type: typ, Value: value})
		must(err)
		return r
	}
	s.Trigger = rule("pipeline.trigger_build.pipeline", s.Web, s.API)
	s.Artifacts = rule("pipeline.artifacts_read.pipeline", s.API, s.Templated)
	return s
}

// seededSuites is what seedSuites made outside Terraform.
type seededSuites struct {
	Team         string // the ID of the team that owns both suites
	Web, API     *buildkite.TestSuite
	Gems, Pypi   *buildkite.Registry
	CI, Deploy   *buildkite.RegistryToken // of gems
	ReaderOfPypi *buildkite.RegistryToken
}

// seedSuites makes, through the API as someone outside Terraform would, suite "<base>-web" with every
// optional attribute and a bare suite "<base>-api" (both for a team, which the organization requires);
// registry "<base>-gems" with every optional attribute and two tokens, and a bare registry "<base>-pypi"
// with one token.
func (e *TestEnv) SeedSuites(t *testing.T, base string) seededSuites {
	t.Helper()
	ctx := context.Background()
	must := Seeding(t)
	team := e.Team("suites")
	s := seededSuites{Team: team}
	var err error
	s.Web, err = e.Client.TestSuites.Create(ctx, buildkite.TestSuiteCreate{
		Name: base + "-web", DefaultBranch: "main", TeamIDs: []string{team},
		Emoji: PtrTo(":test_tube:"), Color: PtrTo("#E0F1FF"), ApplicationName: PtrTo("web"),
	})
	must(err)
	s.API, err = e.Client.TestSuites.Create(ctx, buildkite.TestSuiteCreate{
		Name: base + "-api", DefaultBranch: "trunk", TeamIDs: []string{team},
	})
	must(err)
	s.Gems, err = e.Client.Registries.Create(ctx, buildkite.RegistryCreate{
		Name: base + "-gems", Ecosystem: "ruby", Description: PtrTo("Internal gems"), Emoji: PtrTo(":gem:"),
		Color: PtrTo("#FFE0E0"), OIDCPolicy: PtrTo("- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"),
	})
	must(err)
	s.Pypi, err = e.Client.Registries.Create(ctx, buildkite.RegistryCreate{Name: base + "-pypi", Ecosystem: "python"})
	must(err)
	s.CI, err = e.Client.RegistryTokens.Create(ctx, s.Gems.Slug, buildkite.RegistryTokenWrite{Description: "CI"})
	must(err)
	s.Deploy, err = e.Client.RegistryTokens.Create(ctx, s.Gems.Slug, buildkite.RegistryTokenWrite{Description: "Deploys"})
	must(err)
	s.ReaderOfPypi, err = e.Client.RegistryTokens.Create(ctx, s.Pypi.Slug, buildkite.RegistryTokenWrite{Description: "Readers"})
	must(err)
	t.Cleanup(func() {
		for _, slug := range []string{s.Web.Slug, s.API.Slug} {
			_ = e.Client.TestSuites.Delete(context.Background(), slug)
		}
		for _, slug := range []string{s.Gems.Slug, s.Pypi.Slug} {
			_ = e.Client.Registries.Delete(context.Background(), slug)
		}
	})
	return s
}

// seeding returns a function that fails t on an error of the seeding.
func Seeding(t *testing.T) func(error) {
	return func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
}

// seededBeyondSpec is what seedBeyondSpec made outside Terraform.
type seededBeyondSpec struct {
	P1, P2                 *buildkite.Pipeline
	Nightly, Hourly, Other *buildkite.PipelineSchedule // nightly and hourly of p1
	A, B                   *buildkite.Cluster
	DeployKey, Token       *buildkite.ClusterSecret // of a
	OtherSecret            *buildkite.ClusterSecret // of b
	UserOfA, TeamOfA       *buildkite.ClusterMaintainer
	TeamOfB                *buildkite.ClusterMaintainer
	Member                 buildkite.Member
	Team                   *buildkite.Team
}

// seedBeyondSpec makes, through the API as someone outside Terraform would: pipeline "<base>-p1" with a
// disabled nightly schedule (message, env) and an hourly one, and "<base>-p2" with one schedule; cluster
// "<base>-a" with two secrets (one with a description and policy) and the organization's second member and
// a team as maintainers, and cluster "<base>-b" with one secret and the team as maintainer.
func (e *TestEnv) SeedBeyondSpec(t *testing.T, base string) seededBeyondSpec {
	t.Helper()
	ctx := context.Background()
	must := Seeding(t)
	var s seededBeyondSpec
	var err error
	s.P1, s.P2 = e.PipelineNamed(base+"-p1"), e.PipelineNamed(base+"-p2")
	s.Nightly, err = e.Client.PipelineSchedules.Create(ctx, s.P1.Slug, buildkite.PipelineScheduleWrite{
		Cronline: "0 3 * * 1-5 Europe/Berlin", Label: PtrTo("Nightly"), Branch: PtrTo("main"), Message: PtrTo("Nightly build"),
		Env: map[string]string{"DEPLOY": "false"}, Enabled: PtrTo(false),
	})
	must(err)
	s.Hourly, err = e.Client.PipelineSchedules.Create(ctx, s.P1.Slug, buildkite.PipelineScheduleWrite{Cronline: "@hourly", Label: PtrTo("Hourly"), Branch: PtrTo("main")})
	must(err)
	s.Other, err = e.Client.PipelineSchedules.Create(ctx, s.P2.Slug, buildkite.PipelineScheduleWrite{Cronline: "@weekly", Label: PtrTo("Weekly"), Branch: PtrTo("main")})
	must(err)

	s.A, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-a"})
	must(err)
	s.B, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"})
	must(err)
	t.Cleanup(func() {
		_ = e.Client.Clusters.Delete(context.Background(), s.A.ID)
		_ = e.Client.Clusters.Delete(context.Background(), s.B.ID)
	})
	secret := func(cluster *buildkite.Cluster, in buildkite.ClusterSecretCreate) *buildkite.ClusterSecret {
		sec, err := e.Client.ClusterSecrets.Create(ctx, cluster.ID, in)
		must(err)
		return sec
	}
	s.DeployKey = secret(s.A, buildkite.ClusterSecretCreate{Key: "DEPLOY_KEY", Value: "v1", Description: PtrTo("Deploys"),
		Policy: PtrTo("- pipeline_slug: " + s.P1.Slug + "\n")})
	s.Token = secret(s.A, buildkite.ClusterSecretCreate{Key: "TOKEN", Value: "v2"})
	s.OtherSecret = secret(s.B, buildkite.ClusterSecretCreate{Key: "OTHER", Value: "v3"})

	members, err := e.Client.Organizations.ListMembers(ctx)
	must(err)
	for _, m := range members {
		if m.Email == e.SecondMemberEmail() {
			s.Member = m
		}
	}
	s.Team = e.SeedTeam(base + "-team")
	maintainer := func(cluster *buildkite.Cluster, in buildkite.ClusterMaintainerCreate) *buildkite.ClusterMaintainer {
		m, err := e.Client.ClusterMaintainers.Create(ctx, cluster.ID, in)
		must(err)
		return m
	}
	s.UserOfA = maintainer(s.A, buildkite.ClusterMaintainerCreate{UserID: s.Member.ID})
	s.TeamOfA = maintainer(s.A, buildkite.ClusterMaintainerCreate{TeamID: s.Team.ID})
	s.TeamOfB = maintainer(s.B, buildkite.ClusterMaintainerCreate{TeamID: s.Team.ID})
	return s
}

// seededMemberships is what seedMemberships found and made.
type seededMemberships struct {
	Admin                    *buildkite.Member // an administrator: the token's user, in the emulator
	Members, Admins, Pending int               // how many members, administrators and pending invitations there are
	Invitation               *buildkite.Invitation
}

// seedMemberships invites "<base>-invitee@example.com" as a member who must sign in with SSO (the
// invitation is revoked when the test ends), and counts the organization's members and pending invitations
// (the one made included).
func (e *TestEnv) SeedMemberships(t *testing.T, base string) seededMemberships {
	ctx := t.Context()
	invited, err := e.Client.Invitations.Create(ctx, buildkite.InvitationCreate{
		Emails: []string{strings.ToLower(base) + "-invitee@example.com"}, Role: "member", SSOMode: "required"})
	if err != nil || len(invited) != 1 {
		t.Fatalf("inviting: %v, %d invitations", err, len(invited))
	}
	t.Cleanup(func() { _ = e.Client.Invitations.Revoke(context.Background(), invited[0].ID) })
	members, err := e.Client.Organizations.ListMembers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := e.Client.Invitations.ListPending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := seededMemberships{Members: len(members), Pending: len(pending), Invitation: &invited[0]}
	for i := range members {
		if members[i].Role == "admin" {
			s.Admins++
			if s.Admin == nil {
				s.Admin = &members[i]
			}
		}
	}
	if s.Admin == nil {
		t.Fatal("the organization has no administrator")
	}
	return s
}

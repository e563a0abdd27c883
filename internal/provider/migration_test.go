package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// One acceptance test per resource type shared with the official provider: its objects are created in the
// emulator, a state is written as the official provider would have written it for them and a configuration
// in its style, and the workspace is moved here (migrate). A type added later adds one row.

// migrationCase is one resource type's move.
type migrationCase struct {
	name string
	// workspace creates the objects and returns the configuration (without the provider block) and the
	// state's instances as the official provider wrote them.
	workspace func(t *testing.T, e *testEnv) (config string, instances []officialInstance)
	// check, where set, looks at the state after the move (refreshed and planned empty).
	check func(t *testing.T, w *cliWorkdir)
}

var migrationCases = []migrationCase{
	{name: "cluster", workspace: officialClusterWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		a := w.stateAttributes("buildkite_cluster.main")
		if a["id"] != a["uuid"] || !isUUID(fmt.Sprint(a["id"])) {
			t.Errorf("after the move id = %v, uuid = %v: want both the UUID", a["id"], a["uuid"])
		}
		if typ, _, ok := decodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "Cluster" {
			t.Errorf("after the move graphql_id = %v, want the cluster's GraphQL ID", a["graphql_id"])
		}
	}},
	{name: "cluster_queue", workspace: officialQueueWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_queue.linux", map[string]any{"retry_agent_affinity": "prefer-different"})
		if out := w.expectNoChanges(); !strings.Contains(out, "Attributes Not Managed by This Provider") {
			t.Errorf("the plan does not warn that hosted_agents is not managed:\n%s", out)
		}
	}},
	{name: "cluster_agent_token", workspace: officialAgentTokenWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_agent_token.agents", map[string]any{"token": "moved-secret"})
	}},
	{name: "cluster_default_queue", workspace: officialDefaultQueueWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_default_queue.main", map[string]any{"key": "linux"})
	}},
	{name: "team", workspace: officialTeamWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_team.platform", map[string]any{"privacy": "SECRET", "members_can_create_suites": true})
	}},
	{name: "team_member", workspace: officialTeamMemberWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_team_member.second", map[string]any{"role": "MAINTAINER"})
	}},
	{name: "pipeline_team", workspace: officialPipelineTeamWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline_team.app", map[string]any{"access_level": "BUILD_AND_READ"})
	}},
	{name: "test_suite_team", workspace: officialTestSuiteTeamWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_test_suite_team.specs", map[string]any{"access_level": "MANAGE_AND_READ"})
	}},
	{name: "pipeline", workspace: officialPipelineWorkspace(1), check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline.app", map[string]any{"emoji": ":rocket:", "default_timeout_in_minutes": 30.0,
			"visibility": "PRIVATE"})
		if out := w.expectNoChanges(); !strings.Contains(out, "`emoji`, `color` and `clone_mirror_url` are set through") {
			t.Errorf("the plan does not warn that emoji, color and clone_mirror_url are not managed:\n%s", out)
		}
	}},
	{name: "pipeline_template", workspace: officialTemplateWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline_template.standard", map[string]any{"available": true})
	}},
	{name: "organization_rule", workspace: officialRuleWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_organization_rule.trigger", map[string]any{"description": "Deploys trigger releases"})
	}},
	{name: "test_suite", workspace: officialTestSuiteWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_test_suite.specs", map[string]any{"api_token": "moved-suite-token", "oidc_policy": officialOIDCPolicy})
	}},
	{name: "registry", workspace: officialRegistryWorkspace, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_registry.gems", map[string]any{"oidc_policy": officialOIDCPolicy})
	}},
	{name: "pipeline_v0", workspace: officialPipelineWorkspace(0), check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline.app", map[string]any{"default_timeout_in_minutes": 30.0})
		settings, _ := w.stateAttributes("buildkite_pipeline.app")["provider_settings"].(map[string]any)
		if settings["trigger_mode"] != "code" || settings["build_pull_requests"] != true {
			t.Errorf("provider_settings after the move from its version 0 = %v", settings)
		}
	}},
}

// expectMoved checks the state of a moved instance: its id a UUID equal to uuid, its references UUIDs, and
// the attributes in want as given.
func expectMoved(t *testing.T, w *cliWorkdir, address string, want map[string]any) {
	t.Helper()
	a := w.stateAttributes(address)
	if id := fmt.Sprint(a["id"]); !isUUID(id) && !strings.Contains(id, "/") {
		t.Errorf("%s: id = %v after the move, want a REST ID", address, a["id"])
	}
	for _, ref := range []string{"cluster_id", "queue_id", "team_id", "user_id", "pipeline_id", "test_suite_id",
		"team_owner_id", "default_team_id", "pipeline_template_id"} {
		if v, ok := a[ref].(string); ok && !isUUID(v) {
			t.Errorf("%s: %s = %q after the move, want a UUID", address, ref, v)
		}
	}
	for k, v := range want {
		if a[k] != v {
			t.Errorf("%s: %s = %#v after the move, want %#v", address, k, a[k], v)
		}
	}
}

func TestAccMigration_fromOfficialProvider(t *testing.T) {
	for _, tc := range migrationCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			config, instances := tc.workspace(t, e)
			w := e.migrate(t, config, officialState(t, instances...))
			if tc.check != nil {
				tc.check(t, w)
			}
		})
	}
}

// seedCluster creates a cluster for a migration workspace.
func (e *testEnv) seedCluster(name string) *buildkite.Cluster {
	e.t.Helper()
	c, err := e.client.Clusters.Create(context.Background(), buildkite.ClusterCreate{
		Name: name, Description: ptrTo("Where builds run"), Emoji: ptrTo(":rocket:"), Color: ptrTo("#A8D5FF"),
	})
	if err != nil {
		e.t.Fatalf("seeding cluster %q: %v", name, err)
	}
	e.t.Cleanup(func() { _ = e.client.Clusters.Delete(context.Background(), c.ID) })
	return c
}

// officialCluster is a cluster as the official provider's state holds it.
func officialCluster(c *buildkite.Cluster) officialInstance {
	return officialInstance{address: "buildkite_cluster.main", attrs: map[string]any{
		"id": graphQLID("Cluster", c.ID), "uuid": c.ID, "name": c.Name,
		"description": c.Description, "emoji": c.Emoji, "color": c.Color,
	}}
}

const officialClusterConfig = `
resource "buildkite_cluster" "main" {
  name        = %q
  description = "Where builds run"
  emoji       = ":rocket:"
  color       = "#A8D5FF"
}
`

func officialClusterWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	c := e.seedCluster(e.name("cluster"))
	return fmt.Sprintf(officialClusterConfig, c.Name), []officialInstance{officialCluster(c)}
}

// seedQueue creates a queue in a cluster for a migration workspace.
func (e *testEnv) seedQueue(clusterID, key string) *buildkite.Queue {
	e.t.Helper()
	q, err := e.client.Queues.Create(context.Background(), clusterID, buildkite.QueueCreate{
		Key: key, Description: ptrTo("Linux agents"), RetryAgentAffinity: ptrTo("prefer-different"),
	})
	if err != nil {
		e.t.Fatalf("seeding queue %q: %v", key, err)
	}
	return q
}

// officialQueue is a queue as the official provider's state holds it, with hosted agents, which it set
// through GraphQL.
func officialQueue(c *buildkite.Cluster, q *buildkite.Queue) officialInstance {
	return officialInstance{address: "buildkite_cluster_queue.linux", dependsOn: []string{"buildkite_cluster.main"}, attrs: map[string]any{
		"id": graphQLID("ClusterQueue", q.ID), "uuid": q.ID, "cluster_id": graphQLID("Cluster", c.ID), "cluster_uuid": c.ID,
		"key": q.Key, "description": q.Description, "dispatch_paused": false, "retry_agent_affinity": q.RetryAgentAffinity,
		"hosted_agents": map[string]any{"instance_shape": "LINUX_AMD64_2X4", "linux": map[string]any{"agent_image_ref": "ubuntu:24.04"}, "mac": nil},
	}}
}

const officialQueueConfig = `
resource "buildkite_cluster_queue" "linux" {
  cluster_id           = buildkite_cluster.main.id
  key                  = "linux"
  description          = "Linux agents"
  retry_agent_affinity = "prefer-different"
  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
    linux = {
      agent_image_ref = "ubuntu:24.04"
    }
  }
}
`

func officialQueueWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialClusterWorkspace(t, e)
	c := e.clusterOf(instances[0])
	q := e.seedQueue(c.ID, "linux")
	return config + officialQueueConfig, append(instances, officialQueue(c, q))
}

// clusterOf reads back the cluster of an official cluster instance.
func (e *testEnv) clusterOf(in officialInstance) *buildkite.Cluster {
	e.t.Helper()
	c, err := e.client.Clusters.Get(context.Background(), fmt.Sprint(in.attrs["uuid"]))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func officialAgentTokenWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialClusterWorkspace(t, e)
	c := e.clusterOf(instances[0])
	tok, err := e.client.ClusterTokens.Create(context.Background(), c.ID, buildkite.ClusterTokenCreate{
		Description: "Autoscaled agents", AllowedIPAddresses: ptrTo("10.0.0.0/8 192.168.0.0/16"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return config + `
resource "buildkite_cluster_agent_token" "agents" {
  cluster_id           = buildkite_cluster.main.id
  description          = "Autoscaled agents"
  allowed_ip_addresses = ["10.0.0.0/8", "192.168.0.0/16"]
}
`, append(instances, officialInstance{address: "buildkite_cluster_agent_token.agents", dependsOn: []string{"buildkite_cluster.main"},
			attrs: map[string]any{
				"id": graphQLID("ClusterToken", tok.ID), "uuid": tok.ID, "cluster_id": graphQLID("Cluster", c.ID), "cluster_uuid": c.ID,
				"description": tok.Description, "allowed_ip_addresses": []string{"10.0.0.0/8", "192.168.0.0/16"},
				// The secret the official provider kept from the create response.
				"token": "moved-secret",
			}})
}

func officialDefaultQueueWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialQueueWorkspace(t, e)
	c := e.clusterOf(instances[0])
	q := fmt.Sprint(instances[1].attrs["uuid"])
	if _, err := e.client.Clusters.Update(context.Background(), c.ID, buildkite.ClusterUpdate{DefaultQueueID: &q}); err != nil {
		t.Fatal(err)
	}
	return config + `
resource "buildkite_cluster_default_queue" "main" {
  cluster_id = buildkite_cluster.main.id
  queue_id   = buildkite_cluster_queue.linux.id
}
`, append(instances, officialInstance{address: "buildkite_cluster_default_queue.main",
			dependsOn: []string{"buildkite_cluster.main", "buildkite_cluster_queue.linux"},
			attrs: map[string]any{
				"id": graphQLID("Cluster", c.ID), "uuid": c.ID, "cluster_id": graphQLID("Cluster", c.ID),
				"queue_id": graphQLID("ClusterQueue", q), "key": "linux",
			}})
}

// officialTeamWorkspace is a team written as the official provider's documentation shows it (upper-case
// enums), with a state as it wrote it.
func officialTeamWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	team, err := e.client.Teams.Create(context.Background(), buildkite.TeamWrite{
		Name: e.name("platform"), Privacy: "secret", DefaultMemberRole: "member", MembersCanCreatePipelines: true,
		MembersCanCreateSuites: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.client.Teams.Delete(context.Background(), team.ID) })
	return fmt.Sprintf(`
resource "buildkite_team" "platform" {
  name                         = %q
  privacy                      = "SECRET"
  default_team                 = false
  default_member_role          = "MEMBER"
  members_can_create_pipelines = true
  members_can_create_suites    = true
}
`, team.Name), []officialInstance{{address: "buildkite_team.platform", attrs: map[string]any{
			"id": graphQLID("Team", team.ID), "uuid": team.ID, "name": team.Name, "slug": team.Slug, "description": "",
			"privacy": "SECRET", "default_team": false, "default_member_role": "MEMBER",
			"members_can_create_pipelines": true, "members_can_create_suites": true, "members_can_create_registries": false,
			"members_can_destroy_registries": false, "members_can_destroy_packages": false,
		}}}
}

// teamOf is the UUID of the team of an official team instance.
func teamOf(in officialInstance) string { return fmt.Sprint(in.attrs["uuid"]) }

// associationInstance is an association as the official provider's state holds it: its id the GraphQL ID
// of the association itself (a UUID the REST API never shows), the sides GraphQL IDs.
func associationInstance(address, typ string, attrs map[string]any) officialInstance {
	own := "6f0c6d2e-5b1a-4c3d-9e8f-7a6b5c4d3e2f"
	attrs["id"], attrs["uuid"] = graphQLID(typ, own), own
	return officialInstance{address: address, dependsOn: []string{"buildkite_team.platform"}, attrs: attrs}
}

func officialTeamMemberWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialTeamWorkspace(t, e)
	members, err := e.client.Organizations.ListMembers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var user string
	for _, m := range members {
		if m.Email == e.secondMemberEmail() {
			user = m.ID
		}
	}
	if _, err := e.client.TeamMembers.Create(context.Background(), teamOf(instances[0]),
		buildkite.TeamMemberCreate{UserID: user, Role: "maintainer"}); err != nil {
		t.Fatal(err)
	}
	return config + fmt.Sprintf(`
data "buildkite_organization_member" "second" {
  email = %q
}

resource "buildkite_team_member" "second" {
  team_id = buildkite_team.platform.id
  user_id = data.buildkite_organization_member.second.id
  role    = "MAINTAINER"
}
`, e.secondMemberEmail()), append(instances, associationInstance("buildkite_team_member.second", "TeamMember", map[string]any{
			"team_id": graphQLID("Team", teamOf(instances[0])), "user_id": graphQLID("User", user), "role": "MAINTAINER",
		}))
}

func officialPipelineTeamWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialTeamWorkspace(t, e)
	p := e.pipelineNamed(e.name("app"))
	if _, err := e.client.TeamPipelines.Create(context.Background(), teamOf(instances[0]),
		buildkite.TeamPipelineCreate{PipelineID: p.ID, AccessLevel: "build_and_read"}); err != nil {
		t.Fatal(err)
	}
	// Its users paste the pipeline's GraphQL ID where the pipeline is not in the configuration.
	pipeline := graphQLID("Pipeline", p.ID)
	return config + fmt.Sprintf(`
resource "buildkite_pipeline_team" "app" {
  team_id      = buildkite_team.platform.id
  pipeline_id  = %q
  access_level = "BUILD_AND_READ"
}
`, pipeline), append(instances, associationInstance("buildkite_pipeline_team.app", "TeamPipeline", map[string]any{
			"team_id": graphQLID("Team", teamOf(instances[0])), "pipeline_id": pipeline, "access_level": "BUILD_AND_READ",
		}))
}

func officialTestSuiteTeamWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialTeamWorkspace(t, e)
	suite := e.seedSuite(e.name("specs"), teamOf(instances[0])) // its owner team has manage access
	return config + fmt.Sprintf(`
resource "buildkite_test_suite_team" "specs" {
  team_id       = buildkite_team.platform.id
  test_suite_id = %q
  access_level  = "MANAGE_AND_READ"
}
`, graphQLID("Suite", suite.ID)), append(instances, associationInstance("buildkite_test_suite_team.specs", "TeamSuite", map[string]any{
			"team_id": graphQLID("Team", teamOf(instances[0])), "test_suite_id": graphQLID("Suite", suite.ID), "access_level": "MANAGE_AND_READ",
		}))
}

// officialPipelineWorkspace is a pipeline in a cluster, with a default team, step timeouts, tags, provider
// settings and the attributes only GraphQL sets, as the official provider's schema version (1, or 0, which
// held provider_settings as a list of one object and lacked the attributes added since) stores it.
func officialPipelineWorkspace(version int64) func(t *testing.T, e *testEnv) (string, []officialInstance) {
	return func(t *testing.T, e *testEnv) (string, []officialInstance) {
		config, instances := officialClusterWorkspace(t, e)
		c := e.clusterOf(instances[0])
		team := e.seedTeam(e.name("owners"))
		const steps = "steps:\n  - label: build\n    command: make\n"
		p := e.seedPipeline(buildkite.PipelineCreate{
			Name: e.name("app"), ClusterID: &c.ID, Configuration: ptrTo(steps), Tags: []string{"go"},
			Teams:                     map[string]string{team.ID: "manage_build_and_read"},
			DefaultCommandStepTimeout: ptrTo(int64(30)),
			ProviderSettings:          map[string]any{"trigger_mode": "code", "build_pull_requests": true},
		})
		// provider_settings as its provider read them back: every key of its schema, null where REST has none.
		settings := map[string]any{}
		for _, s := range pipelineSettings {
			settings[s.key] = p.Provider.Settings[s.key]
		}
		attrs := map[string]any{
			"id": graphQLID("Pipeline", p.ID), "uuid": p.ID, "name": p.Name, "slug": p.Slug, "repository": p.Repository,
			"steps": steps, "description": "", "default_branch": p.DefaultBranch, "branch_configuration": nil,
			"skip_intermediate_builds": false, "skip_intermediate_builds_branch_filter": "",
			"cancel_intermediate_builds": false, "cancel_intermediate_builds_branch_filter": "", "allow_rebuilds": true,
			"cluster_id": graphQLID("Cluster", c.ID), "cluster_name": c.Name, "default_team_id": graphQLID("Team", team.ID),
			"default_timeout_in_minutes": 30, "maximum_timeout_in_minutes": nil, "visibility": "PRIVATE", "tags": []string{"go"},
			"emoji": ":rocket:", "color": "#A8D5FF", "clone_mirror_url": "https://mirror.example.com/acme/app.git",
			"pipeline_template_id": nil, "provider_settings": settings, "archived": false,
			"webhook_url": p.Provider.WebhookURL, "badge_url": p.BadgeURL,
		}
		in := officialInstance{address: "buildkite_pipeline.app", attrs: attrs, dependsOn: []string{"buildkite_cluster.main"}}
		extra := `
  emoji            = ":rocket:"
  color            = "#A8D5FF"
  clone_mirror_url = "https://mirror.example.com/acme/app.git"
  visibility       = "PRIVATE"`
		if version == 0 {
			attrs["provider_settings"] = []any{settings}
			in.version = &version
			in.without = []string{"uuid", "cluster_name", "emoji", "color", "clone_mirror_url", "visibility", "archived", "pipeline_template_id"}
			extra = ""
		}
		return config + fmt.Sprintf(`
resource "buildkite_pipeline" "app" {
  name                       = %q
  repository                 = %q
  cluster_id                 = buildkite_cluster.main.id
  default_team_id            = %q
  steps                      = %q
  tags                       = ["go"]
  default_timeout_in_minutes = 30%s
  provider_settings = {
    trigger_mode        = "code"
    build_pull_requests = true
  }
}
`, p.Name, p.Repository, graphQLID("Team", team.ID), steps, extra), append(instances, in)
	}
}

func officialTemplateWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	const steps = "steps:\n  - command: make release\n"
	tpl, err := e.client.PipelineTemplates.Create(context.Background(), buildkite.PipelineTemplateCreate{
		Name: e.name("standard"), Configuration: steps, Available: ptrTo(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.client.PipelineTemplates.Delete(context.Background(), tpl.UUID) })
	return fmt.Sprintf(`
resource "buildkite_pipeline_template" "standard" {
  name          = %q
  configuration = %q
  available     = true
}
`, tpl.Name, steps), []officialInstance{{address: "buildkite_pipeline_template.standard", attrs: map[string]any{
			"id": graphQLID("PipelineTemplate", tpl.UUID), "uuid": tpl.UUID, "name": tpl.Name, "configuration": steps,
			"description": nil, "available": true,
		}}}
}

// officialRuleWorkspace is a rule between two pipelines named by slug, its value as jsonencode wrote it
// (keys sorted, no blanks), with a description, which the official provider set through GraphQL.
func officialRuleWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	source, target := e.pipelineNamed(e.name("deploy")), e.pipelineNamed(e.name("release"))
	rule, err := e.client.Rules.Create(context.Background(), buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline",
		Value: []byte(`{"source_pipeline":"` + source.ID + `","target_pipeline":"` + target.ID + `"}`)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.client.Rules.Delete(context.Background(), rule.UUID) })
	return fmt.Sprintf(`
resource "buildkite_organization_rule" "trigger" {
  type        = "pipeline.trigger_build.pipeline"
  description = "Deploys trigger releases"
  value = jsonencode({
    source_pipeline = %q
    target_pipeline = %q
  })
}
`, source.Slug, target.Slug), []officialInstance{{address: "buildkite_organization_rule.trigger", attrs: map[string]any{
			"id": graphQLID("Rule", rule.UUID), "uuid": rule.UUID, "type": rule.Type,
			"value":       `{"source_pipeline":"` + source.Slug + `","target_pipeline":"` + target.Slug + `"}`,
			"description": "Deploys trigger releases", "source_type": "pipeline", "source_uuid": source.ID,
			"target_type": "pipeline", "target_uuid": target.ID, "effect": rule.Effect, "action": rule.Action,
		}}}
}

// officialOIDCPolicy is a policy as the official provider's configurations write one.
const officialOIDCPolicy = "- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"

func officialTestSuiteWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialTeamWorkspace(t, e)
	suite := e.seedSuite(e.name("specs"), teamOf(instances[0]), func(in *buildkite.TestSuiteCreate) {
		in.Emoji, in.Color, in.ApplicationName = ptrTo(":rspec:"), ptrTo("#E0F1FF"), ptrTo("web")
	})
	return config + fmt.Sprintf(`
resource "buildkite_test_suite" "specs" {
  name             = %q
  default_branch   = "main"
  team_owner_id    = buildkite_team.platform.id
  emoji            = ":rspec:"
  color            = "#E0F1FF"
  application_name = "web"
  oidc_policy      = %q
}
`, suite.Name, officialOIDCPolicy), append(instances, officialInstance{address: "buildkite_test_suite.specs",
			dependsOn: []string{"buildkite_team.platform"}, attrs: map[string]any{
				"id": graphQLID("Suite", suite.ID), "uuid": suite.ID, "name": suite.Name, "slug": suite.Slug,
				"default_branch": "main", "team_owner_id": graphQLID("Team", teamOf(instances[0])), "emoji": ":rspec:",
				"color": "#E0F1FF", "application_name": "web", "oidc_policy": officialOIDCPolicy,
				"api_token": "moved-suite-token",
			}})
}

func officialRegistryWorkspace(t *testing.T, e *testEnv) (string, []officialInstance) {
	config, instances := officialTeamWorkspace(t, e)
	team := teamOf(instances[0])
	reg, err := e.client.Registries.Create(context.Background(), buildkite.RegistryCreate{
		Name: e.name("gems"), Ecosystem: "ruby", Emoji: ptrTo(":gem:"), TeamIDs: []string{team}, OIDCPolicy: ptrTo(officialOIDCPolicy),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.client.Registries.Delete(context.Background(), reg.Slug) })
	return config + fmt.Sprintf(`
resource "buildkite_registry" "gems" {
  name        = %q
  ecosystem   = "ruby"
  emoji       = ":gem:"
  oidc_policy = %q
  team_ids    = [buildkite_team.platform.uuid]
}
`, reg.Name, officialOIDCPolicy), append(instances, officialInstance{address: "buildkite_registry.gems",
			dependsOn: []string{"buildkite_team.platform"}, attrs: map[string]any{
				"id": graphQLID("Registry", reg.ID), "uuid": reg.ID, "name": reg.Name, "slug": reg.Slug, "ecosystem": "ruby",
				"description": nil, "emoji": ":gem:", "color": nil, "oidc_policy": officialOIDCPolicy, "public": false,
				// What its GraphQL API answered; this provider keeps it and never sends it.
				"registry_type": "PACKAGE", "team_ids": []string{team},
			}})
}

package provider

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// One acceptance test per resource type shared with the official provider: its objects are created in the
// emulator, a configuration in its style and a state as its provider wrote it are built for them
// (officialWorkspace), and the workspace is moved here (migrate). A type added later adds one row, whose
// add function puts the type into a workspace; examples/migration holds every row's type at once
// (TestAccMigration_example, below).

// migrationCase is one resource type's move.
type migrationCase struct {
	name string
	// add creates the type's objects, and what they need, and adds them to the workspace.
	add func(w *officialWorkspace)
	// check, where set, looks at the workspace after the move (refreshed, and planned empty).
	check func(t *testing.T, w *cliWorkdir)
}

var migrationCases = []migrationCase{
	{name: "cluster", add: (*officialWorkspace).addCluster, check: func(t *testing.T, w *cliWorkdir) {
		a := w.stateAttributes("buildkite_cluster.main")
		if a["id"] != a["uuid"] || !isUUID(fmt.Sprint(a["id"])) {
			t.Errorf("after the move id = %v, uuid = %v: want both the UUID", a["id"], a["uuid"])
		}
		if typ, _, ok := decodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "Cluster" {
			t.Errorf("after the move graphql_id = %v, want the cluster's GraphQL ID", a["graphql_id"])
		}
	}},
	{name: "cluster_queue", add: (*officialWorkspace).addQueue, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_queue.linux", map[string]any{"retry_agent_affinity": "prefer-different"})
		// The hosted agents are read over REST now: the moved state's block matches the service's, with no warning.
		hosted, _ := w.stateAttributes("buildkite_cluster_queue.linux")["hosted_agents"].(map[string]any)
		linux, _ := hosted["linux"].(map[string]any)
		if hosted["instance_shape"] != "LINUX_AMD64_2X4" || linux["agent_image_ref"] != "ubuntu:24.04" {
			t.Errorf("hosted_agents after the move = %v", hosted)
		}
		if out := w.expectNoChanges(); strings.Contains(out, "Attributes Not Managed by This Provider") {
			t.Errorf("the plan warns of attributes it now applies:\n%s", out)
		}
	}},
	{name: "cluster_queue_mac", add: (*officialWorkspace).addMacQueue, check: func(t *testing.T, w *cliWorkdir) {
		// The macOS settings are applied and read through GraphQL now: the moved state's match the service's.
		hosted, _ := w.stateAttributes("buildkite_cluster_queue.mac")["hosted_agents"].(map[string]any)
		mac, _ := hosted["mac"].(map[string]any)
		if hosted["instance_shape"] != "MACOS_ARM64_M4_6X28" || mac["xcode_version"] != "16.2" || mac["macos_version"] != "SEQUOIA" {
			t.Errorf("hosted_agents after the move = %v", hosted)
		}
		if out := w.expectNoChanges(); strings.Contains(out, "Attributes Not Managed by This Provider") {
			t.Errorf("the plan warns of attributes it now applies:\n%s", out)
		}
	}},
	{name: "cluster_agent_token", add: (*officialWorkspace).addAgentToken, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_agent_token.agents", map[string]any{"token": "moved-secret"})
	}},
	{name: "agent_token", add: (*officialWorkspace).addUnclusteredAgentToken, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_agent_token.legacy", map[string]any{"token": "moved-secret", "description": "Unclustered agents"})
		a := w.stateAttributes("buildkite_agent_token.legacy")
		if typ, _, ok := decodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "AgentToken" {
			t.Errorf("after the move graphql_id = %v, want the token's GraphQL ID", a["graphql_id"])
		}
	}},
	{name: "cluster_default_queue", add: (*officialWorkspace).addDefaultQueue, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_default_queue.main", map[string]any{"key": "linux"})
	}},
	{name: "team", add: (*officialWorkspace).addTeam, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_team.platform", map[string]any{"privacy": "SECRET", "members_can_create_suites": true})
	}},
	{name: "team_member", add: (*officialWorkspace).addTeamMember, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_team_member.second", map[string]any{"role": "MAINTAINER"})
	}},
	{name: "pipeline_team", add: (*officialWorkspace).addPipelineTeam, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline_team.website", map[string]any{"access_level": "BUILD_AND_READ"})
	}},
	{name: "test_suite_team", add: (*officialWorkspace).addTestSuiteTeam, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_test_suite_team.e2e", map[string]any{"access_level": "MANAGE_AND_READ"})
	}},
	{name: "team_registry", add: (*officialWorkspace).addTeamRegistry, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_team_registry.gems", map[string]any{"access_level": "READ_ONLY"})
		a := w.stateAttributes("buildkite_team_registry.gems")
		if typ, _, ok := decodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "TeamRegistry" || !isUUID(fmt.Sprint(a["uuid"])) {
			t.Errorf("after the move graphql_id = %v, uuid = %v; want the access's GraphQL ID and UUID", a["graphql_id"], a["uuid"])
		}
	}},
	{name: "pipeline", add: (*officialWorkspace).addPipeline, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline.app", map[string]any{"emoji": ":rocket:", "default_timeout_in_minutes": 30.0,
			"visibility": "PRIVATE"})
		if a := w.stateAttributes("buildkite_pipeline.app"); a["clone_mirror_url"] != "https://mirror.example.com/acme/app.git" || a["color"] != "#A8D5FF" {
			t.Errorf("after the move clone_mirror_url = %v, color = %v", a["clone_mirror_url"], a["color"])
		}
		// They are applied over REST now: no warning.
		if out := w.expectNoChanges(); strings.Contains(out, "Attributes Not Managed by This Provider") {
			t.Errorf("the plan warns of attributes it now applies:\n%s", out)
		}
	}},
	{name: "pipeline_v0", add: (*officialWorkspace).addPipelineV0, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline.app", map[string]any{"default_timeout_in_minutes": 30.0})
		settings, _ := w.stateAttributes("buildkite_pipeline.app")["provider_settings"].(map[string]any)
		if settings["trigger_mode"] != "code" || settings["build_pull_requests"] != true {
			t.Errorf("provider_settings after the move from its version 0 = %v", settings)
		}
	}},
	{name: "pipeline_empty_settings", add: (*officialWorkspace).addPipelineEmptySettings, check: func(t *testing.T, w *cliWorkdir) {
		// Its blanks (what its test "create pipeline with empty attributes" expects) plan nothing; the refresh
		// reads the service's values, which plan nothing either.
		settings, _ := w.stateAttributes("buildkite_pipeline.app")["provider_settings"].(map[string]any)
		if settings["trigger_mode"] != "code" {
			t.Errorf("provider_settings.trigger_mode after the move and a refresh = %v, want the service's", settings["trigger_mode"])
		}
	}},
	{name: "pipeline_schedule", add: (*officialWorkspace).addSchedule, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline_schedule.nightly", map[string]any{"cronline": "0 2 * * *", "commit": "HEAD"})
		a := w.stateAttributes("buildkite_pipeline_schedule.nightly")
		if typ, _, ok := decodeGraphQLID(fmt.Sprint(a["graphql_id"])); !ok || typ != "PipelineSchedule" {
			t.Errorf("after the move graphql_id = %v, want the schedule's GraphQL ID", a["graphql_id"])
		}
		if env, ok := a["env"].(map[string]any); !ok || len(env) != 0 {
			t.Errorf("after the move env = %#v, want {} for no variables", a["env"])
		}
	}},
	{name: "cluster_secret", add: (*officialWorkspace).addSecret, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_secret.deploy", map[string]any{"value": "moved-value", "description": "Deploys"})
	}},
	{name: "cluster_maintainer", add: (*officialWorkspace).addMaintainer, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_cluster_maintainer.platform", map[string]any{"actor_type": "team", "user_uuid": nil})
	}},
	{name: "pipeline_template", add: (*officialWorkspace).addTemplate, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_pipeline_template.standard", map[string]any{"available": true})
	}},
	{name: "organization_rule", add: (*officialWorkspace).addRule, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_organization_rule.trigger", map[string]any{"description": "Deploys trigger releases"})
	}},
	{name: "test_suite", add: (*officialWorkspace).addTestSuite, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_test_suite.specs", map[string]any{"api_token": "moved-suite-token", "oidc_policy": officialOIDCPolicy})
	}},
	{name: "test_suite_unmanaged_fields", add: (*officialWorkspace).addTestSuiteUnmanagedFields, check: func(t *testing.T, w *cliWorkdir) {
		// Left out of the configuration, the color and application name are the service's, kept.
		expectMoved(t, w, "buildkite_test_suite.ui", map[string]any{"color": "#BADA55", "application_name": "web",
			"oidc_policy": officialOIDCPolicy})
	}},
	{name: "registry", add: (*officialWorkspace).addRegistry, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_registry.gems", map[string]any{"oidc_policy": officialOIDCPolicy, "registry_type": "source"})
	}},

	// Organization settings and the banner (issue 25).
	{name: "organization", add: (*officialWorkspace).addOrganization, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_organization.settings", map[string]any{"enforce_2fa": true, "revoke_inactive_tokens_after": "DAYS_90"})
		// enforce_2fa is applied and read through GraphQL now: no warning.
		if out := w.expectNoChanges(); strings.Contains(out, "Attributes Not Managed by This Provider") {
			t.Errorf("the plan warns of enforce_2fa, which is applied now:\n%s", out)
		}
	}},
	{name: "organization_v1_38", add: (*officialWorkspace).addOrganizationV138, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_organization.settings", map[string]any{"allowed_api_ip_addresses": nil, "enforce_2fa": false,
			"revoke_inactive_tokens_after": "NEVER", "restrict_user_api_token_creation": false})
	}},
	{name: "organization_banner", add: (*officialWorkspace).addBanner, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_organization_banner.notice", map[string]any{"message": "Deploys are frozen on Fridays"})
	}},
	{name: "pipeline_webhook", add: (*officialWorkspace).addPipelineWebhook, check: func(t *testing.T, w *cliWorkdir) {
		a := w.stateAttributes("buildkite_pipeline_webhook.app")
		if a["id"] != a["pipeline_id"] || !isUUID(fmt.Sprint(a["id"])) {
			t.Errorf("after the move id = %v, pipeline_id = %v: want both the pipeline's UUID", a["id"], a["pipeline_id"])
		}
	}},
	{name: "portal", add: (*officialWorkspace).addPortal, check: func(t *testing.T, w *cliWorkdir) {
		// No id: a portal is named by its slug, here as in the official provider.
		a := w.stateAttributes("buildkite_portal.stats")
		if _, has := a["id"]; has || a["token"] != "moved-portal-token" || a["allowed_ip_addresses"] != "10.0.0.0/8" {
			t.Errorf("after the move %v", a)
		}
		if by, _ := a["created_by"].(map[string]any); by == nil || !isUUID(fmt.Sprint(by["uuid"])) {
			t.Errorf("after the move created_by = %v, want the creator's UUID filled in", a["created_by"])
		}
	}},
	{name: "notification_service", add: (*officialWorkspace).addNotificationServices, check: func(t *testing.T, w *cliWorkdir) {
		expectMoved(t, w, "buildkite_notification_service.hooks", map[string]any{"enabled": false, "provider_type": "webhook"})
		a := w.stateAttributes("buildkite_notification_service.datadog")
		if dd, _ := a["datadog_pipeline_visibility"].(map[string]any); dd == nil || dd["api_key"] != "moved-datadog-key" {
			t.Errorf("after the move datadog_pipeline_visibility = %v, want the API key kept", a["datadog_pipeline_visibility"])
		}
	}},
}

func TestAccMigration_fromOfficialProvider(t *testing.T) {
	for _, tc := range migrationCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			ws := newOfficialWorkspace(t, e)
			tc.add(ws)
			w := e.migrate(t, e.officialProviderBlock()+ws.config.String(), ws.state())
			if tc.check != nil {
				tc.check(t, w)
			}
		})
	}
}

// expectMoved checks the state of a moved instance: its id a REST ID, its references UUIDs, and the
// attributes in want as given.
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

// examples/migration is a workspace as the official provider left it, with every type of migrationCases:
// main.tf (its configuration style, source "buildkite/buildkite"), terraform.tfstate (its state) and
// emulator-state.json (the emulator's store holding the objects, for `fakeserver --state-file`). `make
// demo-migration` moves it here with the CLI; TestAccMigration_example does the same in process, so the
// committed files cannot drift from what the provider accepts. They are written from the same rows as the
// migration tests by
//
//	TF_ACC=1 go test ./internal/provider/ -run TestAccMigration_example -update-migration-example

var updateMigrationExample = flag.Bool("update-migration-example", false, "rewrite examples/migration from the migration cases")

const (
	migrationExampleDir = "../../examples/migration"
	// The example's organization and token, as `make demo` names them.
	migrationExampleOrg   = "demo"
	migrationExampleToken = "demo-token"
)

// migrationExampleHeader is main.tf's beginning: the workspace before the move.
const migrationExampleHeader = `# A workspace written for the official Buildkite provider, as it stands before moving to this one: its
# configuration style (GraphQL IDs by .id, upper-case enums, timeouts as a nested attribute) and, beside it,
# its state (terraform.tfstate). Moving it takes three steps (see the guide "Moving from the official
# provider", or run make demo-migration): change source below to "ci-rest/buildkite", run
# terraform state replace-provider registry.terraform.io/buildkite/buildkite registry.terraform.io/ci-rest/buildkite,
# then terraform plan, which says "No changes".
#
# The API token and the API's URLs come from BUILDKITE_API_TOKEN, BUILDKITE_REST_URL and BUILDKITE_GRAPHQL_URL.
# Generated by: TF_ACC=1 go test ./internal/provider/ -run TestAccMigration_example -update-migration-example

terraform {
  required_providers {
    buildkite = {
      source = "buildkite/buildkite"
    }
  }
}

provider "buildkite" {
  organization = "demo"
  timeouts = {
    create = "60s"
    read   = "60s"
  }
}
`

// officialSource and ourSource are the source lines of main.tf before and after step 1 of the move.
var (
	officialSource = []byte(`source = "buildkite/buildkite"`)
	ourSource      = []byte(`source = "ci-rest/buildkite"`)
)

func TestAccMigration_example(t *testing.T) {
	if *updateMigrationExample {
		writeMigrationExample(t)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(migrationExampleDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The emulator writes its state file as it changes, so it gets a copy of the committed one.
	store := filepath.Join(t.TempDir(), "emulator-state.json")
	if err := os.WriteFile(store, read("emulator-state.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newTestEnvWith(t, fakeserver.Options{Org: migrationExampleOrg, Token: migrationExampleToken, StateFile: store})
	if e.live {
		t.Skip("the example's objects live in the emulator's state file")
	}
	// The example's provider block leaves the token and the URL to the environment, as a user's would; the
	// provider is served in this process, so it reads this process's (the test is not parallel).
	t.Setenv(envAPIToken, e.token)
	t.Setenv(envRESTURL, e.url)
	t.Setenv(envGraphQLURL, e.graphqlURL) // with rest_url set, GraphQL goes only where told
	mainTF := read("main.tf")
	if bytes.Count(mainTF, officialSource) != 1 {
		t.Fatalf("examples/migration/main.tf must name the official provider's source once")
	}
	e.migrate(t, string(bytes.Replace(mainTF, officialSource, ourSource, 1)), read("terraform.tfstate"))
}

// writeMigrationExample builds a workspace of every migration case (its version-1 pipeline) in a fresh
// emulator with stable names, and writes examples/migration from it.
func writeMigrationExample(t *testing.T) {
	t.Helper()
	store := filepath.Join(t.TempDir(), "emulator-state.json")
	e := newTestEnvWith(t, fakeserver.Options{Org: migrationExampleOrg, Token: migrationExampleToken, StateFile: store})
	e.stableNames = true
	ws := newOfficialWorkspace(t, e)
	for _, tc := range migrationCases {
		if tc.name != "pipeline_v0" && tc.name != "organization_v1_38" && tc.name != "pipeline_empty_settings" {
			tc.add(ws)
		}
	}
	// Read the store now: the seeds' cleanups delete the objects when the test ends.
	objects, err := os.ReadFile(store)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"main.tf": []byte(migrationExampleHeader + ws.config.String()), "terraform.tfstate": ws.state(),
		"emulator-state.json": objects,
	} {
		if err := os.WriteFile(filepath.Join(migrationExampleDir, name), content, 0o644); err != nil { //nolint:gosec // committed example files
			t.Fatal(err)
		}
	}
	t.Logf("wrote %s", migrationExampleDir)
}

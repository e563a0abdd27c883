package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The official-state harness: a workspace as the official provider left it (its configuration style, its state
// file), moved here as a user would: `terraform state replace-provider`, then plans that must be empty.
// officialState writes the state from what its provider stores (its source,
// github.com/buildkite/terraform-provider-buildkite), with every attribute of its schema
// (testdata/official-schema.json) and the schema version it wrote; migrate runs the CLI against this provider
// served in process. migrationCases (migration_test.go) holds one row per resource type; a type added later
// adds its row there.

// providerHost is the registry host of provider addresses: registry.terraform.io, or OpenTofu's under `make
// testacc-tofu` (TF_ACC_PROVIDER_HOST), where its states and sources name that registry.
func providerHost() string {
	if h := os.Getenv("TF_ACC_PROVIDER_HOST"); h != "" {
		return h
	}
	return "registry.terraform.io"
}

// The provider's address in the official provider's states, and ours after replace-provider.
var (
	OfficialProviderAddress = providerHost() + "/buildkite/buildkite"
	ourProviderAddress      = providerHost() + "/ci-rest/buildkite"
)

// stateProvider finds the official provider's address a state file names (the committed example names
// registry.terraform.io's, whatever the CLI).
var stateProvider = regexp.MustCompile(`provider\[\\"([a-z0-9.\-]+/buildkite/buildkite)\\"\]`)

// officialInstance is one resource instance as the official provider's state holds it.
type OfficialInstance struct {
	Address string         // "buildkite_cluster.main"
	Attrs   map[string]any // as its provider stores them; attributes of its schema left out are null
	// version overrides the schema version its provider writes today (a pipeline state of version 0).
	version *int64
	// dependsOn are the addresses the instance's configuration refers to, as Terraform records them.
	dependsOn []string
	// without are attributes its schema at that version did not have, left out of the state.
	Without []string
}

// officialSchemas is testdata/official-schema.json, read once.
var officialSchemas = sync.OnceValues(func() (OfficialSchemaJSON, error) {
	var s OfficialSchemaJSON
	raw, err := os.ReadFile(ProviderTestdata("official-schema.json"))
	if err == nil {
		err = json.Unmarshal(raw, &s)
	}
	return s, err
})

// officialState renders a state file (format 4) as the official provider's workspace holds it.
func OfficialState(t *testing.T, instances ...OfficialInstance) []byte {
	t.Helper()
	schemas, err := officialSchemas()
	if err != nil {
		t.Fatal(err)
	}
	type instance struct {
		SchemaVersion       int64            `json:"schema_version"`
		Attributes          map[string]any   `json:"attributes"`
		SensitiveAttributes [][]pathStepJSON `json:"sensitive_attributes"`
		Dependencies        []string         `json:"dependencies,omitempty"`
	}
	type resourceJSON struct {
		Mode      string     `json:"mode"`
		Type      string     `json:"type"`
		Name      string     `json:"name"`
		Provider  string     `json:"provider"`
		Instances []instance `json:"instances"`
	}
	var resources []resourceJSON
	for _, in := range instances {
		typ, name, _ := strings.Cut(in.Address, ".")
		entry, ok := schemas.ResourceSchemas[typ]
		if !ok {
			t.Fatalf("the official provider has no resource type %s", typ)
		}
		attrs := map[string]any{}
		for a := range entry.Block.Attributes {
			attrs[a] = nil
		}
		for a, v := range in.Attrs {
			if _, known := entry.Block.Attributes[a]; !known {
				t.Fatalf("%s: the official provider's schema has no attribute %q", in.Address, a)
			}
			attrs[a] = v
		}
		for _, a := range in.Without {
			delete(attrs, a)
		}
		version := entry.Version
		if in.version != nil {
			version = *in.version
		}
		var sensitive [][]pathStepJSON
		// Terraform lists every sensitive attribute of the schema under sensitive_attributes, null or not.
		for a, def := range entry.Block.Attributes {
			if _, kept := attrs[a]; def.Sensitive && kept {
				sensitive = append(sensitive, []pathStepJSON{{Type: "get_attr", Value: a}})
			}
			// And the sensitive attributes of a single nested object the instance holds.
			if obj, isObject := attrs[a].(map[string]any); isObject && def.NestedType != nil && def.NestedType.NestingMode == "single" {
				for child, c := range def.NestedType.Attributes {
					if _, kept := obj[child]; c.Sensitive && kept {
						sensitive = append(sensitive, []pathStepJSON{{Type: "get_attr", Value: a}, {Type: "get_attr", Value: child}})
					}
				}
			}
		}
		resources = append(resources, resourceJSON{
			Mode: "managed", Type: typ, Name: name, Provider: `provider["` + OfficialProviderAddress + `"]`,
			Instances: []instance{{SchemaVersion: version, Attributes: attrs, SensitiveAttributes: sensitive, Dependencies: in.dependsOn}},
		})
	}
	sort.Slice(resources, func(i, j int) bool { return resources[i].Type+resources[i].Name < resources[j].Type+resources[j].Name })
	out, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 1,
		"lineage":   "4b1d0c1a-0f1c-4e2a-9d5e-6f0f6a6e7b01",
		"outputs":   map[string]any{},
		"resources": resources, "check_results": nil,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// pathStepJSON is one step of an attribute path in a state file's sensitive_attributes.
type pathStepJSON struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// officialProviderBlock is the provider block of a configuration written for the official provider, pointed
// at this environment: its attribute names, timeouts as its nested attribute.
func (e *TestEnv) OfficialProviderBlock() string {
	return fmt.Sprintf(`
terraform {
  required_providers {
    buildkite = {
      source = "ci-rest/buildkite" # was "buildkite/buildkite"
    }
  }
}

provider "buildkite" {
  organization = %q
  api_token    = %q
  rest_url     = %q
  graphql_url  = %q
  timeouts = {
    create = "60s"
    read   = "60s"
  }
}
`, e.Org, e.Token, e.URL, e.GraphQLURL)
}

// migrate moves a workspace from the official provider, in a fresh directory: mainTF (its configuration,
// in its style, with source already changed) and state (officialState's) are written; `terraform state
// replace-provider` relabels the state; then `plan -refresh=false`, `plan`, `apply -refresh-only` and `plan`
// must find nothing to create, replace, update or destroy. The provider is served in this process (so it
// reads this process's environment, not the CLI's). It returns the working directory.
func (e *TestEnv) Migrate(t *testing.T, mainTF string, state []byte) *CLIWorkdir {
	t.Helper()
	w := e.ReplaceProvider(t, mainTF, state)
	w.ExpectNoChanges("-refresh=false")
	w.ExpectNoChanges()
	w.MustRun("apply", "-refresh-only", "-auto-approve", "-no-color", "-input=false")
	w.ExpectNoChanges()
	return w
}

// replaceProvider is the first half of migrate: the workspace written, its state relabelled with
// `terraform state replace-provider`, and `terraform init` run, against this provider served in process.
func (e *TestEnv) ReplaceProvider(t *testing.T, mainTF string, state []byte) *CLIWorkdir {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string][]byte{"main.tf": []byte(mainTF), "terraform.tfstate": state} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w := Reattached(t, TerraformCLI(t), dir, e.serveInProcessAt(t, ourProviderAddress))
	official := OfficialProviderAddress
	if m := stateProvider.FindSubmatch(state); m != nil {
		official = string(m[1])
	}
	w.MustRun("state", "replace-provider", "-auto-approve", "-no-color", official, ourProviderAddress)
	w.MustRun("init", "-no-color", "-input=false")
	return w
}

// planChanges matches what a plan that changes something prints.
var planChanges = regexp.MustCompile(`will be created|will be destroyed|must be replaced|will be updated in-place|will be read during apply|Plan: \d+ to add`)

// expectRefused runs `terraform <args>` (a plan or an apply), which must fail without planning anything, and
// checks that its errors say every one of wants (the instance's address, the attribute). It returns the
// output.
func (w *CLIWorkdir) ExpectRefused(args []string, wants ...string) string {
	w.t.Helper()
	out, err := w.Run(append(args, "-no-color", "-input=false")...)
	if err == nil {
		w.t.Fatalf("terraform %s succeeded; it must refuse the state", strings.Join(args, " "))
	}
	if m := planChanges.FindString(out); m != "" {
		w.t.Errorf("terraform %s planned a change (%q) from a state it must refuse", strings.Join(args, " "), m)
	}
	// The CLI wraps its messages: compare with every run of white space as one space.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range wants {
		if !strings.Contains(flat, want) {
			w.t.Errorf("terraform %s: the output does not say %q", strings.Join(args, " "), want)
		}
	}
	return out
}

// stateAttributes reads the attributes of the instance at address from the workspace's state file.
func (w *CLIWorkdir) StateAttributes(address string) map[string]any {
	w.t.Helper()
	raw, err := os.ReadFile(filepath.Join(w.Dir, "terraform.tfstate"))
	if err != nil {
		w.t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		w.t.Fatal(err)
	}
	for _, r := range state.Resources {
		if r.Type+"."+r.Name == address && len(r.Instances) == 1 {
			return r.Instances[0].Attributes
		}
	}
	w.t.Fatalf("%s is not in the state", address)
	return nil
}

// officialWorkspace is a workspace as the official provider left it, built type by type over objects
// created in the emulator: its configuration, in that provider's style, and its state's instances, as that
// provider stored them. What several types need (a cluster, a team) is created once.
type OfficialWorkspace struct {
	T         *testing.T
	E         *TestEnv
	Config    strings.Builder
	Instances []OfficialInstance

	Cluster  *buildkite.Cluster  // buildkite_cluster.main
	Queue    *buildkite.Queue    // buildkite_cluster_queue.linux
	Team     *buildkite.Team     // buildkite_team.platform
	Pipeline *buildkite.Pipeline // buildkite_pipeline.app
}

func NewOfficialWorkspace(t *testing.T, e *TestEnv) *OfficialWorkspace {
	return &OfficialWorkspace{T: t, E: e}
}

// add appends a resource's configuration and its state's instance.
func (w *OfficialWorkspace) add(config string, in OfficialInstance) {
	w.Config.WriteString(config)
	w.Instances = append(w.Instances, in)
}

// state is the workspace's state file.
func (w *OfficialWorkspace) State() []byte { return OfficialState(w.T, w.Instances...) }

// must fails the test on a seeding error.
func (w *OfficialWorkspace) must(err error) {
	w.T.Helper()
	if err != nil {
		w.T.Fatalf("seeding the workspace: %v", err)
	}
}

func (w *OfficialWorkspace) AddCluster() { w.withCluster() }

// withCluster is buildkite_cluster.main, added on first use.
func (w *OfficialWorkspace) withCluster() *buildkite.Cluster {
	if w.Cluster != nil {
		return w.Cluster
	}
	c, err := w.E.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{
		Name: w.E.Name("ci"), Description: PtrTo("Where builds run"), Emoji: PtrTo(":rocket:"), Color: PtrTo("#A8D5FF"),
	})
	w.must(err)
	w.T.Cleanup(func() { _ = w.E.Client.Clusters.Delete(context.Background(), c.ID) })
	w.Cluster = c
	w.add(fmt.Sprintf(`
resource "buildkite_cluster" "main" {
  name        = %q
  description = "Where builds run"
  emoji       = ":rocket:"
  color       = "#A8D5FF"
}
`, c.Name), OfficialInstance{Address: "buildkite_cluster.main", Attrs: map[string]any{
		"id": kit.GraphQLID("Cluster", c.ID), "uuid": c.ID, "name": c.Name,
		"description": c.Description, "emoji": c.Emoji, "color": c.Color,
	}})
	return c
}

func (w *OfficialWorkspace) AddQueue() { w.withQueue() }

// withQueue is buildkite_cluster_queue.linux, a hosted queue whose agents its provider set through GraphQL
// (here over REST: the shape on create, then the image).
func (w *OfficialWorkspace) withQueue() *buildkite.Queue {
	if w.Queue != nil {
		return w.Queue
	}
	c := w.withCluster()
	q, err := w.E.Client.Queues.Create(context.Background(), c.ID, buildkite.QueueCreate{
		Key: "linux", Description: PtrTo("Linux agents"), RetryAgentAffinity: PtrTo("prefer-different"),
		HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: "LINUX_AMD64_2X4"},
	})
	w.must(err)
	q, err = w.E.Client.Queues.Update(context.Background(), c.ID, q.ID, buildkite.QueueUpdate{
		HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: "LINUX_AMD64_2X4", AgentImageRef: buildkite.Value("ubuntu:24.04")},
	})
	w.must(err)
	w.Queue = q
	w.add(`
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
`, OfficialInstance{Address: "buildkite_cluster_queue.linux", dependsOn: []string{"buildkite_cluster.main"}, Attrs: map[string]any{
		"id": kit.GraphQLID("ClusterQueue", q.ID), "uuid": q.ID, "cluster_id": kit.GraphQLID("Cluster", c.ID), "cluster_uuid": c.ID,
		"key": q.Key, "description": q.Description, "dispatch_paused": false, "retry_agent_affinity": q.RetryAgentAffinity,
		"hosted_agents": map[string]any{"instance_shape": "LINUX_AMD64_2X4", "linux": map[string]any{"agent_image_ref": "ubuntu:24.04"}, "mac": nil},
	}})
	return q
}

// addMacQueue is buildkite_cluster_queue.mac, a hosted macOS queue whose settings its provider set through
// GraphQL (here: the queue over REST, then the settings through clusterQueueUpdate).
func (w *OfficialWorkspace) AddMacQueue() {
	c := w.withCluster()
	ctx := context.Background()
	q, err := w.E.Client.Queues.Create(ctx, c.ID, buildkite.QueueCreate{
		Key: "mac", HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: "MACOS_ARM64_M4_6X28"},
	})
	w.must(err)
	_, err = w.E.Client.Queues.SetMacSettings(ctx, q.GraphQLID, "MACOS_ARM64_M4_6X28",
		buildkite.MacSettingsWrite{XcodeVersion: PtrTo("16.2"), MacosVersion: PtrTo("SEQUOIA")})
	w.must(err)
	w.add(`
resource "buildkite_cluster_queue" "mac" {
  cluster_id = buildkite_cluster.main.id
  key        = "mac"
  hosted_agents = {
    instance_shape = "MACOS_ARM64_M4_6X28"
    mac = {
      xcode_version = "16.2"
      macos_version = "SEQUOIA"
    }
  }
}
`, OfficialInstance{Address: "buildkite_cluster_queue.mac", dependsOn: []string{"buildkite_cluster.main"}, Attrs: map[string]any{
		"id": kit.GraphQLID("ClusterQueue", q.ID), "uuid": q.ID, "cluster_id": kit.GraphQLID("Cluster", c.ID), "cluster_uuid": c.ID,
		"key": q.Key, "description": nil, "dispatch_paused": false, "retry_agent_affinity": q.RetryAgentAffinity,
		"hosted_agents": map[string]any{"instance_shape": "MACOS_ARM64_M4_6X28", "linux": nil,
			"mac": map[string]any{"xcode_version": "16.2", "macos_version": "SEQUOIA"}},
	}})
}

func (w *OfficialWorkspace) AddAgentToken() {
	c := w.withCluster()
	tok, err := w.E.Client.ClusterTokens.Create(context.Background(), c.ID, buildkite.ClusterTokenCreate{
		Description: "Autoscaled agents", AllowedIPAddresses: PtrTo("10.0.0.0/8 192.168.0.0/16"),
	})
	w.must(err)
	w.add(`
resource "buildkite_cluster_agent_token" "agents" {
  cluster_id           = buildkite_cluster.main.id
  description          = "Autoscaled agents"
  allowed_ip_addresses = ["10.0.0.0/8", "192.168.0.0/16"]
}
`, OfficialInstance{Address: "buildkite_cluster_agent_token.agents", dependsOn: []string{"buildkite_cluster.main"}, Attrs: map[string]any{
		"id": kit.GraphQLID("ClusterToken", tok.ID), "uuid": tok.ID, "cluster_id": kit.GraphQLID("Cluster", c.ID), "cluster_uuid": c.ID,
		"description": tok.Description, "allowed_ip_addresses": []string{"10.0.0.0/8", "192.168.0.0/16"},
		// The secret its provider kept from the create response.
		"token": "moved-secret",
	}})
}

func (w *OfficialWorkspace) AddUnclusteredAgentToken() {
	desc := "Unclustered agents"
	tok, err := w.E.Client.AgentTokens.Create(context.Background(), &desc)
	w.must(err)
	w.add(`
resource "buildkite_agent_token" "legacy" {
  description = "Unclustered agents"
}
`, OfficialInstance{Address: "buildkite_agent_token.legacy", Attrs: map[string]any{
		"id": tok.ID, "uuid": tok.UUID, "description": desc,
		// The secret its provider kept from the create response.
		"token": "moved-secret",
	}})
}

func (w *OfficialWorkspace) AddDefaultQueue() {
	c, q := w.withCluster(), w.withQueue()
	_, err := w.E.Client.Clusters.Update(context.Background(), c.ID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Value(q.ID)})
	w.must(err)
	w.add(`
resource "buildkite_cluster_default_queue" "main" {
  cluster_id = buildkite_cluster.main.id
  queue_id   = buildkite_cluster_queue.linux.id
}
`, OfficialInstance{Address: "buildkite_cluster_default_queue.main",
		dependsOn: []string{"buildkite_cluster.main", "buildkite_cluster_queue.linux"},
		Attrs: map[string]any{
			"id": kit.GraphQLID("Cluster", c.ID), "uuid": c.ID, "cluster_id": kit.GraphQLID("Cluster", c.ID),
			"queue_id": kit.GraphQLID("ClusterQueue", q.ID), "key": q.Key,
		}})
}

func (w *OfficialWorkspace) AddTeam() { w.withTeam() }

// withTeam is buildkite_team.platform, written as its provider's documentation shows (upper-case enums).
func (w *OfficialWorkspace) withTeam() *buildkite.Team {
	if w.Team != nil {
		return w.Team
	}
	team, err := w.E.Client.Teams.Create(context.Background(), buildkite.TeamWrite{
		Name: w.E.Name("platform"), Privacy: "secret", DefaultMemberRole: "member", MembersCanCreatePipelines: true,
		MembersCanCreateSuites: PtrTo(true),
	})
	w.must(err)
	w.T.Cleanup(func() { _ = w.E.Client.Teams.Delete(context.Background(), team.ID) })
	w.Team = team
	w.add(fmt.Sprintf(`
resource "buildkite_team" "platform" {
  name                         = %q
  privacy                      = "SECRET"
  default_team                 = false
  default_member_role          = "MEMBER"
  members_can_create_pipelines = true
  members_can_create_suites    = true
}
`, team.Name), OfficialInstance{Address: "buildkite_team.platform", Attrs: map[string]any{
		"id": kit.GraphQLID("Team", team.ID), "uuid": team.ID, "name": team.Name, "slug": team.Slug, "description": "",
		"privacy": "SECRET", "default_team": false, "default_member_role": "MEMBER",
		"members_can_create_pipelines": true, "members_can_create_suites": true, "members_can_create_registries": false,
		"members_can_destroy_registries": false, "members_can_destroy_packages": false,
	}})
	return team
}

// addAssociation adds an association as its provider's state holds it: its id the GraphQL ID of the
// association itself (a UUID the REST API never shows), its sides GraphQL IDs.
func (w *OfficialWorkspace) addAssociation(config, address, typ, own string, attrs map[string]any) {
	attrs["id"], attrs["uuid"] = kit.GraphQLID(typ, own), own
	w.add(config, OfficialInstance{Address: address, dependsOn: []string{"buildkite_team.platform"}, Attrs: attrs})
}

func (w *OfficialWorkspace) AddTeamMember() {
	team := w.withTeam()
	members, err := w.E.Client.Organizations.ListMembers(context.Background())
	w.must(err)
	var user string
	for _, m := range members {
		if m.Email == w.E.SecondMemberEmail() {
			user = m.ID
		}
	}
	_, err = w.E.Client.TeamMembers.Create(context.Background(), team.ID, buildkite.TeamMemberCreate{UserID: user, Role: "maintainer"})
	w.must(err)
	w.addAssociation(fmt.Sprintf(`
data "buildkite_organization_member" "second" {
  email = %q
}

resource "buildkite_team_member" "second" {
  team_id = buildkite_team.platform.id
  user_id = data.buildkite_organization_member.second.id
  role    = "MAINTAINER"
}
`, w.E.SecondMemberEmail()), "buildkite_team_member.second", "TeamMember", "6f0c6d2e-5b1a-4c3d-9e8f-7a6b5c4d3e2f", map[string]any{
		"team_id": kit.GraphQLID("Team", team.ID), "user_id": kit.GraphQLID("User", user), "role": "MAINTAINER",
	})
}

// addPipelineTeam gives the team access to a pipeline the configuration does not manage, named by the
// GraphQL ID its users paste.
func (w *OfficialWorkspace) AddPipelineTeam() {
	team := w.withTeam()
	p := w.E.PipelineNamed(w.E.Name("website"))
	_, err := w.E.Client.TeamPipelines.Create(context.Background(), team.ID, buildkite.TeamPipelineCreate{PipelineID: p.ID, AccessLevel: "build_and_read"})
	w.must(err)
	pipeline := kit.GraphQLID("Pipeline", p.ID)
	w.addAssociation(fmt.Sprintf(`
resource "buildkite_pipeline_team" "website" {
  team_id      = buildkite_team.platform.id
  pipeline_id  = %q
  access_level = "BUILD_AND_READ"
}
`, pipeline), "buildkite_pipeline_team.website", "TeamPipeline", "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", map[string]any{
		"team_id": kit.GraphQLID("Team", team.ID), "pipeline_id": pipeline, "access_level": "BUILD_AND_READ",
	})
}

// addTestSuiteTeam names a suite the team owns (and so manages) by GraphQL ID.
func (w *OfficialWorkspace) AddTestSuiteTeam() {
	team := w.withTeam()
	suite := w.E.SeedSuite(w.E.Name("e2e"), team.ID)
	w.addAssociation(fmt.Sprintf(`
resource "buildkite_test_suite_team" "e2e" {
  team_id       = buildkite_team.platform.id
  test_suite_id = %q
  access_level  = "MANAGE_AND_READ"
}
`, kit.GraphQLID("Suite", suite.ID)), "buildkite_test_suite_team.e2e", "TeamSuite", "8b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e", map[string]any{
		"team_id": kit.GraphQLID("Team", team.ID), "test_suite_id": kit.GraphQLID("Suite", suite.ID), "access_level": "MANAGE_AND_READ",
	})
}

// addTeamRegistry gives the team read access to a registry the configuration does not manage, named by the
// GraphQL ID its users paste; the access's id and uuid are the service's, as the official provider keeps them.
func (w *OfficialWorkspace) AddTeamRegistry() {
	team := w.withTeam()
	reg := w.E.SeedRegistry(w.E.Name("shared-gems"))
	g, err := w.E.Client.TeamRegistries.Create(context.Background(), team.ID, reg.ID, "READ_ONLY")
	w.must(err)
	registry := kit.GraphQLID("Registry", reg.ID)
	w.add(fmt.Sprintf(`
resource "buildkite_team_registry" "gems" {
  team_id      = buildkite_team.platform.id
  registry_id  = %q
  access_level = "READ_ONLY"
}
`, registry), OfficialInstance{Address: "buildkite_team_registry.gems", dependsOn: []string{"buildkite_team.platform"}, Attrs: map[string]any{
		"id": g.ID, "uuid": g.UUID, "team_id": kit.GraphQLID("Team", team.ID), "registry_id": registry, "access_level": "READ_ONLY",
	}})
}

func (w *OfficialWorkspace) AddPipeline() { w.addPipelineOfVersion(1) }

func (w *OfficialWorkspace) AddPipelineV0() { w.addPipelineOfVersion(0) }

// addPipelineOfVersion adds a pipeline in the cluster, with the team as its default team, step timeouts,
// tags, provider settings and the attributes only GraphQL sets, as its provider's schema version (1, or 0,
// which held provider_settings as a list of one object and lacked the attributes added since) stores it.
func (w *OfficialWorkspace) addPipelineOfVersion(version int64) {
	c, team := w.withCluster(), w.withTeam()
	const steps = "steps:\n  - label: build\n    command: make\n"
	in := buildkite.PipelineCreate{
		Name: w.E.Name("app"), ClusterID: &c.ID, Configuration: PtrTo(steps), Tags: []string{"go"},
		Teams:                     map[string]string{team.ID: "manage_build_and_read"},
		DefaultCommandStepTimeout: PtrTo(int64(30)),
		ProviderSettings:          map[string]any{"trigger_mode": "code", "build_pull_requests": true},
	}
	if version > 0 { // what its provider set (through GraphQL), here over REST; version 0 lacked them
		in.Emoji, in.Color, in.CloneMirrorURL = PtrTo(":rocket:"), PtrTo("#A8D5FF"), PtrTo("https://mirror.example.com/acme/app.git")
	}
	p := w.E.SeedPipeline(in)
	w.Pipeline = p
	// provider_settings as its provider read them back: every key of its schema, null where REST has none.
	settings := map[string]any{}
	for _, key := range PipelineSettingKeys() {
		settings[key] = p.Provider.Settings[key]
	}
	attrs := map[string]any{
		"id": kit.GraphQLID("Pipeline", p.ID), "uuid": p.ID, "name": p.Name, "slug": p.Slug, "repository": p.Repository,
		"steps": steps, "description": "", "default_branch": p.DefaultBranch, "branch_configuration": nil,
		"skip_intermediate_builds": false, "skip_intermediate_builds_branch_filter": "",
		"cancel_intermediate_builds": false, "cancel_intermediate_builds_branch_filter": "", "allow_rebuilds": true,
		"cluster_id": kit.GraphQLID("Cluster", c.ID), "cluster_name": c.Name, "default_team_id": kit.GraphQLID("Team", team.ID),
		"default_timeout_in_minutes": 30, "maximum_timeout_in_minutes": nil, "visibility": "PRIVATE", "tags": []string{"go"},
		"emoji": ":rocket:", "color": "#A8D5FF", "clone_mirror_url": "https://mirror.example.com/acme/app.git",
		"pipeline_template_id": nil, "provider_settings": settings, "archived": false,
		"webhook_url": p.Provider.WebhookURL, "badge_url": p.BadgeURL,
	}
	inst := OfficialInstance{Address: "buildkite_pipeline.app", Attrs: attrs,
		dependsOn: []string{"buildkite_cluster.main", "buildkite_team.platform"}}
	extra := `
  emoji                      = ":rocket:"
  color                      = "#A8D5FF"
  clone_mirror_url           = "https://mirror.example.com/acme/app.git"
  visibility                 = "PRIVATE"`
	if version == 0 {
		attrs["provider_settings"] = []any{settings}
		inst.version = &version
		inst.Without = []string{"uuid", "cluster_name", "emoji", "color", "clone_mirror_url", "visibility", "archived", "pipeline_template_id"}
		extra = ""
	}
	w.add(fmt.Sprintf(`
resource "buildkite_pipeline" "app" {
  name                       = %q
  repository                 = %q
  cluster_id                 = buildkite_cluster.main.id
  default_team_id            = buildkite_team.platform.id
  steps                      = %q
  tags                       = ["go"]
  default_timeout_in_minutes = 30%s
  provider_settings = {
    trigger_mode        = "code"
    build_pull_requests = true
  }
}
`, p.Name, p.Repository, steps, extra), inst)
}

// addPipelineEmptySettings is buildkite_pipeline.app under `provider_settings = {}`, its state holding every
// key blank as the official provider's test "create pipeline with empty attributes" expects it to.
func (w *OfficialWorkspace) AddPipelineEmptySettings() {
	w.AddPipeline()
	config := w.Config.String()
	block := "  provider_settings = {\n    trigger_mode        = \"code\"\n    build_pull_requests = true\n  }\n"
	if !strings.Contains(config, block) {
		w.T.Fatalf("the pipeline's configuration has no provider_settings block to empty:\n%s", config)
	}
	w.Config.Reset()
	w.Config.WriteString(strings.Replace(config, block, "  provider_settings = {}\n", 1))
	blank := map[string]any{}
	for k, v := range BlankPipelineSettings() {
		blank[k] = v
	}
	w.Instances[len(w.Instances)-1].Attrs["provider_settings"] = blank
}

// withPipeline is buildkite_pipeline.app at its provider's current schema version, added on first use.
func (w *OfficialWorkspace) withPipeline() *buildkite.Pipeline {
	if w.Pipeline == nil {
		w.AddPipeline()
	}
	return w.Pipeline
}

// addSchedule adds a nightly schedule of the pipeline, without env: its provider stores that as null.
func (w *OfficialWorkspace) AddSchedule() {
	p := w.withPipeline()
	s, err := w.E.Client.PipelineSchedules.Create(context.Background(), p.Slug, buildkite.PipelineScheduleWrite{
		Cronline: "0 2 * * *", Label: PtrTo("Nightly"), Branch: PtrTo("main"), Commit: PtrTo("HEAD"), Enabled: PtrTo(true),
		Env: map[string]string{},
	})
	w.must(err)
	w.add(`
resource "buildkite_pipeline_schedule" "nightly" {
  pipeline_id = buildkite_pipeline.app.id
  label       = "Nightly"
  cronline    = "0 2 * * *"
  branch      = "main"
}
`, OfficialInstance{Address: "buildkite_pipeline_schedule.nightly", dependsOn: []string{"buildkite_pipeline.app"}, Attrs: map[string]any{
		"id": kit.GraphQLID("PipelineSchedule", s.ID), "uuid": s.ID, "pipeline_id": kit.GraphQLID("Pipeline", p.ID),
		"label": "Nightly", "cronline": "0 2 * * *", "branch": "main", "commit": "HEAD", "message": nil, "env": nil, "enabled": true,
	}})
}

// addSecret adds a secret of the cluster, named by the cluster's UUID as its provider's documentation shows.
func (w *OfficialWorkspace) AddSecret() {
	c := w.withCluster()
	sec, err := w.E.Client.ClusterSecrets.Create(context.Background(), c.ID, buildkite.ClusterSecretCreate{
		Key: "DEPLOY_KEY", Value: "moved-value", Description: PtrTo("Deploys"),
	})
	w.must(err)
	stamp := func(t *time.Time) any {
		if t == nil {
			return nil
		}
		return t.UTC().Format(time.RFC3339)
	}
	w.add(`
resource "buildkite_cluster_secret" "deploy" {
  cluster_id  = buildkite_cluster.main.uuid
  key         = "DEPLOY_KEY"
  value       = "moved-value"
  description = "Deploys"
}
`, OfficialInstance{Address: "buildkite_cluster_secret.deploy", dependsOn: []string{"buildkite_cluster.main"}, Attrs: map[string]any{
		"id": sec.ID, "cluster_id": c.ID, "key": "DEPLOY_KEY", "value": "moved-value", "description": "Deploys",
		"created_at": stamp(sec.CreatedAt), "updated_at": stamp(sec.UpdatedAt),
	}})
}

// addHostedAgentImage adds an image built in the cluster, which its hosted queue makes hosted; its provider
// waited for the build, so its state holds the image READY with its image_ref.
func (w *OfficialWorkspace) AddHostedAgentImage() {
	c, _ := w.withCluster(), w.withQueue()
	ctx := context.Background()
	img, err := w.E.Client.AgentImages.Create(ctx, c.ID, buildkite.AgentImageCreate{Name: "ruby", Dockerfile: "RUN apt-get install -y ruby-full\n"})
	w.must(err)
	for deadline := time.Now().Add(10 * time.Second); img.Status == buildkite.AgentImageBuilding && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		img, err = w.E.Client.AgentImages.Poll(ctx, c.ID, img.ID)
		w.must(err)
	}
	if img.Status != buildkite.AgentImageReady {
		w.T.Fatalf("seeding the workspace: image %s is %s, not READY", img.ID, img.Status)
	}
	w.add(`
resource "buildkite_hosted_agent_image" "ruby" {
  cluster_id = buildkite_cluster.main.uuid
  name       = "ruby"
  dockerfile = <<-EOT
    RUN apt-get install -y ruby-full
  EOT

  depends_on = [buildkite_cluster_queue.linux]
}
`, OfficialInstance{Address: "buildkite_hosted_agent_image.ruby", dependsOn: []string{"buildkite_cluster.main", "buildkite_cluster_queue.linux"},
		Attrs: map[string]any{
			"id": img.ID, "cluster_id": c.ID, "name": "ruby", "dockerfile": "RUN apt-get install -y ruby-full\n",
			"status": img.Status, "image_ref": kit.Deref(img.ImageRef),
		}})
}

// addMaintainer makes the team a maintainer of the cluster (its provider's schema version 1).
func (w *OfficialWorkspace) AddMaintainer() {
	c, team := w.withCluster(), w.withTeam()
	m, err := w.E.Client.ClusterMaintainers.Create(context.Background(), c.ID, buildkite.ClusterMaintainerCreate{TeamID: team.ID})
	w.must(err)
	w.add(`
resource "buildkite_cluster_maintainer" "platform" {
  cluster_uuid = buildkite_cluster.main.uuid
  team_uuid    = buildkite_team.platform.uuid
}
`, OfficialInstance{Address: "buildkite_cluster_maintainer.platform",
		dependsOn: []string{"buildkite_cluster.main", "buildkite_team.platform"},
		Attrs: map[string]any{
			"id": m.ID, "cluster_uuid": c.ID, "team_uuid": team.ID, "user_uuid": nil, "actor_uuid": team.ID,
			"actor_type": "team", "actor_name": team.Name, "actor_email": nil, "actor_slug": team.Slug,
		}})
}

func (w *OfficialWorkspace) AddTemplate() {
	const steps = "steps:\n  - command: make release\n"
	tpl, err := w.E.Client.PipelineTemplates.Create(context.Background(), buildkite.PipelineTemplateCreate{
		Name: w.E.Name("standard"), Configuration: steps, Available: PtrTo(true),
	})
	w.must(err)
	w.T.Cleanup(func() { _ = w.E.Client.PipelineTemplates.Delete(context.Background(), tpl.UUID) })
	w.add(fmt.Sprintf(`
resource "buildkite_pipeline_template" "standard" {
  name          = %q
  configuration = %q
  available     = true
}
`, tpl.Name, steps), OfficialInstance{Address: "buildkite_pipeline_template.standard", Attrs: map[string]any{
		"id": kit.GraphQLID("PipelineTemplate", tpl.UUID), "uuid": tpl.UUID, "name": tpl.Name, "configuration": steps,
		"description": nil, "available": true,
	}})
}

// addRule adds a rule between two pipelines named by slug, its value as jsonencode wrote it (keys sorted,
// no blanks), with a description, which its provider set through GraphQL.
func (w *OfficialWorkspace) AddRule() {
	source, target := w.E.PipelineNamed(w.E.Name("deploy")), w.E.PipelineNamed(w.E.Name("release"))
	value := []byte(`{"source_pipeline":"` + source.ID + `","target_pipeline":"` + target.ID + `","conditions":["source.build.branch == 'main'"]}`)
	rule, err := w.E.Client.Rules.Create(context.Background(), buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
	w.must(err)
	w.T.Cleanup(func() { _ = w.E.Client.Rules.Delete(context.Background(), rule.UUID) })
	// The official provider creates it with its description through GraphQL.
	org, err := w.E.Client.Organizations.Get(context.Background())
	w.must(err)
	_, err = w.E.Client.Rules.Update(context.Background(), buildkite.RuleUpdate{
		OrganizationID: org.GraphQLID, ID: rule.GraphQLID, Description: PtrTo("Deploys trigger releases"), Value: value,
	})
	w.must(err)
	w.add(fmt.Sprintf(`
resource "buildkite_organization_rule" "trigger" {
  type        = "pipeline.trigger_build.pipeline"
  description = "Deploys trigger releases"
  value = jsonencode({
    source_pipeline = %q
    target_pipeline = %q
    conditions      = ["source.build.branch == 'main'"]
  })
}
`, source.Slug, target.Slug), OfficialInstance{Address: "buildkite_organization_rule.trigger", Attrs: map[string]any{
		"id": kit.GraphQLID("Rule", rule.UUID), "uuid": rule.UUID, "type": rule.Type,
		"value":       `{"conditions":["source.build.branch == 'main'"],"source_pipeline":"` + source.Slug + `","target_pipeline":"` + target.Slug + `"}`,
		"description": "Deploys trigger releases", "source_type": "PIPELINE", "source_uuid": source.ID,
		"target_type": "PIPELINE", "target_uuid": target.ID, "effect": strings.ToUpper(rule.Effect), "action": strings.ToUpper(rule.Action),
	}})
}

func (w *OfficialWorkspace) AddTestSuite() {
	team := w.withTeam()
	suite := w.E.SeedSuite(w.E.Name("specs"), team.ID, func(in *buildkite.TestSuiteCreate) {
		in.Emoji, in.Color, in.ApplicationName = PtrTo(":rspec:"), PtrTo("#E0F1FF"), PtrTo("web")
		in.OIDCPolicy = PtrTo(OfficialOIDCPolicy) // its provider sent it over REST too
	})
	w.add(fmt.Sprintf(`
resource "buildkite_test_suite" "specs" {
  name             = %q
  default_branch   = "main"
  team_owner_id    = buildkite_team.platform.id
  emoji            = ":rspec:"
  color            = "#E0F1FF"
  application_name = "web"
  oidc_policy      = %q
}
`, suite.Name, OfficialOIDCPolicy), OfficialInstance{Address: "buildkite_test_suite.specs",
		dependsOn: []string{"buildkite_team.platform"}, Attrs: map[string]any{
			"id": kit.GraphQLID("Suite", suite.ID), "uuid": suite.ID, "name": suite.Name, "slug": suite.Slug,
			"default_branch": "main", "team_owner_id": kit.GraphQLID("Team", team.ID), "emoji": ":rspec:",
			"color": "#E0F1FF", "application_name": "web", "oidc_policy": OfficialOIDCPolicy,
			"api_token": "moved-suite-token",
		}})
}

// addTestSuiteUnmanagedFields is a suite whose color, application name and OIDC policy were set outside the
// configuration: the official provider keeps them (Optional+Computed, UseStateForUnknown), and so must the
// move.
func (w *OfficialWorkspace) AddTestSuiteUnmanagedFields() {
	team := w.withTeam()
	suite := w.E.SeedSuite(w.E.Name("ui"), team.ID, func(in *buildkite.TestSuiteCreate) {
		in.Color, in.ApplicationName = PtrTo("#BADA55"), PtrTo("web")
		in.OIDCPolicy = PtrTo(OfficialOIDCPolicy)
	})
	w.add(fmt.Sprintf(`
resource "buildkite_test_suite" "ui" {
  name           = %q
  default_branch = "main"
  team_owner_id  = buildkite_team.platform.id
}
`, suite.Name), OfficialInstance{Address: "buildkite_test_suite.ui",
		dependsOn: []string{"buildkite_team.platform"}, Attrs: map[string]any{
			"id": kit.GraphQLID("Suite", suite.ID), "uuid": suite.ID, "name": suite.Name, "slug": suite.Slug,
			"default_branch": "main", "team_owner_id": kit.GraphQLID("Team", team.ID),
			"color": "#BADA55", "application_name": "web", "oidc_policy": OfficialOIDCPolicy, "api_token": "moved-ui-token",
		}})
}

func (w *OfficialWorkspace) AddRegistry() {
	team := w.withTeam()
	reg, err := w.E.Client.Registries.Create(context.Background(), buildkite.RegistryCreate{
		Name: w.E.Name("gems"), Ecosystem: "ruby", Emoji: PtrTo(":gem:"), TeamIDs: []string{team.ID}, OIDCPolicy: PtrTo(OfficialOIDCPolicy),
	})
	w.must(err)
	w.T.Cleanup(func() { _ = w.E.Client.Registries.Delete(context.Background(), reg.Slug) })
	w.add(fmt.Sprintf(`
resource "buildkite_registry" "gems" {
  name        = %q
  ecosystem   = "ruby"
  emoji       = ":gem:"
  oidc_policy = %q
  team_ids    = [buildkite_team.platform.uuid]
}
`, reg.Name, OfficialOIDCPolicy), OfficialInstance{Address: "buildkite_registry.gems",
		dependsOn: []string{"buildkite_team.platform"}, Attrs: map[string]any{
			"id": kit.GraphQLID("Registry", reg.ID), "uuid": reg.ID, "name": reg.Name, "slug": reg.Slug, "ecosystem": "ruby",
			"description": nil, "emoji": ":gem:", "color": nil, "oidc_policy": OfficialOIDCPolicy, "public": false,
			// What its GraphQL API answered; this provider keeps it and never sends it.
			"registry_type": "PACKAGE", "team_ids": []string{team.ID},
		}})
}

// addOrganization takes over the organization's settings as the official provider's main branch stored
// them: an allowlist, token settings and 2FA enforced (which only its GraphQL API set).
func (w *OfficialWorkspace) AddOrganization() {
	w.E.KeepAPISettings()
	ctx := context.Background()
	o, err := w.E.Client.Organizations.Get(ctx)
	w.must(err)
	ips, days, restrict := []string{"0.0.0.0/0", "192.0.2.0/24"}, int64(90), true
	_, err = w.E.Client.OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPAddresses: AllowlistUpdate(ips), RevokeInactiveTokensAfterDays: RevocationUpdate(days), RestrictUserAPITokenCreation: buildkite.Value(restrict)})
	w.must(err)
	// The official provider applied enforce_2fa through GraphQL; this one reads it back there.
	w.E.Keep2FA()
	_, err = w.E.Client.Organizations.SetTwoFactorEnforced(ctx, true)
	w.must(err)
	w.add(`
resource "buildkite_organization" "settings" {
  allowed_api_ip_addresses         = ["0.0.0.0/0", "192.0.2.0/24"]
  enforce_2fa                      = true
  revoke_inactive_tokens_after     = "DAYS_90"
  restrict_user_api_token_creation = true
}
`, OfficialInstance{Address: "buildkite_organization.settings", Attrs: map[string]any{
		"id": o.GraphQLID, "uuid": o.ID, "allowed_api_ip_addresses": []any{"0.0.0.0/0", "192.0.2.0/24"}, "enforce_2fa": true,
		"revoke_inactive_tokens_after": "DAYS_90", "restrict_user_api_token_creation": true,
	}})
}

// addOrganizationV138 is the organization as v1.38.0 stored it: no token settings in its schema, and [""]
// for an organization without an allowlist, under a configuration that does not mention one.
func (w *OfficialWorkspace) AddOrganizationV138() {
	w.E.KeepAPISettings()
	o, err := w.E.Client.Organizations.Get(context.Background())
	w.must(err)
	w.add(`
resource "buildkite_organization" "settings" {}
`, OfficialInstance{Address: "buildkite_organization.settings",
		Without: []string{"revoke_inactive_tokens_after", "restrict_user_api_token_creation"},
		Attrs:   map[string]any{"id": o.GraphQLID, "uuid": o.ID, "allowed_api_ip_addresses": []any{""}, "enforce_2fa": false}})
}

// addBanner is the organization's banner, its id the banner's GraphQL ID.
func (w *OfficialWorkspace) AddBanner() {
	w.E.KeepBanner()
	b, err := w.E.Client.OrgSettings.PutBanner(context.Background(), "Deploys are frozen on Fridays")
	w.must(err)
	w.add(`
resource "buildkite_organization_banner" "notice" {
  message = "Deploys are frozen on Fridays"
}
`, OfficialInstance{Address: "buildkite_organization_banner.notice", Attrs: map[string]any{
		"id": b.GraphQLID, "uuid": b.UUID, "message": b.Message,
	}})
}

// addPipelineWebhook is the webhook on the pipeline's GitHub repository, as the official provider stored it:
// id the webhook's ID on GitHub, pipeline_id the pipeline's GraphQL ID.
func (w *OfficialWorkspace) AddPipelineWebhook() {
	p := w.withPipeline()
	w.must(w.E.Client.Pipelines.CreateWebhook(context.Background(), p.Slug))
	w.add(`
resource "buildkite_pipeline_webhook" "app" {
  pipeline_id = buildkite_pipeline.app.id
  repository  = buildkite_pipeline.app.repository
}
`, OfficialInstance{Address: "buildkite_pipeline_webhook.app", dependsOn: []string{"buildkite_pipeline.app"},
		Attrs: map[string]any{"id": "482913377", "pipeline_id": p.GraphQLID, "repository": p.Repository, "webhook_url": p.Provider.WebhookURL}})
}

func (w *OfficialWorkspace) AddPortal() {
	ctx := context.Background()
	p, err := w.E.Client.Portals.Create(ctx, buildkite.PortalWrite{
		Name: "Build stats", Slug: w.E.Name("stats"), Query: "{ viewer { user { name } } }", AllowedIPAddresses: PtrTo("10.0.0.0/8"),
	})
	w.must(err)
	w.T.Cleanup(func() { _ = w.E.Client.Portals.Delete(context.Background(), p.Slug) })
	w.add(fmt.Sprintf(`
resource "buildkite_portal" "stats" {
  slug                 = %q
  name                 = "Build stats"
  query                = "{ viewer { user { name } } }"
  allowed_ip_addresses = "10.0.0.0/8"
}
`, p.Slug), OfficialInstance{Address: "buildkite_portal.stats", Attrs: map[string]any{
		"slug": p.Slug, "uuid": p.UUID, "name": "Build stats", "query": "{ viewer { user { name } } }", "description": nil,
		"allowed_ip_addresses": "10.0.0.0/8", "user_invokable": false, "token": "moved-portal-token",
		"created_at": p.CreatedAt.UTC().Format(time.RFC3339),
		// Its provider read created_by.uuid from a key the service does not send.
		"created_by": map[string]any{"uuid": "", "name": p.CreatedBy.Name, "email": p.CreatedBy.Email},
	}})
}

func (w *OfficialWorkspace) AddNotificationServices() {
	ctx := context.Background()
	hook, err := w.E.Client.NotificationServices.Create(ctx, buildkite.NotificationServiceCreate{Provider: "webhook", Description: PtrTo("Build hooks"),
		Settings: buildkite.NotificationServiceSettings{URL: buildkite.Value("https://example.com/hooks"), Token: buildkite.Value("moved-hook-token"),
			Events: buildkite.Value([]string{"build.finished"})}})
	w.must(err)
	_, err = w.E.Client.NotificationServices.SetEnabled(ctx, hook.ID, false)
	w.must(err)
	dd, err := w.E.Client.NotificationServices.Create(ctx, buildkite.NotificationServiceCreate{Provider: "datadog_pipeline_visibility",
		Settings: buildkite.NotificationServiceSettings{APIKey: buildkite.Value("moved-datadog-key"), DatadogTags: buildkite.Value("team:platform")}})
	w.must(err)
	for _, id := range []string{hook.ID, dd.ID} {
		w.T.Cleanup(func() { _ = w.E.Client.NotificationServices.Delete(context.Background(), id) })
	}
	w.add(`
resource "buildkite_notification_service" "hooks" {
  provider_type = "webhook"
  description   = "Build hooks"
  enabled       = false
  webhook = {
    url    = "https://example.com/hooks"
    token  = "moved-hook-token"
    events = ["build.finished"]
  }
}
`, OfficialInstance{Address: "buildkite_notification_service.hooks", Attrs: map[string]any{
		"id": hook.ID, "graphql_id": kit.Deref(hook.GraphQLID), "provider_type": "webhook", "description": "Build hooks",
		"enabled": false, "scope": "all", "created_at": hook.CreatedAt.UTC().Format(time.RFC3339),
		"webhook": map[string]any{"url": "https://example.com/hooks", "token": "moved-hook-token", "token_mode": "token",
			"version": 3, "events": []string{"build.finished"}, "tls_verify": true},
	}})
	w.add(`
resource "buildkite_notification_service" "datadog" {
  provider_type = "datadog_pipeline_visibility"
  datadog_pipeline_visibility = {
    api_key      = "moved-datadog-key"
    datadog_tags = "team:platform"
  }
}
`, OfficialInstance{Address: "buildkite_notification_service.datadog", Attrs: map[string]any{
		"id": dd.ID, "graphql_id": kit.Deref(dd.GraphQLID), "provider_type": "datadog_pipeline_visibility",
		"enabled": true, "scope": "all", "created_at": dd.CreatedAt.UTC().Format(time.RFC3339),
		"datadog_pipeline_visibility": map[string]any{"api_key": "moved-datadog-key", "datadog_site": "datadoghq.com",
			"datadog_tags": "team:platform"},
	}})
}

// officialSchemaJSON is the part of `terraform providers schema -json` the comparison reads.
type OfficialSchemaJSON struct {
	Provider        OfficialBlock            `json:"provider"`
	ResourceSchemas map[string]officialEntry `json:"resource_schemas"`
	DataSchemas     map[string]officialEntry `json:"data_source_schemas"`
}

// officialOIDCPolicy is a policy as the official provider's configurations write one.
const OfficialOIDCPolicy = "- iss: https://agent.buildkite.com\n  claims:\n    organization_slug: acme\n"

type officialEntry struct {
	Version int64         `json:"version"`
	Block   OfficialBlock `json:"block"`
}

type OfficialBlock struct {
	Attributes map[string]officialAttribute `json:"attributes"`
	BlockTypes map[string]struct {
		NestingMode string        `json:"nesting_mode"`
		Block       OfficialBlock `json:"block"`
	} `json:"block_types"`
}

type officialAttribute struct {
	Type       json.RawMessage `json:"type"`
	NestedType *struct {
		Attributes  map[string]officialAttribute `json:"attributes"`
		NestingMode string                       `json:"nesting_mode"`
	} `json:"nested_type"`
	Required  bool `json:"required"`
	Sensitive bool `json:"sensitive"`
	Optional  bool `json:"optional"`
}

func (b OfficialBlock) Flatten(prefix string, out map[string]SchemaNode) {
	for name, a := range b.Attributes {
		a.flatten(prefix+name, out)
	}
	for name, bt := range b.BlockTypes {
		out[prefix+name] = SchemaNode{Kind: "block", Typ: bt.NestingMode, Settable: true}
		bt.Block.Flatten(prefix+name+".", out)
	}
}

func (a officialAttribute) flatten(name string, out map[string]SchemaNode) {
	n := SchemaNode{Kind: "attribute", Settable: a.Required || a.Optional, Required: a.Required}
	if a.NestedType != nil {
		n.Typ = "nested:" + a.NestedType.NestingMode
		for child, c := range a.NestedType.Attributes {
			c.flatten(name+"."+child, out)
		}
	} else {
		var compact bytes.Buffer
		_ = json.Compact(&compact, a.Type)
		n.Typ = compact.String()
	}
	out[name] = n
}

// schemaNode is one attribute or block of either schema, flattened to what is compared.
type SchemaNode struct {
	Kind     string // "attribute" or "block"
	Typ      string // the JSON type of a plain attribute; "nested:<mode>" of a nested attribute; the block's nesting mode
	Settable bool   // required or optional
	Required bool
}

// migrationCase is one resource type's move.
type MigrationCase struct {
	Name string
	// add creates the type's objects, and what they need, and adds them to the workspace.
	Add func(w *OfficialWorkspace)
	// check, where set, looks at the workspace after the move (refreshed, and planned empty).
	Check func(t *testing.T, w *CLIWorkdir)
}

// expectMoved checks the state of a moved instance: its id a REST ID, its references UUIDs, and the
// attributes in want as given.
func ExpectMoved(t *testing.T, w *CLIWorkdir, address string, want map[string]any) {
	t.Helper()
	a := w.StateAttributes(address)
	if id := fmt.Sprint(a["id"]); !kit.IsUUID(id) && !strings.Contains(id, "/") {
		t.Errorf("%s: id = %v after the move, want a REST ID", address, a["id"])
	}
	for _, ref := range []string{"cluster_id", "queue_id", "team_id", "user_id", "pipeline_id", "test_suite_id",
		"team_owner_id", "default_team_id", "pipeline_template_id"} {
		if v, ok := a[ref].(string); ok && !kit.IsUUID(v) {
			t.Errorf("%s: %s = %q after the move, want a UUID", address, ref, v)
		}
	}
	for k, v := range want {
		if a[k] != v {
			t.Errorf("%s: %s = %#v after the move, want %#v", address, k, a[k], v)
		}
	}
}

// expectQuietPlan plans the moved workspace once more: no changes, and no warning of any kind (what the
// official provider set through GraphQL is applied here, so nothing is left to warn of).
func ExpectQuietPlan(t *testing.T, w *CLIWorkdir) {
	t.Helper()
	if out := w.ExpectNoChanges(); strings.Contains(out, "Warning:") {
		t.Errorf("the plan after the move warns:\n%s", out)
	}
}

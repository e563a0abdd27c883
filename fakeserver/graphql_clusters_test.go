package fakeserver

import (
	"net/http"
	"testing"
)

const (
	gqlQueueFields = `fragment HostedAgentsQueueSettingsValues on HostedAgentQueueSettings {
  instanceShape { architecture machineType memory name size vcpu }
  platformSettings { linux { agentImageRef } macos { xcodeVersion macosVersion } } }
fragment ClusterQueueValues on ClusterQueue { id uuid key description cluster { id uuid } hosted hostedAgents { ...HostedAgentsQueueSettingsValues } }`
	gqlCreateQueue = `mutation createClusterQueue($organizationId: ID!, $clusterId: ID!, $key: String!, $description: String, $hostedAgents: HostedAgentsQueueSettingsCreateInput) {
  clusterQueueCreate(input: {organizationId: $organizationId, clusterId: $clusterId, key: $key, description: $description, hostedAgents: $hostedAgents}) {
    clusterQueue { ...ClusterQueueValues } } }
` + gqlQueueFields
	gqlUpdateQueue = `mutation updateClusterQueue($organizationId: ID!, $id: ID!, $description: String, $hostedAgents: HostedAgentsQueueSettingsUpdateInput) {
  clusterQueueUpdate(input: {organizationId: $organizationId, id: $id, description: $description, hostedAgents: $hostedAgents}) {
    clusterQueue { ...ClusterQueueValues dispatchPaused dispatchPausedAt dispatchPausedBy { id } dispatchPausedNote } } }
` + gqlQueueFields
	gqlGetQueue = `query getClusterQueueByNode($id: ID!) { node(id: $id) { ... on ClusterQueue { ...ClusterQueueValues dispatchPaused } } }
` + gqlQueueFields
)

func TestGraphQLClusterQueues(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("Hosted")
	orgID, clusterID := e.orgGraphQLID(), graphQLID("Cluster", cluster)

	// A macOS queue with its settings, in one call.
	a := e.gql(gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": clusterID, "key": "mac", "hostedAgents": map[string]any{
		"instanceShape":    "MACOS_ARM64_M4_6X28",
		"platformSettings": map[string]any{"macos": map[string]any{"xcodeVersion": "16.2", "macosVersion": "SEQUOIA"}},
	}}).ok(t)
	const p = "clusterQueueCreate"
	if a.at(t, p, "clusterQueue", "hosted") != true || a.str(t, p, "clusterQueue", "hostedAgents", "platformSettings", "macos", "xcodeVersion") != "16.2" ||
		a.str(t, p, "clusterQueue", "hostedAgents", "instanceShape", "machineType") != "MACOS" ||
		a.str(t, p, "clusterQueue", "hostedAgents", "instanceShape", "size") != "MEDIUM" ||
		a.at(t, p, "clusterQueue", "hostedAgents", "instanceShape", "vcpu") != 6.0 ||
		a.str(t, p, "clusterQueue", "cluster", "uuid") != cluster {
		t.Fatalf("create: %s", a.raw)
	}
	id, uuid := a.str(t, p, "clusterQueue", "id"), a.str(t, p, "clusterQueue", "uuid")
	// REST sees the same queue.
	r := e.api("GET", "/clusters/"+cluster+"/queues/"+uuid, nil)
	expect(t, r, http.StatusOK)
	if q := r.object(t); q["key"] != "mac" || q["hosted"] != true {
		t.Fatalf("REST: %s", r.raw)
	}

	// Update: the Xcode version cleared, the macOS version kept, the description set.
	a = e.gql(gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": id, "description": "macs", "hostedAgents": map[string]any{
		"instanceShape": "MACOS_ARM64_M4_12X56", "platformSettings": map[string]any{"macos": map[string]any{"xcodeVersion": nil}},
	}}).ok(t)
	const u = "clusterQueueUpdate"
	if a.at(t, u, "clusterQueue", "hostedAgents", "platformSettings", "macos", "xcodeVersion") != nil ||
		a.str(t, u, "clusterQueue", "hostedAgents", "platformSettings", "macos", "macosVersion") != "SEQUOIA" ||
		a.str(t, u, "clusterQueue", "hostedAgents", "instanceShape", "name") != "MACOS_ARM64_M4_12X56" ||
		a.str(t, u, "clusterQueue", "description") != "macs" || a.at(t, u, "clusterQueue", "dispatchPaused") != false {
		t.Fatalf("update: %s", a.raw)
	}
	a = e.gql(gqlGetQueue, map[string]any{"id": id}).ok(t)
	if a.str(t, "node", "hostedAgents", "platformSettings", "macos", "macosVersion") != "SEQUOIA" || a.at(t, "node", "hostedAgents", "platformSettings", "linux") != nil {
		t.Fatalf("read: %s", a.raw)
	}

	// A macOS queue made over REST, its Xcode version set with no macOS version: the default is read back.
	r = e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": "mac-default", "hostedAgents": map[string]any{"instanceShape": "MACOS_ARM64_M4_6X28"}})
	expect(t, r, http.StatusCreated)
	a = e.gql(gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": r.object(t)["graphql_id"], "hostedAgents": map[string]any{
		"instanceShape": "MACOS_ARM64_M4_6X28", "platformSettings": map[string]any{"macos": map[string]any{"xcodeVersion": "16.2"}},
	}}).ok(t)
	if a.str(t, u, "clusterQueue", "hostedAgents", "platformSettings", "macos", "macosVersion") != defaultMacOSVersion {
		t.Fatalf("default macOS version: %s", a.raw)
	}

	// A Linux queue made over REST reads over GraphQL; its image set over GraphQL reads over REST.
	r = e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": "linux", "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}})
	expect(t, r, http.StatusCreated)
	linux := r.object(t)
	a = e.gql(gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": linux["graphql_id"], "hostedAgents": map[string]any{
		"instanceShape": "LINUX_AMD64_4X16", "platformSettings": map[string]any{"linux": map[string]any{"agentImageRef": "ghcr.io/acme/agent:1"}},
	}}).ok(t)
	if a.str(t, u, "clusterQueue", "hostedAgents", "platformSettings", "linux", "agentImageRef") != "ghcr.io/acme/agent:1" {
		t.Fatalf("linux update: %s", a.raw)
	}
	r = e.api("GET", "/clusters/"+cluster+"/queues/"+linux["id"].(string), nil)
	if ha := r.object(t)["hosted_agents"].(map[string]any); ha["platform_settings"].(map[string]any)["linux"].(map[string]any)["agent_image_ref"] != "ghcr.io/acme/agent:1" {
		t.Fatalf("REST image: %s", r.raw)
	}

	// Refusals.
	for _, c := range []struct {
		query string
		vars  map[string]any
		want  string
	}{
		{gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": clusterID, "key": "mac"}, "Validation failed: Key has already been taken"},
		{gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": clusterID, "key": "-bad"},
			"Validation failed: Key must start with a letter or digit and contain only letters, digits, hyphens and underscores"},
		{gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": graphQLID("Cluster", newID()), "key": "x"}, "No cluster found"},
		{gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": clusterID, "key": "x", "hostedAgents": map[string]any{
			"instanceShape": "LINUX_AMD64_2X4", "platformSettings": map[string]any{"macos": map[string]any{"xcodeVersion": "16"}}}},
			"Validation failed: Xcode version cannot be configured for hosted Linux queues"},
		{gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": clusterID, "key": "x", "hostedAgents": map[string]any{
			"instanceShape": "MACOS_ARM64_M4_6X28", "platformSettings": map[string]any{"linux": map[string]any{"agentImageRef": "img"}}}},
			"Validation failed: Agent image ref cannot be configured for hosted mac queues"},
		{gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": id, "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}},
			"Validation failed: Instance shape cannot be changed to LINUX_AMD64_2X4"},
		{gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": id, "hostedAgents": map[string]any{}},
			"Validation failed: Instance shape cannot be changed to "},
		{gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": linux["graphql_id"], "hostedAgents": map[string]any{
			"instanceShape": "LINUX_AMD64_4X16", "agentImageRef": "a", "platformSettings": map[string]any{"linux": map[string]any{"agentImageRef": "b"}}}},
			"Validation failed: agentImageRef and platformSettings.linux.agentImageRef cannot both be given"},
		{gqlUpdateQueue, map[string]any{"organizationId": orgID, "id": graphQLID("ClusterQueue", newID())}, "No cluster queue found"},
	} {
		a := e.gql(c.query, c.vars)
		if got := a.errorMessage(t); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}
	// A refused update changed nothing.
	a = e.gql(gqlGetQueue, map[string]any{"id": id}).ok(t)
	if a.str(t, "node", "hostedAgents", "instanceShape", "name") != "MACOS_ARM64_M4_12X56" {
		t.Fatalf("after refusals: %s", a.raw)
	}
	// An unknown shape never reaches the resolver: the enum refuses it.
	a = e.gql(gqlCreateQueue, map[string]any{"organizationId": orgID, "clusterId": clusterID, "key": "y",
		"hostedAgents": map[string]any{"instanceShape": "MACOS_M2_4X7"}})
	if a.errorMessage(t) != "Variable $hostedAgents of type HostedAgentsQueueSettingsCreateInput was provided invalid value" {
		t.Fatalf("retired shape: %s", a.raw)
	}
	// Node: Cluster.
	a = e.gql(`query($id: ID!) { node(id: $id) { ... on Cluster { name uuid } } }`, map[string]any{"id": clusterID}).ok(t)
	if a.str(t, "node", "name") != "Hosted" {
		t.Fatalf("cluster: %s", a.raw)
	}
}

package fakeserver

import (
	"net/http"
	"strings"
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

const gqlClusterFragment = `fragment C on Cluster { id uuid name description emoji color defaultQueue { id uuid key } createdBy { email } }`

// TestGraphQLClusters: a cluster made over GraphQL is REST's, and the other way round; clusterUpdate sets
// and clears the default queue with REST's check; clusterDelete removes it for both.
func TestGraphQLClusters(t *testing.T) {
	e := newEnv(t, Options{})
	orgID := e.orgGraphQLID()
	const create = `mutation($o: ID!, $n: String!, $d: String, $e: String, $c: String) {
  clusterCreate(input: {organizationId: $o, name: $n, description: $d, emoji: $e, color: $c}) { clientMutationId cluster { ...C } } }
` + gqlClusterFragment
	a := e.gql(create, map[string]any{"o": orgID, "n": "Fast", "e": ":rocket:", "c": "#BADA55"}).ok(t)
	const p = "clusterCreate"
	id, uuid := a.str(t, p, "cluster", "id"), a.str(t, p, "cluster", "uuid")
	if id != graphQLID("Cluster", uuid) || a.str(t, p, "cluster", "emoji") != ":rocket:" || a.at(t, p, "cluster", "description") != nil ||
		a.at(t, p, "cluster", "defaultQueue") != nil || a.str(t, p, "cluster", "createdBy", "email") != "test-user@example.com" {
		t.Fatalf("create: %s", a.raw)
	}
	r := e.api("GET", "/clusters/"+uuid, nil)
	expect(t, r, http.StatusOK)
	if c := r.object(t); c["graphql_id"] != id || c["name"] != "Fast" || c["color"] != "#BADA55" || c["emoji"] != ":rocket:" {
		t.Fatalf("REST: %s", r.raw)
	}

	// A queue made over REST becomes the default over GraphQL; REST reads it, null clears it.
	queue := e.api("POST", "/clusters/"+uuid+"/queues", map[string]any{"key": "default"})
	expect(t, queue, http.StatusCreated)
	const update = `mutation($o: ID!, $id: ID!, $n: String, $q: ID, $e: String) {
  clusterUpdate(input: {organizationId: $o, id: $id, name: $n, defaultQueueId: $q, emoji: $e}) { cluster { ...C } } }
` + gqlClusterFragment
	a = e.gql(update, map[string]any{"o": orgID, "id": id, "n": "Faster", "q": queue.object(t)["graphql_id"]}).ok(t)
	if a.str(t, "clusterUpdate", "cluster", "defaultQueue", "key") != "default" || a.str(t, "clusterUpdate", "cluster", "name") != "Faster" ||
		a.str(t, "clusterUpdate", "cluster", "emoji") != ":rocket:" {
		t.Fatalf("update: %s", a.raw)
	}
	if c := e.api("GET", "/clusters/"+uuid, nil).object(t); c["default_queue_id"] != queue.object(t)["id"] || c["name"] != "Faster" {
		t.Fatalf("REST after update: %v", c)
	}
	a = e.gql(update, map[string]any{"o": orgID, "id": id, "q": nil, "e": nil}).ok(t)
	if a.at(t, "clusterUpdate", "cluster", "defaultQueue") != nil || a.at(t, "clusterUpdate", "cluster", "emoji") != nil {
		t.Fatalf("cleared: %s", a.raw)
	}
	if c := e.api("GET", "/clusters/"+uuid, nil).object(t); c["default_queue_id"] != nil {
		t.Fatalf("REST after clearing: %v", c)
	}

	// A cluster made over REST: Organization.cluster by UUID, node, and the list by name.
	other := e.createCluster("alpha")
	const read = `query($id: ID!) { organization(slug: "acme") { cluster(id: $id) { ...C }
  clusters(order: NAME, first: 10) { edges { node { name } } } } node(id: $id) { ... on Cluster { name } } }
` + gqlClusterFragment
	a = e.gql(read, map[string]any{"id": other}).ok(t)
	if a.str(t, "organization", "cluster", "name") != "alpha" || a.str(t, "organization", "clusters", "edges", 0, "node", "name") != "alpha" ||
		a.str(t, "organization", "clusters", "edges", 1, "node", "name") != "Faster" || a.at(t, "node") != nil {
		t.Fatalf("read: %s", a.raw)
	}
	if a = e.gql(read, map[string]any{"id": graphQLID("Cluster", other)}).ok(t); a.str(t, "node", "name") != "alpha" {
		t.Fatalf("node: %s", a.raw)
	}

	// Refusals, in REST's words; nothing changes.
	for _, c := range []struct {
		query string
		vars  map[string]any
		want  string
	}{
		{create, map[string]any{"o": orgID, "n": ""}, "Validation failed: Name can't be blank"},
		{create, map[string]any{"o": orgID, "n": "x", "c": strings.Repeat("c", 256)}, "Validation failed: Color is too long (maximum is 255 characters)"},
		{create, map[string]any{"o": "bm9wZQ==", "n": "x"}, "No organization found"},
		{update, map[string]any{"o": orgID, "id": id, "n": "renamed", "q": graphQLID("ClusterQueue", newID())},
			"Validation failed: Default queue must be a queue of this cluster"},
		{update, map[string]any{"o": orgID, "id": id, "n": ""}, "Validation failed: Name can't be blank"},
		{update, map[string]any{"o": orgID, "id": graphQLID("Cluster", newID())}, "No cluster found"},
	} {
		if got := e.gql(c.query, c.vars).errorMessage(t); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}
	if c := e.api("GET", "/clusters/"+uuid, nil).object(t); c["name"] != "Faster" {
		t.Fatalf("changed by a refused update: %v", c)
	}

	const del = `mutation($o: ID!, $id: ID!) { clusterDelete(input: {organizationId: $o, id: $id}) { deletedClusterId } }`
	if a = e.gql(del, map[string]any{"o": orgID, "id": id}).ok(t); a.str(t, "clusterDelete", "deletedClusterId") != id {
		t.Fatalf("delete: %s", a.raw)
	}
	expect(t, e.api("GET", "/clusters/"+uuid, nil), http.StatusNotFound)
	expect(t, e.api("GET", "/clusters/"+uuid+"/queues/"+queue.object(t)["id"].(string), nil), http.StatusNotFound)
	if got := e.gql(del, map[string]any{"o": orgID, "id": id}).errorMessage(t); got != "No cluster found" {
		t.Fatalf("delete again: %q", got)
	}
}

// TestGraphQLClusterQueueDispatchAndDelete: pause and resume over GraphQL are REST's, with REST's
// refusals; deleting the default queue leaves the cluster without one; queues list by key.
func TestGraphQLClusterQueueDispatchAndDelete(t *testing.T) {
	e := newEnv(t, Options{})
	orgID := e.orgGraphQLID()
	cluster := e.createCluster("C")
	var ids []string
	for _, key := range []string{"zeta", "alpha"} {
		r := e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": key})
		expect(t, r, http.StatusCreated)
		ids = append(ids, r.object(t)["id"].(string))
	}
	zeta := graphQLID("ClusterQueue", ids[0])
	const pause = `mutation($id: ID!, $n: String) { clusterQueuePauseDispatch(input: {id: $id, note: $n}) {
  queue { dispatchPaused dispatchPausedNote dispatchPausedBy { email } } } }`
	const resume = `mutation($id: ID!) { clusterQueueResumeDispatch(input: {id: $id}) { queue { dispatchPaused dispatchPausedAt } } }`
	a := e.gql(pause, map[string]any{"id": zeta, "n": "upgrading"}).ok(t)
	if a.at(t, "clusterQueuePauseDispatch", "queue", "dispatchPaused") != true || a.str(t, "clusterQueuePauseDispatch", "queue", "dispatchPausedNote") != "upgrading" {
		t.Fatalf("pause: %s", a.raw)
	}
	if q := e.api("GET", "/clusters/"+cluster+"/queues/"+ids[0], nil).object(t); q["dispatch_paused"] != true || q["dispatch_paused_note"] != "upgrading" {
		t.Fatalf("REST after pause: %v", q)
	}
	if got := e.gql(pause, map[string]any{"id": zeta}).errorMessage(t); got != "Cluster queue is already paused" {
		t.Fatalf("pause again: %q", got)
	}
	if a = e.gql(resume, map[string]any{"id": zeta}).ok(t); a.at(t, "clusterQueueResumeDispatch", "queue", "dispatchPaused") != false ||
		a.at(t, "clusterQueueResumeDispatch", "queue", "dispatchPausedAt") != nil {
		t.Fatalf("resume: %s", a.raw)
	}
	if got := e.gql(resume, map[string]any{"id": zeta}).errorMessage(t); got != "Cluster queue is not paused" {
		t.Fatalf("resume again: %q", got)
	}
	if got := e.gql(resume, map[string]any{"id": graphQLID("ClusterQueue", newID())}).errorMessage(t); got != "No cluster queue found" {
		t.Fatalf("unknown queue: %q", got)
	}

	const list = `query($id: ID!) { organization(slug: "acme") { cluster(id: $id) { defaultQueue { key }
  queues(order: KEY, first: 10) { edges { node { key } } } } } }`
	a = e.gql(list, map[string]any{"id": cluster}).ok(t)
	if a.str(t, "organization", "cluster", "queues", "edges", 0, "node", "key") != "alpha" {
		t.Fatalf("by key: %s", a.raw)
	}
	if err := e.srv.Store().SetClusterDefaultQueueID("acme", cluster, ids[0]); err != nil {
		t.Fatal(err)
	}
	const del = `mutation($o: ID!, $id: ID!) { clusterQueueDelete(input: {organizationId: $o, id: $id}) { deletedClusterQueueId } }`
	if a = e.gql(del, map[string]any{"o": orgID, "id": zeta}).ok(t); a.str(t, "clusterQueueDelete", "deletedClusterQueueId") != zeta {
		t.Fatalf("delete: %s", a.raw)
	}
	expect(t, e.api("GET", "/clusters/"+cluster+"/queues/"+ids[0], nil), http.StatusNotFound)
	if a = e.gql(list, map[string]any{"id": cluster}).ok(t); a.at(t, "organization", "cluster", "defaultQueue") != nil {
		t.Fatalf("default queue deleted: %s", a.raw)
	}
	if got := e.gql(del, map[string]any{"o": orgID, "id": zeta}).errorMessage(t); got != "No cluster queue found" {
		t.Fatalf("delete again: %q", got)
	}
}

// TestGraphQLClusterAgentTokens: a token made over GraphQL is REST's and registers agents; its secret is
// shown once; update and revoke are REST's, with REST's checks.
func TestGraphQLClusterAgentTokens(t *testing.T) {
	e := newEnv(t, Options{})
	orgID := e.orgGraphQLID()
	cluster := e.createCluster("C")
	clusterID := graphQLID("Cluster", cluster)
	const fields = `fragment T on ClusterToken { id uuid description allowedIpAddresses expiresAt token cluster { uuid } }`
	const create = `mutation($o: ID!, $c: ID!, $d: String!, $ip: String, $x: DateTime) {
  clusterAgentTokenCreate(input: {organizationId: $o, clusterId: $c, description: $d, allowedIpAddresses: $ip, expiresAt: $x}) {
    tokenValue clusterAgentToken { ...T } } }
` + fields
	a := e.gql(create, map[string]any{"o": orgID, "c": clusterID, "d": "ci", "ip": "10.0.0.0/8"}).ok(t)
	const p = "clusterAgentTokenCreate"
	secret, id, uuid := a.str(t, p, "tokenValue"), a.str(t, p, "clusterAgentToken", "id"), a.str(t, p, "clusterAgentToken", "uuid")
	if secret == "" || id != graphQLID("ClusterToken", uuid) || a.str(t, p, "clusterAgentToken", "allowedIpAddresses") != "10.0.0.0/8" ||
		a.str(t, p, "clusterAgentToken", "cluster", "uuid") != cluster || a.str(t, p, "clusterAgentToken", "token") != "" ||
		a.at(t, p, "clusterAgentToken", "expiresAt") != nil {
		t.Fatalf("create: %s", a.raw)
	}
	// The agent API knows the secret, and keeps agents out of the allowed addresses (the test's 127.0.0.1).
	if r := e.doAgent(secret); r.status != http.StatusForbidden {
		t.Fatalf("metrics from outside the allowed addresses: %d %s", r.status, r.raw)
	}
	r := e.api("GET", "/clusters/"+cluster+"/tokens/"+uuid, nil)
	expect(t, r, http.StatusOK)
	if tok := r.object(t); tok["graphql_id"] != id || tok["description"] != "ci" || tok["allowed_ip_addresses"] != "10.0.0.0/8" {
		t.Fatalf("REST: %s", r.raw)
	}

	// Listed on its cluster, with one made over REST; the secret is never shown again.
	expect(t, e.api("POST", "/clusters/"+cluster+"/tokens", map[string]any{"description": "rest"}), http.StatusCreated)
	const list = `query($c: ID!, $id: ID!) { organization(slug: "acme") { cluster(id: $c) { agentTokens(first: 50) { count edges { node { ...T } } } } }
  node(id: $id) { ... on ClusterToken { description } } }
` + fields
	a = e.gql(list, map[string]any{"c": cluster, "id": id}).ok(t)
	if a.at(t, "organization", "cluster", "agentTokens", "count") != 2.0 || a.str(t, "organization", "cluster", "agentTokens", "edges", 1, "node", "description") != "rest" ||
		a.str(t, "node", "description") != "ci" || strings.Contains(string(a.raw), secret) {
		t.Fatalf("list: %s", a.raw)
	}

	const update = `mutation($o: ID!, $id: ID!, $d: String!, $ip: String) {
  clusterAgentTokenUpdate(input: {organizationId: $o, id: $id, description: $d, allowedIpAddresses: $ip}) { clusterAgentToken { ...T } } }
` + fields
	a = e.gql(update, map[string]any{"o": orgID, "id": id, "d": "renamed", "ip": nil}).ok(t)
	if a.str(t, "clusterAgentTokenUpdate", "clusterAgentToken", "description") != "renamed" ||
		a.at(t, "clusterAgentTokenUpdate", "clusterAgentToken", "allowedIpAddresses") != nil {
		t.Fatalf("update: %s", a.raw)
	}
	if tok := e.api("GET", "/clusters/"+cluster+"/tokens/"+uuid, nil).object(t); tok["description"] != "renamed" || tok["allowed_ip_addresses"] != "" {
		t.Fatalf("REST after update: %v", tok)
	}
	if r := e.doAgent(secret); r.status != http.StatusOK {
		t.Fatalf("metrics with the unrestricted token: %d %s", r.status, r.raw)
	}

	const revoke = `mutation($o: ID!, $id: ID!) { clusterAgentTokenRevoke(input: {organizationId: $o, id: $id}) { deletedClusterAgentTokenId } }`
	for _, c := range []struct {
		query string
		vars  map[string]any
		want  string
	}{
		{create, map[string]any{"o": orgID, "c": clusterID, "d": ""}, "Validation failed: Description can't be blank"},
		{create, map[string]any{"o": orgID, "c": clusterID, "d": "x", "ip": "10.0.0.300/8"}, "Validation failed: Allowed ip addresses 10.0.0.300/8 is not a valid CIDR"},
		{create, map[string]any{"o": orgID, "c": clusterID, "d": "x", "x": "2001-01-01T00:00:00Z"}, "Validation failed: Expires at must be in the future"},
		{create, map[string]any{"o": orgID, "c": graphQLID("Cluster", newID()), "d": "x"}, "No cluster found"},
		{update, map[string]any{"o": orgID, "id": id, "d": ""}, "Validation failed: Description can't be blank"},
		{update, map[string]any{"o": orgID, "id": graphQLID("ClusterToken", newID()), "d": "x"}, "No cluster agent token found"},
	} {
		if got := e.gql(c.query, c.vars).errorMessage(t); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}

	if a = e.gql(revoke, map[string]any{"o": orgID, "id": id}).ok(t); a.str(t, "clusterAgentTokenRevoke", "deletedClusterAgentTokenId") != id {
		t.Fatalf("revoke: %s", a.raw)
	}
	expect(t, e.api("GET", "/clusters/"+cluster+"/tokens/"+uuid, nil), http.StatusNotFound)
	if r := e.doAgent(secret); r.status != http.StatusUnauthorized {
		t.Fatalf("metrics with the revoked token: %d", r.status)
	}
	if got := e.gql(revoke, map[string]any{"o": orgID, "id": id}).errorMessage(t); got != "No cluster agent token found" {
		t.Fatalf("revoke again: %q", got)
	}
}

// TestGraphQLAgentTokenDeprecatedToken: the deprecated AgentToken.token is served empty, as the service
// answers it; the secret stays in the create answer only.
func TestGraphQLAgentTokenDeprecatedToken(t *testing.T) {
	e := newEnv(t, Options{})
	a := e.gql(gqlCreateAgentToken, map[string]any{"organizationId": e.orgGraphQLID(), "description": "ci"}).ok(t)
	id := a.str(t, "agentTokenCreate", "agentTokenEdge", "node", "id")
	a = e.gql(`query($id: ID!) { node(id: $id) { ... on AgentToken { description token } } }`, map[string]any{"id": id}).ok(t)
	if a.str(t, "node", "token") != "" || a.str(t, "node", "description") != "ci" {
		t.Fatalf("read: %s", a.raw)
	}
}

// TestGraphQLClusterMutationsNeedAnAdministrator: a member who does not administer the organization can
// read its clusters but not change them, their queues or their tokens; nothing changes.
func TestGraphQLClusterMutationsNeedAnAdministrator(t *testing.T) {
	e := newEnv(t, Options{})
	orgID := e.orgGraphQLID()
	cluster := e.createCluster("C")
	queue := e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": "q"})
	expect(t, queue, http.StatusCreated)
	st := e.srv.Store()
	sam := st.AddUser("acme", "Sam Member", "sam@example.com", false)
	if err := st.AddTokenForUser("sam-token", sam, []string{"acme"}, []string{"graphql"}); err != nil {
		t.Fatal(err)
	}
	clusterID, queueID := graphQLID("Cluster", cluster), queue.object(t)["graphql_id"]
	for _, c := range []struct {
		query string
		vars  map[string]any
	}{
		{`mutation($o: ID!) { clusterCreate(input: {organizationId: $o, name: "x"}) { cluster { id } } }`, map[string]any{"o": orgID}},
		{`mutation($o: ID!, $id: ID!) { clusterUpdate(input: {organizationId: $o, id: $id, name: "x"}) { cluster { id } } }`, map[string]any{"o": orgID, "id": clusterID}},
		{`mutation($o: ID!, $id: ID!) { clusterDelete(input: {organizationId: $o, id: $id}) { deletedClusterId } }`, map[string]any{"o": orgID, "id": clusterID}},
		{`mutation($o: ID!, $id: ID!) { clusterQueueDelete(input: {organizationId: $o, id: $id}) { deletedClusterQueueId } }`, map[string]any{"o": orgID, "id": queueID}},
		{`mutation($id: ID!) { clusterQueuePauseDispatch(input: {id: $id}) { queue { id } } }`, map[string]any{"id": queueID}},
		{`mutation($o: ID!, $c: ID!) { clusterAgentTokenCreate(input: {organizationId: $o, clusterId: $c, description: "x"}) { tokenValue } }`,
			map[string]any{"o": orgID, "c": clusterID}},
	} {
		a := e.gqlAs("sam-token", c.query, c.vars, "")
		if msg := a.errorMessage(t); msg != "Forbidden: only an administrator of the organization may do this" {
			t.Errorf("%s: %q", c.query, msg)
		}
	}
	a := e.gqlAs("sam-token", `query($id: ID!) { organization(slug: "acme") { cluster(id: $id) { name queues { count } agentTokens { count } } } }`,
		map[string]any{"id": cluster}, "").ok(t)
	if a.str(t, "organization", "cluster", "name") != "C" || a.at(t, "organization", "cluster", "queues", "count") != 1.0 ||
		a.at(t, "organization", "cluster", "agentTokens", "count") != 0.0 {
		t.Fatalf("read by a member: %s", a.raw)
	}
	if q := e.api("GET", "/clusters/"+cluster+"/queues/"+queue.object(t)["id"].(string), nil).object(t); q["dispatch_paused"] != false {
		t.Fatalf("paused by a member: %v", q)
	}
}

// TestGraphQLClusterAgentTracing: clusterUpdate's agentTracingServiceUuid selects an enabled, unrestricted
// open_telemetry_tracing service of the organization (Cluster.agentTracingServiceUuid reads it) and null or
// "" clears it; a service of another kind, a restricted or disabled one, an unknown or upper-case UUID are
// refused, each naming the service, and change nothing.
func TestGraphQLClusterAgentTracing(t *testing.T) {
	e := newEnv(t, Options{})
	orgID := e.orgGraphQLID()
	uuid := e.createCluster("traced")
	id := graphQLID("Cluster", uuid)
	service := func(body map[string]any) string {
		r := e.api("POST", "/services", body)
		expect(t, r, http.StatusCreated)
		return r.object(t)["id"].(string)
	}
	otel := service(map[string]any{"provider": "open_telemetry_tracing", "settings": map[string]any{"endpoint": "https://otel.example.com"}})
	filtered := service(map[string]any{"provider": "open_telemetry_tracing", "branch_configuration": "main",
		"settings": map[string]any{"endpoint": "https://otel.example.com"}})
	webhook := service(webhookBody("https://example.com/hook"))
	const update = `mutation($o: ID!, $id: ID!, $s: String) {
  clusterUpdate(input: {organizationId: $o, id: $id, agentTracingServiceUuid: $s}) { cluster { agentTracingServiceUuid } } }`
	const read = `query($id: ID!) { node(id: $id) { ... on Cluster { agentTracingServiceUuid } } }`
	if a := e.gql(read, map[string]any{"id": id}).ok(t); a.at(t, "node", "agentTracingServiceUuid") != nil {
		t.Fatalf("new cluster: %s", a.raw)
	}
	if a := e.gql(update, map[string]any{"o": orgID, "id": id, "s": otel}).ok(t); a.str(t, "clusterUpdate", "cluster", "agentTracingServiceUuid") != otel {
		t.Fatalf("set: %s", a.raw)
	}
	for _, c := range []struct{ uuid, want string }{
		{webhook, "is a webhook notification service, not an OpenTelemetry tracing one"},
		{filtered, "must be enabled, cover all pipelines and have no branch filter"},
		{strings.ToUpper(otel), "is not a notification service of this organization"},
		{"00000000-0000-4000-8000-000000000000", "is not a notification service of this organization"},
	} {
		if msg := e.gql(update, map[string]any{"o": orgID, "id": id, "s": c.uuid}).errorMessage(t); !strings.Contains(msg, c.want) || !strings.Contains(msg, c.uuid) {
			t.Errorf("%s: %q, want it named with %q", c.uuid, msg, c.want)
		}
	}
	if a := e.gql(read, map[string]any{"id": id}).ok(t); a.str(t, "node", "agentTracingServiceUuid") != otel {
		t.Fatalf("after refusals: %s", a.raw)
	}
	for _, clear := range []any{nil, ""} {
		e.gql(update, map[string]any{"o": orgID, "id": id, "s": otel}).ok(t)
		if a := e.gql(update, map[string]any{"o": orgID, "id": id, "s": clear}).ok(t); a.at(t, "clusterUpdate", "cluster", "agentTracingServiceUuid") != nil {
			t.Fatalf("cleared with %v: %s", clear, a.raw)
		}
	}
	// An update that leaves the field out keeps the selection.
	e.gql(update, map[string]any{"o": orgID, "id": id, "s": otel}).ok(t)
	const rename = `mutation($o: ID!, $id: ID!) { clusterUpdate(input: {organizationId: $o, id: $id, name: "renamed"}) { cluster { agentTracingServiceUuid } } }`
	if a := e.gql(rename, map[string]any{"o": orgID, "id": id}).ok(t); a.str(t, "clusterUpdate", "cluster", "agentTracingServiceUuid") != otel {
		t.Fatalf("kept: %s", a.raw)
	}
}

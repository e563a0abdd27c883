package fakeserver

import (
	"net/http"
	"testing"
)

// TestGraphQLJobsByQueue: the queries bk job list --queue sends: the organization's clusters, a cluster's
// queues through node(id:), and the organization's jobs filtered by clusterQueue and state, each with its
// cluster, queue and agent.
func TestGraphQLJobsByQueue(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("Platform")
	linux := e.createQueue(cluster, "linux")
	e.createQueue(cluster, "mac")
	e.createPipeline(map[string]any{"name": "app", "repository": "https://github.com/acme/app.git", "cluster_id": cluster,
		"configuration": "steps:\n  - command: make\n    agents:\n      queue: linux\n  - command: test\n    agents:\n      queue: mac\n"})
	b := e.createBuild("app", nil)
	job := b["jobs"].([]any)[0].(map[string]any)["id"].(string)
	expect(t, e.buildAdmin("app", 1, "/jobs/"+job, map[string]any{"state": "running"}), http.StatusOK)

	a := e.gql(`query FindClusters($org: ID!, $cursor: String) {
	  organization(slug: $org) { clusters(first: 100, after: $cursor) { edges { node { id name } } pageInfo { hasNextPage endCursor } } }
	}`, map[string]any{"org": "acme"}).ok(t)
	var clusterGID string
	for _, edge := range a.at(t, "organization", "clusters", "edges").([]any) {
		if n := edge.(map[string]any)["node"].(map[string]any); n["name"] == "Platform" {
			clusterGID = n["id"].(string)
		}
	}
	if clusterGID == "" {
		t.Fatalf("no cluster Platform: %s", a.raw)
	}
	a = e.gql(`query FindQueuesForCluster($clusterId: ID!) {
	  node(id: $clusterId) { ... on Cluster { name queues(first: 100) { edges { node { id key } } pageInfo { hasNextPage } } } }
	}`, map[string]any{"clusterId": clusterGID}).ok(t)
	var linuxGID string
	for _, edge := range a.at(t, "node", "queues", "edges").([]any) {
		if n := edge.(map[string]any)["node"].(map[string]any); n["key"] == "linux" {
			linuxGID = n["id"].(string)
		}
	}
	if linuxGID != graphQLID("ClusterQueue", linux) {
		t.Fatalf("queue linux: %s", a.raw)
	}
	const jobs = `query ListJobsByQueue($org: ID!, $clusterQueue: [ID!], $state: [JobStates!], $first: Int) {
	  organization(slug: $org) { jobs(clusterQueue: $clusterQueue, state: $state, first: $first) {
	    edges { node { ... on JobTypeCommand { uuid command state cluster { name } clusterQueue { key } agent { name hostname } } } }
	    pageInfo { hasNextPage }
	  } }
	}`
	a = e.gql(jobs, map[string]any{"org": "acme", "clusterQueue": []string{linuxGID}, "first": 10}).ok(t)
	edges := a.at(t, "organization", "jobs", "edges").([]any)
	if len(edges) != 1 || a.str(t, "organization", "jobs", "edges", 0, "node", "uuid") != job ||
		a.str(t, "organization", "jobs", "edges", 0, "node", "clusterQueue", "key") != "linux" ||
		a.str(t, "organization", "jobs", "edges", 0, "node", "cluster", "name") != "Platform" ||
		a.str(t, "organization", "jobs", "edges", 0, "node", "state") != "RUNNING" ||
		a.at(t, "organization", "jobs", "edges", 0, "node", "agent") == nil {
		t.Errorf("jobs of queue linux: %s", a.raw)
	}
	a = e.gql(jobs, map[string]any{"org": "acme", "state": []string{"SCHEDULED"}, "first": 10}).ok(t)
	if edges := a.at(t, "organization", "jobs", "edges").([]any); len(edges) != 1 ||
		a.str(t, "organization", "jobs", "edges", 0, "node", "clusterQueue", "key") != "mac" {
		t.Errorf("scheduled jobs: %s", a.raw)
	}
	a = e.gql(`{ organization(slug: "acme") { jobs(first: 10, agentQueryRules: ["queue=mac"]) { count } } }`, nil).ok(t)
	if n := a.at(t, "organization", "jobs", "count"); n != 1.0 {
		t.Errorf("jobs by agent query rules: %v", n)
	}
}

package fakeserver

import "testing"

// TestSeedDefaults: with SeedDefaults an organization starts as a new Buildkite organization does, with a
// "Default cluster" whose default queue is "default-queue"; without it, with no cluster at all.
func TestSeedDefaults(t *testing.T) {
	e := newEnv(t, Options{SeedDefaults: true})
	clusters := e.api("GET", "/clusters", nil).list(t)
	if len(clusters) != 1 || clusters[0]["name"] != DefaultClusterName {
		t.Fatalf("clusters = %v, want one %q", clusters, DefaultClusterName)
	}
	c := clusters[0]
	queues := e.api("GET", "/clusters/"+c["id"].(string)+"/queues", nil).list(t)
	if len(queues) != 1 || queues[0]["key"] != DefaultQueueKey || queues[0]["retry_agent_affinity"] != "prefer-warmest" {
		t.Fatalf("queues = %v, want one %q", queues, DefaultQueueKey)
	}
	if c["default_queue_id"] != queues[0]["id"] {
		t.Fatalf("default_queue_id = %v, want the queue %v", c["default_queue_id"], queues[0]["id"])
	}
	// The team "Everyone", the default team, holds every member.
	teams := e.api("GET", "/teams", nil).list(t)
	if len(teams) != 1 || teams[0]["name"] != EveryoneTeamName || teams[0]["is_default_team"] != true {
		t.Fatalf("teams = %v, want one %q", teams, EveryoneTeamName)
	}
	if members := e.api("GET", "/teams/"+teams[0]["id"].(string)+"/members", nil).list(t); len(members) != 2 {
		t.Fatalf("Everyone's members = %v, want both of acme's", members)
	}
	// The default cluster is an ordinary one: it can be renamed and deleted once its queue is.
	expect(t, e.api("PATCH", "/clusters/"+c["id"].(string), map[string]any{"name": "Renamed"}), 200)

	if got := newEnv(t, Options{}).api("GET", "/clusters", nil).list(t); len(got) != 0 {
		t.Fatalf("without SeedDefaults: clusters = %v, want none", got)
	}
	if got := newEnv(t, Options{}).api("GET", "/teams", nil).list(t); len(got) != 0 {
		t.Fatalf("without SeedDefaults: teams = %v, want none", got)
	}
}

// TestSeedDefaultsEveryFixtureOrg: every organization of the fixtures gets its own default cluster.
func TestSeedDefaultsEveryFixtureOrg(t *testing.T) {
	f, err := ParseFixtures([]byte(`
organizations:
  - slug: one
  - slug: two
users:
  - name: Owner
    email: owner@example.com
    memberships: [{org: one, admin: true}, {org: two, admin: true}]
access_tokens:
  - token: t
    user: owner@example.com
    scopes: all
`), "yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Fixtures: f, SeedDefaults: true})
	for _, org := range []string{"one", "two"} {
		var names []string
		srv.store.mu.Lock()
		for _, c := range srv.store.clusters.clusters.list(org) {
			names = append(names, c.name)
		}
		srv.store.mu.Unlock()
		if len(names) != 1 || names[0] != DefaultClusterName {
			t.Errorf("%s: clusters %v, want one %q", org, names, DefaultClusterName)
		}
	}
}

package fakeserver

import "sort"

// What a new Buildkite organization starts with (Options.SeedDefaults, the command's --seed-defaults): a
// cluster named "Default cluster" holding one queue, "default-queue", which is the cluster's default queue.
// Configurations and tests written against the real service (the official provider's among them) expect
// both to be there.

// Names of the objects a new organization starts with.
const (
	DefaultClusterName = "Default cluster"
	DefaultQueueKey    = "default-queue"
)

// seedDefaults gives every organization that has no cluster yet its default cluster and default queue. The
// write lock must not be held.
func (st *Store) seedDefaults() {
	st.mu.Lock()
	defer st.mu.Unlock()
	slugs := make([]string, 0, len(st.orgs))
	for slug := range st.orgs {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs) // creation order, and so listing order, does not depend on map order
	for _, slug := range slugs {
		st.seedEveryoneTeam(slug)
		if len(st.clusters.clusters.list(slug)) > 0 {
			continue
		}
		clusterID, queueID := newID(), newID()
		now := st.timestamp()
		st.clusters.clusters.insert(&clusterRecord{
			seq: st.nextSeq(), org: slug, id: clusterID, graphqlID: graphQLID("Cluster", clusterID),
			name: DefaultClusterName, createdAt: now, createdBy: st.defaultUserID, defaultQueueID: queueID,
		})
		st.clusters.queues.insert(&queueRecord{
			seq: st.nextSeq(), org: slug, clusterID: clusterID, id: queueID, graphqlID: graphQLID("ClusterQueue", queueID),
			key: DefaultQueueKey, retryAgentAffinity: retryAgentAffinities[0], createdAt: now, createdBy: st.defaultUserID,
		})
	}
}

package fakeserver

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Clusters (https://buildkite.com/docs/apis/rest-api/clusters). A cluster's queues are in cluster_queues.go,
// its agent tokens in cluster_tokens.go; the three share clusterState, kept here.

const (
	// KindCluster is a cluster; removing it removes its queues and tokens.
	KindCluster Kind = "cluster"
)

func init() {
	registerKind(KindCluster, (*Store).cluster, (*Store).deleteCluster)
}

// ---- state ----

// clusterState is this area's part of the Store. Records are keyed by their UUID, which is unique across
// organizations; each record names its organization and cluster. Clusters are listed by org, queues and
// tokens by cluster; queues are named by key in their cluster, tokens by their secret (for /v3/metrics).
type clusterState struct {
	clusters *table[*clusterRecord]
	queues   *table[*queueRecord]
	tokens   *table[*clusterTokenRecord]
}

func newClusterState() clusterState {
	return clusterState{
		clusters: newTable(func(c *clusterRecord) []string { return []string{c.org} }, nil),
		queues: newTable(func(q *queueRecord) []string { return []string{q.clusterID} },
			func(q *queueRecord) []string { return []string{queueKeyName(q.clusterID, q.key)} }),
		tokens: newTable(func(t *clusterTokenRecord) []string { return []string{t.clusterID} },
			func(t *clusterTokenRecord) []string { return []string{clusterTokenSecretName(t.secret)} }),
	}
}

func (c *clusterRecord) recordID() string { return c.id }
func (c *clusterRecord) recordSeq() int64 { return c.seq }

type clusterRecord struct {
	seq                             int64
	org, id, graphqlID              string
	name, description, emoji, color string
	defaultQueueID                  string // "" when none
	// The hosted agents' git mirror and container cache, which the official provider sets with PATCH (its
	// buildkite/resource_cluster.go): changed only once the cluster has a hosted queue; the first hosted queue
	// turns the container cache on.
	hostedGitMirror, hostedContainerCache bool
	// agentTracingServiceID is the open_telemetry_tracing notification service agents export traces to,
	// "" when none; GraphQL only (graphql_clusters.go).
	agentTracingServiceID string
	createdAt             time.Time
	createdBy             string // user id
}

// The lookups below need a lock held; they return nil for a record outside org or cluster.

func (st *Store) cluster(org, id string) *clusterRecord {
	if c, ok := st.clusters.clusters.get(id); ok && c.org == org {
		return c
	}
	return nil
}

// clustersOf lists in creation order; the caller must not change the slice.
func (st *Store) clustersOf(org string) []*clusterRecord { return st.clusters.clusters.list(org) }

// deleteCluster removes c with its queues, tokens, secrets and maintainers. The write lock must be held.
func (st *Store) deleteCluster(c *clusterRecord) {
	for _, q := range slices.Clone(st.queuesOf(c.id)) {
		st.clusters.queues.remove(q)
	}
	for _, t := range slices.Clone(st.clusterTokensOf(c.id)) {
		st.clusters.tokens.remove(t)
	}
	removeAll(st.secrets.secrets, c.id)
	removeAll(st.maintainers.maintainers, c.id)
	st.deleteCacheRegistriesOf(c.id)
	st.clusters.clusters.remove(c)
}

// ClusterDefaultQueueID returns the ID of the cluster's default queue ("" when none); ok is false when
// the cluster does not exist in org.
func (st *Store) ClusterDefaultQueueID(org, clusterID string) (queueID string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	c := st.cluster(org, clusterID)
	if c == nil {
		return "", false
	}
	return c.defaultQueueID, true
}

// SetClusterDefaultQueueID makes queueID the cluster's default queue; "" clears it. The queue must belong
// to the cluster.
func (st *Store) SetClusterDefaultQueueID(org, clusterID, queueID string) error {
	defer st.edit()()
	c := st.cluster(org, clusterID)
	if c == nil {
		return fmt.Errorf("fakeserver: no cluster %q in organization %q", clusterID, org)
	}
	if queueID != "" && st.queue(org, clusterID, queueID) == nil {
		return fmt.Errorf("fakeserver: no queue %q in cluster %q", queueID, clusterID)
	}
	c.defaultQueueID = queueID
	return nil
}

// ---- views ----

type clusterView struct {
	ID              string    `json:"id"`
	GraphQLID       string    `json:"graphql_id"`
	DefaultQueueID  *string   `json:"default_queue_id"`
	Name            string    `json:"name"`
	Description     string    `json:"description"`
	Emoji           string    `json:"emoji"`
	Color           string    `json:"color"`
	URL             string    `json:"url"`
	WebURL          string    `json:"web_url"`
	QueuesURL       string    `json:"queues_url"`
	DefaultQueueURL *string   `json:"default_queue_url"`
	CreatedAt       string    `json:"created_at"`
	CreatedBy       *userView `json:"created_by"`
	// The service answers them to a token that can manage the cluster, which every emulator token can.
	HostedGitMirrorEnabled      bool `json:"hosted_git_mirror_enabled"`
	HostedContainerCacheEnabled bool `json:"hosted_container_cache_enabled"`
}

func (st *Store) clusterView(base string, c *clusterRecord) clusterView {
	v := clusterView{
		ID: c.id, GraphQLID: c.graphqlID, Name: c.name, Description: c.description, Emoji: c.emoji, Color: c.color,
		URL:       apiURL(base, "organizations", c.org, "clusters", c.id),
		WebURL:    webURL(base, "organizations", c.org, "clusters", c.id),
		QueuesURL: apiURL(base, "organizations", c.org, "clusters", c.id, "queues"),
		CreatedAt: formatTime(c.createdAt),
		CreatedBy: st.userSummary(c.createdBy),

		HostedGitMirrorEnabled: c.hostedGitMirror, HostedContainerCacheEnabled: c.hostedContainerCache,
	}
	if c.defaultQueueID != "" {
		v.DefaultQueueID = stringPtr(c.defaultQueueID)
		v.DefaultQueueURL = stringPtr(apiURL(base, "organizations", c.org, "clusters", c.id, "queues", c.defaultQueueID))
	}
	return v
}

// ---- routes ----

func (s *Server) routeClusters(mux *routeMux) {
	const clusters = "/v2/organizations/{org}/clusters"
	const cluster = clusters + "/{cluster}"
	mux.HandleFunc("GET "+clusters, s.listClusters)
	mux.HandleFunc("POST "+clusters, s.createCluster)
	mux.HandleFunc("GET "+cluster, s.getCluster)
	mux.HandleFunc("PUT "+cluster, s.updateCluster)
	mux.HandleFunc("PATCH "+cluster, s.updateCluster)
	mux.HandleFunc("DELETE "+cluster, s.deleteClusterHandler)
}

// ---- cluster handlers ----

func (s *Server) listClusters(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		out := []clusterView{}
		for _, c := range paginate(w, r, s.store.clustersOf(org)) {
			out = append(out, s.store.clusterView(baseURL(r), c))
		}
		return out, nil
	})
}

func (s *Server) getCluster(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		c := s.store.cluster(org, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		return s.store.clusterView(baseURL(r), c), nil
	})
}

func (s *Server) createCluster(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		c, problems := s.store.addCluster(org.slug, user.id, in)
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		return s.store.clusterView(baseURL(r), c), nil
	})
}

func (s *Server) updateCluster(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		if problems := s.store.changeCluster(c, in); len(problems) > 0 {
			return nil, errValidation(problems)
		}
		return s.store.clusterView(baseURL(r), c), nil
	})
}

// addCluster checks a create's body (REST's, or GraphQL's clusterCreate input in its form) and stores the
// cluster; nothing is stored when there are problems. The write lock must be held.
func (st *Store) addCluster(org, userID string, in *jsonObject) (*clusterRecord, validationErrors) {
	name, desc, emoji, color := in.String("name"), in.String("description"), in.String("emoji"), in.String("color")
	problems := in.Problems()
	if name.Value == "" {
		problems.addBlank("name")
	}
	if len(problems) > 0 {
		return nil, problems
	}
	id := newID()
	c := &clusterRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Cluster", id),
		name: name.Value, description: desc.Value, emoji: emoji.Value, color: color.Value,
		createdAt: st.timestamp(), createdBy: userID,
	}
	st.clusters.clusters.insert(c)
	return c, nil
}

// changeCluster checks an update's body (REST's, or GraphQL's clusterUpdate input in its form) and applies
// it to c; nothing changes when there are problems. The write lock must be held.
func (st *Store) changeCluster(c *clusterRecord, in *jsonObject) validationErrors {
	name, desc, emoji, color := in.String("name"), in.String("description"), in.String("emoji"), in.String("color")
	defaultQueue := in.String("default_queue_id")
	gitMirror, containerCache := in.Bool("hosted_git_mirror_enabled"), in.Bool("hosted_container_cache_enabled")
	problems := in.Problems()
	if name.Set && name.Value == "" {
		problems.addBlank("name")
	}
	// null or "" clears the default queue; any other value must name a queue of this cluster.
	if defaultQueue.Value != "" && st.queue(c.org, c.id, defaultQueue.Value) == nil {
		problems.add("default_queue_id", "must be a queue of this cluster")
	}
	// A change of a hosted setting (the same value is no change) needs a hosted queue in the cluster.
	for _, h := range []struct {
		name string
		in   opt[bool]
		now  bool
	}{{"hosted_git_mirror_enabled", gitMirror, c.hostedGitMirror}, {"hosted_container_cache_enabled", containerCache, c.hostedContainerCache}} {
		if h.in.Set && h.in.Value != h.now && !st.hasHostedQueue(c.id) {
			problems.add(h.name, "can only be changed once the cluster has a hosted queue")
		}
	}
	if len(problems) > 0 {
		return problems
	}
	if gitMirror.Set {
		c.hostedGitMirror = gitMirror.Value
	}
	if containerCache.Set {
		c.hostedContainerCache = containerCache.Value
	}
	setString(&c.name, name)
	setString(&c.description, desc)
	setString(&c.emoji, emoji)
	setString(&c.color, color)
	setString(&c.defaultQueueID, defaultQueue)
	return nil
}

// hasHostedQueue reports whether a queue of the cluster is hosted. A lock must be held.
func (st *Store) hasHostedQueue(clusterID string) bool {
	return slices.ContainsFunc(st.queuesOf(clusterID), func(q *queueRecord) bool { return q.hosted != nil })
}

// addQueue stores q; the cluster's first hosted queue turns its container cache on, as Buildkite does. The
// write lock must be held.
func (st *Store) addQueue(q *queueRecord) {
	if q.hosted != nil && !st.hasHostedQueue(q.clusterID) {
		if c, ok := st.clusters.clusters.get(q.clusterID); ok {
			c.hostedContainerCache = true
		}
	}
	st.clusters.queues.insert(q)
}

func (s *Server) deleteClusterHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteClusters, func(org string) *apiError {
		c := s.store.cluster(org, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		s.store.deleteCluster(c)
		return nil
	})
}

package fakeserver

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Clusters, their queues and their agent tokens: spec 2.4–2.6, 3.1 and 4.3–4.4.

// Kinds of this area, for Store.Exists and Store.Remove.
// retryAgentAffinities are the values of a queue's retry_agent_affinity (rest-beyond-spec.md), the default
// first: whether a retried job prefers the agent that ran it (the warmest) or a different one.
var retryAgentAffinities = []string{"prefer-warmest", "prefer-different"}

const (
	// KindCluster is a cluster; removing it removes its queues and tokens.
	KindCluster Kind = "cluster"
	// KindQueue is a cluster queue; removing the cluster's default queue clears default_queue_id.
	KindQueue Kind = "queue"
	// KindClusterToken is a cluster agent token.
	KindClusterToken Kind = "cluster_token"
)

// Queue keys follow the provider's rule: a letter or digit, then letters, digits, hyphens and
// underscores, at most queueKeyMaxLen characters (limits.go). The spec gives no rule; this one is the
// emulator's.
var queueKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_-]*$`)

func init() {
	registerKind(KindCluster, (*Store).cluster, (*Store).deleteCluster)
	registerKind(KindQueue, nestedKey((*Store).queue), (*Store).deleteQueue)
	registerKind(KindClusterToken, nestedKey((*Store).clusterToken), (*Store).deleteClusterToken)
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

func queueKeyName(clusterID, key string) string { return nameKey(clusterID, "key", key) }

func clusterTokenSecretName(secret string) string { return nameKey("secret", secret) }

func (c *clusterRecord) recordID() string      { return c.id }
func (c *clusterRecord) recordSeq() int64      { return c.seq }
func (q *queueRecord) recordID() string        { return q.id }
func (q *queueRecord) recordSeq() int64        { return q.seq }
func (t *clusterTokenRecord) recordID() string { return t.id }
func (t *clusterTokenRecord) recordSeq() int64 { return t.seq }

type clusterRecord struct {
	seq                             int64
	org, id, graphqlID              string
	name, description, emoji, color string
	defaultQueueID                  string // "" when none
	createdAt                       time.Time
	createdBy                       string // user id
}

type queueRecord struct {
	seq                  int64
	org, clusterID, id   string
	graphqlID, key, desc string
	retryAgentAffinity   string       // one of retryAgentAffinities
	hosted               *hostedQueue // nil for a self-hosted queue (queues_hosted.go)
	paused               bool
	pausedBy             string // user id
	pausedAt             time.Time
	pausedNote           *string
	createdAt            time.Time
	createdBy            string
}

type clusterTokenRecord struct {
	seq                    int64
	org, clusterID, id     string
	graphqlID, description string
	allowedIPAddresses     string // CIDR blocks separated by spaces, as sent; "" when unrestricted
	secret                 string
	expiresAt              time.Time // zero when the token does not expire
	createdAt              time.Time
	createdBy              string
}

// The lookups below need a lock held; they return nil for a record outside org or cluster.

func (st *Store) cluster(org, id string) *clusterRecord {
	if c, ok := st.clusters.clusters.get(id); ok && c.org == org {
		return c
	}
	return nil
}

func (st *Store) queue(org, clusterID, id string) *queueRecord {
	if q, ok := st.clusters.queues.get(id); ok && q.org == org && q.clusterID == clusterID {
		return q
	}
	return nil
}

func (st *Store) clusterToken(org, clusterID, id string) *clusterTokenRecord {
	if t, ok := st.clusters.tokens.get(id); ok && t.org == org && t.clusterID == clusterID {
		return t
	}
	return nil
}

// clustersOf, queuesOf and clusterTokensOf list in creation order; the caller must not change the slice.

func (st *Store) clustersOf(org string) []*clusterRecord { return st.clusters.clusters.list(org) }

func (st *Store) queuesOf(clusterID string) []*queueRecord { return st.clusters.queues.list(clusterID) }

func (st *Store) clusterTokensOf(clusterID string) []*clusterTokenRecord {
	return st.clusters.tokens.list(clusterID)
}

// queueByKey returns the queue of the cluster with key, or nil. A lock must be held.
func (st *Store) queueByKey(clusterID, key string) *queueRecord {
	q, _ := st.clusters.queues.lookup(queueKeyName(clusterID, key))
	return q
}

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
	st.clusters.clusters.remove(c)
}

// deleteQueue removes q; when it was its cluster's default queue the cluster is left without one (rather
// than refusing, so that destroying a default queue and its cluster works in any order).
func (st *Store) deleteQueue(q *queueRecord) {
	if c, ok := st.clusters.clusters.get(q.clusterID); ok && c.defaultQueueID == q.id {
		c.defaultQueueID = ""
	}
	st.clusters.queues.remove(q)
}

// deleteClusterToken removes t. The write lock must be held.
func (st *Store) deleteClusterToken(t *clusterTokenRecord) { st.clusters.tokens.remove(t) }

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
}

func (st *Store) clusterView(base string, c *clusterRecord) clusterView {
	v := clusterView{
		ID: c.id, GraphQLID: c.graphqlID, Name: c.name, Description: c.description, Emoji: c.emoji, Color: c.color,
		URL:       apiURL(base, "organizations", c.org, "clusters", c.id),
		WebURL:    webURL(base, "organizations", c.org, "clusters", c.id),
		QueuesURL: apiURL(base, "organizations", c.org, "clusters", c.id, "queues"),
		CreatedAt: formatTime(c.createdAt),
		CreatedBy: st.userSummary(c.createdBy),
	}
	if c.defaultQueueID != "" {
		v.DefaultQueueID = stringPtr(c.defaultQueueID)
		v.DefaultQueueURL = stringPtr(apiURL(base, "organizations", c.org, "clusters", c.id, "queues", c.defaultQueueID))
	}
	return v
}

type queueView struct {
	ID                 string    `json:"id"`
	GraphQLID          string    `json:"graphql_id"`
	Key                string    `json:"key"`
	Description        string    `json:"description"`
	URL                string    `json:"url"`
	WebURL             string    `json:"web_url"`
	ClusterURL         string    `json:"cluster_url"`
	RetryAgentAffinity string    `json:"retry_agent_affinity"`
	DispatchPaused     bool      `json:"dispatch_paused"`
	DispatchPausedBy   *userView `json:"dispatch_paused_by"`
	DispatchPausedAt   *string   `json:"dispatch_paused_at"`
	DispatchPausedNote *string   `json:"dispatch_paused_note"`
	CreatedAt          string    `json:"created_at"`
	CreatedBy          *userView `json:"created_by"`
	// Hosted and HostedAgents are left out of a self-hosted queue, as the spec's examples show it.
	Hosted       bool              `json:"hosted,omitempty"`
	HostedAgents *hostedAgentsView `json:"hosted_agents,omitempty"`
}

func (st *Store) queueView(base string, q *queueRecord) queueView {
	v := queueView{
		ID: q.id, GraphQLID: q.graphqlID, Key: q.key, Description: q.desc,
		URL:                apiURL(base, "organizations", q.org, "clusters", q.clusterID, "queues", q.id),
		WebURL:             webURL(base, "organizations", q.org, "clusters", q.clusterID, "queues", q.id),
		ClusterURL:         apiURL(base, "organizations", q.org, "clusters", q.clusterID),
		RetryAgentAffinity: q.retryAgentAffinity,
		DispatchPaused:     q.paused,
		CreatedAt:          formatTime(q.createdAt),
		CreatedBy:          st.userSummary(q.createdBy),
	}
	if q.hosted != nil {
		v.Hosted, v.HostedAgents = true, q.hosted.view()
	}
	if q.paused {
		v.DispatchPausedBy = st.userSummary(q.pausedBy)
		v.DispatchPausedAt = formatTimePtr(q.pausedAt)
		if q.pausedNote != nil {
			v.DispatchPausedNote = stringPtr(*q.pausedNote)
		}
	}
	return v
}

type clusterTokenView struct {
	ID                 string    `json:"id"`
	GraphQLID          string    `json:"graphql_id"`
	Description        string    `json:"description"`
	AllowedIPAddresses string    `json:"allowed_ip_addresses"`
	URL                string    `json:"url"`
	ClusterURL         string    `json:"cluster_url"`
	ExpiresAt          *string   `json:"expires_at"`
	CreatedAt          string    `json:"created_at"`
	CreatedBy          *userView `json:"created_by"`
}

// clusterTokenCreatedView is the create response: the only one carrying the secret.
type clusterTokenCreatedView struct {
	clusterTokenView
	Token string `json:"token"`
}

func (st *Store) clusterTokenView(base string, t *clusterTokenRecord) clusterTokenView {
	return clusterTokenView{
		ID: t.id, GraphQLID: t.graphqlID, Description: t.description, AllowedIPAddresses: t.allowedIPAddresses,
		URL:        apiURL(base, "organizations", t.org, "clusters", t.clusterID, "tokens", t.id),
		ClusterURL: apiURL(base, "organizations", t.org, "clusters", t.clusterID),
		ExpiresAt:  formatTimePtr(t.expiresAt),
		CreatedAt:  formatTime(t.createdAt),
		CreatedBy:  st.userSummary(t.createdBy),
	}
}

// ---- routes ----

func (s *Server) routeClusters(mux *http.ServeMux) {
	const clusters = "/v2/organizations/{org}/clusters"
	const cluster = clusters + "/{cluster}"
	mux.HandleFunc("GET "+clusters, s.listClusters)
	mux.HandleFunc("POST "+clusters, s.createCluster)
	mux.HandleFunc("GET "+cluster, s.getCluster)
	mux.HandleFunc("PUT "+cluster, s.updateCluster)
	mux.HandleFunc("PATCH "+cluster, s.updateCluster)
	mux.HandleFunc("DELETE "+cluster, s.deleteClusterHandler)

	const queues = cluster + "/queues"
	const queue = queues + "/{queue}"
	mux.HandleFunc("GET "+queues, s.listQueues)
	mux.HandleFunc("POST "+queues, s.createQueue)
	mux.HandleFunc("GET "+queue, s.getQueue)
	mux.HandleFunc("PUT "+queue, s.updateQueue)
	mux.HandleFunc("PATCH "+queue, s.updateQueue)
	mux.HandleFunc("DELETE "+queue, s.deleteQueueHandler)
	mux.HandleFunc("POST "+queue+"/pause_dispatch", s.pauseQueue)
	mux.HandleFunc("POST "+queue+"/resume_dispatch", s.resumeQueue)

	const tokens = cluster + "/tokens"
	const token = tokens + "/{token}"
	mux.HandleFunc("GET "+tokens, s.listClusterTokens)
	mux.HandleFunc("POST "+tokens, s.createClusterToken)
	mux.HandleFunc("GET "+token, s.getClusterToken)
	mux.HandleFunc("PUT "+token, s.updateClusterToken)
	mux.HandleFunc("PATCH "+token, s.updateClusterToken)
	mux.HandleFunc("DELETE "+token, s.deleteClusterTokenHandler)
}

// ---- cluster handlers ----

func (s *Server) listClusters(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadClusters)
	if !ok {
		return
	}
	var out []clusterView
	_ = s.store.view(func() *apiError {
		for _, c := range paginate(w, r, s.store.clustersOf(org.slug)) {
			out = append(out, s.store.clusterView(baseURL(r), c))
		}
		return nil
	})
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) getCluster(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadClusters)
	if !ok {
		return
	}
	var out clusterView
	err := s.store.view(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		out = s.store.clusterView(baseURL(r), c)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) createCluster(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	name, desc, emoji, color := in.String("name"), in.String("description"), in.String("emoji"), in.String("color")
	problems := in.Problems()
	if name.Value == "" {
		problems.addBlank("name")
	}
	if len(problems) > 0 {
		writeError(w, errValidation(problems))
		return
	}
	var out clusterView
	err := s.store.update(func() *apiError {
		id := newID()
		c := &clusterRecord{
			seq: s.store.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("Cluster", id),
			name: name.Value, description: desc.Value, emoji: emoji.Value, color: color.Value,
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		s.store.clusters.clusters.insert(c)
		out = s.store.clusterView(baseURL(r), c)
		return nil
	})
	if err != nil { // not saved to the state file
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

func (s *Server) updateCluster(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	name, desc, emoji, color := in.String("name"), in.String("description"), in.String("emoji"), in.String("color")
	defaultQueue := in.String("default_queue_id")
	problems := in.Problems()
	if name.Set && name.Value == "" {
		problems.addBlank("name")
	}
	var out clusterView
	err := s.store.update(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		// null or "" clears the default queue; any other value must name a queue of this cluster.
		if defaultQueue.Value != "" && s.store.queue(org.slug, c.id, defaultQueue.Value) == nil {
			problems.add("default_queue_id", "must be a queue of this cluster")
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		setString(&c.name, name)
		setString(&c.description, desc)
		setString(&c.emoji, emoji)
		setString(&c.color, color)
		setString(&c.defaultQueueID, defaultQueue)
		out = s.store.clusterView(baseURL(r), c)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) deleteClusterHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		s.store.deleteCluster(c)
		return nil
	})
	respondNoContent(w, err)
}

// ---- queue handlers ----

func (s *Server) listQueues(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadClusters)
	if !ok {
		return
	}
	var out []queueView
	err := s.store.view(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		for _, q := range paginate(w, r, s.store.queuesOf(c.id)) {
			out = append(out, s.store.queueView(baseURL(r), q))
		}
		return nil
	})
	respond(w, http.StatusOK, nonNil(out), err)
}

func (s *Server) getQueue(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadClusters)
	if !ok {
		return
	}
	var out queueView
	err := s.store.view(func() *apiError {
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return err
		}
		out = s.store.queueView(baseURL(r), q)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// findQueue finds the queue of the path's cluster and queue IDs: 404 for either. A lock must be held.
func (st *Store) findQueue(org string, r *http.Request) (*queueRecord, *apiError) {
	c := st.cluster(org, r.PathValue("cluster"))
	if c == nil {
		return nil, errNotFound("cluster")
	}
	q := st.queue(org, c.id, r.PathValue("queue"))
	if q == nil {
		return nil, errNotFound("queue")
	}
	return q, nil
}

func (s *Server) createQueue(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	key, desc, affinity := in.String("key"), in.String("description"), in.String("retry_agent_affinity")
	hostedIn := in.Object("hostedAgents")
	problems := in.Problems()
	checkEnum(&problems, "retry_agent_affinity", affinity, retryAgentAffinities)
	hosted := checkHostedCreate(readHostedAgents(hostedIn, &problems), &problems)
	switch {
	case key.Value == "":
		problems.addBlank("key")
	case len(key.Value) > queueKeyMaxLen:
		problems.add("key", tooLong(queueKeyMaxLen, "characters"))
	case !queueKeyPattern.MatchString(key.Value):
		problems.add("key", "must start with a letter or digit and contain only letters, digits, hyphens and underscores")
	}
	var out queueView
	err := s.store.update(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		if key.Value != "" && s.store.queueByKey(c.id, key.Value) != nil {
			problems.add("key", "has already been taken")
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		id := newID()
		q := &queueRecord{
			seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: id, graphqlID: graphQLID("ClusterQueue", id),
			key: key.Value, desc: desc.Value, retryAgentAffinity: orDefault(affinity.Value, retryAgentAffinities[0]),
			hosted: hosted, createdAt: s.store.timestamp(), createdBy: user.id,
		}
		s.store.clusters.queues.insert(q)
		out = s.store.queueView(baseURL(r), q)
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

// updateQueue changes the description, retry_agent_affinity and a hosted queue's hostedAgents; the key
// cannot change and, like other unknown properties, is ignored.
func (s *Server) updateQueue(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	desc, affinity, hostedIn := in.String("description"), in.String("retry_agent_affinity"), in.Object("hostedAgents")
	problems := in.Problems()
	checkEnum(&problems, "retry_agent_affinity", affinity, retryAgentAffinities)
	hosted := readHostedAgents(hostedIn, &problems)
	var out queueView
	err := s.store.update(func() *apiError {
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		if err := applyHostedUpdate(q, hosted); err != nil {
			return err
		}
		setString(&q.desc, desc)
		if affinity.Given() {
			q.retryAgentAffinity = affinity.Value
		}
		out = s.store.queueView(baseURL(r), q)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) deleteQueueHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return err
		}
		s.store.deleteQueue(q)
		return nil
	})
	respondNoContent(w, err)
}

// pauseQueue takes the note as dispatch_paused_note (the spec's sample, go-buildkite) or note (the spec's
// property list); an empty note is no note, shown as null.
func (s *Server) pauseQueue(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	note, hasNote := in.StringOr("dispatch_paused_note", "note")
	if problems := in.Problems(); len(problems) > 0 {
		writeError(w, errValidation(problems))
		return
	}
	var out queueView
	err := s.store.update(func() *apiError {
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return err
		}
		if q.paused {
			return errUnprocessable("Cluster queue is already paused")
		}
		q.paused, q.pausedBy, q.pausedAt, q.pausedNote = true, user.id, s.store.timestamp(), nil
		if hasNote && note != "" {
			q.pausedNote = stringPtr(note)
		}
		out = s.store.queueView(baseURL(r), q)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) resumeQueue(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	var out queueView
	err := s.store.update(func() *apiError {
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return err
		}
		if !q.paused {
			return errUnprocessable("Cluster queue is not paused")
		}
		q.paused, q.pausedBy, q.pausedAt, q.pausedNote = false, "", time.Time{}, nil
		out = s.store.queueView(baseURL(r), q)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// ---- cluster token handlers ----

func (s *Server) listClusterTokens(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadClusters)
	if !ok {
		return
	}
	var out []clusterTokenView
	err := s.store.view(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		for _, t := range paginate(w, r, s.store.clusterTokensOf(c.id)) {
			out = append(out, s.store.clusterTokenView(baseURL(r), t))
		}
		return nil
	})
	respond(w, http.StatusOK, nonNil(out), err)
}

// findClusterToken finds the token of the path's cluster and token IDs: 404 for either. A lock must be
// held.
func (st *Store) findClusterToken(org string, r *http.Request) (*clusterTokenRecord, *apiError) {
	c := st.cluster(org, r.PathValue("cluster"))
	if c == nil {
		return nil, errNotFound("cluster")
	}
	t := st.clusterToken(org, c.id, r.PathValue("token"))
	if t == nil {
		return nil, errNotFound("cluster token")
	}
	return t, nil
}

func (s *Server) getClusterToken(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadClusters)
	if !ok {
		return
	}
	var out clusterTokenView
	err := s.store.view(func() *apiError {
		t, err := s.store.findClusterToken(org.slug, r)
		if err != nil {
			return err
		}
		out = s.store.clusterTokenView(baseURL(r), t)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// cidrBlocks splits allowed_ip_addresses: CIDR blocks separated by spaces.
func cidrBlocks(allowed string) []string { return strings.Fields(allowed) }

// checkCIDR records a problem for each block of v that is not a network in CIDR notation; empty (or only
// spaces) means unrestricted.
func checkCIDR(problems *validationErrors, v opt[string]) {
	for _, block := range cidrBlocks(v.Value) {
		if _, _, err := net.ParseCIDR(block); err != nil {
			problems.add("allowed_ip_addresses", block+" is not a valid CIDR")
		}
	}
}

// readExpiry reads a cluster token's optional expires_at: an ISO 8601 timestamp (RFC 3339, fractional
// seconds allowed) in the future of now. Absent or null means the token does not expire.
func readExpiry(problems *validationErrors, v opt[string], now time.Time) time.Time {
	if !v.Given() {
		return time.Time{}
	}
	at, err := time.Parse(time.RFC3339Nano, v.Value)
	switch {
	case err != nil:
		problems.add("expires_at", "is not a valid ISO 8601 timestamp")
	case !at.After(now):
		problems.add("expires_at", "must be in the future")
	}
	return at.UTC().Truncate(time.Millisecond)
}

// expired reports whether t can no longer be used at now.
func (t *clusterTokenRecord) expired(now time.Time) bool {
	return !t.expiresAt.IsZero() && !now.Before(t.expiresAt)
}

func (s *Server) createClusterToken(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	desc, allowed, expires := in.String("description"), in.String("allowed_ip_addresses"), in.String("expires_at")
	problems := in.Problems()
	if desc.Value == "" {
		problems.addBlank("description")
	}
	checkCIDR(&problems, allowed)
	expiresAt := readExpiry(&problems, expires, s.opts.Now())
	var out clusterTokenCreatedView
	err := s.store.update(func() *apiError {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return errNotFound("cluster")
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		id := newID()
		t := &clusterTokenRecord{
			seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: id, graphqlID: graphQLID("ClusterToken", id),
			description: desc.Value, allowedIPAddresses: allowed.Value, secret: newSecret(), expiresAt: expiresAt,
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		s.store.clusters.tokens.insert(t)
		out = clusterTokenCreatedView{clusterTokenView: s.store.clusterTokenView(baseURL(r), t), Token: t.secret}
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

// updateClusterToken changes the description and allowed_ip_addresses; expires_at is set on create only
// and, like other unknown properties, ignored here.
func (s *Server) updateClusterToken(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	desc, allowed := in.String("description"), in.String("allowed_ip_addresses")
	problems := in.Problems()
	if desc.Set && desc.Value == "" {
		problems.addBlank("description")
	}
	checkCIDR(&problems, allowed)
	var out clusterTokenView
	err := s.store.update(func() *apiError {
		t, err := s.store.findClusterToken(org.slug, r)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		setString(&t.description, desc)
		setString(&t.allowedIPAddresses, allowed)
		out = s.store.clusterTokenView(baseURL(r), t)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) deleteClusterTokenHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteClusters)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		t, err := s.store.findClusterToken(org.slug, r)
		if err != nil {
			return err
		}
		s.store.deleteClusterToken(t)
		return nil
	})
	respondNoContent(w, err)
}

// newSecret returns an agent token secret.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

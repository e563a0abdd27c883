package fakeserver

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// Agent metrics (https://buildkite.com/docs/apis/agent-api/metrics) at /v3/metrics with an agent registration
// token: counts of idle and busy agents and of scheduled, running and waiting jobs, per queue.
//
// Two kinds of token authenticate. An organization-wide registration token (seeded by fixtures or
// AddAgentToken) reports every agent and job of its organization. A cluster agent token created through
// the clusters API reports only its cluster's agents and jobs, adds cluster.name, and is refused (403)
// from a remote address outside its allowed_ip_addresses. The emulator runs no agents: agents and job
// counts come from fixtures and the seeding methods below.

// Kinds of this area, for Store.Exists and Store.Remove.
const (
	// KindAgent is a seeded agent; its id is the one AddAgent returns.
	KindAgent Kind = "agent"
	// KindAgentToken is an organization-wide agent registration token; its id is the token string.
	KindAgentToken Kind = "agent_token"
)

// Agent and job states the metrics count.
const (
	agentIdle = "idle"
	agentBusy = "busy"

	metricJobScheduled = "scheduled"
	metricJobRunning   = "running"
	metricJobWaiting   = "waiting"
)

// defaultQueueKey is the queue of an agent or job that names none, as on the real service.
const defaultQueueKey = "default"

func init() {
	registerKind(KindAgent, (*Store).agentByID, func(st *Store, a *agentRecord) { delete(st.metrics.agents, a.id) })
	registerKind(KindAgentToken, (*Store).agentToken, func(st *Store, t *agentTokenRecord) {
		delete(st.metrics.agentTokens, t.token)
	})
}

// ---- state ----

// metricsState is this area's part of the Store.
type metricsState struct {
	agentTokens map[string]*agentTokenRecord // organization-wide registration tokens, by token string
	agents      map[string]*agentRecord      // by id
	jobs        map[jobKey]int               // job counts
}

func newMetricsState() metricsState {
	return metricsState{
		agentTokens: map[string]*agentTokenRecord{},
		agents:      map[string]*agentRecord{},
		jobs:        map[jobKey]int{},
	}
}

// agentTokenRecord is an organization-wide agent registration token.
type agentTokenRecord struct {
	org, token string
}

// agentRecord is a connected agent. cluster is a cluster's ID or name ("" for an unclustered agent): it
// is matched when metrics are asked for, so a fixture can name a cluster that is created through the
// API only later.
type agentRecord struct {
	seq                                  int64
	org, id, name, cluster, queue, state string
	// What GET /v2/organizations/{org}/agents shows (agents.go): stopped is true once PUT .../stop asked
	// it to stop, after which it is neither listed nor counted.
	hostname, version string
	metaData          []string
	createdAt         time.Time
	stopped           bool
	// pause is set while the agent is paused (PUT .../pause), nil otherwise.
	pause *agentPause
}

// agentPause is an agent's pause: who asked, when, why, and for how long.
type agentPause struct {
	at             time.Time
	by, note       string
	timeoutMinutes int
}

// jobKey identifies one count of jobs: a state in a queue (of a cluster, by ID or name, or "").
type jobKey struct {
	org, cluster, queue, state string
}

// agentByID returns the agent of org with id, or nil. A lock must be held.
// agentToken returns org's agent registration token with the secret token, or nil. A lock must be held.
func (st *Store) agentToken(org, token string) *agentTokenRecord {
	if t, ok := st.metrics.agentTokens[token]; ok && t.org == org {
		return t
	}
	return nil
}

func (st *Store) agentByID(org, id string) *agentRecord {
	if a, ok := st.metrics.agents[id]; ok && a.org == org {
		return a
	}
	return nil
}

// inCluster reports whether a record naming cluster (by ID or name) belongs to c.
func inCluster(cluster string, c *clusterRecord) bool {
	return cluster != "" && (cluster == c.id || cluster == c.name)
}

// ---- seeding for tests and fixtures ----

// AddAgentToken seeds an organization-wide agent registration token for org, which authenticates
// GET /v3/metrics. Adding a token that exists moves it to org. It fails for an unknown organization.
func (st *Store) AddAgentToken(org, token string) error {
	defer st.edit()()
	if err := st.checkOrg(org); err != nil {
		return err
	}
	if token == "" {
		return fmt.Errorf("fakeserver: empty agent token")
	}
	st.metrics.agentTokens[token] = &agentTokenRecord{org: org, token: token}
	return nil
}

// AddAgent seeds a connected agent (a.Org, a.Name, a.Queue, a.Cluster, a.State as in a fixture file;
// Queue defaults to "default", State to "idle") and returns its id, for SetAgentState and KindAgent.
func (st *Store) AddAgent(a AgentFixture) (agentID string, err error) {
	defer st.edit()()
	if err := st.checkOrg(a.Org); err != nil {
		return "", err
	}
	if problems := a.problems(); len(problems) > 0 {
		return "", fmt.Errorf("fakeserver: agent %q: %s", a.Name, strings.Join(problems, "; "))
	}
	return st.addAgent(a), nil
}

// addAgent stores a checked agent. The write lock must be held.
func (st *Store) addAgent(a AgentFixture) string {
	id := newID()
	st.metrics.agents[id] = &agentRecord{
		seq: st.nextSeq(), org: a.Org, id: id, name: a.Name, cluster: a.Cluster,
		queue: orDefault(a.Queue, defaultQueueKey), state: orDefault(a.State, agentIdle),
		hostname: orDefault(a.Hostname, a.Name), version: orDefault(a.Version, defaultAgentVersion),
		metaData: append([]string{"queue=" + orDefault(a.Queue, defaultQueueKey)}, a.MetaData...), createdAt: st.timestamp(),
	}
	return id
}

// SetAgentState makes the agent idle or busy.
func (st *Store) SetAgentState(agentID, state string) error {
	defer st.edit()()
	a, ok := st.metrics.agents[agentID]
	if !ok {
		return fmt.Errorf("fakeserver: no agent %q", agentID)
	}
	if state != agentIdle && state != agentBusy {
		return fmt.Errorf("fakeserver: agent state %q is not idle or busy", state)
	}
	a.state = state
	return nil
}

// SetQueueJobs sets how many jobs of a queue are in one state (j.Org, j.Queue, j.Cluster, j.State,
// j.Count as in a fixture file), replacing the count set before.
func (st *Store) SetQueueJobs(j QueueJobsFixture) error {
	defer st.edit()()
	if err := st.checkOrg(j.Org); err != nil {
		return err
	}
	if problems := j.problems(); len(problems) > 0 {
		return fmt.Errorf("fakeserver: jobs of queue %q: %s", j.Queue, strings.Join(problems, "; "))
	}
	st.setQueueJobs(j)
	return nil
}

// setQueueJobs stores a checked job count. The write lock must be held.
func (st *Store) setQueueJobs(j QueueJobsFixture) {
	st.metrics.jobs[jobKey{org: j.Org, cluster: j.Cluster, queue: orDefault(j.Queue, defaultQueueKey), state: j.State}] = j.Count
}

// checkOrg fails for an unknown organization. A lock must be held.
func (st *Store) checkOrg(org string) error {
	if _, ok := st.orgs[org]; !ok {
		return fmt.Errorf("fakeserver: no organization %q", org)
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ---- views ----

// agentCounts are the agent numbers of the organization or of one queue.
type agentCounts struct {
	Idle  int `json:"idle"`
	Busy  int `json:"busy"`
	Total int `json:"total"`
}

// jobCounts are the job numbers of the organization or of one queue.
type jobCounts struct {
	Scheduled int `json:"scheduled"`
	Running   int `json:"running"`
	Waiting   int `json:"waiting"`
	Total     int `json:"total"`
}

type agentMetricsView struct {
	agentCounts
	Queues map[string]agentCounts `json:"queues"`
}

type jobMetricsView struct {
	jobCounts
	Queues map[string]jobCounts `json:"queues"`
}

type metricsOrgView struct {
	Slug string `json:"slug"`
}

type metricsClusterView struct {
	Name string `json:"name"`
}

// metricsView is the metrics object. cluster is present only for a cluster agent token.
type metricsView struct {
	Agents       agentMetricsView    `json:"agents"`
	Jobs         jobMetricsView      `json:"jobs"`
	Organization metricsOrgView      `json:"organization"`
	Cluster      *metricsClusterView `json:"cluster,omitempty"`
}

// metricsScope is what a registration token reports on: its organization and, for a cluster agent token,
// its cluster.
type metricsScope struct {
	org     string
	cluster *clusterRecord // nil for an organization-wide token
}

// has reports whether a record of org naming cluster is in the scope.
func (sc metricsScope) has(org, cluster string) bool {
	return org == sc.org && (sc.cluster == nil || inCluster(cluster, sc.cluster))
}

// metricsOf counts the scope's agents and jobs; onlyQueue, when not empty, keeps that queue alone. Every
// queue of the scope's clusters is listed, with zeros when nothing runs there. A lock must be held.
func (st *Store) metricsOf(sc metricsScope, onlyQueue string) metricsView {
	v := metricsView{
		Agents:       agentMetricsView{Queues: map[string]agentCounts{}},
		Jobs:         jobMetricsView{Queues: map[string]jobCounts{}},
		Organization: metricsOrgView{Slug: sc.org},
	}
	wanted := func(queue string) bool { return onlyQueue == "" || queue == onlyQueue }
	listQueue := func(queue string) {
		if _, ok := v.Agents.Queues[queue]; !ok {
			v.Agents.Queues[queue] = agentCounts{}
			v.Jobs.Queues[queue] = jobCounts{}
		}
	}

	clusters := st.clustersOf(sc.org)
	if sc.cluster != nil {
		clusters = []*clusterRecord{sc.cluster}
		v.Cluster = &metricsClusterView{Name: sc.cluster.name}
	}
	for _, c := range clusters {
		for _, q := range st.queuesOf(c.id) {
			if wanted(q.key) {
				listQueue(q.key)
			}
		}
	}
	if onlyQueue != "" {
		listQueue(onlyQueue)
	}

	for _, a := range st.metrics.agents {
		if a.stopped || !sc.has(a.org, a.cluster) || !wanted(a.queue) {
			continue
		}
		listQueue(a.queue)
		q := v.Agents.Queues[a.queue]
		countAgent(&v.Agents.agentCounts, a.state)
		countAgent(&q, a.state)
		v.Agents.Queues[a.queue] = q
	}
	for k, n := range st.metrics.jobs {
		if !sc.has(k.org, k.cluster) || !wanted(k.queue) {
			continue
		}
		listQueue(k.queue)
		q := v.Jobs.Queues[k.queue]
		countJobs(&v.Jobs.jobCounts, k.state, n)
		countJobs(&q, k.state, n)
		v.Jobs.Queues[k.queue] = q
	}
	return v
}

func countAgent(c *agentCounts, state string) {
	if state == agentBusy {
		c.Busy++
	} else {
		c.Idle++
	}
	c.Total++
}

func countJobs(c *jobCounts, state string, n int) {
	switch state {
	case metricJobScheduled:
		c.Scheduled += n
	case metricJobRunning:
		c.Running += n
	case metricJobWaiting:
		c.Waiting += n
	}
	c.Total += n
}

// ---- routes and handlers ----

func (s *Server) routeMetrics(mux *routeMux) {
	mux.HandleFunc("GET /v3/metrics", s.getMetrics)
	mux.HandleFunc("GET /v3/metrics/queue", s.getQueueMetrics)
}

func (s *Server) getMetrics(w http.ResponseWriter, r *http.Request) { s.serveMetrics(w, r, false) }

// getQueueMetrics is the per-queue variant: ?name=<queue key> (required) keeps that queue's numbers only.
func (s *Server) getQueueMetrics(w http.ResponseWriter, r *http.Request) { s.serveMetrics(w, r, true) }

func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request, perQueue bool) {
	queue := r.URL.Query().Get("name")
	if !perQueue {
		queue = ""
	}
	var out metricsView
	err := s.store.view(func() *apiError {
		sc, err := s.store.authenticateAgent(r)
		if err != nil {
			return err
		}
		if perQueue && queue == "" {
			return errBadRequest("Missing query parameter: name (the queue to report on)")
		}
		out = s.store.metricsOf(sc, queue)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// agentToken returns the token of an "Authorization: Token <token>" header.
func agentToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Token") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// authenticateAgent finds what the request's registration token reports on: 401 for a missing or unknown
// token (an expired cluster agent token included), 403 for a cluster agent token used from outside its
// allowed_ip_addresses. A lock must be held.
func (st *Store) authenticateAgent(r *http.Request) (metricsScope, *apiError) {
	secret, ok := agentToken(r)
	if !ok {
		return metricsScope{}, errAgentUnauthorized()
	}
	if t, ok := st.metrics.agentTokens[secret]; ok {
		if _, ok := st.orgs[t.org]; ok {
			return metricsScope{org: t.org}, nil
		}
		return metricsScope{}, errAgentUnauthorized()
	}
	if t, ok := st.clusters.tokens.lookup(clusterTokenSecretName(secret)); ok {
		c := st.cluster(t.org, t.clusterID)
		if c == nil || t.expired(st.now()) {
			return metricsScope{}, errAgentUnauthorized()
		}
		if !ipAllowed(r.RemoteAddr, t.allowedIPAddresses) {
			return metricsScope{}, errAgentAddressRefused(remoteHost(r.RemoteAddr), t.allowedIPAddresses)
		}
		return metricsScope{org: t.org, cluster: c}, nil
	}
	return metricsScope{}, errAgentUnauthorized()
}

// remoteHost is the host part of a remote address ("192.0.2.1:1234" gives "192.0.2.1").
func remoteHost(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// ipAllowed reports whether the remote address lies in one of the networks of allowed (CIDR blocks
// separated by spaces); an empty allowed means unrestricted. An address that does not parse is refused.
func ipAllowed(remoteAddr, allowed string) bool {
	cidrs := cidrBlocks(allowed)
	if len(cidrs) == 0 {
		return true
	}
	host, _, _ := strings.Cut(remoteHost(remoteAddr), "%") // drop an IPv6 zone
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	for _, c := range cidrs {
		if _, network, err := net.ParseCIDR(c); err == nil && network.Contains(ip) {
			return true
		}
	}
	return false
}

package fakeserver

import (
	"net/http"
	"regexp"
	"time"
)

// Cluster queues (https://buildkite.com/docs/apis/rest-api/clusters/queues), with dispatch pause and resume.

const (
	// KindQueue is a cluster queue; removing the cluster's default queue clears default_queue_id.
	KindQueue Kind = "queue"
)

// retryAgentAffinities are the values of a queue's retry_agent_affinity
// (https://buildkite.com/docs/apis/rest-api/clusters/queues), the default first: whether a retried job prefers
// the agent that ran it (the warmest) or a different one.
var retryAgentAffinities = []string{"prefer-warmest", "prefer-different"}

// Queue keys follow the provider's rule: a letter or digit, then letters, digits, hyphens and
// underscores, at most queueKeyMaxLen characters (limits.go). The documentation gives no rule; this one is
// the emulator's.
var queueKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_-]*$`)

func init() {
	registerKind(KindQueue, nestedKey((*Store).queue), (*Store).deleteQueue)
}

// ---- state ----

func queueKeyName(clusterID, key string) string { return nameKey(clusterID, "key", key) }

func (q *queueRecord) recordID() string { return q.id }
func (q *queueRecord) recordSeq() int64 { return q.seq }

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

// queue and queuesOf need a lock held; queue returns nil for a queue outside org or cluster, queuesOf lists
// in creation order (the caller must not change the slice).
func (st *Store) queue(org, clusterID, id string) *queueRecord {
	if q, ok := st.clusters.queues.get(id); ok && q.org == org && q.clusterID == clusterID {
		return q
	}
	return nil
}

func (st *Store) queuesOf(clusterID string) []*queueRecord { return st.clusters.queues.list(clusterID) }

// queueByKey returns the queue of the cluster with key, or nil. A lock must be held.
func (st *Store) queueByKey(clusterID, key string) *queueRecord {
	q, _ := st.clusters.queues.lookup(queueKeyName(clusterID, key))
	return q
}

// deleteQueue removes q; when it was its cluster's default queue the cluster is left without one (rather
// than refusing, so that destroying a default queue and its cluster works in any order).
func (st *Store) deleteQueue(q *queueRecord) {
	if c, ok := st.clusters.clusters.get(q.clusterID); ok && c.defaultQueueID == q.id {
		c.defaultQueueID = ""
	}
	st.clusters.queues.remove(q)
}

// ---- views ----

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
	// Hosted and HostedAgents are left out of a self-hosted queue, as the documentation's examples show it.
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

// ---- routes ----

func (s *Server) routeClusterQueues(mux *routeMux) {
	const queues = "/v2/organizations/{org}/clusters/{cluster}/queues"
	const queue = queues + "/{queue}"
	mux.HandleFunc("GET "+queues, s.listQueues)
	mux.HandleFunc("POST "+queues, s.createQueue)
	mux.HandleFunc("GET "+queue, s.getQueue)
	mux.HandleFunc("PUT "+queue, s.updateQueue)
	mux.HandleFunc("PATCH "+queue, s.updateQueue)
	mux.HandleFunc("DELETE "+queue, s.deleteQueueHandler)
	mux.HandleFunc("POST "+queue+"/pause_dispatch", s.pauseQueue)
	mux.HandleFunc("POST "+queue+"/resume_dispatch", s.resumeQueue)
}

// ---- queue handlers ----

func (s *Server) listQueues(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		c := s.store.cluster(org, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		out := []queueView{}
		for _, q := range paginate(w, r, s.store.queuesOf(c.id)) {
			out = append(out, s.store.queueView(baseURL(r), q))
		}
		return out, nil
	})
}

func (s *Server) getQueue(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		q, err := s.store.findQueue(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.queueView(baseURL(r), q), nil
	})
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
	s.serveWrite(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
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
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		if key.Value != "" && s.store.queueByKey(c.id, key.Value) != nil {
			problems.add("key", "has already been taken")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		id := newID()
		q := &queueRecord{
			seq: s.store.nextSeq(), org: org.slug, clusterID: c.id, id: id, graphqlID: graphQLID("ClusterQueue", id),
			key: key.Value, desc: desc.Value, retryAgentAffinity: orDefault(affinity.Value, retryAgentAffinities[0]),
			hosted: hosted, createdAt: s.store.timestamp(), createdBy: user.id,
		}
		s.store.addQueue(q)
		return s.store.queueView(baseURL(r), q), nil
	})
}

// updateQueue changes the description, retry_agent_affinity and a hosted queue's hostedAgents; the key
// cannot change and, like other unknown properties, is ignored.
func (s *Server) updateQueue(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		desc, affinity, hostedIn := in.String("description"), in.String("retry_agent_affinity"), in.Object("hostedAgents")
		problems := in.Problems()
		checkEnum(&problems, "retry_agent_affinity", affinity, retryAgentAffinities)
		hosted := readHostedAgents(hostedIn, &problems)
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		if err := applyHostedUpdate(q, hosted); err != nil {
			return nil, err
		}
		setString(&q.desc, desc)
		if affinity.Given() {
			q.retryAgentAffinity = affinity.Value
		}
		return s.store.queueView(baseURL(r), q), nil
	})
}

func (s *Server) deleteQueueHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteClusters, func(org string) *apiError {
		q, err := s.store.findQueue(org, r)
		if err != nil {
			return err
		}
		s.store.deleteQueue(q)
		return nil
	})
}

// pauseQueue takes the note as dispatch_paused_note (the documentation's sample, go-buildkite) or note (its
// property list); an empty note is no note, shown as null.
func (s *Server) pauseQueue(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		note, hasNote := in.StringOr("dispatch_paused_note", "note")
		if problems := in.Problems(); len(problems) > 0 {
			return nil, errValidation(problems)
		}
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return nil, err
		}
		if !hasNote {
			note = ""
		}
		if err := s.store.pauseDispatch(q, user.id, note); err != nil {
			return nil, err
		}
		return s.store.queueView(baseURL(r), q), nil
	})
}

func (s *Server) resumeQueue(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, _ userRecord) (any, *apiError) {
		q, err := s.store.findQueue(org.slug, r)
		if err != nil {
			return nil, err
		}
		if err := resumeDispatch(q); err != nil {
			return nil, err
		}
		return s.store.queueView(baseURL(r), q), nil
	})
}

// pauseDispatch pauses q's dispatch for userID with note ("" for none), over REST and GraphQL alike; a
// paused queue is refused. The write lock must be held.
func (st *Store) pauseDispatch(q *queueRecord, userID, note string) *apiError {
	if q.paused {
		return errUnprocessable("Cluster queue is already paused")
	}
	q.paused, q.pausedBy, q.pausedAt, q.pausedNote = true, userID, st.timestamp(), nil
	if note != "" {
		q.pausedNote = stringPtr(note)
	}
	return nil
}

// resumeDispatch resumes q's dispatch; a queue that is not paused is refused.
func resumeDispatch(q *queueRecord) *apiError {
	if !q.paused {
		return errUnprocessable("Cluster queue is not paused")
	}
	q.paused, q.pausedBy, q.pausedAt, q.pausedNote = false, "", time.Time{}, nil
	return nil
}

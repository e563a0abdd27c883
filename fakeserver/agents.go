package fakeserver

import (
	"net/http"
	"slices"
	"strings"
)

// Agents (Buildkite's REST documentation, pages/apis/rest_api/agents.md): list an organization's
// connected agents, get one, and stop one. The emulator runs no agents: they are seeded by fixtures
// (agents:) or Store.AddAgent, the same records the /v3 metrics count (metrics.go). An agent asked to stop
// is "stopped" at once: no longer listed or counted, still found by ID; a second stop is 400.

// Scopes of this area and of the build outputs (artifacts.go, annotations.go, job_logs.go).
const (
	scopeReadAgents     = "read_agents"
	scopeWriteAgents    = "write_agents"
	scopeReadArtifacts  = "read_artifacts"
	scopeWriteArtifacts = "write_artifacts"
	scopeReadJobLogs    = "read_job_logs"
	scopeWriteJobLogs   = "write_job_logs"
)

// defaultAgentVersion is the version a seeded agent reports unless its fixture gives one.
const defaultAgentVersion = "3.100.0"

// orgAgentView is an agent as the API shows it.
type orgAgentView struct {
	ID                string    `json:"id"`
	GraphQLID         string    `json:"graphql_id"`
	URL               string    `json:"url"`
	WebURL            string    `json:"web_url"`
	Name              string    `json:"name"`
	ConnectionState   string    `json:"connection_state"`
	Hostname          string    `json:"hostname"`
	IPAddress         string    `json:"ip_address"`
	UserAgent         string    `json:"user_agent"`
	Version           string    `json:"version"`
	Creator           *userView `json:"creator"`
	CreatedAt         *string   `json:"created_at"`
	Job               any       `json:"job"`
	LastJobFinishedAt *string   `json:"last_job_finished_at"`
	Priority          *int      `json:"priority"`
	MetaData          []string  `json:"meta_data"`
	// The pause fields: paused always, the others while paused.
	Paused                 bool      `json:"paused"`
	PausedAt               *string   `json:"paused_at,omitempty"`
	PausedBy               *userView `json:"paused_by,omitempty"`
	PausedNote             *string   `json:"paused_note,omitempty"`
	PausedTimeoutInMinutes *int      `json:"paused_timeout_in_minutes,omitempty"`
}

func (s *Server) routeAgents(mux *routeMux) {
	const agents = "/v2/organizations/{org}/agents"
	mux.HandleFunc("GET "+agents, s.listAgents)
	mux.HandleFunc("GET "+agents+"/{id}", s.getAgent)
	mux.HandleFunc("PUT "+agents+"/{id}/stop", s.stopAgent)
	mux.HandleFunc("PUT "+agents+"/{id}/pause", s.pauseAgent)
	mux.HandleFunc("PUT "+agents+"/{id}/resume", s.resumeAgent)
}

// agentViewOf is a's view; running is agentJobs of a's organization, the jobs its agents hold.
func (st *Store) agentViewOf(base string, a *agentRecord, running map[string]heldJob) orgAgentView {
	v := agentViewOf(base, a)
	if h, ok := running[a.id]; ok {
		if p := st.pipelineByID(h.b.org, h.b.pipelineID); p != nil {
			v.Job = st.jobView(base, h.b, p, h.j, false)
		}
	}
	if p := a.pause; p != nil {
		v.Paused, v.PausedAt, v.PausedBy = true, formatTimePtr(p.at), st.userSummary(p.by)
		v.PausedNote, v.PausedTimeoutInMinutes = &p.note, &p.timeoutMinutes
	}
	return v
}

func agentViewOf(base string, a *agentRecord) orgAgentView {
	state := "connected"
	if a.stopped {
		state = "stopped"
	}
	return orgAgentView{
		ID: a.id, GraphQLID: graphQLID("Agent", a.id),
		URL: apiURL(base, "organizations", a.org, "agents", a.id), WebURL: webURL(base, "organizations", a.org, "agents", a.id),
		Name: a.name, ConnectionState: state, Hostname: a.hostname, IPAddress: "127.0.0.1",
		UserAgent: "buildkite-agent/" + a.version + " (linux; amd64)", Version: a.version,
		CreatedAt: formatTimePtr(a.createdAt), MetaData: nonNil(a.metaData),
	}
}

// listAgents answers the organization's connected agents in the order they were seeded, filtered by the
// exact name, hostname and version query parameters.
func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadAgents, func(org string) (any, *apiError) {
		q := r.URL.Query()
		var selected []*agentRecord
		for _, a := range s.store.metrics.agents {
			if a.org != org || a.stopped || !matches(q.Get("name"), a.name) ||
				!matches(q.Get("hostname"), a.hostname) || !matches(q.Get("version"), a.version) {
				continue
			}
			selected = append(selected, a)
		}
		slices.SortFunc(selected, func(a, b *agentRecord) int { return int(a.seq - b.seq) })
		out := []orgAgentView{}
		running := s.store.agentJobs(org)
		for _, a := range paginate(w, r, selected) {
			out = append(out, s.store.agentViewOf(baseURL(r), a, running))
		}
		return out, nil
	})
}

// matches reports whether a filter (empty for none) admits value.
func matches(filter, value string) bool { return filter == "" || filter == value }

func (s *Server) getAgent(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadAgents, func(org string) (any, *apiError) {
		a := s.store.agentByID(org, r.PathValue("id"))
		if a == nil {
			return nil, errNotFound("agent")
		}
		return s.store.agentViewOf(baseURL(r), a, s.store.agentJobs(org)), nil
	})
}

// stopAgent stops a connected agent (204); force, when given, must be a boolean. Only an administrator
// of the organization may (403 otherwise); an agent already stopped is 400.
func (s *Server) stopAgent(w http.ResponseWriter, r *http.Request) {
	// An empty body is no options.
	s.serveWrite(w, r, scopeWriteAgents, http.StatusNoContent, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		if in.Bool("force"); len(in.Problems()) > 0 {
			return nil, errValidation(in.Problems())
		}
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errForbidden()
		}
		a := s.store.agentByID(org.slug, r.PathValue("id"))
		switch {
		case a == nil:
			return nil, errNotFound("agent")
		case a.stopped:
			return nil, errBadRequest("Can only stop connected agents")
		}
		a.stopped = true
		return nil, nil
	})
}

// Pausing (Buildkite's documentation, agent/self-hosted/pausing-and-resuming, and the CLI's `bk agent
// pause`): a pause has a note and a timeout in minutes, 5 by default and 10,080 at most. The REST answers
// are not documented: the emulator answers 204, as stop does, and refuses a stopped agent as stop does
// (400); pausing a paused agent replaces its pause, and resuming one that is not paused changes nothing.

// maxPauseMinutes is the longest pause (seven days).
const maxPauseMinutes = 10080

// pauseAgent pauses a connected agent: no jobs are dispatched to it until it is resumed.
func (s *Server) pauseAgent(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteAgents, http.StatusNoContent, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		note, timeout := in.String("note"), in.Int("timeout_in_minutes")
		problems := in.Problems()
		if timeout.Given() && (timeout.Value < 1 || timeout.Value > maxPauseMinutes) {
			problems.add("timeout_in_minutes", "must be between 1 and 10080")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		a, err := s.store.connectedAgent(org.slug, user.id, r.PathValue("id"), "pause")
		if err != nil {
			return nil, err
		}
		p := &agentPause{at: s.store.timestamp(), by: user.id, note: note.Value, timeoutMinutes: 5}
		if timeout.Given() {
			p.timeoutMinutes = timeout.Value
		}
		a.pause = p
		return nil, nil
	})
}

// resumeAgent ends an agent's pause.
func (s *Server) resumeAgent(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteAgents, http.StatusNoContent, func(org orgRecord, user userRecord, _ *jsonObject) (any, *apiError) {
		a, err := s.store.connectedAgent(org.slug, user.id, r.PathValue("id"), "resume")
		if err != nil {
			return nil, err
		}
		a.pause = nil
		return nil, nil
	})
}

// connectedAgent finds org's agent id for an administrator's action: 403 for another user, 404 for an
// unknown agent, 400 for a stopped one. A lock must be held.
func (st *Store) connectedAgent(org, userID, id, action string) (*agentRecord, *apiError) {
	if !st.isAdmin(org, userID) {
		return nil, errForbidden()
	}
	a := st.agentByID(org, id)
	switch {
	case a == nil:
		return nil, errNotFound("agent")
	case a.stopped:
		return nil, errBadRequest("Can only " + action + " connected agents")
	}
	return a, nil
}

// ---- agents running builds' jobs ----

// A build's job that reaches "assigned" (or a later state in which an agent holds it) is taken by an idle,
// connected, unpaused agent of its queue when there is one: the agent is then busy (in the metrics too)
// and the agents API shows the job as its "job", as Buildkite's does and Buildkite's CLI reads (bk agent
// list --state running); when the job finishes, or goes back to waiting, the agent is idle again. A job's
// queue is its cluster queue's key in its cluster, or for a pipeline in no cluster the queue=<key> of its
// agent query rules ("default" without one). An agent seeded busy holds no job.

// idleAgentFor returns an idle connected agent of org for j's queue, or nil. A lock must be held.
func (st *Store) idleAgentFor(org string, j *jobRecord) *agentRecord {
	var cluster *clusterRecord
	key := "default"
	if j.clusterID != "" {
		if cluster = st.cluster(org, j.clusterID); cluster == nil {
			return nil
		}
		q := st.queue(org, j.clusterID, j.queueID)
		if q == nil {
			return nil
		}
		key = q.key
	} else {
		for _, rule := range j.step.agentQueryRules {
			if k, ok := strings.CutPrefix(rule, "queue="); ok {
				key = k
				break
			}
		}
	}
	var found *agentRecord
	for _, a := range st.metrics.agents {
		if a.org != org || a.stopped || a.pause != nil || a.state != "idle" || a.queue != key {
			continue
		}
		if (cluster == nil) != (a.cluster == "") || (cluster != nil && !inCluster(a.cluster, cluster)) {
			continue
		}
		if found == nil || a.seq < found.seq {
			found = a
		}
	}
	return found
}

// releaseAgent makes held, the connected agent that held j, idle again once j no longer needs it:
// finished, or waiting for an agent again. A lock must be held.
func (st *Store) releaseAgent(org string, j *jobRecord, held *jobAgent) {
	if held == nil || !held.seeded {
		return
	}
	if slices.Contains(jobAgentStates, j.state) && !slices.Contains(jobFinishedStates, j.state) {
		return
	}
	if a := st.agentByID(org, held.id); a != nil && a.state == "busy" {
		a.state = "idle"
	}
}

// heldJob is a build's job and its build.
type heldJob struct {
	b *buildRecord
	j *jobRecord
}

// agentJobs returns the jobs org's connected agents are running, by agent ID, in one pass over the
// organization's builds (an agent list shows each agent's job). A lock must be held.
func (st *Store) agentJobs(org string) map[string]heldJob {
	running := map[string]heldJob{}
	for _, b := range st.builds.builds.list("org:" + org) {
		for _, j := range b.jobs {
			if j.agent != nil && j.agent.seeded &&
				slices.Contains(jobAgentStates, j.state) && !slices.Contains(jobFinishedStates, j.state) {
				running[j.agent.id] = heldJob{b, j}
			}
		}
	}
	return running
}

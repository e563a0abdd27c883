package fakeserver

import (
	"net/http"
	"slices"
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
}

func (s *Server) routeAgents(mux *http.ServeMux) {
	const agents = "/v2/organizations/{org}/agents"
	mux.HandleFunc("GET "+agents, s.listAgents)
	mux.HandleFunc("GET "+agents+"/{id}", s.getAgent)
	mux.HandleFunc("PUT "+agents+"/{id}/stop", s.stopAgent)
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
	org, _, ok := s.authorize(w, r, scopeReadAgents)
	if !ok {
		return
	}
	q := r.URL.Query()
	var out []orgAgentView
	_ = s.store.view(func() *apiError {
		var selected []*agentRecord
		for _, a := range s.store.metrics.agents {
			if a.org != org.slug || a.stopped || !matches(q.Get("name"), a.name) ||
				!matches(q.Get("hostname"), a.hostname) || !matches(q.Get("version"), a.version) {
				continue
			}
			selected = append(selected, a)
		}
		slices.SortFunc(selected, func(a, b *agentRecord) int { return int(a.seq - b.seq) })
		for _, a := range paginate(w, r, selected) {
			out = append(out, agentViewOf(baseURL(r), a))
		}
		return nil
	})
	writeJSON(w, http.StatusOK, nonNil(out))
}

// matches reports whether a filter (empty for none) admits value.
func matches(filter, value string) bool { return filter == "" || filter == value }

func (s *Server) getAgent(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadAgents, func(org string) (any, *apiError) {
		a := s.store.agentByID(org, r.PathValue("id"))
		if a == nil {
			return nil, errNotFound("agent")
		}
		return agentViewOf(baseURL(r), a), nil
	})
}

// stopAgent stops a connected agent (204); force, when given, must be a boolean. Only an administrator
// of the organization may (403 otherwise); an agent already stopped is 400.
func (s *Server) stopAgent(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteAgents)
	if !ok {
		return
	}
	in, ok := readObject(w, r) // an empty body is no options
	if !ok {
		return
	}
	if in.Bool("force"); len(in.Problems()) > 0 {
		writeError(w, errValidation(in.Problems()))
		return
	}
	respondNoContent(w, s.store.update(func() *apiError {
		if !s.store.isAdmin(org.slug, user.id) {
			return errForbidden()
		}
		a := s.store.agentByID(org.slug, r.PathValue("id"))
		switch {
		case a == nil:
			return errNotFound("agent")
		case a.stopped:
			return errBadRequest("Can only stop connected agents")
		}
		a.stopped = true
		return nil
	}))
}

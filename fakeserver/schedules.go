package fakeserver

import (
	"maps"
	"net/http"
	"strings"
	"time"
)

// Pipeline schedules (https://buildkite.com/docs/apis/rest-api/pipeline-schedules): builds a pipeline runs by a
// cronline, under /pipelines/{slug}/schedules. Scopes are the pipelines' (read_pipelines, write_pipelines), as
// for everything else under a pipeline.
//
// Choices where the facts are silent:
//   - cronline is required and checked as cron.go says (422 "Cronline is not a valid cronline: ...").
//   - branch defaults to the pipeline's default branch and commit to HEAD; neither may be blank. label and
//     message may be left out (message is then null); enabled defaults to true; env to {}.
//   - next_build_at is when the cronline next fires after the request, in RFC 3339 UTC; null while the
//     schedule is disabled, and for a cronline that matches no time (the 30th of February).
//   - Deleting a pipeline deletes its schedules.

// KindPipelineSchedule is a pipeline schedule, for Store.Exists and Store.Remove, keyed "<pipeline id or
// slug>/<schedule id>".
const KindPipelineSchedule Kind = "pipeline_schedule"

func init() {
	registerKind(KindPipelineSchedule, nestedKey((*Store).scheduleOf), (*Store).deleteSchedule)
}

// ---- state ----

// scheduleState is this area's part of the Store: schedules listed by their pipeline.
type scheduleState struct {
	schedules *table[*scheduleRecord]
}

func newScheduleState() scheduleState {
	return scheduleState{schedules: newTable(func(s *scheduleRecord) []string { return []string{s.pipelineID} }, nil)}
}

func (s *scheduleRecord) recordID() string { return s.id }
func (s *scheduleRecord) recordSeq() int64 { return s.seq }

// scheduleRecord is a pipeline schedule.
type scheduleRecord struct {
	seq                            int64
	org, pipelineID, id, graphqlID string
	label, cronline, message       string
	commit, branch                 string
	env                            map[string]string
	enabled                        bool
	createdAt                      time.Time
	createdBy                      string // user id
}

// scheduleOf returns the schedule id of the pipeline named by its UUID or slug, or nil. A lock must be held.
func (st *Store) scheduleOf(org, pipeline, id string) *scheduleRecord {
	p := st.pipelineByID(org, pipeline)
	if p == nil {
		p = st.pipelineBySlug(org, pipeline)
	}
	if s, ok := st.schedules.schedules.get(id); ok && p != nil && s.pipelineID == p.id {
		return s
	}
	return nil
}

// deleteSchedule removes s. The write lock must be held.
func (st *Store) deleteSchedule(s *scheduleRecord) { st.schedules.schedules.remove(s) }

// deletePipelineSchedules removes every schedule of the pipeline. The write lock must be held.
func (st *Store) deletePipelineSchedules(pipelineID string) {
	removeAll(st.schedules.schedules, pipelineID)
}

// ---- views ----

// schedulePipelineView is the summary of its pipeline a schedule carries.
type schedulePipelineView struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	URL       string `json:"url"`
	WebURL    string `json:"web_url"`
	Name      string `json:"name"`
	Slug      string `json:"slug"`
}

type scheduleView struct {
	ID            string               `json:"id"`
	GraphQLID     string               `json:"graphql_id"`
	URL           string               `json:"url"`
	Label         string               `json:"label"`
	Cronline      string               `json:"cronline"`
	Message       *string              `json:"message"`
	Commit        string               `json:"commit"`
	Branch        string               `json:"branch"`
	Env           map[string]string    `json:"env"`
	Enabled       bool                 `json:"enabled"`
	NextBuildAt   *string              `json:"next_build_at"`
	FailedMessage *string              `json:"failed_message"`
	FailedAt      *string              `json:"failed_at"`
	CreatedAt     string               `json:"created_at"`
	CreatedBy     *userView            `json:"created_by"`
	Pipeline      schedulePipelineView `json:"pipeline"`
}

// scheduleView renders s of pipeline p. A lock must be held.
func (st *Store) scheduleView(base string, p *pipelineRecord, s *scheduleRecord) scheduleView {
	v := scheduleView{
		ID: s.id, GraphQLID: s.graphqlID, Label: s.label, Cronline: s.cronline, Commit: s.commit, Branch: s.branch,
		URL:     apiURL(base, "organizations", s.org, "pipelines", p.slug, "schedules", s.id),
		Env:     maps.Clone(s.env),
		Enabled: s.enabled, CreatedAt: formatTime(s.createdAt), CreatedBy: st.userSummary(s.createdBy),
		Pipeline: schedulePipelineView{
			ID: p.id, GraphQLID: p.graphqlID, Name: p.name, Slug: p.slug,
			URL:    apiURL(base, "organizations", p.org, "pipelines", p.slug),
			WebURL: webURL(base, p.org, p.slug),
		},
	}
	if v.Env == nil {
		v.Env = map[string]string{}
	}
	if s.message != "" {
		v.Message = stringPtr(s.message)
	}
	if s.enabled {
		if c, err := parseCronline(s.cronline); err == nil {
			if at, ok := c.next(st.now()); ok {
				v.NextBuildAt = stringPtr(at.UTC().Format(time.RFC3339))
			}
		}
	}
	return v
}

// ---- routes and handlers ----

func (s *Server) routeSchedules(mux *routeMux) {
	const schedules = "/v2/organizations/{org}/pipelines/{pipeline}/schedules"
	const schedule = schedules + "/{schedule}"
	mux.HandleFunc("GET "+schedules, s.listSchedules)
	mux.HandleFunc("POST "+schedules, s.createSchedule)
	mux.HandleFunc("GET "+schedule, s.getSchedule)
	mux.HandleFunc("PATCH "+schedule, s.updateSchedule)
	mux.HandleFunc("PUT "+schedule, s.updateSchedule)
	mux.HandleFunc("DELETE "+schedule, s.deleteScheduleHandler)
}

// findSchedule finds the schedule of the path's pipeline (by slug) and ID: 404 for either. A lock must be
// held.
func (st *Store) findSchedule(org string, r *http.Request) (*pipelineRecord, *scheduleRecord, *apiError) {
	p, err := st.findPipeline(org, r)
	if err != nil {
		return nil, nil, err
	}
	if sc, ok := st.schedules.schedules.get(r.PathValue("schedule")); ok && sc.pipelineID == p.id {
		return p, sc, nil
	}
	return nil, nil, errNotFound("pipeline schedule")
}

func (s *Server) listSchedules(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadPipelines, func(org string) (any, *apiError) {
		p, err := s.store.findPipeline(org, r)
		if err != nil {
			return nil, err
		}
		out := []scheduleView{}
		for _, sc := range paginate(w, r, s.store.schedules.schedules.list(p.id)) {
			out = append(out, s.store.scheduleView(baseURL(r), p, sc))
		}
		return out, nil
	})
}

func (s *Server) getSchedule(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadPipelines, func(org string) (any, *apiError) {
		p, sc, err := s.store.findSchedule(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.scheduleView(baseURL(r), p, sc), nil
	})
}

// scheduleInput is a create or update body.
type scheduleInput struct {
	label, cronline, message, commit, branch opt[string]
	env                                      opt[map[string]string]
	enabled                                  opt[bool]
	problems                                 validationErrors
}

// readScheduleInput reads a body and checks what can be checked without the store: a create needs a
// cronline; a cronline, branch or commit given must not be blank.
func readScheduleInput(in *jsonObject, creating bool) scheduleInput {
	v := scheduleInput{
		label: in.String("label"), cronline: in.String("cronline"), message: in.String("message"),
		commit: in.String("commit"), branch: in.String("branch"),
		env:     field[map[string]string](in, "env", "an object of strings"),
		enabled: in.Bool("enabled"),
	}
	v.problems = in.Problems()
	switch {
	case v.cronline.Given() && strings.TrimSpace(v.cronline.Value) != "":
		if _, err := parseCronline(v.cronline.Value); err != nil {
			v.problems.add("cronline", "is not a valid cronline: "+err.Error())
		}
	case creating || v.cronline.Set:
		v.problems.addBlank("cronline")
	}
	for _, f := range []struct {
		name string
		v    opt[string]
	}{{"branch", v.branch}, {"commit", v.commit}} {
		if f.v.Set && strings.TrimSpace(f.v.Value) == "" {
			v.problems.addBlank(f.name)
		}
	}
	for key := range v.env.Value {
		if strings.TrimSpace(key) == "" {
			v.problems.addOnce("env", "has a blank name")
		}
	}
	return v
}

// apply writes the body's properties to sc; absent ones are left as they are.
func (v scheduleInput) apply(sc *scheduleRecord) {
	setString(&sc.cronline, v.cronline)
	setString(&sc.label, v.label)
	setString(&sc.message, v.message)
	setString(&sc.commit, v.commit)
	setString(&sc.branch, v.branch)
	if v.env.Set {
		sc.env = maps.Clone(v.env.Value)
	}
	if v.enabled.Given() {
		sc.enabled = v.enabled.Value
	}
}

func (s *Server) createSchedule(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWritePipelines, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return nil, err
		}
		v := readScheduleInput(in, true)
		if len(v.problems) > 0 {
			return nil, errValidation(v.problems)
		}
		id := newID()
		sc := &scheduleRecord{
			seq: s.store.nextSeq(), org: org.slug, pipelineID: p.id, id: id, graphqlID: graphQLID("PipelineSchedule", id),
			commit: "HEAD", branch: p.defaultBranch, enabled: true, env: map[string]string{},
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		v.apply(sc)
		s.store.schedules.schedules.insert(sc)
		return s.store.scheduleView(baseURL(r), p, sc), nil
	})
}

func (s *Server) updateSchedule(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWritePipelines, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		p, sc, err := s.store.findSchedule(org.slug, r)
		if err != nil {
			return nil, err
		}
		v := readScheduleInput(in, false)
		if len(v.problems) > 0 {
			return nil, errValidation(v.problems)
		}
		v.apply(sc)
		return s.store.scheduleView(baseURL(r), p, sc), nil
	})
}

func (s *Server) deleteScheduleHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWritePipelines, func(org string) *apiError {
		_, sc, err := s.store.findSchedule(org, r)
		if err == nil {
			s.store.deleteSchedule(sc)
		}
		return err
	})
}

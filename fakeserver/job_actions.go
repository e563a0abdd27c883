package fakeserver

import (
	"net/http"
	"slices"
)

// A job's own endpoints (Buildkite's REST documentation, apis/rest-api/jobs): get one, retry it and
// reprioritize it, each reached through its build (pipeline slug and number) or, as Buildkite's CLI does,
// through the organization and the job's ID alone (/v2/organizations/{org}/jobs/{id}/...), which also
// serves the job's log.
//
// Retry (write_builds, 200 with the new job): only a failed, timed-out or canceled job, else 400 "Only
// failed, timed out or canceled jobs can be retried" (the documentation's words); each job is retried once,
// the next retry going through the new job's ID. Reprioritize (write_builds, 200 with the job) takes
// {"priority": <integer>}; a job shows its priority as {"number": <n>}, 0 until changed.

// List (read_builds) answers {"items": [...], "links": {"self": ..., "next": ..., "prev": ...}}, cursor-paged
// as the emulator's other cursor lists are (cursorPageOf: per_page 1 to 100, default 30; after or before, a
// job's ID), the build's jobs in step order, filtered by state[] (one or more job states), step_key and
// include_retried_jobs (without it, only the newest execution of each step). group_key matches no job: the emulator does not keep groups (I).

// jobRetryableStates are the states a job may be retried from.
var jobRetryableStates = []string{jobFailed, jobTimedOut, jobCanceled}

func (s *Server) routeJobActions(mux *routeMux) {
	const job = "/v2/organizations/{org}/pipelines/{pipeline}/builds/{number}/jobs/{job}"
	const orgJob = "/v2/organizations/{org}/jobs/{job}"
	mux.HandleFunc("GET /v2/organizations/{org}/pipelines/{pipeline}/builds/{number}/jobs", s.listJobs)
	for _, prefix := range []string{job, orgJob} {
		mux.HandleFunc("GET "+prefix, s.getJob)
		mux.HandleFunc("PUT "+prefix+"/retry", s.retryJobHandler)
		mux.HandleFunc("PUT "+prefix+"/reprioritize", s.reprioritizeJob)
		mux.HandleFunc("PUT "+prefix+"/unblock", s.unblockJob)
	}
	mux.HandleFunc("GET "+orgJob+"/log", s.getJobLog)
}

func (s *Server) getJob(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadBuilds, func(org string) (any, *apiError) {
		b, p, j, err := s.store.findJob(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.jobView(baseURL(r), b, p, j, true), nil
	})
}

func (s *Server) retryJobHandler(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteBuilds, http.StatusOK, func(org orgRecord, _ userRecord) (any, *apiError) {
		b, p, j, err := s.store.findJob(org.slug, r)
		if err != nil {
			return nil, err
		}
		if refusal := jobRetryRefusal(j); refusal != "" {
			return nil, errBadRequest(refusal)
		}
		s.store.retryJob(b, j)
		_, n := s.store.jobByID(org.slug, j.retriedInJobID)
		return s.store.jobView(baseURL(r), b, p, n, true), nil
	})
}

// jobRetryRefusal is why j cannot be retried, or "" when it can; REST and GraphQL (graphql_jobs.go) refuse
// in these words.
func jobRetryRefusal(j *jobRecord) string {
	switch {
	case !slices.Contains(jobRetryableStates, j.state):
		return "Only failed, timed out or canceled jobs can be retried"
	case j.retried:
		// The documentation says a job is retried once; these words are the emulator's.
		return "This job has already been retried; retry its newest execution, " + j.retriedInJobID
	}
	return ""
}

func (s *Server) reprioritizeJob(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteBuilds, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		priority := in.Int("priority")
		problems := in.Problems()
		if !priority.Given() && len(problems) == 0 {
			problems.addBlank("priority")
		}
		b, p, j, err := s.store.findJob(org.slug, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		j.priority = priority.Value
		return s.store.jobView(baseURL(r), b, p, j, true), nil
	})
}

// jobsPage is the answer of the jobs list.
type jobsPage struct {
	Items []jobView         `json:"items"`
	Links map[string]string `json:"links"`
}

func (s *Server) listJobs(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadBuilds, func(org string) (any, *apiError) {
		q := r.URL.Query()
		var problems validationErrors
		includeRetried := parseQueryBool(q, "include_retried_jobs", &problems)
		b, p, err := s.store.findBuild(org, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		states := slices.Concat(q["state[]"], q["state"])
		var jobs []*jobRecord
		for _, j := range b.jobs {
			if (j.retried && !includeRetried) || (len(states) > 0 && !slices.Contains(states, j.state)) ||
				(q.Get("step_key") != "" && j.step.key != q.Get("step_key")) || q.Get("group_key") != "" {
				continue
			}
			jobs = append(jobs, j)
		}
		page, more, perr := cursorPageOf(r, jobs, func(j *jobRecord) string { return j.id })
		if perr != nil {
			return nil, perr
		}
		out := jobsPage{Items: []jobView{}, Links: map[string]string{"self": baseURL(r) + r.URL.RequestURI()}}
		for _, j := range page {
			out.Items = append(out.Items, s.store.jobView(baseURL(r), b, p, j, true))
		}
		if len(page) > 0 && more {
			out.Links["next"] = cursorLink(r, "after", page[len(page)-1].id)
		}
		if len(page) > 0 && page[0] != jobs[0] {
			out.Links["prev"] = cursorLink(r, "before", page[0].id)
		}
		return out, nil
	})
}

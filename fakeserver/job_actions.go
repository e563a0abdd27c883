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

// jobRetryableStates are the states a job may be retried from.
var jobRetryableStates = []string{jobFailed, jobTimedOut, jobCanceled}

func (s *Server) routeJobActions(mux *http.ServeMux) {
	const job = "/v2/organizations/{org}/pipelines/{pipeline}/builds/{number}/jobs/{job}"
	const orgJob = "/v2/organizations/{org}/jobs/{job}"
	for _, prefix := range []string{job, orgJob} {
		mux.HandleFunc("GET "+prefix, s.getJob)
		mux.HandleFunc("PUT "+prefix+"/retry", s.retryJobHandler)
		mux.HandleFunc("PUT "+prefix+"/reprioritize", s.reprioritizeJob)
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
		switch {
		case err != nil:
			return nil, err
		case !slices.Contains(jobRetryableStates, j.state):
			return nil, errBadRequest("Only failed, timed out or canceled jobs can be retried")
		case j.retried:
			// The documentation says a job is retried once; these words are the emulator's.
			return nil, errBadRequest("This job has already been retried; retry its newest execution, " + j.retriedInJobID)
		}
		s.store.retryJob(b, j)
		_, n := s.store.jobByID(org.slug, j.retriedInJobID)
		return s.store.jobView(baseURL(r), b, p, n, true), nil
	})
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

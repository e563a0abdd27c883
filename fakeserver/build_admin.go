package fakeserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The test-only routes under /_fake/ that change build and job states (no authentication).

// findAdminBuild finds the build of an admin path: 404 for an unknown organization, pipeline or build. A
// lock must be held.
func (st *Store) findAdminBuild(r *http.Request) (*buildRecord, *pipelineRecord, *apiError) {
	org := r.PathValue("org")
	if st.orgs[org] == nil {
		return nil, nil, errNotFound("organization")
	}
	return st.findBuild(org, r)
}

// adminBuild sets a build's state and/or blocked flag: {"state": "<build state>", "blocked": bool}. The
// state "blocked" sets the flag, as Store.SetBuildState does. It answers the build with all its jobs.
func (s *Server) adminBuild(w http.ResponseWriter, r *http.Request) {
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	state, blocked := in.String("state"), in.Bool("blocked")
	problems := in.Problems()
	if state.Given() && !slices.Contains(buildStates, state.Value) && state.Value != buildBlocked {
		problems.add("state", fmt.Sprintf("%q is not a build state (one of %s)", state.Value,
			strings.Join(append(slices.Clone(buildStates), buildBlocked), ", ")))
	}
	var out buildView
	err := s.store.update(func() *apiError {
		b, p, err := s.store.findAdminBuild(r)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		if state.Given() {
			s.store.setBuildState(b, state.Value)
		}
		if blocked.Given() {
			b.blocked = blocked.Value
		}
		out = s.store.buildView(baseURL(r), b, p, buildRenderOptions{canEdit: true, includeRetried: true, detailed: true})
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// adminJob changes one job: {"state": "<job state>", "exit_status": int, "retry": bool}. The state is
// applied first; exit_status needs the job to end up finished; retry needs a finished job not yet
// retried and adds its next execution. The build's own state is left alone. It answers the build with all
// its jobs, retried ones included.
func (s *Server) adminJob(w http.ResponseWriter, r *http.Request) {
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	state, exit, retry := in.String("state"), in.Int("exit_status"), in.Bool("retry")
	problems := in.Problems()
	if state.Given() && !slices.Contains(jobStates, state.Value) {
		problems.add("state", fmt.Sprintf("%q is not a job state (one of %s)", state.Value, strings.Join(jobStates, ", ")))
	}
	var out buildView
	err := s.store.update(func() *apiError {
		b, p, err := s.store.findAdminBuild(r)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(b.jobs, func(j *jobRecord) bool { return j.id == r.PathValue("job") })
		if i < 0 {
			return errNotFound("job")
		}
		j := b.jobs[i]
		if len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		final := j.state
		if state.Given() {
			final = state.Value
		}
		finished := slices.Contains(jobFinishedStates, final)
		if exit.Given() && !finished {
			problems.add("exit_status", "needs a finished job state, not "+final)
		}
		if retry.Value && (!finished || j.retried) {
			problems.add("retry", "needs a finished job that has not been retried")
		}
		if len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		var exitStatus *int
		if exit.Given() {
			exitStatus = intPtr(exit.Value)
		}
		s.store.setJobState(b, j, final, exitStatus)
		if retry.Value {
			s.store.retryJob(b, j)
		}
		out = s.store.buildView(baseURL(r), b, p, buildRenderOptions{canEdit: true, includeRetried: true, detailed: true})
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// legacyTimeLayout is the other form of a pipeline's created_at ("YYYY-MM-DD HH:MM:SS UTC", which the
// pipelines API shows in some answers): the pipeline embedded in a build shows it, the pipeline endpoints
// show ISO 8601, so clients must read both.
const legacyTimeLayout = "2006-01-02 15:04:05 UTC"

// embeddedPipeline is the pipeline as a build embeds it: created_at in the legacy form.
func embeddedPipeline(v pipelineView) pipelineView {
	if t, err := time.Parse(timeLayout, v.CreatedAt); err == nil {
		v.CreatedAt = t.UTC().Format(legacyTimeLayout)
	}
	return v
}

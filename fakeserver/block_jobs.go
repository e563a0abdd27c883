package fakeserver

import "net/http"

// Block steps (Buildkite's REST documentation, apis/rest-api/jobs "Unblock a job"): a YAML pipeline's
// `block:` step becomes a job of type "manual" that starts "blocked", and the build shows blocked: true
// while one waits. PUT .../jobs/{id}/unblock (by its build, or by /organizations/{org}/jobs/{id} as
// Buildkite's CLI calls it; write_builds) unblocks it: state "unblocked", unblocked_by and unblocked_at set,
// the build no longer blocked once no other block job waits; it answers the job (200). The job shows
// unblockable and unblock_url, which points at that endpoint.
//
// Choices where the facts are silent (I): the steps after a block are scheduled with the rest (nothing
// runs jobs here); fields in the body are taken and not kept; unblocking a job that is not a waiting block
// job is 422 "This job can't be unblocked".

// jobBlocked and jobUnblocked are a block job's states.
const (
	jobBlocked   = "blocked"
	jobUnblocked = "unblocked"
)

// buildSteps is what a new build of p runs: the pipeline's command steps (pipelines.go) with, for a YAML
// pipeline, its block steps where the YAML puts them (top level and in groups). A lock must be held.
func buildSteps(p *pipelineRecord) []stepSpec {
	commands := p.jobSteps()
	if p.visual != nil {
		return commands
	}
	doc, err := parseYAML(p.configuration)
	if err != nil {
		return commands
	}
	var list []any
	switch d := doc.(type) {
	case []any:
		list = d
	case map[string]any:
		list, _ = d["steps"].([]any)
	}
	var out []stepSpec
	next, blocks := 0, 0
	var walk func(items []any)
	walk = func(items []any) {
		for _, item := range items {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			if inner, ok := m["steps"].([]any); ok && m["command"] == nil && m["commands"] == nil {
				walk(inner)
				continue
			}
			if label, ok := m["block"].(string); ok {
				out = append(out, stepSpec{key: firstString(m, "key", "identifier", "id"), label: label, block: true})
				blocks++
				continue
			}
			if _, isCommand := yamlCommand(m); isCommand && next < len(commands) {
				out = append(out, commands[next])
				next++
			}
		}
	}
	walk(list)
	if blocks == 0 {
		return commands
	}
	return append(out, commands[next:]...)
}

// blockJobView fills in a block job's view. A lock must be held.
func (st *Store) blockJobView(v *jobView, jobURL string, j *jobRecord) {
	v.Type, v.Command, v.AgentQueryRules = "manual", "", []string{}
	unblockable := j.state == jobBlocked
	v.Unblockable = &unblockable
	v.UnblockURL = stringPtr(jobURL + "/unblock")
	if j.unblockedBy != "" {
		v.UnblockedBy, v.UnblockedAt = st.userSummary(j.unblockedBy), formatTimePtr(j.unblockedAt)
	}
}

func (s *Server) unblockJob(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteBuilds, http.StatusOK, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		in.Object("fields")
		problems := in.Problems()
		b, p, j, err := s.store.findJob(org.slug, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		if !j.step.block || j.state != jobBlocked {
			return nil, errUnprocessable("This job can't be unblocked")
		}
		j.state, j.unblockedBy, j.unblockedAt = jobUnblocked, user.id, s.store.timestamp()
		b.blocked = false
		for _, other := range b.jobs {
			if other.step.block && other.state == jobBlocked {
				b.blocked = true
			}
		}
		return s.store.jobView(baseURL(r), b, p, j, true), nil
	})
}

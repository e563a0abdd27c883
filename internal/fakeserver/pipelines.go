package fakeserver

import "net/http"

// Pipelines (spec 2.12, 4.8): YAML and visual-step forms, slugs, archive and unarchive.

// pipelineState is this area's part of the Store.
type pipelineState struct {
	pipelines map[string]*pipelineRecord // by id
}

func newPipelineState() pipelineState { return pipelineState{pipelines: map[string]*pipelineRecord{}} }

// pipelineRecord is a pipeline. Other areas rely on the fields below: teams link to pipelines, builds
// embed them and derive their jobs from jobSteps, rules name them by UUID or slug.
type pipelineRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string
	clusterID                      string // "" when not in a cluster
	templateID                     string // "" when no template
}

// stepSpec is one command step of a pipeline, from which a build derives one job.
type stepSpec struct {
	key, label, command string
	agentQueryRules     []string
}

// jobSteps returns the command steps a new build of the pipeline runs, in order.
func (p *pipelineRecord) jobSteps() []stepSpec { return nil }

// pipelineByID returns the pipeline of org with id, or nil. A lock must be held.
func (st *Store) pipelineByID(org, id string) *pipelineRecord {
	if p, ok := st.pipelines.pipelines[id]; ok && p.org == org {
		return p
	}
	return nil
}

// pipelineBySlug returns the pipeline of org with slug, or nil. A lock must be held.
func (st *Store) pipelineBySlug(org, slug string) *pipelineRecord {
	for _, p := range st.pipelines.pipelines {
		if p.org == org && p.slug == slug {
			return p
		}
	}
	return nil
}

// pipelineView renders a pipeline as spec 2.12 shows it, for the pipeline endpoints and for the pipeline
// embedded in builds. canEdit is false when the caller lacks edit permission (webhook_url is then "").
// A lock must be held.
func (st *Store) pipelineView(base string, p *pipelineRecord, canEdit bool) any {
	return map[string]any{"id": p.id, "slug": p.slug, "name": p.name}
}

func (s *Server) routePipelines(mux *http.ServeMux) {}

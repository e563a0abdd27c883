package fakeserver

import (
	"maps"
	"net/http"
	"strconv"
	"time"
)

// A pipeline's repository webhook (https://buildkite.com/docs/apis/rest-api/pipelines): POST
// /v2/organizations/{org}/pipelines/{pipeline}/webhook asks the service to create the webhook on the
// pipeline's GitHub repository, which then sends pushes to the pipeline's provider.webhook_url. REST can
// only create it: there is no read or delete. Scope write_pipelines. 201 when created; 422 "Auto-creating
// webhooks is not supported for your repository." for providers other than GitHub, and "Webhooks could not
// be created for your repository." when the repository has one already.
//
// Choices where the facts are silent: the 201's body is the pipeline's provider object (id, webhook_url,
// settings); the webhook the emulator "creates" is a record with an external ID, which tests read and
// remove (as someone deleting it on GitHub would) through the Store: Store.Exists and Store.Remove with
// KindPipelineWebhook, keyed by the pipeline's ID.

// KindPipelineWebhook is the webhook on a pipeline's repository, keyed by the pipeline's ID.
const KindPipelineWebhook Kind = "pipeline_webhook"

func init() {
	registerKind(KindPipelineWebhook, (*Store).repoWebhook, (*Store).deleteRepoWebhook)
}

// repoWebhookState is this area's part of the Store: the webhooks created, by pipeline ID.
type repoWebhookState struct {
	byPipeline map[string]*repoWebhookRecord
	seq        int64
}

func newRepoWebhookState() repoWebhookState {
	return repoWebhookState{byPipeline: map[string]*repoWebhookRecord{}}
}

type repoWebhookRecord struct {
	org, pipelineID, externalID string
	createdAt                   time.Time
}

// repoWebhook returns the webhook of org's pipeline pipelineID, or nil (also when the pipeline is gone). A
// lock must be held.
func (st *Store) repoWebhook(org, pipelineID string) *repoWebhookRecord {
	w := st.repoWebhooks.byPipeline[pipelineID]
	if w == nil || w.org != org {
		return nil
	}
	if p, ok := st.pipelines.pipelines.get(pipelineID); !ok || p.org != org {
		return nil
	}
	return w
}

// deleteRepoWebhook removes w. The write lock must be held.
func (st *Store) deleteRepoWebhook(w *repoWebhookRecord) {
	delete(st.repoWebhooks.byPipeline, w.pipelineID)
}

func (s *Server) routePipelineWebhook(mux *routeMux) {
	mux.HandleFunc("POST /v2/organizations/{org}/pipelines/{pipeline}/webhook", s.createPipelineWebhook)
}

func (s *Server) createPipelineWebhook(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWritePipelines, http.StatusCreated, func(org orgRecord, _ userRecord) (any, *apiError) {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return nil, err
		}
		if err := s.store.addRepoWebhook(p); err != nil {
			return nil, err
		}
		return providerView{ID: p.provider, WebhookURL: webURL(baseURL(r), "webhooks", p.provider, p.webhookToken), Settings: maps.Clone(p.settings)}, nil
	})
}

// addRepoWebhook creates the webhook on p's repository, for REST's POST .../webhook and GraphQL's
// pipelineCreateWebhook: only on GitHub, and only once. The write lock must be held.
func (st *Store) addRepoWebhook(p *pipelineRecord) *apiError {
	if p.provider != "github" && p.provider != "github_enterprise" {
		return errUnprocessable("Auto-creating webhooks is not supported for your repository.")
	}
	if st.repoWebhook(p.org, p.id) != nil {
		return errUnprocessable("Webhooks could not be created for your repository.")
	}
	st.repoWebhooks.seq++
	st.repoWebhooks.byPipeline[p.id] = &repoWebhookRecord{
		org: p.org, pipelineID: p.id, externalID: strconv.FormatInt(400000000+st.repoWebhooks.seq, 10),
		createdAt: st.timestamp(),
	}
	return nil
}

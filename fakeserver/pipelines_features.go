package fakeserver

import (
	"net/http"
	"net/url"
	"strings"
)

// Pipeline properties that depend on an organization feature, and those REST writes but does not show
// (https://buildkite.com/docs/apis/rest-api/pipelines): emoji and color are stored for GraphQL to read, and
// left out of every REST answer as the documented data model leaves them out; clone_mirror_url is shown, as
// null while unset with the clone-mirror feature on, and left out while unset with it off.

// orgFeatures are the feature switches of every organization of the emulator (Options.NoCloneMirror,
// Options.NoExpandedWebhookTriggers); the zero value has every feature on.
type orgFeatures struct {
	cloneMirrorOff      bool
	expandedWebhooksOff bool
}

// checkCloneMirrorURL records why a clone_mirror_url is refused: the service refuses credentials, a query or
// a fragment, and any non-blank value while the feature is off (null or "" still removes one).
func checkCloneMirrorURL(v opt[string], featureOff bool, problems *validationErrors) {
	if !v.Given() || strings.TrimSpace(v.Value) == "" {
		return
	}
	if featureOff {
		problems.add("clone_mirror_url", "can't be set: the organization does not have the clone mirror feature")
		return
	}
	if !strings.Contains(v.Value, "://") { // the scp-like user@host:path form has no query or fragment
		return
	}
	u, err := url.Parse(v.Value)
	switch {
	case err != nil:
		problems.add("clone_mirror_url", "is not a valid URL")
	case u.User != nil && (u.Scheme == "http" || u.Scheme == "https" || hasPassword(u.User)):
		problems.add("clone_mirror_url", "must not contain credentials")
	case u.RawQuery != "" || u.ForceQuery:
		problems.add("clone_mirror_url", "must not contain a query")
	case u.Fragment != "" || strings.Contains(v.Value, "#"):
		problems.add("clone_mirror_url", "must not contain a fragment")
	}
}

func hasPassword(u *url.Userinfo) bool {
	_, ok := u.Password()
	return ok
}

// cloneMirrorView is what an answer shows of a pipeline's clone_mirror_url: nil to leave the key out.
func (st *Store) cloneMirrorView(p *pipelineRecord) **string {
	if p.cloneMirrorURL == nil && st.features.cloneMirrorOff {
		return nil
	}
	v := clonePtr(p.cloneMirrorURL)
	return &v
}

// PipelineLooks returns a pipeline's emoji and color, which REST writes but does not show (nil when unset);
// ok is false when org has no pipeline with slug.
func (st *Store) PipelineLooks(org, slug string) (emoji, color *string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	p := st.pipelineBySlug(org, slug)
	if p == nil {
		return nil, nil, false
	}
	return clonePtr(p.emoji), clonePtr(p.color), true
}

// SetPipelineLooks sets a pipeline's emoji and color (nil clears), as a change made in the web interface
// would; tests use it to make drift. It reports whether the pipeline exists.
func (st *Store) SetPipelineLooks(org, slug string, emoji, color *string) bool {
	defer st.edit()()
	p := st.pipelineBySlug(org, slug)
	if p == nil {
		return false
	}
	p.emoji, p.color = clonePtr(emoji), clonePtr(color)
	return true
}

// SetPipelineCloneMirrorURL sets a pipeline's clone_mirror_url (nil clears) without the API's checks; tests
// use it to make drift. It reports whether the pipeline exists.
func (st *Store) SetPipelineCloneMirrorURL(org, slug string, v *string) bool {
	defer st.edit()()
	p := st.pipelineBySlug(org, slug)
	if p == nil {
		return false
	}
	p.cloneMirrorURL = clonePtr(v)
	return true
}

// ---- GitHub webhook processing (https://buildkite.com/docs/apis/rest-api/pipelines) ----

// githubWebhooksView is the state of a pipeline's GitHub webhook processing; disabled_by is the user's name.
type githubWebhooksView struct {
	URL        string  `json:"url"`
	Enabled    bool    `json:"enabled"`
	DisabledAt *string `json:"disabled_at"`
	DisabledBy *string `json:"disabled_by"`
}

func (st *Store) githubWebhooksView(base string, p *pipelineRecord) githubWebhooksView {
	v := githubWebhooksView{
		URL:     apiURL(base, "organizations", p.org, "pipelines", p.slug, "github-webhooks"),
		Enabled: !p.githubWebhooksDisabled,
	}
	if p.githubWebhooksDisabled {
		v.DisabledAt = formatTimePtr(p.githubWebhooksDisabledAt)
		if u, ok := st.users[p.githubWebhooksDisabledBy]; ok {
			v.DisabledBy = stringPtr(u.name)
		}
	}
	return v
}

// serveGitHubWebhooks answers the three routes: only GitHub pipelines of organizations enrolled in expanded
// webhook triggers have the switch (anything else is a 404). set is nil for a read, else the new value;
// both writes are idempotent and answer 200 with the state.
func (s *Server) serveGitHubWebhooks(w http.ResponseWriter, r *http.Request, scope string, set *bool) {
	apply := func(org orgRecord, user userRecord) (any, *apiError) {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return nil, err
		}
		if s.store.features.expandedWebhooksOff || p.provider != "github" {
			return nil, errRouteNotFound()
		}
		if set != nil {
			if !p.archivedAt.IsZero() {
				return nil, errPipelineValidation(validationErrors{{"base", "Pipeline is archived; unarchive it to change it"}})
			}
			switch {
			case *set:
				p.githubWebhooksDisabled = false
			case !p.githubWebhooksDisabled:
				p.githubWebhooksDisabled, p.githubWebhooksDisabledAt, p.githubWebhooksDisabledBy = true, s.store.timestamp(), user.id
			}
		}
		return s.store.githubWebhooksView(baseURL(r), p), nil
	}
	if set == nil {
		s.serveReadFor(w, r, scope, apply)
		return
	}
	s.serveAct(w, r, scope, http.StatusOK, apply)
}

func (s *Server) routeGitHubWebhooks(mux *routeMux, pipeline string) {
	enable, disable := true, false
	mux.HandleFunc("GET "+pipeline+"/github-webhooks", func(w http.ResponseWriter, r *http.Request) {
		s.serveGitHubWebhooks(w, r, scopeReadPipelines, nil)
	})
	mux.HandleFunc("PUT "+pipeline+"/github-webhooks", func(w http.ResponseWriter, r *http.Request) {
		s.serveGitHubWebhooks(w, r, scopeWritePipelines, &enable)
	})
	mux.HandleFunc("DELETE "+pipeline+"/github-webhooks", func(w http.ResponseWriter, r *http.Request) {
		s.serveGitHubWebhooks(w, r, scopeWritePipelines, &disable)
	})
}

// PipelineGitHubWebhooksEnabled reports whether a pipeline processes GitHub webhooks; ok is false when org
// has no pipeline with slug.
func (st *Store) PipelineGitHubWebhooksEnabled(org, slug string) (enabled, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	p := st.pipelineBySlug(org, slug)
	if p == nil {
		return false, false
	}
	return !p.githubWebhooksDisabled, true
}

// SetPipelineGitHubWebhooksEnabled turns a pipeline's GitHub webhook processing on or off, as the web
// interface would; tests use it to make drift. It reports whether the pipeline exists.
func (st *Store) SetPipelineGitHubWebhooksEnabled(org, slug string, enabled bool) bool {
	defer st.edit()()
	p := st.pipelineBySlug(org, slug)
	if p == nil {
		return false
	}
	p.githubWebhooksDisabled = !enabled
	if !enabled {
		p.githubWebhooksDisabledAt, p.githubWebhooksDisabledBy = st.timestamp(), st.defaultUserID
	}
	return true
}

package fakeserver

import (
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Pipelines (https://buildkite.com/docs/apis/rest-api/pipelines): YAML and visual-step forms, slugs,
// provider settings, teams on create, templates, archive and unarchive, delete.
//
// Choices where the documentation is silent:
//   - Slug derivation: the name is lowercased and every run of characters other than ASCII letters and
//     digits (spaces, punctuation, existing hyphens, non-ASCII letters) becomes one "-"; leading and
//     trailing hyphens are dropped. So "My  Pipeline" → "my-pipeline", "API (v2)" → "api-v2". A derived
//     slug that is empty or longer than 100 characters is a 422 on slug. On update a new name without a
//     slug re-derives it; resending the current name keeps a custom slug.
//   - Archive and unarchive are idempotent (200 either way); while archived every update is a 422.
//   - Deleting a pipeline deletes the rules that name it.
//   - Assigning a template copies its configuration into the pipeline (and template edits reach it);
//     the template wins over a configuration sent with it.
//   - provider_settings: a GitHub pipeline holds all 44 keys of the official provider's schema and the six added since, others
//     filter_enabled and filter_condition (pipeline_providers.go); keys the pipeline's provider does not
//     know are ignored; known keys of the wrong type, unknown trigger_mode values and match modes other
//     than exact and contains are 422s.
//   - default_command_step_timeout and maximum_command_step_timeout (minutes, null until set) must be
//     positive, and the maximum at least the default.
//   - All timestamps, created_at included, are ISO 8601: go-buildkite's Timestamp also reads the
//     "YYYY-MM-DD HH:MM:SS UTC" form, but other clients may not, and ISO is what the API documents.

// KindPipeline is a pipeline (id = its UUID), for Store.Exists and Store.Remove; removing one deletes
// the rules that name it, as DELETE does.
const KindPipeline Kind = "pipeline"

func init() {
	registerKind(KindPipeline, (*Store).pipelineByID, (*Store).deletePipeline)
}

// The slug rule: letters, digits and hyphens, beginning with a letter or digit.
var pipelineSlugPattern = regexp.MustCompile(`^[a-zA-Z0-9]+[a-zA-Z0-9\-]*$`)

// Values accepted for the enumerations of a pipeline.
var (
	pipelineVisibilities = []string{"private", "public"}
	teamAccessLevels     = []string{"read_only", "build_and_read", "manage_build_and_read"}
	githubTriggerModes   = []string{"code", "deployment", "fork", "none"}
)

// ---- state ----

// pipelineState is this area's part of the Store.
type pipelineState struct {
	pipelines *table[*pipelineRecord] // listed by org; named by slug and by name in their org
}

func newPipelineState() pipelineState {
	return pipelineState{pipelines: newTable(
		func(p *pipelineRecord) []string { return []string{p.org} },
		func(p *pipelineRecord) []string {
			return []string{nameKey(p.org, "slug", p.slug), nameKey(p.org, "name", p.name)}
		})}
}

func (p *pipelineRecord) recordID() string { return p.id }
func (p *pipelineRecord) recordSeq() int64 { return p.seq }

// pipelineRecord is a pipeline. Other areas rely on the first fields (teams link to pipelines, builds
// embed them and derive their jobs from jobSteps, rules name them by UUID or slug) and on archivedAt
// (an archived pipeline runs no new builds).
type pipelineRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string
	clusterID                      string // "" when not in a cluster
	templateID                     string // "" when no template

	description, branchConfiguration *string // nil is null
	emoji, color, cloneMirrorURL     *string // nil is null; emoji and color are not shown over REST
	// GitHub webhook processing (pipelines_features.go): on for a new pipeline.
	githubWebhooksDisabled                  bool
	githubWebhooksDisabledAt                time.Time
	githubWebhooksDisabledBy                string // user id
	repository, defaultBranch, visibility   string
	provider                                string         // github, gitlab, bitbucket or git
	settings                                map[string]any // provider settings, defaults merged
	skipQueued, cancelRunning, allowRebuild bool
	skipQueuedFilter, cancelRunningFilter   *string
	env                                     map[string]string
	tags                                    []string // nil is null
	configuration                           string   // the YAML form ("" for a visual pipeline)
	visual                                  []visualStep
	defaultTimeout, maximumTimeout          *int // go-buildkite's default/maximum_command_step_timeout
	webhookToken, badgeToken                string
	createdAt, archivedAt                   time.Time
	createdBy                               string
	formerSlugs                             []string // slugs it had before, which GraphQL's pipeline(slug:) still finds
}

// visualStep is one step of a visual-step pipeline (type script, waiter, manual or trigger).
type visualStep struct {
	typ string
	// script
	name, artifactPaths, branchConfiguration *string
	command                                  string
	env                                      map[string]string
	timeout, concurrency, parallelism        *int
	agentQueryRules                          []string
	plugins                                  json.RawMessage
	// manual and trigger
	label *string
	// trigger
	pipeline, message, commit, branch *string
	buildEnv                          map[string]string
	async                             bool
}

// stepSpec is one command step of a pipeline, from which a build derives one job.
type stepSpec struct {
	key, label, command string
	agentQueryRules     []string
	block               bool // a block step: its job waits to be unblocked (block_jobs.go)
}

// uploadStep is what a YAML pipeline runs when its YAML has no command step of its own: the agent uploads
// the pipeline from the repository.
var uploadStep = stepSpec{label: ":pipeline:", command: "buildkite-agent pipeline upload"}

// jobSteps returns the command steps a new build of the pipeline runs, in order: the script steps of a
// visual pipeline, or the command steps of the YAML (groups flattened; the pipeline's top-level agents
// apply to steps without their own). A YAML pipeline with no command step runs the pipeline upload.
func (p *pipelineRecord) jobSteps() []stepSpec {
	var out []stepSpec
	if p.visual != nil {
		for _, s := range p.visual {
			if s.typ == "script" {
				out = append(out, stepSpec{
					label: deref(s.name), command: s.command, agentQueryRules: slices.Clone(s.agentQueryRules),
				})
			}
		}
		return out
	}
	steps, _ := yamlSteps(p.configuration)
	for _, s := range steps {
		out = append(out, stepSpec{key: s.key, label: deref(s.label), command: s.command, agentQueryRules: s.agents})
	}
	if len(out) == 0 {
		out = append(out, uploadStep)
	}
	return out
}

// pipelineByID returns the pipeline of org with id, or nil. A lock must be held.
func (st *Store) pipelineByID(org, id string) *pipelineRecord {
	if p, ok := st.pipelines.pipelines.get(id); ok && p.org == org {
		return p
	}
	return nil
}

// pipelineBySlug returns the pipeline of org with slug, or nil. A lock must be held.
func (st *Store) pipelineBySlug(org, slug string) *pipelineRecord {
	p, _ := st.pipelines.pipelines.lookup(nameKey(org, "slug", slug))
	return p
}

// pipelinesOf returns org's pipelines in creation order; the caller must not change the slice. A lock
// must be held.
func (st *Store) pipelinesOf(org string) []*pipelineRecord { return st.pipelines.pipelines.list(org) }

// insertPipeline adds p. The write lock must be held.
func (st *Store) insertPipeline(p *pipelineRecord) { st.pipelines.pipelines.insert(p) }

// deletePipeline removes p, its builds and schedules, and the rules that name it. The write lock must be held.
func (st *Store) deletePipeline(p *pipelineRecord) {
	st.deleteRulesNaming(p.org, p.id)
	st.removePipelineBuilds(p.id)
	st.deletePipelineSchedules(p.id)
	st.pipelines.pipelines.remove(p)
}

// propagateTemplate gives every pipeline using t the template's configuration. The write lock must be held.
func (st *Store) propagateTemplate(t *templateRecord) {
	for _, p := range st.pipelinesOf(t.org) {
		if p.templateID == t.id {
			p.configuration, p.visual = t.configuration, nil
		}
	}
}

// PipelineIDBySlug returns the UUID of org's pipeline with slug (for Store.Exists and Store.Remove), and
// whether there is one.
func (st *Store) PipelineIDBySlug(org, slug string) (string, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if p := st.pipelineBySlug(org, slug); p != nil {
		return p.id, true
	}
	return "", false
}

// ---- routes ----

func (s *Server) routePipelines(mux *routeMux) {
	const pipelines = "/v2/organizations/{org}/pipelines"
	const pipeline = pipelines + "/{pipeline}"
	mux.HandleFunc("GET "+pipelines, s.listPipelines)
	mux.HandleFunc("POST "+pipelines, s.createPipeline)
	mux.HandleFunc("GET "+pipeline, s.getPipeline)
	mux.HandleFunc("PATCH "+pipeline, s.updatePipeline)
	mux.HandleFunc("PUT "+pipeline, s.updatePipeline)
	mux.HandleFunc("DELETE "+pipeline, s.deletePipelineHandler)
	mux.HandleFunc("POST "+pipeline+"/archive", s.archivePipeline)
	mux.HandleFunc("POST "+pipeline+"/unarchive", s.unarchivePipeline)
	s.routeGitHubWebhooks(mux, pipeline)
}

// findPipeline finds the path's pipeline by slug: 404 when unknown. A lock must be held.
func (st *Store) findPipeline(org string, r *http.Request) (*pipelineRecord, *apiError) {
	if p := st.pipelineBySlug(org, r.PathValue("pipeline")); p != nil {
		return p, nil
	}
	return nil, errNotFound("pipeline")
}

// ---- handlers ----

// listPipelines takes go-buildkite's optional filters: name and repository, each a case-insensitive
// substring.
func (s *Server) listPipelines(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadPipelines, func(org string) (any, *apiError) {
		canEdit := s.store.canEditPipelines(r)
		name := strings.ToLower(r.URL.Query().Get("name"))
		repo := strings.ToLower(r.URL.Query().Get("repository"))
		items := s.store.pipelinesOf(org)
		if name != "" || repo != "" { // only a filter needs to look at every pipeline
			items = slices.DeleteFunc(slices.Clone(items), func(p *pipelineRecord) bool {
				return !strings.Contains(strings.ToLower(p.name), name) || !strings.Contains(strings.ToLower(p.repository), repo)
			})
		}
		out := []pipelineView{}
		for _, p := range paginate(w, r, items) {
			out = append(out, s.store.pipelineView(baseURL(r), p, canEdit))
		}
		return out, nil
	})
}

func (s *Server) getPipeline(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadPipelines, func(org string) (any, *apiError) {
		p, err := s.store.findPipeline(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.pipelineView(baseURL(r), p, s.store.canEditPipelines(r)), nil
	})
}

func (s *Server) createPipeline(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWritePipelines, http.StatusCreated, func(org orgRecord, user userRecord, obj *jsonObject) (any, *apiError) {
		in := readPipelineInput(obj, true)
		id := newID()
		p := &pipelineRecord{
			org: org.slug, id: id, graphqlID: graphQLID("Pipeline", id), visibility: "private", allowRebuild: true,
			webhookToken: newSecret()[:50], badgeToken: newSecret()[:40],
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		problems := s.store.applyPipeline(p, in, true, user.id)
		teamIDs := slices.Sorted(maps.Keys(in.teams))
		for _, teamID := range teamIDs {
			if s.store.teamByID(org.slug, teamID) == nil {
				problems.add("teams", teamID+" is not a team of this organization")
			}
		}
		if len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		p.seq = s.store.nextSeq()
		s.store.insertPipeline(p)
		for _, teamID := range teamIDs {
			s.store.addTeamPipeline(org.slug, teamID, id, in.teams[teamID], p.createdAt)
		}
		return s.store.pipelineView(baseURL(r), p, true), nil
	})
}

// updatePipeline changes any create property but teams (which only the team endpoints change).
func (s *Server) updatePipeline(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWritePipelines, http.StatusOK, func(org orgRecord, user userRecord, obj *jsonObject) (any, *apiError) {
		in := readPipelineInput(obj, false)
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return nil, err
		}
		if !p.archivedAt.IsZero() {
			return nil, errPipelineValidation(validationErrors{{"base", "Pipeline is archived; unarchive it to change it"}})
		}
		if problems := s.store.applyPipeline(p, in, false, user.id); len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		return s.store.pipelineView(baseURL(r), p, true), nil
	})
}

func (s *Server) deletePipelineHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWritePipelines, func(org string) *apiError {
		p, err := s.store.findPipeline(org, r)
		if err != nil {
			return err
		}
		s.store.deletePipeline(p)
		return nil
	})
}

func (s *Server) archivePipeline(w http.ResponseWriter, r *http.Request) {
	s.setArchived(w, r, true)
}

func (s *Server) unarchivePipeline(w http.ResponseWriter, r *http.Request) {
	s.setArchived(w, r, false)
}

// setArchived archives or unarchives the path's pipeline; doing it twice changes nothing (archived_at
// keeps the first time).
func (s *Server) setArchived(w http.ResponseWriter, r *http.Request, archive bool) {
	s.serveAct(w, r, scopeWritePipelines, http.StatusOK, func(org orgRecord, _ userRecord) (any, *apiError) {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return nil, err
		}
		s.store.setPipelineArchived(p, archive)
		return s.store.pipelineView(baseURL(r), p, true), nil
	})
}

// setPipelineArchived archives or unarchives p (REST and GraphQL); archiving an archived pipeline keeps its
// first archived_at. The write lock must be held.
func (st *Store) setPipelineArchived(p *pipelineRecord, archive bool) {
	switch {
	case archive && p.archivedAt.IsZero():
		p.archivedAt = st.timestamp()
	case !archive:
		p.archivedAt = time.Time{}
	}
}

// pipelineByFormerSlug returns the pipeline of org that had slug before, the latest to have had it, or nil.
// A lock must be held.
func (st *Store) pipelineByFormerSlug(org, slug string) *pipelineRecord {
	items := st.pipelinesOf(org)
	for i := len(items) - 1; i >= 0; i-- {
		if slices.Contains(items[i].formerSlugs, slug) {
			return items[i]
		}
	}
	return nil
}

package fakeserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
)

// The build endpoints: routes, the list handlers and the single-build handlers (create, get, cancel,
// rebuild).

func (s *Server) routeBuilds(mux *routeMux) {
	mux.HandleFunc("GET /v2/builds", s.listAllBuilds)
	mux.HandleFunc("GET /v2/organizations/{org}/builds", s.listOrgBuilds)

	const builds = "/v2/organizations/{org}/pipelines/{pipeline}/builds"
	const build = builds + "/{number}"
	mux.HandleFunc("GET "+builds, s.listPipelineBuilds)
	mux.HandleFunc("POST "+builds, s.createBuild)
	mux.HandleFunc("GET "+build, s.getBuild)
	mux.HandleFunc("PUT "+build+"/cancel", s.cancelBuildHandler)
	mux.HandleFunc("PUT "+build+"/rebuild", s.rebuildBuild)

	const admin = "/_fake/organizations/{org}/pipelines/{pipeline}/builds/{number}"
	for _, method := range []string{"PUT ", "POST "} {
		mux.HandleFunc(method+admin, s.adminBuild)
		mux.HandleFunc(method+admin+"/jobs/{job}", s.adminJob)
	}
}

// ---- list handlers ----

// listAllBuilds lists the builds of every organization the token sees, newest first.
func (s *Server) listAllBuilds(w http.ResponseWriter, r *http.Request) {
	tok, _, ok := s.authenticate(w, r, scopeReadBuilds)
	if !ok {
		return
	}
	f, problems := parseBuildFilter(r.URL.Query())
	if len(problems) > 0 {
		writeError(w, errPipelineValidation(problems))
		return
	}
	s.writeBuildList(w, r, f, "", func(b *buildRecord) bool { return tok.orgs[b.org] && s.store.orgs[b.org] != nil })
}

func (s *Server) listOrgBuilds(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadBuilds, func(org string) (any, *apiError) {
		f, problems := parseBuildFilter(r.URL.Query())
		if len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		return s.buildPage(w, r, f, "org:"+org, func(*buildRecord) bool { return true }), nil
	})
}

func (s *Server) listPipelineBuilds(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadBuilds, func(org string) (any, *apiError) {
		f, problems := parseBuildFilter(r.URL.Query())
		p := s.store.pipelineBySlug(org, r.PathValue("pipeline"))
		if p == nil {
			return nil, errNotFound("pipeline")
		}
		if len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		return s.buildPage(w, r, f, "pipeline:"+p.id, func(*buildRecord) bool { return true }), nil
	})
}

// writeBuildList answers buildPage under the read lock, for listAllBuilds, whose token is not one
// organization's (so it opens with authenticate, not a serve helper). keep runs with the lock held.
func (s *Server) writeBuildList(w http.ResponseWriter, r *http.Request, f buildFilter, scope string, keep func(*buildRecord) bool) {
	var out []buildView
	_ = s.store.view(func() *apiError {
		out = s.buildPage(w, r, f, scope, keep)
		return nil
	})
	writeJSON(w, http.StatusOK, out)
}

// buildPage is the page of the builds of scope (see buildState) that keep and f select, newest first,
// never nil. Builds whose pipeline no longer exists are left out. A lock must be held.
func (s *Server) buildPage(w http.ResponseWriter, r *http.Request, f buildFilter, scope string, keep func(*buildRecord) bool) []buildView {
	var selected []*buildRecord
	all := s.store.builds.builds.list(scope)
	for i := len(all) - 1; i >= 0; i-- {
		if b := all[i]; keep(b) && f.matches(b) && s.store.pipelineByID(b.org, b.pipelineID) != nil {
			selected = append(selected, b)
		}
	}
	o := buildRenderOptions{canEdit: s.store.canEditPipelines(r), includeRetried: f.includeRetried}
	out := []buildView{}
	for _, b := range paginate(w, r, selected) {
		out = append(out, s.store.buildView(baseURL(r), b, s.store.pipelineByID(b.org, b.pipelineID), o))
	}
	return out
}

// ---- single-build handlers ----

// getBuild takes only include_retried_jobs from the query
// (https://buildkite.com/docs/apis/rest-api/builds).
func (s *Server) getBuild(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadBuilds, func(org string) (any, *apiError) {
		var problems validationErrors
		includeRetried := parseQueryBool(r.URL.Query(), "include_retried_jobs", &problems)
		b, p, err := s.store.findBuild(org, r)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		return s.store.buildView(baseURL(r), b, p, buildRenderOptions{
			canEdit: s.store.canEditPipelines(r), includeRetried: includeRetried, detailed: true,
		}), nil
	})
}

// readBuildInput reads a create body: commit and branch required, the rest optional; problems come back
// named by property for the pipeline/build form of 422.
func readBuildInput(in *jsonObject) (buildInput, validationErrors) {
	commit, branch, message := in.String("commit"), in.String("branch"), in.String("message")
	env := in.Object("env")
	meta := field[map[string]string](in, "meta_data", "an object of strings")
	clean, ignore := in.Bool("clean_checkout"), in.Bool("ignore_pipeline_branch_filters")
	prBase, prRepo := in.String("pull_request_base_branch"), in.String("pull_request_repository")
	problems := in.Problems()

	out := buildInput{
		commit: commit.Value, branch: branch.Value, message: message.Value,
		env: env.Value, metaData: meta.Value,
		cleanCheckout: clean.Value, ignoreBranchFilters: ignore.Value,
	}
	readAuthor(in, &out, &problems)
	prID, hasPR := readPullRequestID(in, &problems)
	if hasPR || prBase.Value != "" || prRepo.Value != "" {
		out.pullRequest = &pullRequestRecord{id: prID, base: prBase.Value, repository: prRepo.Value}
	}
	if out.commit == "" {
		problems.addBlank("commit")
	}
	if out.branch == "" {
		problems.addBlank("branch")
	}
	return out, problems
}

// readAuthor reads author as an object of name and email (and username, ignored) or, as go-buildkite
// also decodes it, a plain e-mail string.
func readAuthor(in *jsonObject, out *buildInput, problems *validationErrors) {
	raw, ok := in.raw["author"]
	if !ok || string(raw) == "null" {
		return
	}
	var email string
	if json.Unmarshal(raw, &email) == nil {
		out.authorEmail = email
		return
	}
	var a struct {
		Name     *string `json:"name"`
		Email    *string `json:"email"`
		Username *string `json:"username"`
	}
	if json.Unmarshal(raw, &a) != nil {
		problems.add("author", "must be an object with name and email")
		return
	}
	if a.Name != nil {
		out.authorName = *a.Name
	}
	if a.Email != nil {
		out.authorEmail = *a.Email
	}
}

// readPullRequestID reads pull_request_id as an integer (go-buildkite's int64) or a string, returning it
// as the string the response carries.
func readPullRequestID(in *jsonObject, problems *validationErrors) (string, bool) {
	raw, ok := in.raw["pull_request_id"]
	if !ok || string(raw) == "null" {
		return "", false
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return strconv.FormatInt(n, 10), true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s, true
	}
	problems.add("pull_request_id", "must be an integer")
	return "", false
}

func (s *Server) createBuild(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteBuilds, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		input, problems := readBuildInput(in)
		p := s.store.pipelineBySlug(org.slug, r.PathValue("pipeline"))
		if p == nil {
			return nil, errNotFound("pipeline")
		}
		if !p.archivedAt.IsZero() {
			// Archived pipelines are read-only (notes, "Pipelines"), so they take no new builds.
			problems.add("pipeline", "is archived")
		}
		if len(problems) > 0 {
			return nil, errPipelineValidation(problems)
		}
		b := s.store.addBuild(p, user.id, input)
		return s.store.buildView(baseURL(r), b, p, buildRenderOptions{canEdit: s.store.canEditPipelines(r), detailed: true}), nil
	})
}

// cancelBuildHandler cancels a scheduled, running or failing build at once (the real service passes
// through canceling); its unfinished jobs become canceled.
func (s *Server) cancelBuildHandler(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteBuilds, http.StatusOK, func(org orgRecord, _ userRecord) (any, *apiError) {
		b, p, err := s.store.findBuild(org.slug, r)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(cancelableStates, b.state) {
			return nil, errUnprocessable("Build can't be canceled because it is " + b.state +
				"; only scheduled, running or failing builds can be")
		}
		s.store.cancelBuild(b)
		return s.store.buildView(baseURL(r), b, p, buildRenderOptions{canEdit: s.store.canEditPipelines(r), detailed: true}), nil
	})
}

// rebuildBuild creates a new build of the same commit, branch, message, env and meta-data, with jobs from
// the pipeline's current steps and rebuilt_from pointing at the original.
func (s *Server) rebuildBuild(w http.ResponseWriter, r *http.Request) {
	s.serveAct(w, r, scopeWriteBuilds, http.StatusOK, func(org orgRecord, user userRecord) (any, *apiError) {
		b, p, err := s.store.findBuild(org.slug, r)
		if err != nil {
			return nil, err
		}
		nb := s.store.addBuild(p, user.id, buildInput{
			commit: b.commit, branch: b.branch, message: b.message, authorName: b.authorName, authorEmail: b.authorEmail,
			env: b.env, metaData: b.metaData, cleanCheckout: b.cleanCheckout, ignoreBranchFilters: b.ignoreBranchFilters,
			pullRequest: b.pullRequest, rebuiltFrom: b.id,
		})
		return s.store.buildView(baseURL(r), nb, p, buildRenderOptions{canEdit: s.store.canEditPipelines(r), detailed: true}), nil
	})
}

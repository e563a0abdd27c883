package fakeserver

import (
	"fmt"
	"html"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
)

// What a build's jobs leave behind (Buildkite's REST documentation, pages/apis/rest_api/artifacts.md,
// annotations.md and jobs.md "Get a job's log output"): artifacts, annotations and job logs. The emulator
// runs no jobs, so artifacts and logs are seeded (Store.AddArtifact, Store.SetJobLog); annotations are
// also created through the API, as an agent's `buildkite-agent annotate` does. Each is reached through
// its build (pipeline slug and number) and, for artifacts and logs, its job; a job's log is empty until
// seeded.

// buildOutputState is this area's part of the Store.
type buildOutputState struct {
	artifacts   map[string]*artifactRecord   // by id
	annotations map[string]*annotationRecord // by id
	jobLogs     map[string]string            // by job id
}

func newBuildOutputState() buildOutputState {
	return buildOutputState{artifacts: map[string]*artifactRecord{}, annotations: map[string]*annotationRecord{}, jobLogs: map[string]string{}}
}

// artifactRecord is a file a job uploaded.
type artifactRecord struct {
	seq                            int64
	org, buildID, jobID, id        string
	state, path, mimeType, sha1sum string
	fileSize                       int64
}

// annotationRecord is a build's (or one of its jobs') annotation.
type annotationRecord struct {
	seq                      int64
	org, buildID, jobID, id  string
	context, style, bodyHTML string
	priority                 int
	createdAt, updatedAt     time.Time
}

// ArtifactFixture declares an artifact of a job, for Store.AddArtifact.
type ArtifactFixture struct {
	Path     string // required, such as "dist/app.tar.gz"
	MimeType string // default application/octet-stream
	FileSize int64
	SHA1Sum  string
	State    string // new, error, finished (the default), deleted or expired
}

// artifactStates are the states an artifact may have.
var artifactStates = []string{"new", "error", "finished", "deleted", "expired"}

// annotationStyles are the styles an annotation may have.
var annotationStyles = []string{"success", "info", "warning", "error"}

func (s *Server) routeBuildOutputs(mux *routeMux) {
	const build = "/v2/organizations/{org}/pipelines/{pipeline}/builds/{number}"
	const job = build + "/jobs/{job}"
	mux.HandleFunc("GET "+build+"/artifacts", s.listBuildArtifacts)
	mux.HandleFunc("GET "+job+"/artifacts", s.listJobArtifacts)
	mux.HandleFunc("GET "+job+"/artifacts/{id}", s.getArtifact)
	mux.HandleFunc("DELETE "+job+"/artifacts/{id}", s.deleteArtifact)
	mux.HandleFunc("GET "+build+"/annotations", s.listBuildAnnotations)
	mux.HandleFunc("POST "+build+"/annotations", s.createBuildAnnotation)
	mux.HandleFunc("DELETE "+build+"/annotations/{id}", s.deleteBuildAnnotation)
	mux.HandleFunc("GET "+job+"/annotations", s.listJobAnnotations)
	mux.HandleFunc("POST "+job+"/annotations", s.createJobAnnotation)
	mux.HandleFunc("DELETE "+job+"/annotations/{id}", s.deleteJobAnnotation)
	// The organization-scoped routes of a job, for a client that has only the job's ID.
	const orgJob = "/v2/organizations/{org}/jobs/{job}"
	mux.HandleFunc("GET "+orgJob+"/artifacts", s.listJobArtifacts)
	mux.HandleFunc("GET "+orgJob+"/artifacts/{id}", s.getArtifact)
	mux.HandleFunc("DELETE "+orgJob+"/artifacts/{id}", s.deleteArtifact)
	mux.HandleFunc("GET "+orgJob+"/annotations", s.listJobAnnotations)
	mux.HandleFunc("POST "+orgJob+"/annotations", s.createJobAnnotation)
	mux.HandleFunc("DELETE "+orgJob+"/annotations/{id}", s.deleteJobAnnotation)
	mux.HandleFunc("GET "+job+"/log", s.getJobLog)
	mux.HandleFunc("GET "+job+"/log.txt", s.getJobLogText)
	mux.HandleFunc("DELETE "+job+"/log", s.deleteJobLog)
}

// ---- finding ----

// findJob finds the path's build and, in it, its job: 404 "No job found" for a job of another build. On
// an organization-scoped route (no pipeline in the path) it finds the job by its ID alone. A lock must be
// held.
func (st *Store) findJob(org string, r *http.Request) (*buildRecord, *pipelineRecord, *jobRecord, *apiError) {
	if r.PathValue("pipeline") == "" {
		b, j := st.jobByID(org, r.PathValue("job"))
		if j == nil {
			return nil, nil, nil, errNotFound("job")
		}
		return b, st.pipelineByID(org, b.pipelineID), j, nil
	}
	b, p, err := st.findBuild(org, r)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, j := range b.jobs {
		if j.id == r.PathValue("job") {
			return b, p, j, nil
		}
	}
	return nil, nil, nil, errNotFound("job")
}

// jobByID finds org's job with id among every build, for the seeding methods. A lock must be held.
func (st *Store) jobByID(org, id string) (*buildRecord, *jobRecord) {
	for _, b := range st.builds.builds.list("org:" + org) {
		for _, j := range b.jobs {
			if j.id == id {
				return b, j
			}
		}
	}
	return nil, nil
}

// outputsOf returns the records of m that keep, in the order they were made.
func outputsOf[T any](m map[string]*T, seq func(*T) int64, keep func(*T) bool) []*T {
	var out []*T
	for _, rec := range m {
		if keep(rec) {
			out = append(out, rec)
		}
	}
	slices.SortFunc(out, func(a, b *T) int { return int(seq(a) - seq(b)) })
	return out
}

// ---- artifacts ----

// artifactView is an artifact as the API shows it.
type artifactView struct {
	ID           string  `json:"id"`
	JobID        string  `json:"job_id"`
	URL          string  `json:"url"`
	DownloadURL  string  `json:"download_url"`
	State        string  `json:"state"`
	Path         string  `json:"path"`
	Dirname      string  `json:"dirname"`
	Filename     string  `json:"filename"`
	MimeType     string  `json:"mime_type"`
	FileSize     int64   `json:"file_size"`
	GlobPath     *string `json:"glob_path"`
	OriginalPath *string `json:"original_path"`
	SHA1Sum      string  `json:"sha1sum"`
}

func artifactViewOf(base string, p *pipelineRecord, b *buildRecord, a *artifactRecord) artifactView {
	u := apiURL(base, "organizations", p.org, "pipelines", p.slug, "builds", fmt.Sprint(b.number), "jobs", a.jobID, "artifacts", a.id)
	dir := path.Dir(a.path)
	if dir == "." {
		dir = ""
	}
	return artifactView{
		ID: a.id, JobID: a.jobID, URL: u, DownloadURL: u + "/download", State: a.state, Path: a.path,
		Dirname: dir, Filename: path.Base(a.path), MimeType: a.mimeType, FileSize: a.fileSize, SHA1Sum: a.sha1sum,
	}
}

func artifactSeq(a *artifactRecord) int64 { return a.seq }

// listArtifacts answers the artifacts of the path's build (job "" ) or of its job, paginated.
func (s *Server) listArtifacts(w http.ResponseWriter, r *http.Request, ofJob bool) {
	s.serveRead(w, r, scopeReadArtifacts, func(org string) (any, *apiError) {
		var b *buildRecord
		var p *pipelineRecord
		var err *apiError
		jobID := ""
		if ofJob {
			var j *jobRecord
			if b, p, j, err = s.store.findJob(org, r); err == nil {
				jobID = j.id
			}
		} else {
			b, p, err = s.store.findBuild(org, r)
		}
		if err != nil {
			return nil, err
		}
		list := outputsOf(s.store.outputs.artifacts, artifactSeq, func(a *artifactRecord) bool {
			return a.buildID == b.id && (jobID == "" || a.jobID == jobID) && a.state != "deleted"
		})
		out := []artifactView{}
		for _, a := range paginate(w, r, list) {
			out = append(out, artifactViewOf(baseURL(r), p, b, a))
		}
		return out, nil
	})
}

func (s *Server) listBuildArtifacts(w http.ResponseWriter, r *http.Request) {
	s.listArtifacts(w, r, false)
}
func (s *Server) listJobArtifacts(w http.ResponseWriter, r *http.Request) {
	s.listArtifacts(w, r, true)
}

// findArtifact finds the path's artifact of the path's job. A lock must be held.
func (st *Store) findArtifact(org string, r *http.Request) (*buildRecord, *pipelineRecord, *artifactRecord, *apiError) {
	b, p, j, err := st.findJob(org, r)
	if err != nil {
		return nil, nil, nil, err
	}
	a, ok := st.outputs.artifacts[r.PathValue("id")]
	if !ok || a.jobID != j.id || a.state == "deleted" {
		return nil, nil, nil, errNotFound("artifact")
	}
	return b, p, a, nil
}

func (s *Server) getArtifact(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadArtifacts, func(org string) (any, *apiError) {
		b, p, a, err := s.store.findArtifact(org, r)
		if err != nil {
			return nil, err
		}
		return artifactViewOf(baseURL(r), p, b, a), nil
	})
}

// deleteArtifact marks the artifact deleted: no longer listed or found.
func (s *Server) deleteArtifact(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteArtifacts, func(org string) *apiError {
		_, _, a, err := s.store.findArtifact(org, r)
		if err != nil {
			return err
		}
		a.state = "deleted"
		return nil
	})
}

// AddArtifact seeds an artifact of org's job jobID (an ID from a build's jobs) and returns its ID.
func (st *Store) AddArtifact(org, jobID string, a ArtifactFixture) (string, error) {
	defer st.edit()()
	b, j := st.jobByID(org, jobID)
	switch {
	case j == nil:
		return "", fmt.Errorf("fakeserver: organization %q has no job %q", org, jobID)
	case a.Path == "":
		return "", fmt.Errorf("fakeserver: an artifact needs a path")
	case a.State != "" && !slices.Contains(artifactStates, a.State):
		return "", fmt.Errorf("fakeserver: artifact state %q is not one of %s", a.State, strings.Join(artifactStates, ", "))
	}
	id := newID()
	st.outputs.artifacts[id] = &artifactRecord{
		seq: st.nextSeq(), org: org, buildID: b.id, jobID: j.id, id: id, state: orDefault(a.State, "finished"),
		path: a.Path, mimeType: orDefault(a.MimeType, "application/octet-stream"), sha1sum: a.SHA1Sum, fileSize: a.FileSize,
	}
	return id, nil
}

// ---- annotations ----

// annotationView is an annotation as the API shows it.
type annotationView struct {
	ID        string  `json:"id"`
	Context   string  `json:"context"`
	Style     string  `json:"style"`
	Scope     string  `json:"scope"`
	Priority  int     `json:"priority"`
	BodyHTML  string  `json:"body_html"`
	CreatedAt *string `json:"created_at"`
	UpdatedAt *string `json:"updated_at"`
}

func annotationViewOf(a *annotationRecord) annotationView {
	scope := "build"
	if a.jobID != "" {
		scope = "job"
	}
	return annotationView{
		ID: a.id, Context: a.context, Style: a.style, Scope: scope, Priority: a.priority, BodyHTML: a.bodyHTML,
		CreatedAt: formatTimePtr(a.createdAt), UpdatedAt: formatTimePtr(a.updatedAt),
	}
}

func annotationSeq(a *annotationRecord) int64 { return a.seq }

// annotationTarget finds the path's build and, when ofJob, its job ("" otherwise). A lock must be held.
func (st *Store) annotationTarget(org string, r *http.Request, ofJob bool) (b *buildRecord, jobID string, err *apiError) {
	if !ofJob {
		b, _, err = st.findBuild(org, r)
		return b, "", err
	}
	b, _, j, err := st.findJob(org, r)
	if err != nil {
		return nil, "", err
	}
	return b, j.id, nil
}

// listAnnotations answers the build's annotations (those of its jobs too, scope "job") or one job's,
// higher priority first, then in the order made.
func (s *Server) listAnnotations(w http.ResponseWriter, r *http.Request, ofJob bool) {
	s.serveRead(w, r, scopeReadBuilds, func(org string) (any, *apiError) {
		b, jobID, err := s.store.annotationTarget(org, r, ofJob)
		if err != nil {
			return nil, err
		}
		list := outputsOf(s.store.outputs.annotations, annotationSeq, func(a *annotationRecord) bool {
			return a.buildID == b.id && (!ofJob || a.jobID == jobID)
		})
		slices.SortStableFunc(list, func(x, y *annotationRecord) int { return y.priority - x.priority })
		out := []annotationView{}
		for _, a := range paginate(w, r, list) {
			out = append(out, annotationViewOf(a))
		}
		return out, nil
	})
}

func (s *Server) listBuildAnnotations(w http.ResponseWriter, r *http.Request) {
	s.listAnnotations(w, r, false)
}
func (s *Server) listJobAnnotations(w http.ResponseWriter, r *http.Request) {
	s.listAnnotations(w, r, true)
}
func (s *Server) createBuildAnnotation(w http.ResponseWriter, r *http.Request) {
	s.createAnnotation(w, r, false)
}
func (s *Server) createJobAnnotation(w http.ResponseWriter, r *http.Request) {
	s.createAnnotation(w, r, true)
}
func (s *Server) deleteBuildAnnotation(w http.ResponseWriter, r *http.Request) {
	s.deleteAnnotation(w, r, false)
}
func (s *Server) deleteJobAnnotation(w http.ResponseWriter, r *http.Request) {
	s.deleteAnnotation(w, r, true)
}

// createAnnotation adds an annotation to the build or, ofJob, to its job (scope "job") (201), or with
// append true adds the body to the one of the same context there; a context already used without append
// replaces that annotation's body and style.
func (s *Server) createAnnotation(w http.ResponseWriter, r *http.Request, ofJob bool) {
	s.serveWrite(w, r, scopeWriteBuilds, http.StatusCreated, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		body, style, priority := in.String("body"), in.String("style"), in.Int("priority")
		context, appendBody := in.String("context"), in.Bool("append")
		problems := in.Problems()
		if !body.Given() || strings.TrimSpace(body.Value) == "" {
			problems.addBlank("body")
		}
		if style.Given() && !slices.Contains(annotationStyles, style.Value) {
			problems.add("style", "must be one of "+strings.Join(annotationStyles, ", "))
		}
		if priority.Given() && (priority.Value < 1 || priority.Value > 10) {
			problems.add("priority", "must be between 1 and 10")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		b, jobID, err := s.store.annotationTarget(org.slug, r, ofJob)
		if err != nil {
			return nil, err
		}
		ctx := orDefault(context.Value, "default")
		now := s.store.timestamp()
		for _, a := range s.store.outputs.annotations {
			if a.buildID != b.id || a.jobID != jobID || a.context != ctx {
				continue
			}
			if appendBody.Value {
				a.bodyHTML += renderAnnotation(body.Value)
			} else {
				a.bodyHTML = renderAnnotation(body.Value)
			}
			if style.Given() {
				a.style = style.Value
			}
			if priority.Given() {
				a.priority = priority.Value
			}
			a.updatedAt = now
			return annotationViewOf(a), nil
		}
		id := newID()
		a := &annotationRecord{
			seq: s.store.nextSeq(), org: org.slug, buildID: b.id, jobID: jobID, id: id, context: ctx,
			style: orDefault(style.Value, "info"), bodyHTML: renderAnnotation(body.Value), priority: 3,
			createdAt: now, updatedAt: now,
		}
		if priority.Given() {
			a.priority = priority.Value
		}
		s.store.outputs.annotations[id] = a
		return annotationViewOf(a), nil
	})
}

// renderAnnotation stands in for the service's Markdown renderer: each paragraph that is not already
// HTML becomes <p>…</p>, its text escaped.
func renderAnnotation(body string) string {
	var b strings.Builder
	for _, para := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		switch {
		case para == "":
		case strings.HasPrefix(para, "<"):
			b.WriteString(para + "\n")
		default:
			b.WriteString("<p>" + html.EscapeString(para) + "</p>\n")
		}
	}
	return b.String()
}

// deleteAnnotation deletes the build's annotation or, ofJob, the job's.
func (s *Server) deleteAnnotation(w http.ResponseWriter, r *http.Request, ofJob bool) {
	s.serveDelete(w, r, scopeWriteBuilds, func(org string) *apiError {
		b, jobID, err := s.store.annotationTarget(org, r, ofJob)
		if err != nil {
			return err
		}
		a, ok := s.store.outputs.annotations[r.PathValue("id")]
		if !ok || a.buildID != b.id || (ofJob && a.jobID != jobID) {
			return errNotFound("annotation")
		}
		delete(s.store.outputs.annotations, a.id)
		return nil
	})
}

// ---- job logs ----

// jobLogView is GET .../log's answer.
type jobLogView struct {
	URL         string  `json:"url"`
	Content     string  `json:"content"`
	Size        int     `json:"size"`
	HeaderTimes []int64 `json:"header_times"`
}

func (s *Server) getJobLog(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadJobLogs, func(org string) (any, *apiError) {
		b, p, j, err := s.store.findJob(org, r)
		if err != nil {
			return nil, err
		}
		content := s.store.outputs.jobLogs[j.id]
		u := apiURL(baseURL(r), "organizations", org, "pipelines", p.slug, "builds", fmt.Sprint(b.number), "jobs", j.id, "log")
		return jobLogView{URL: u, Content: content, Size: len(content), HeaderTimes: []int64{}}, nil
	})
}

// getJobLogText answers the log as plain text (not JSON, so not on serveRead).
func (s *Server) getJobLogText(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadJobLogs)
	if !ok {
		return
	}
	var content string
	err := s.store.view(func() *apiError {
		_, _, j, err := s.store.findJob(org.slug, r)
		if err == nil {
			content = s.store.outputs.jobLogs[j.id]
		}
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(content))
}

func (s *Server) deleteJobLog(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteJobLogs, func(org string) *apiError {
		_, _, j, err := s.store.findJob(org, r)
		if err != nil {
			return err
		}
		delete(s.store.outputs.jobLogs, j.id)
		return nil
	})
}

// SetJobLog seeds the log output of org's job jobID (an ID from a build's jobs).
func (st *Store) SetJobLog(org, jobID, content string) error {
	defer st.edit()()
	if _, j := st.jobByID(org, jobID); j == nil {
		return fmt.Errorf("fakeserver: organization %q has no job %q", org, jobID)
	}
	st.outputs.jobLogs[jobID] = content
	return nil
}

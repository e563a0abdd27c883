package fakeserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Builds (spec 2.13, 3.2, 4.9), their jobs, cancel and rebuild.
//
// Where the spec says "not shown", the emulator follows real-service-notes.md: creating a build needs
// write_builds, commit and branch are required (422 in the pipeline/build form), cancel and rebuild are
// PUT .../builds/{number}/cancel and /rebuild answering 200. Build and job state changes other than cancel
// happen only through the admin API (/_fake/...) or Store.SetBuildState: nothing runs jobs on its own.

// KindBuild is a build; its id is the build's UUID.
const KindBuild Kind = "build"

func init() {
	registerKind(KindBuild, (*Store).buildByID, func(st *Store, b *buildRecord) { st.builds.builds.remove(b) })
}

// stepsOf returns the steps a new build of p runs. It is a variable so tests can give pipelines steps
// without the pipelines area.
var stepsOf = func(p *pipelineRecord) []stepSpec { return p.jobSteps() }

// ---- states ----

// Build states (spec 3.2). "blocked" is not a state a build reports: it sets the blocked flag.
const (
	buildScheduled = "scheduled"
	buildRunning   = "running"
	buildPassed    = "passed"
	buildFailing   = "failing"
	buildFailed    = "failed"
	buildBlocked   = "blocked"
	buildCanceled  = "canceled"
	buildCanceling = "canceling"
	buildSkipped   = "skipped"
	buildNotRun    = "not_run"
	buildFinished  = "finished" // filter shortcut only
)

// buildStates are the states a build can be in.
var buildStates = []string{
	buildRunning, buildScheduled, buildPassed, buildFailing, buildFailed, buildCanceled, buildCanceling,
	buildSkipped, buildNotRun,
}

// buildFilterStates are the values the state filter accepts (spec 3.2).
var buildFilterStates = append(slices.Clone(buildStates), buildBlocked, buildFinished)

// finishedFilter is what the `finished` filter shortcut matches (blocked is the flag).
var finishedFilter = []string{buildPassed, buildFailed, buildBlocked, buildCanceled}

// cancelableStates are the states a build may be canceled from.
var cancelableStates = []string{buildScheduled, buildRunning, buildFailing}

// Job states. The spec shows only scheduled and passed; the rest are Buildkite's documented job states.
const (
	jobScheduled = "scheduled"
	jobPassed    = "passed"
	jobFailed    = "failed"
	jobCanceled  = "canceled"
	jobTimedOut  = "timed_out"
)

var jobStates = []string{
	"pending", "waiting", "waiting_failed", "blocked", "blocked_failed", "unblocked", "unblocked_failed",
	"limiting", "limited", jobScheduled, "assigned", "accepted", "running", jobPassed, jobFailed, "canceling",
	jobCanceled, "timing_out", jobTimedOut, "skipped", "broken", "expired",
}

// jobFinishedStates are the job states that end a job: finished_at is set and exit_status may be.
var jobFinishedStates = []string{
	jobPassed, jobFailed, jobCanceled, jobTimedOut, "skipped", "broken", "expired",
	"waiting_failed", "blocked_failed", "unblocked_failed",
}

// jobRanStates are the states only a job that started running reaches: started_at is set.
var jobRanStates = []string{"running", "canceling", "timing_out", jobPassed, jobFailed, jobTimedOut}

// jobAgentStates are the states in which an agent holds (or held) the job.
var jobAgentStates = append([]string{"assigned", "accepted"}, jobRanStates...)

// ---- state ----

// buildState is this area's part of the Store.
type buildState struct {
	// builds are listed all together (""), by org ("org:<slug>") and by pipeline ("pipeline:<id>"), and
	// named by pipeline and number (buildNumberKey).
	builds     *table[*buildRecord]
	lastNumber map[string]int // by pipeline id: the number of its newest build
}

func newBuildState() buildState {
	return buildState{
		builds: newTable(
			func(b *buildRecord) []string { return []string{"", "org:" + b.org, "pipeline:" + b.pipelineID} },
			func(b *buildRecord) []string { return []string{buildNumberKey(b.pipelineID, b.number)} }),
		lastNumber: map[string]int{},
	}
}

func buildNumberKey(pipelineID string, number int) string {
	return nameKey(pipelineID, "number", strconv.Itoa(number))
}

func (b *buildRecord) recordID() string { return b.id }
func (b *buildRecord) recordSeq() int64 { return b.seq }

// buildRecord is a build. It names its pipeline by id; URLs use the pipeline's current slug.
type buildRecord struct {
	seq                     int64
	org, pipelineID         string
	id, graphqlID           string
	number                  int
	state                   string
	blocked                 bool
	message, commit, branch string
	env                     map[string]any
	metaData                map[string]string
	authorName, authorEmail string // accepted and carried into rebuilds; spec 2.13 shows no author field
	cleanCheckout           bool
	ignoreBranchFilters     bool
	pullRequest             *pullRequestRecord
	creatorID               string
	rebuiltFrom             string // build id, "" when not a rebuild
	createdAt, scheduledAt  time.Time
	startedAt, finishedAt   time.Time
	jobs                    []*jobRecord // in step order, each retry right after the job it retried
	nextAgent               int          // numbers the synthetic agents that pick up the build's jobs
}

// pullRequestRecord is the pull request a build was created for.
type pullRequestRecord struct {
	id, base, repository string
}

// jobRecord is one execution of a step: a retry is a new jobRecord for the same step.
type jobRecord struct {
	id, graphqlID, stepID string
	step                  stepSpec
	state                 string
	exitStatus            *int
	agent                 *jobAgent
	createdAt             time.Time
	scheduledAt           time.Time
	runnableAt            time.Time
	startedAt, finishedAt time.Time
	retried               bool
	retriedInJobID        string
	retriesCount          int
	retryType             string
	clusterID, queueID    string // "" when the pipeline is not in a cluster / no queue matched
}

// jobAgent is the synthetic agent that took a job: the emulator has no agents, but a job past "assigned"
// shows one, as the real service does.
type jobAgent struct {
	id, name  string
	createdAt time.Time
}

// buildByID returns the build of org with id, or nil. A lock must be held.
func (st *Store) buildByID(org, id string) *buildRecord {
	if b, ok := st.builds.builds.get(id); ok && b.org == org {
		return b
	}
	return nil
}

// buildByNumber returns the build of the pipeline with number, or nil. A lock must be held.
func (st *Store) buildByNumber(pipelineID string, number int) *buildRecord {
	b, _ := st.builds.builds.lookup(buildNumberKey(pipelineID, number))
	return b
}

// removePipelineBuilds deletes every build of a pipeline, for the pipelines area to call when it deletes
// one. The write lock must be held.
func (st *Store) removePipelineBuilds(pipelineID string) {
	for _, b := range slices.Clone(st.builds.builds.list("pipeline:" + pipelineID)) {
		st.builds.builds.remove(b)
	}
}

// findBuild finds the build of the path's pipeline slug and number: 404 for an unknown pipeline, and for
// an unknown number or one that is not an integer. A lock must be held.
func (st *Store) findBuild(org string, r *http.Request) (*buildRecord, *pipelineRecord, *apiError) {
	p := st.pipelineBySlug(org, r.PathValue("pipeline"))
	if p == nil {
		return nil, nil, errNotFound("pipeline")
	}
	number, err := strconv.Atoi(r.PathValue("number"))
	if err != nil {
		return nil, nil, errNotFound("build")
	}
	b := st.buildByNumber(p.id, number)
	if b == nil {
		return nil, nil, errNotFound("build")
	}
	return b, p, nil
}

// canEditPipelines reports whether the request's access token holds write_pipelines: only then does the
// pipeline embedded in a build show its webhook URL (spec 4.9 rule 6). A lock must be held.
func (st *Store) canEditPipelines(r *http.Request) bool {
	secret, ok := bearerToken(r)
	if !ok {
		return false
	}
	t, ok := st.tokens[secret]
	return ok && t.scopes[scopeWritePipelines]
}

// buildInput is what creating a build takes; rebuilding copies it from the original build.
type buildInput struct {
	commit, branch, message string
	authorName, authorEmail string
	env                     map[string]any
	metaData                map[string]string
	cleanCheckout           bool
	ignoreBranchFilters     bool
	pullRequest             *pullRequestRecord
	rebuiltFrom             string
}

// addBuild creates a scheduled build of p with the next number and one job per step. The write lock must
// be held.
func (st *Store) addBuild(p *pipelineRecord, creatorID string, in buildInput) *buildRecord {
	now := st.timestamp()
	st.builds.lastNumber[p.id]++
	id := newID()
	b := &buildRecord{
		seq: st.nextSeq(), org: p.org, pipelineID: p.id, id: id, graphqlID: graphQLID("Build", id),
		number: st.builds.lastNumber[p.id], state: buildScheduled,
		message: in.message, commit: in.commit, branch: in.branch,
		env: cloneMap(in.env), metaData: cloneMap(in.metaData),
		authorName: in.authorName, authorEmail: in.authorEmail,
		cleanCheckout: in.cleanCheckout, ignoreBranchFilters: in.ignoreBranchFilters,
		creatorID: creatorID, rebuiltFrom: in.rebuiltFrom, createdAt: now, scheduledAt: now,
	}
	if in.pullRequest != nil {
		pr := *in.pullRequest
		b.pullRequest = &pr
	}
	for _, step := range stepsOf(p) {
		step.agentQueryRules = slices.Clone(step.agentQueryRules)
		j := &jobRecord{stepID: newID(), step: step, state: jobScheduled, createdAt: now, scheduledAt: now, runnableAt: now}
		j.id, j.graphqlID = newJobID()
		j.clusterID, j.queueID = st.jobQueue(p, step)
		b.jobs = append(b.jobs, j)
	}
	st.builds.builds.insert(b)
	return b
}

// newJobID returns a job's id and GraphQL id.
func newJobID() (id, graphqlID string) {
	id = newID()
	return id, graphQLID("JobTypeCommand", id)
}

// jobQueue picks the cluster and queue a job of p's step runs on: the queue its agent query rules name
// (queue=<key>), else the cluster's default queue. A lock must be held.
func (st *Store) jobQueue(p *pipelineRecord, step stepSpec) (clusterID, queueID string) {
	c := st.cluster(p.org, p.clusterID)
	if c == nil {
		return "", ""
	}
	for _, rule := range step.agentQueryRules {
		key, ok := strings.CutPrefix(rule, "queue=")
		if !ok {
			continue
		}
		if q := st.queueByKey(c.id, key); q != nil {
			return c.id, q.id
		}
		return c.id, ""
	}
	return c.id, c.defaultQueueID
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// setBuildState moves b to state ("blocked" sets the blocked flag instead) and keeps started_at and
// finished_at consistent with it: a scheduled build has neither, a running one no finished_at, a
// finished one both where it ran. Jobs are left alone. The write lock must be held.
func (st *Store) setBuildState(b *buildRecord, state string) {
	if state == buildBlocked {
		b.blocked = true
		return
	}
	now := st.timestamp()
	b.state = state
	switch state {
	case buildScheduled:
		b.startedAt, b.finishedAt = time.Time{}, time.Time{}
	case buildRunning, buildFailing, buildCanceling:
		if b.startedAt.IsZero() {
			b.startedAt = now
		}
		b.finishedAt = time.Time{}
	case buildPassed, buildFailed:
		if b.startedAt.IsZero() {
			b.startedAt = now
		}
		if b.finishedAt.IsZero() {
			b.finishedAt = now
		}
	default: // canceled, skipped, not_run: finished, whether or not it started
		if b.finishedAt.IsZero() {
			b.finishedAt = now
		}
	}
}

// cancelBuild cancels b and every job of it that has not finished. The write lock must be held.
func (st *Store) cancelBuild(b *buildRecord) {
	st.setBuildState(b, buildCanceled)
	b.blocked = false // a canceled build no longer waits on its block step
	for _, j := range b.jobs {
		if !slices.Contains(jobFinishedStates, j.state) {
			st.setJobState(b, j, jobCanceled, nil)
		}
	}
}

// setJobState moves j to state and keeps its timestamps, exit status and agent consistent: started_at
// once it ran, finished_at and exit_status only once finished, an agent from "assigned" on. exit is the
// exit status of a finished state; nil keeps the job's own when the state does not change and otherwise
// defaults it (0 for passed, 1 for failed and timed_out, null for the rest). The write lock must be held.
func (st *Store) setJobState(b *buildRecord, j *jobRecord, state string, exit *int) {
	now := st.timestamp()
	changed := j.state != state
	j.state = state
	finished := slices.Contains(jobFinishedStates, state)
	if slices.Contains(jobRanStates, state) && j.startedAt.IsZero() {
		j.startedAt = now
	}
	if slices.Contains(jobAgentStates, state) && j.agent == nil {
		b.nextAgent++
		j.agent = &jobAgent{id: newID(), name: fmt.Sprintf("agent-%d", b.nextAgent), createdAt: now}
	}
	switch {
	case finished:
		if j.finishedAt.IsZero() {
			j.finishedAt = now
		}
		switch {
		case exit != nil:
			j.exitStatus = intPtr(*exit)
		case !changed:
		case state == jobPassed:
			j.exitStatus = intPtr(0)
		case state == jobFailed || state == jobTimedOut:
			j.exitStatus = intPtr(1)
		default:
			j.exitStatus = nil
		}
	case slices.Contains(jobAgentStates, state): // assigned or running: not finished
		j.finishedAt, j.exitStatus = time.Time{}, nil
		if !slices.Contains(jobRanStates, state) {
			j.startedAt = time.Time{}
		}
	default: // waiting for an agent again
		j.startedAt, j.finishedAt, j.exitStatus, j.agent = time.Time{}, time.Time{}, nil, nil
	}
}

// retryJob adds a new execution of j's step right after it: j becomes retried and points at the new job,
// which starts scheduled with one more retry counted. The write lock must be held.
func (st *Store) retryJob(b *buildRecord, j *jobRecord) {
	now := st.timestamp()
	n := &jobRecord{
		stepID: j.stepID, step: j.step, state: jobScheduled, createdAt: now, scheduledAt: now, runnableAt: now,
		retriesCount: j.retriesCount + 1, retryType: "manual", clusterID: j.clusterID, queueID: j.queueID,
	}
	n.id, n.graphqlID = newJobID()
	j.retried, j.retriedInJobID = true, n.id
	i := slices.Index(b.jobs, j)
	b.jobs = slices.Insert(b.jobs, i+1, n)
}

func intPtr(n int) *int { return &n }

// SetBuildState moves build number of the pipeline with pipelineSlug in org to state, as the admin API
// does: one of the build states of spec 3.2, or "blocked" to set the blocked flag. started_at and
// finished_at follow the state; jobs are left alone.
func (st *Store) SetBuildState(org, pipelineSlug string, number int, state string) error {
	if !slices.Contains(buildStates, state) && state != buildBlocked {
		return fmt.Errorf("fakeserver: unknown build state %q", state)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	p := st.pipelineBySlug(org, pipelineSlug)
	if p == nil {
		return fmt.Errorf("fakeserver: no pipeline %q in organization %q", pipelineSlug, org)
	}
	b := st.buildByNumber(p.id, number)
	if b == nil {
		return fmt.Errorf("fakeserver: no build %d of pipeline %q", number, pipelineSlug)
	}
	st.setBuildState(b, state)
	return nil
}

// BuildState returns the state and blocked flag of build number of the pipeline with pipelineSlug in org;
// ok is false when there is no such build.
func (st *Store) BuildState(org, pipelineSlug string, number int) (state string, blocked, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	p := st.pipelineBySlug(org, pipelineSlug)
	if p == nil {
		return "", false, false
	}
	b := st.buildByNumber(p.id, number)
	if b == nil {
		return "", false, false
	}
	return b.state, b.blocked, true
}

// BuildCount returns how many builds organization org has, across its pipelines.
func (st *Store) BuildCount(org string) int {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return len(st.builds.builds.list("org:" + org))
}

// ---- views ----

// buildView is a build as spec 2.13 shows it.
type buildView struct {
	ID           string            `json:"id"`
	GraphQLID    string            `json:"graphql_id"`
	URL          string            `json:"url"`
	WebURL       string            `json:"web_url"`
	Number       int               `json:"number"`
	State        string            `json:"state"`
	CancelReason *string           `json:"cancel_reason"`
	Blocked      bool              `json:"blocked"`
	Message      string            `json:"message"`
	Commit       string            `json:"commit"`
	Branch       string            `json:"branch"`
	Env          map[string]any    `json:"env"`
	Source       string            `json:"source"`
	Creator      *creatorView      `json:"creator"`
	Jobs         []jobView         `json:"jobs"`
	CreatedAt    string            `json:"created_at"`
	ScheduledAt  *string           `json:"scheduled_at"`
	StartedAt    *string           `json:"started_at"`
	FinishedAt   *string           `json:"finished_at"`
	MetaData     map[string]string `json:"meta_data"`
	PullRequest  *pullRequestView  `json:"pull_request"`
	RebuiltFrom  *rebuiltFromView  `json:"rebuilt_from"`
	Pipeline     any               `json:"pipeline"`
}

// creatorView is a build's creator: the user summary without graphql_id, as spec 2.13 lists it.
type creatorView struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Email     string  `json:"email"`
	AvatarURL *string `json:"avatar_url"`
	CreatedAt string  `json:"created_at"`
}

// pullRequestView carries the pull request id as a string, as go-buildkite decodes it.
type pullRequestView struct {
	ID         string `json:"id"`
	Base       string `json:"base"`
	Repository string `json:"repository"`
}

type rebuiltFromView struct {
	ID     string `json:"id"`
	Number int    `json:"number"`
	URL    string `json:"url"`
}

// jobView is a job as spec 2.13 shows it.
type jobView struct {
	ID                 string      `json:"id"`
	GraphQLID          string      `json:"graphql_id"`
	Type               string      `json:"type"`
	Name               *string     `json:"name"`
	StepKey            *string     `json:"step_key"`
	Step               jobStepView `json:"step"`
	AgentQueryRules    []string    `json:"agent_query_rules"`
	State              string      `json:"state"`
	WebURL             string      `json:"web_url"`
	LogURL             string      `json:"log_url"`
	RawLogURL          string      `json:"raw_log_url"`
	Command            string      `json:"command"`
	SoftFailed         bool        `json:"soft_failed"`
	ExitStatus         *int        `json:"exit_status"`
	ArtifactPaths      string      `json:"artifact_paths"`
	Agent              any         `json:"agent"` // nil, agentSummaryView or agentView
	CreatedAt          string      `json:"created_at"`
	ScheduledAt        *string     `json:"scheduled_at"`
	RunnableAt         *string     `json:"runnable_at"`
	StartedAt          *string     `json:"started_at"`
	FinishedAt         *string     `json:"finished_at"`
	Retried            bool        `json:"retried"`
	RetriedInJobID     *string     `json:"retried_in_job_id"`
	RetriesCount       int         `json:"retries_count"`
	RetryType          *string     `json:"retry_type"`
	ParallelGroupIndex *int        `json:"parallel_group_index"`
	ParallelGroupTotal *int        `json:"parallel_group_total"`
	Matrix             any         `json:"matrix"`
	ClusterID          *string     `json:"cluster_id"`
	ClusterURL         *string     `json:"cluster_url"`
	ClusterQueueID     *string     `json:"cluster_queue_id"`
	ClusterQueueURL    *string     `json:"cluster_queue_url"`
}

type jobStepView struct {
	ID        string            `json:"id"`
	Signature stepSignatureView `json:"signature"`
}

type stepSignatureView struct {
	Value        string   `json:"value"`
	Algorithm    string   `json:"algorithm"`
	SignedFields []string `json:"signed_fields"`
}

// agentSummaryView is the agent embedded in jobs of build lists.
type agentSummaryView struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	Name string `json:"name"`
}

// agentView is the agent embedded in jobs of a single build (spec 2.13).
type agentView struct {
	agentSummaryView
	GraphQLID       string    `json:"graphql_id"`
	WebURL          string    `json:"web_url"`
	ConnectionState string    `json:"connection_state"`
	Hostname        string    `json:"hostname"`
	IPAddress       string    `json:"ip_address"`
	UserAgent       string    `json:"user_agent"`
	Creator         *userView `json:"creator"` // agents register with a token, not as a user: null
	CreatedAt       string    `json:"created_at"`
}

// signedFields are the step fields the (synthetic) signature covers, as Buildkite's signed pipelines list them.
var signedFields = []string{"command", "env", "matrix", "plugins", "repository_url"}

// stepSignature is a stable stand-in for a signed step's JWS: an HMAC of the signed content, so equal
// steps sign equally and any change shows.
func stepSignature(p *pipelineRecord, step stepSpec) stepSignatureView {
	mac := hmac.New(sha256.New, []byte("fakeserver"))
	mac.Write([]byte(p.id + "\x00" + step.key + "\x00" + step.command))
	return stepSignatureView{
		Value: hex.EncodeToString(mac.Sum(nil)), Algorithm: "HS256", SignedFields: slices.Clone(signedFields),
	}
}

// buildRenderOptions says how much of a build to show.
type buildRenderOptions struct {
	canEdit        bool // the caller may edit the pipeline: its webhook URL is shown
	includeRetried bool // show retried job executions too
	detailed       bool // a single-build response: agents in full
}

// buildView renders b of pipeline p. A lock must be held.
func (st *Store) buildView(base string, b *buildRecord, p *pipelineRecord, o buildRenderOptions) buildView {
	buildURL := apiURL(base, "organizations", b.org, "pipelines", p.slug, "builds", strconv.Itoa(b.number))
	v := buildView{
		ID: b.id, GraphQLID: b.graphqlID, URL: buildURL,
		WebURL: webURL(base, b.org, p.slug, "builds", strconv.Itoa(b.number)),
		Number: b.number, State: b.state, Blocked: b.blocked,
		Message: b.message, Commit: b.commit, Branch: b.branch, Env: cloneMap(b.env), Source: "api",
		CreatedAt: formatTime(b.createdAt), ScheduledAt: formatTimePtr(b.scheduledAt),
		StartedAt: formatTimePtr(b.startedAt), FinishedAt: formatTimePtr(b.finishedAt),
		MetaData: cloneMap(b.metaData), Pipeline: embeddedPipeline(st.pipelineView(base, p, o.canEdit)), Jobs: []jobView{},
	}
	if u, ok := st.users[b.creatorID]; ok {
		v.Creator = &creatorView{ID: u.id, Name: u.name, Email: u.email, CreatedAt: formatTime(u.createdAt)}
		if u.avatarURL != "" {
			v.Creator.AvatarURL = stringPtr(u.avatarURL)
		}
	}
	if b.pullRequest != nil {
		v.PullRequest = &pullRequestView{ID: b.pullRequest.id, Base: b.pullRequest.base, Repository: b.pullRequest.repository}
	}
	if from, ok := st.builds.builds.get(b.rebuiltFrom); ok {
		if fp := st.pipelineByID(from.org, from.pipelineID); fp != nil {
			v.RebuiltFrom = &rebuiltFromView{ID: from.id, Number: from.number,
				URL: apiURL(base, "organizations", from.org, "pipelines", fp.slug, "builds", strconv.Itoa(from.number))}
		}
	}
	for _, j := range b.jobs {
		if j.retried && !o.includeRetried {
			continue
		}
		v.Jobs = append(v.Jobs, st.jobView(base, b, p, j, o.detailed))
	}
	return v
}

// jobView renders job j of build b. A lock must be held.
func (st *Store) jobView(base string, b *buildRecord, p *pipelineRecord, j *jobRecord, detailed bool) jobView {
	number := strconv.Itoa(b.number)
	jobURL := apiURL(base, "organizations", b.org, "pipelines", p.slug, "builds", number, "jobs", j.id)
	v := jobView{
		ID: j.id, GraphQLID: j.graphqlID, Type: "script",
		Step:            jobStepView{ID: j.stepID, Signature: stepSignature(p, j.step)},
		AgentQueryRules: nonNil(slices.Clone(j.step.agentQueryRules)),
		State:           j.state,
		WebURL:          webURL(base, b.org, p.slug, "builds", number) + "#" + j.id,
		LogURL:          jobURL + "/log", RawLogURL: jobURL + "/log.txt",
		Command: j.step.command, CreatedAt: formatTime(j.createdAt), ScheduledAt: formatTimePtr(j.scheduledAt),
		RunnableAt: formatTimePtr(j.runnableAt), StartedAt: formatTimePtr(j.startedAt),
		FinishedAt: formatTimePtr(j.finishedAt), Retried: j.retried, RetriesCount: j.retriesCount,
	}
	if j.step.label != "" {
		v.Name = stringPtr(j.step.label)
	}
	if j.step.key != "" {
		v.StepKey = stringPtr(j.step.key)
	}
	if j.exitStatus != nil {
		v.ExitStatus = intPtr(*j.exitStatus)
	}
	if j.retriedInJobID != "" {
		v.RetriedInJobID = stringPtr(j.retriedInJobID)
	}
	if j.retryType != "" {
		v.RetryType = stringPtr(j.retryType)
	}
	if j.clusterID != "" {
		v.ClusterID = stringPtr(j.clusterID)
		v.ClusterURL = stringPtr(apiURL(base, "organizations", b.org, "clusters", j.clusterID))
		if j.queueID != "" {
			v.ClusterQueueID = stringPtr(j.queueID)
			v.ClusterQueueURL = stringPtr(apiURL(base, "organizations", b.org, "clusters", j.clusterID, "queues", j.queueID))
		}
	}
	if a := j.agent; a != nil {
		summary := agentSummaryView{ID: a.id, URL: apiURL(base, "organizations", b.org, "agents", a.id), Name: a.name}
		if detailed {
			v.Agent = agentView{
				agentSummaryView: summary, GraphQLID: graphQLID("Agent", a.id),
				WebURL:          webURL(base, "organizations", b.org, "agents", a.id),
				ConnectionState: "connected", Hostname: a.name + ".emulator.local", IPAddress: "127.0.0.1",
				UserAgent: "buildkite-agent/3.0.0 (linux; amd64)", CreatedAt: formatTime(a.createdAt),
			}
		} else {
			v.Agent = summary
		}
	}
	return v
}

// ---- filters ----

// buildFilter is the query of the three build lists (spec 4.9 rule 3). Empty sets filter nothing.
type buildFilter struct {
	branches, commits, states []string
	createdFrom, createdTo    time.Time
	finishedFrom              time.Time
	creator                   string
	metaData                  map[string]string
	includeRetried            bool
}

// queryValues returns the values of name and name[] (the array form), empty values left out.
func queryValues(q url.Values, name string) []string {
	var out []string
	for _, v := range append(slices.Clone(q[name]), q[name+"[]"]...) {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// parseBuildFilter reads a list's query. Unknown states, times that are not ISO 8601 and booleans that
// are not true/false are a 422 in the pipeline/build form naming the parameter; unknown parameters are
// ignored.
func parseBuildFilter(q url.Values) (buildFilter, validationErrors) {
	var problems validationErrors
	f := buildFilter{
		branches: queryValues(q, "branch"),
		commits:  queryValues(q, "commit"),
		states:   queryValues(q, "state"),
		creator:  q.Get("creator"),
		metaData: map[string]string{},
	}
	for _, s := range f.states {
		if !slices.Contains(buildFilterStates, s) {
			problems.add("state", fmt.Sprintf("%q is not a build state (one of %s)", s, strings.Join(buildFilterStates, ", ")))
		}
	}
	for name, dst := range map[string]*time.Time{
		"created_from": &f.createdFrom, "created_to": &f.createdTo, "finished_from": &f.finishedFrom,
	} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		t, ok := parseQueryTime(v)
		if !ok {
			problems.add(name, fmt.Sprintf("%q is not an ISO 8601 time", v))
		}
		*dst = t
	}
	f.includeRetried = parseQueryBool(q, "include_retried_jobs", &problems)
	for key, values := range q {
		k, ok := strings.CutPrefix(key, "meta_data[")
		if !ok || !strings.HasSuffix(k, "]") || len(values) == 0 {
			continue
		}
		f.metaData[strings.TrimSuffix(k, "]")] = values[0]
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].field < problems[j].field })
	return f, problems
}

// parseQueryBool reads a boolean query parameter: absent or empty is false.
func parseQueryBool(q url.Values, name string, problems *validationErrors) bool {
	v := q.Get(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		problems.add(name, "must be true or false")
	}
	return b
}

// parseQueryTime parses an ISO 8601 time: RFC 3339 with or without fractions, a local time (taken as
// UTC) or a date. A "+" of an offset that reached the server as a space (an unescaped query) is restored.
func parseQueryTime(v string) (time.Time, bool) {
	for _, s := range []string{v, restorePlus(v)} {
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

func restorePlus(v string) string {
	if i := strings.LastIndexByte(v, ' '); i > 0 {
		return v[:i] + "+" + v[i+1:]
	}
	return v
}

// matches reports whether b passes every filter.
func (f buildFilter) matches(b *buildRecord) bool {
	if len(f.branches) > 0 && !slices.Contains(f.branches, b.branch) {
		return false
	}
	if len(f.commits) > 0 && !slices.Contains(f.commits, b.commit) { // full ids only: no prefix match
		return false
	}
	if len(f.states) > 0 && !slices.ContainsFunc(f.states, func(s string) bool { return stateMatches(b, s) }) {
		return false
	}
	if !f.createdFrom.IsZero() && b.createdAt.Before(f.createdFrom) {
		return false
	}
	if !f.createdTo.IsZero() && !b.createdAt.Before(f.createdTo) {
		return false
	}
	if !f.finishedFrom.IsZero() && (b.finishedAt.IsZero() || b.finishedAt.Before(f.finishedFrom)) {
		return false
	}
	if f.creator != "" && b.creatorID != f.creator {
		return false
	}
	for k, v := range f.metaData {
		if got, ok := b.metaData[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// stateMatches applies one state filter value: blocked is the flag, finished the shortcut of spec 3.2.
func stateMatches(b *buildRecord, state string) bool {
	switch state {
	case buildBlocked:
		return b.blocked
	case buildFinished:
		return slices.ContainsFunc(finishedFilter, func(s string) bool { return stateMatches(b, s) })
	default:
		return b.state == state
	}
}

// ---- routes ----

func (s *Server) routeBuilds(mux *http.ServeMux) {
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

// listAllBuilds lists the builds of every organization the token sees (spec 4.9 rule 1).
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
	org, _, ok := s.authorize(w, r, scopeReadBuilds)
	if !ok {
		return
	}
	f, problems := parseBuildFilter(r.URL.Query())
	if len(problems) > 0 {
		writeError(w, errPipelineValidation(problems))
		return
	}
	s.writeBuildList(w, r, f, "org:"+org.slug, func(*buildRecord) bool { return true })
}

func (s *Server) listPipelineBuilds(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadBuilds)
	if !ok {
		return
	}
	f, problems := parseBuildFilter(r.URL.Query())
	var pipelineID string
	err := s.store.view(func() *apiError {
		p := s.store.pipelineBySlug(org.slug, r.PathValue("pipeline"))
		if p == nil {
			return errNotFound("pipeline")
		}
		if len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		pipelineID = p.id
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	s.writeBuildList(w, r, f, "pipeline:"+pipelineID, func(*buildRecord) bool { return true })
}

// writeBuildList answers one page of the builds of scope (see buildState) that keep and f select, newest
// first. keep runs with the read lock held. Builds whose pipeline no longer exists are left out.
func (s *Server) writeBuildList(w http.ResponseWriter, r *http.Request, f buildFilter, scope string, keep func(*buildRecord) bool) {
	var out []buildView
	_ = s.store.view(func() *apiError {
		var selected []*buildRecord
		all := s.store.builds.builds.list(scope)
		for i := len(all) - 1; i >= 0; i-- {
			if b := all[i]; keep(b) && f.matches(b) && s.store.pipelineByID(b.org, b.pipelineID) != nil {
				selected = append(selected, b)
			}
		}
		o := buildRenderOptions{canEdit: s.store.canEditPipelines(r), includeRetried: f.includeRetried}
		for _, b := range paginate(w, r, selected) {
			out = append(out, s.store.buildView(baseURL(r), b, s.store.pipelineByID(b.org, b.pipelineID), o))
		}
		return nil
	})
	writeJSON(w, http.StatusOK, nonNil(out))
}

// ---- single-build handlers ----

// getBuild takes only include_retried_jobs from the query (spec 4.9 rule 4).
func (s *Server) getBuild(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadBuilds)
	if !ok {
		return
	}
	var problems validationErrors
	includeRetried := parseQueryBool(r.URL.Query(), "include_retried_jobs", &problems)
	var out buildView
	err := s.store.view(func() *apiError {
		b, p, err := s.store.findBuild(org.slug, r)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		out = s.store.buildView(baseURL(r), b, p, buildRenderOptions{
			canEdit: s.store.canEditPipelines(r), includeRetried: includeRetried, detailed: true,
		})
		return nil
	})
	respond(w, http.StatusOK, out, err)
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
	org, user, ok := s.authorize(w, r, scopeWriteBuilds)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	input, problems := readBuildInput(in)
	var out buildView
	err := s.store.update(func() *apiError {
		p := s.store.pipelineBySlug(org.slug, r.PathValue("pipeline"))
		if p == nil {
			return errNotFound("pipeline")
		}
		if !p.archivedAt.IsZero() {
			// Archived pipelines are read-only (notes, "Pipelines"), so they take no new builds.
			problems.add("pipeline", "is archived")
		}
		if len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		b := s.store.addBuild(p, user.id, input)
		out = s.store.buildView(baseURL(r), b, p, buildRenderOptions{canEdit: s.store.canEditPipelines(r), detailed: true})
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

// cancelBuildHandler cancels a scheduled, running or failing build at once (the real service passes
// through canceling); its unfinished jobs become canceled.
func (s *Server) cancelBuildHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteBuilds)
	if !ok {
		return
	}
	var out buildView
	err := s.store.update(func() *apiError {
		b, p, err := s.store.findBuild(org.slug, r)
		if err != nil {
			return err
		}
		if !slices.Contains(cancelableStates, b.state) {
			return errUnprocessable("Build can't be canceled because it is " + b.state +
				"; only scheduled, running or failing builds can be")
		}
		s.store.cancelBuild(b)
		out = s.store.buildView(baseURL(r), b, p, buildRenderOptions{canEdit: s.store.canEditPipelines(r), detailed: true})
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// rebuildBuild creates a new build of the same commit, branch, message, env and meta-data, with jobs from
// the pipeline's current steps and rebuilt_from pointing at the original.
func (s *Server) rebuildBuild(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWriteBuilds)
	if !ok {
		return
	}
	var out buildView
	err := s.store.update(func() *apiError {
		b, p, err := s.store.findBuild(org.slug, r)
		if err != nil {
			return err
		}
		nb := s.store.addBuild(p, user.id, buildInput{
			commit: b.commit, branch: b.branch, message: b.message, authorName: b.authorName, authorEmail: b.authorEmail,
			env: b.env, metaData: b.metaData, cleanCheckout: b.cleanCheckout, ignoreBranchFilters: b.ignoreBranchFilters,
			pullRequest: b.pullRequest, rebuiltFrom: b.id,
		})
		out = s.store.buildView(baseURL(r), nb, p, buildRenderOptions{canEdit: s.store.canEditPipelines(r), detailed: true})
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// ---- admin handlers (no auth) ----

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

// legacyTimeLayout is the other form of a pipeline's created_at (spec 1.5): the pipeline embedded in a
// build shows it, the pipeline endpoints show ISO 8601, so clients must read both.
const legacyTimeLayout = "2006-01-02 15:04:05 UTC"

// embeddedPipeline is the pipeline as a build embeds it: created_at in the legacy form.
func embeddedPipeline(v pipelineView) pipelineView {
	if t, err := time.Parse(timeLayout, v.CreatedAt); err == nil {
		v.CreatedAt = t.UTC().Format(legacyTimeLayout)
	}
	return v
}

package fakeserver

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Builds (https://buildkite.com/docs/apis/rest-api/builds), their jobs, cancel and rebuild.
//
// Where the reference (https://buildkite.com/docs/apis/rest-api/builds) leaves it out, the emulator follows
// what the real service does: creating a build needs write_builds, commit and branch are required (422 in the
// pipeline/build form), cancel and rebuild are PUT .../builds/{number}/cancel and /rebuild answering 200. Build
// and job state changes other than cancel happen only through the admin API (/_fake/...) or
// Store.SetBuildState: nothing runs jobs on its own.

// KindBuild is a build; its id is the build's UUID.
const KindBuild Kind = "build"

func init() {
	registerKind(KindBuild, (*Store).buildByID, func(st *Store, b *buildRecord) { st.builds.builds.remove(b) })
}

// stepsOf returns the steps a new build of p runs. It is a variable so tests can give pipelines steps
// without the pipelines area.
var stepsOf = buildSteps

// ---- states ----

// Build states (https://buildkite.com/docs/apis/rest-api/builds). "blocked" is not a state a
// build reports: it sets the blocked flag.
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

// buildFilterStates are the values the state filter accepts.
var buildFilterStates = append(slices.Clone(buildStates), buildBlocked, buildFinished)

// finishedFilter is what the `finished` filter shortcut matches (blocked is the flag).
var finishedFilter = []string{buildPassed, buildFailed, buildBlocked, buildCanceled}

// cancelableStates are the states a build may be canceled from.
var cancelableStates = []string{buildScheduled, buildRunning, buildFailing}

// Job states. The builds API's examples show only scheduled and passed; the rest are Buildkite's documented
// job states.
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
	authorName, authorEmail string // accepted and carried into rebuilds; a build as shown has no author field
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
	unblockedBy           string // a block job's: who unblocked it, and when
	unblockedAt           time.Time
	clusterID, queueID    string // "" when the pipeline is not in a cluster / no queue matched
	priority              int    // set by reprioritize (job_actions.go)
}

// jobAgent is the agent that took a job: a connected agent (fixtures, Store.AddAgent) of the job's queue
// when one is idle (seeded is then true), else a synthetic one, since a job past "assigned" shows an agent,
// as the real service does.
type jobAgent struct {
	id, name  string
	createdAt time.Time
	seeded    bool
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
// an unknown number. The number's place also takes the build's UUID, as Buildkite's CLI relies on (bk build
// download asks for each job's log under .../builds/<build UUID>/jobs/<id>/log); anything else is a 404.
// A lock must be held.
func (st *Store) findBuild(org string, r *http.Request) (*buildRecord, *pipelineRecord, *apiError) {
	p := st.pipelineBySlug(org, r.PathValue("pipeline"))
	if p == nil {
		return nil, nil, errNotFound("pipeline")
	}
	var b *buildRecord
	if number, err := strconv.Atoi(r.PathValue("number")); err == nil {
		b = st.buildByNumber(p.id, number)
	} else if b = st.buildByID(org, strings.ToLower(r.PathValue("number"))); b != nil && b.pipelineID != p.id {
		b = nil
	}
	if b == nil {
		return nil, nil, errNotFound("build")
	}
	return b, p, nil
}

// canEditPipelines reports whether the request's access token holds write_pipelines: only then does the
// pipeline embedded in a build, and a pipeline, show its webhook URL (empty unless the caller may edit the
// pipeline). A lock must be held.
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
		if step.block {
			j.state, j.clusterID, j.queueID = jobBlocked, "", ""
			b.blocked = true
		}
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
		if a := st.idleAgentFor(b.org, j); a != nil {
			// A connected agent of the job's queue takes it, and is busy until the job ends.
			a.state = "busy"
			j.agent = &jobAgent{id: a.id, name: a.name, createdAt: a.createdAt, seeded: true}
		} else {
			b.nextAgent++
			j.agent = &jobAgent{id: newID(), name: fmt.Sprintf("agent-%d", b.nextAgent), createdAt: now}
		}
	}
	held := j.agent
	defer func() { st.releaseAgent(b.org, j, held) }()
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
		priority: j.priority,
	}
	n.id, n.graphqlID = newJobID()
	j.retried, j.retriedInJobID = true, n.id
	i := slices.Index(b.jobs, j)
	b.jobs = slices.Insert(b.jobs, i+1, n)
}

func intPtr(n int) *int { return &n }

// SetBuildState moves build number of the pipeline with pipelineSlug in org to state, as the admin API
// does: one of the build states, or "blocked" to set the blocked flag. started_at and
// finished_at follow the state; jobs are left alone.
func (st *Store) SetBuildState(org, pipelineSlug string, number int, state string) error {
	if !slices.Contains(buildStates, state) && state != buildBlocked {
		return fmt.Errorf("fakeserver: unknown build state %q", state)
	}
	defer st.edit()()
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

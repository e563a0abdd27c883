package fakeserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
)

// How a build and its jobs are shown (https://buildkite.com/docs/apis/rest-api/builds).

// buildView is a build as the builds API shows it.
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

// creatorView is a build's creator: the user summary without graphql_id, as the builds API lists it.
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

// jobView is a job as the builds API shows it.
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
	Priority           jobPriority `json:"priority"`
	// A block job's ("manual"): whether it can be unblocked, where, and by whom and when it was.
	Unblockable *bool     `json:"unblockable,omitempty"`
	UnblockURL  *string   `json:"unblock_url,omitempty"`
	UnblockedBy *userView `json:"unblocked_by,omitempty"`
	UnblockedAt *string   `json:"unblocked_at,omitempty"`
}

// jobPriority is a job's priority as the API shows it: {"number": 0} until reprioritized.
type jobPriority struct {
	Number int `json:"number"`
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

// agentView is the agent embedded in jobs of a single build.
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
		Priority: jobPriority{Number: j.priority},
	}
	if j.step.label != "" {
		v.Name = stringPtr(j.step.label)
	}
	if j.step.block {
		st.blockJobView(&v, jobURL, j)
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

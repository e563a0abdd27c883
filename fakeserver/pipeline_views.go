package fakeserver

import (
	"encoding/json"
	"maps"
	"slices"
)

// How a pipeline is shown (https://buildkite.com/docs/apis/rest-api/pipelines): the pipeline, its provider
// and its steps.

// providerView is a pipeline's provider.
type providerView struct {
	ID         string         `json:"id"`
	WebhookURL string         `json:"webhook_url"`
	Settings   map[string]any `json:"settings"`
}

// pipelineView is a pipeline as the pipelines API shows it.
type pipelineView struct {
	ID                              string            `json:"id"`
	GraphQLID                       string            `json:"graphql_id"`
	URL                             string            `json:"url"`
	WebURL                          string            `json:"web_url"`
	Name                            string            `json:"name"`
	Description                     *string           `json:"description"`
	Slug                            string            `json:"slug"`
	Repository                      string            `json:"repository"`
	ClusterID                       *string           `json:"cluster_id"`
	ClusterURL                      *string           `json:"cluster_url"`
	PipelineTemplateUUID            *string           `json:"pipeline_template_uuid"`
	BranchConfiguration             *string           `json:"branch_configuration"`
	DefaultBranch                   string            `json:"default_branch"`
	Provider                        providerView      `json:"provider"`
	SkipQueuedBranchBuilds          bool              `json:"skip_queued_branch_builds"`
	SkipQueuedBranchBuildsFilter    *string           `json:"skip_queued_branch_builds_filter"`
	CancelRunningBranchBuilds       bool              `json:"cancel_running_branch_builds"`
	CancelRunningBranchBuildsFilter *string           `json:"cancel_running_branch_builds_filter"`
	AllowRebuilds                   bool              `json:"allow_rebuilds"`
	BuildsURL                       string            `json:"builds_url"`
	BadgeURL                        string            `json:"badge_url"`
	CreatedBy                       *userView         `json:"created_by"`
	CreatedAt                       string            `json:"created_at"`
	ArchivedAt                      *string           `json:"archived_at"`
	Env                             map[string]string `json:"env"`
	ScheduledBuildsCount            int               `json:"scheduled_builds_count"`
	RunningBuildsCount              int               `json:"running_builds_count"`
	ScheduledJobsCount              int               `json:"scheduled_jobs_count"`
	RunningJobsCount                int               `json:"running_jobs_count"`
	WaitingJobsCount                int               `json:"waiting_jobs_count"`
	Visibility                      string            `json:"visibility"`
	Tags                            []string          `json:"tags"`
	Configuration                   *string           `json:"configuration"`
	Steps                           []any             `json:"steps"`
	DefaultCommandStepTimeout       *int              `json:"default_command_step_timeout"`
	MaximumCommandStepTimeout       *int              `json:"maximum_command_step_timeout"`
	// CloneMirrorURL is left out while unset with the clone-mirror feature off (pipelines_features.go).
	CloneMirrorURL **string `json:"clone_mirror_url,omitempty"`
}

// scriptStepView is a command step.
type scriptStepView struct {
	Type                string            `json:"type"`
	Name                *string           `json:"name"`
	Command             string            `json:"command"`
	ArtifactPaths       *string           `json:"artifact_paths"`
	BranchConfiguration *string           `json:"branch_configuration"`
	Env                 map[string]string `json:"env"`
	TimeoutInMinutes    *int              `json:"timeout_in_minutes"`
	AgentQueryRules     []string          `json:"agent_query_rules"`
	Concurrency         *int              `json:"concurrency"`
	Parallelism         *int              `json:"parallelism"`
	Plugins             json.RawMessage   `json:"plugins,omitempty"`
}

type waiterStepView struct {
	Type string `json:"type"`
}

type manualStepView struct {
	Type  string  `json:"type"`
	Label *string `json:"label"`
}

type triggerBuildView struct {
	Message *string           `json:"message"`
	Branch  *string           `json:"branch"`
	Commit  *string           `json:"commit"`
	Env     map[string]string `json:"env"`
}

type triggerStepView struct {
	Type                string           `json:"type"`
	Label               *string          `json:"label"`
	Pipeline            *string          `json:"pipeline"`
	Build               triggerBuildView `json:"build"`
	Async               bool             `json:"async"`
	BranchConfiguration *string          `json:"branch_configuration"`
	Concurrency         *int             `json:"concurrency"`
	Parallelism         *int             `json:"parallelism"`
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return maps.Clone(m)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// stepViews renders the steps: a visual pipeline's as written; a YAML pipeline's command steps as script
// steps when its top-level steps are all command steps, else none.
func (p *pipelineRecord) stepViews() []any {
	out := []any{}
	if p.visual != nil {
		for _, s := range p.visual {
			switch s.typ {
			case "script":
				out = append(out, scriptStepView{
					Type: "script", Name: clonePtr(s.name), Command: s.command, ArtifactPaths: clonePtr(s.artifactPaths),
					BranchConfiguration: clonePtr(s.branchConfiguration), Env: nonNilMap(s.env),
					TimeoutInMinutes: clonePtr(s.timeout), AgentQueryRules: nonNil(slices.Clone(s.agentQueryRules)),
					Concurrency: clonePtr(s.concurrency), Parallelism: clonePtr(s.parallelism), Plugins: s.plugins,
				})
			case "waiter":
				out = append(out, waiterStepView{Type: "waiter"})
			case "manual":
				out = append(out, manualStepView{Type: "manual", Label: clonePtr(s.label)})
			case "trigger":
				out = append(out, triggerStepView{
					Type: "trigger", Label: clonePtr(s.label), Pipeline: clonePtr(s.pipeline),
					Build: triggerBuildView{
						Message: clonePtr(s.message), Branch: clonePtr(s.branch), Commit: clonePtr(s.commit),
						Env: nonNilMap(s.buildEnv),
					},
					Async: s.async, BranchConfiguration: clonePtr(s.branchConfiguration),
					Concurrency: clonePtr(s.concurrency), Parallelism: clonePtr(s.parallelism),
				})
			}
		}
		return out
	}
	steps, allCommands := yamlSteps(p.configuration)
	if !allCommands {
		return out
	}
	for _, s := range steps {
		out = append(out, scriptStepView{
			Type: "script", Name: s.label, Command: s.command, ArtifactPaths: s.artifactPaths,
			BranchConfiguration: s.branches, Env: nonNilMap(s.env), TimeoutInMinutes: s.timeout,
			AgentQueryRules: nonNil(s.agents), Concurrency: s.concurrency, Parallelism: s.parallelism,
		})
	}
	return out
}

// pipelineView renders a pipeline as the pipelines API shows it, for the pipeline endpoints and for the
// pipeline embedded in builds. canEdit is false when the caller lacks edit permission (webhook_url is then
// ""). A lock must be held.
func (st *Store) pipelineView(base string, p *pipelineRecord, canEdit bool) pipelineView {
	settings := maps.Clone(p.settings)
	if _, path := repositoryHostPath(p.repository); p.provider != "git" && path != "" {
		settings["repository"] = path
	}
	webhook := ""
	if canEdit {
		webhook = webURL(base, "webhooks", p.provider, p.webhookToken)
	}
	env := nonNilMap(yamlTopEnv(p.configuration))
	maps.Copy(env, p.env)
	v := pipelineView{
		ID: p.id, GraphQLID: p.graphqlID,
		URL:    apiURL(base, "organizations", p.org, "pipelines", p.slug),
		WebURL: webURL(base, p.org, p.slug),
		Name:   p.name, Description: clonePtr(p.description), Slug: p.slug, Repository: p.repository,
		BranchConfiguration: clonePtr(p.branchConfiguration), DefaultBranch: p.defaultBranch,
		Provider:               providerView{ID: p.provider, WebhookURL: webhook, Settings: settings},
		SkipQueuedBranchBuilds: p.skipQueued, SkipQueuedBranchBuildsFilter: clonePtr(p.skipQueuedFilter),
		CancelRunningBranchBuilds: p.cancelRunning, CancelRunningBranchBuildsFilter: clonePtr(p.cancelRunningFilter),
		AllowRebuilds: p.allowRebuild,
		BuildsURL:     apiURL(base, "organizations", p.org, "pipelines", p.slug, "builds"),
		BadgeURL:      webURL(base, "badges", p.badgeToken+".svg"),
		CreatedBy:     st.userSummary(p.createdBy), CreatedAt: formatTime(p.createdAt),
		ArchivedAt: formatTimePtr(p.archivedAt), Env: env,
		Visibility: p.visibility, Tags: slices.Clone(p.tags), Steps: p.stepViews(),
		DefaultCommandStepTimeout: clonePtr(p.defaultTimeout), MaximumCommandStepTimeout: clonePtr(p.maximumTimeout),
	}
	v.CloneMirrorURL = st.cloneMirrorView(p)
	if p.clusterID != "" {
		v.ClusterID = stringPtr(p.clusterID)
		v.ClusterURL = stringPtr(apiURL(base, "organizations", p.org, "clusters", p.clusterID))
	}
	if p.templateID != "" {
		v.PipelineTemplateUUID = stringPtr(p.templateID)
	}
	if p.visual == nil {
		v.Configuration = stringPtr(p.configuration)
	}
	return v
}

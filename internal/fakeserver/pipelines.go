package fakeserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// Pipelines (spec 2.12, 2.12.1, 3.4, 4.8 and the notes' "Pipelines"): YAML and visual-step forms, slugs,
// provider settings, teams on create, templates, archive and unarchive, delete.
//
// Choices where the spec is silent:
//   - Slug derivation: the name is lowercased and every run of characters other than ASCII letters and
//     digits (spaces, punctuation, existing hyphens, non-ASCII letters) becomes one "-"; leading and
//     trailing hyphens are dropped. So "My  Pipeline" → "my-pipeline", "API (v2)" → "api-v2". A derived
//     slug that is empty or longer than 100 characters is a 422 on slug. On update a new name without a
//     slug re-derives it; resending the current name keeps a custom slug.
//   - Archive and unarchive are idempotent (200 either way); while archived every update is a 422.
//   - Deleting a pipeline deletes the rules that name it.
//   - Assigning a template copies its configuration into the pipeline (and template edits reach it);
//     the template wins over a configuration sent with it.
//   - provider_settings keys the pipeline's provider does not know are ignored; known keys of the wrong
//     type and unknown trigger_mode values are 422s.
//   - All timestamps, created_at included, are ISO 8601: go-buildkite's Timestamp also reads the
//     "YYYY-MM-DD HH:MM:SS UTC" form, but other clients may not, and the spec allows ISO everywhere.

// KindPipeline is a pipeline (id = its UUID), for Store.Exists and Store.Remove; removing one deletes
// the rules that name it, as DELETE does.
const KindPipeline Kind = "pipeline"

func init() {
	registerKind(KindPipeline, (*Store).pipelineByID, (*Store).deletePipeline)
}

// Slug rule of spec 2.12.1.
var pipelineSlugPattern = regexp.MustCompile(`^[a-zA-Z0-9]+[a-zA-Z0-9\-]*$`)

const pipelineSlugMaxLen = 100

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

	description, branchConfiguration        *string // nil is null
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

// deletePipeline removes p and the rules that name it. The write lock must be held.
func (st *Store) deletePipeline(p *pipelineRecord) {
	st.deleteRulesNaming(p.org, p.id)
	st.removePipelineBuilds(p.id)
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

// ---- YAML ----

// yamlStep is one command step read from a pipeline's YAML.
type yamlStep struct {
	key                               string
	label, artifactPaths, branches    *string
	command                           string
	agents                            []string
	env                               map[string]string
	timeout, concurrency, parallelism *int
}

// parseYAML decodes a configuration. A lock need not be held.
func parseYAML(config string) (any, error) {
	return yamlDocs.get(config)
}

// yamlCacheSize bounds the parsed configurations kept; pipelines mostly share a few, and every pipeline
// shown (a list page shows 100) needs its steps and env, which would otherwise mean parsing each time.
const yamlCacheSize = 256

// yamlDocs caches parsed configurations. The documents it hands out are shared: callers only read them.
var yamlDocs = &yamlCache{docs: map[string]yamlResult{}}

type yamlResult struct {
	doc any
	err error
}

type yamlCache struct {
	mu   sync.Mutex
	docs map[string]yamlResult
}

// get returns config parsed, parsing it unless it is cached; a full cache starts afresh.
func (c *yamlCache) get(config string) (any, error) {
	c.mu.Lock()
	r, ok := c.docs[config]
	c.mu.Unlock()
	if ok {
		return r.doc, r.err
	}
	err := yaml.Unmarshal([]byte(config), &r.doc)
	r.err = err
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.docs) >= yamlCacheSize {
		clear(c.docs)
	}
	c.docs[config] = r
	return r.doc, r.err
}

// checkYAML returns why config is not a usable pipeline configuration, or "" when it is: it must be YAML
// holding a mapping with a steps list, or a list of steps.
func checkYAML(config string) string {
	doc, err := parseYAML(config)
	if err != nil {
		return "is not valid YAML: " + err.Error()
	}
	switch d := doc.(type) {
	case []any:
		return ""
	case map[string]any:
		steps, ok := d["steps"]
		if !ok {
			return "must have a steps list"
		}
		if _, ok := steps.([]any); !ok && steps != nil {
			return "must have a steps list"
		}
		return ""
	case nil:
		return "can't be blank"
	default:
		return "must be a YAML mapping with a steps list"
	}
}

// yamlSteps reads the command steps of config (groups flattened) and reports whether the top-level steps
// are all command steps. Unparseable YAML has none.
func yamlSteps(config string) (steps []yamlStep, allCommands bool) {
	doc, err := parseYAML(config)
	if err != nil {
		return nil, false
	}
	var list []any
	var defaultAgents []string
	switch d := doc.(type) {
	case []any:
		list = d
	case map[string]any:
		list, _ = d["steps"].([]any)
		defaultAgents = agentRules(d["agents"])
	}
	allCommands = true
	var walk func(items []any, top bool)
	walk = func(items []any, top bool) {
		for _, item := range items {
			m, ok := item.(map[string]any)
			if !ok { // "wait", "block" and the like
				allCommands = allCommands && !top
				continue
			}
			if inner, ok := m["steps"].([]any); ok && m["command"] == nil && m["commands"] == nil { // a group
				allCommands = allCommands && !top
				walk(inner, false)
				continue
			}
			cmd, isCommand := yamlCommand(m)
			if !isCommand {
				allCommands = allCommands && !top
				continue
			}
			s := yamlStep{
				key: firstString(m, "key", "identifier", "id"), command: cmd,
				label: yamlStringPtr(m, "label", "name"), artifactPaths: yamlArtifactPaths(m["artifact_paths"]),
				branches: yamlStringPtr(m, "branches"), env: yamlEnv(m["env"]),
				timeout: yamlInt(m["timeout_in_minutes"]), concurrency: yamlInt(m["concurrency"]),
				parallelism: yamlInt(m["parallelism"]), agents: agentRules(m["agents"]),
			}
			if s.agents == nil {
				s.agents = slices.Clone(defaultAgents)
			}
			steps = append(steps, s)
		}
	}
	walk(list, true)
	return steps, allCommands
}

// yamlCommand returns a step's command (a list of commands joined by newlines) and whether it has one.
func yamlCommand(m map[string]any) (string, bool) {
	for _, k := range []string{"command", "commands"} {
		switch c := m[k].(type) {
		case string:
			return c, true
		case []any:
			lines := make([]string, 0, len(c))
			for _, l := range c {
				lines = append(lines, fmt.Sprint(l))
			}
			return strings.Join(lines, "\n"), true
		}
	}
	return "", false
}

// agentRules turns a YAML agents value into agent query rules: a mapping becomes key=value rules (queue
// first, then by key), a list is taken as written.
func agentRules(v any) []string {
	switch a := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(a))
		out := make([]string, 0, len(keys))
		if q, ok := a["queue"]; ok {
			out = append(out, "queue="+fmt.Sprint(q))
		}
		for _, k := range keys {
			if k != "queue" {
				out = append(out, k+"="+fmt.Sprint(a[k]))
			}
		}
		return out
	case []any:
		out := make([]string, 0, len(a))
		for _, r := range a {
			out = append(out, fmt.Sprint(r))
		}
		return out
	}
	return nil
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	return ""
}

func yamlStringPtr(m map[string]any, keys ...string) *string {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return stringPtr(fmt.Sprint(v))
		}
	}
	return nil
}

func yamlArtifactPaths(v any) *string {
	switch a := v.(type) {
	case string:
		return stringPtr(a)
	case []any:
		parts := make([]string, 0, len(a))
		for _, p := range a {
			parts = append(parts, fmt.Sprint(p))
		}
		return stringPtr(strings.Join(parts, ";"))
	}
	return nil
}

func yamlEnv(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		out[k] = fmt.Sprint(val)
	}
	return out
}

func yamlInt(v any) *int {
	if n, ok := v.(int); ok {
		return &n
	}
	return nil
}

// yamlTopEnv returns the top-level env of a YAML configuration, or nil.
func yamlTopEnv(config string) map[string]string {
	if config == "" {
		return nil
	}
	doc, err := parseYAML(config)
	if err != nil {
		return nil
	}
	if m, ok := doc.(map[string]any); ok {
		return yamlEnv(m["env"])
	}
	return nil
}

// ---- slugs and providers ----

// repositoryHostPath splits a repository URL (https://host/path, ssh://user@host/path or the scp-like
// user@host:path) into its lowercased host and its path without slashes at either end or ".git".
func repositoryHostPath(repo string) (host, path string) {
	if strings.Contains(repo, "://") {
		u, err := url.Parse(repo)
		if err != nil {
			return "", ""
		}
		host, path = u.Hostname(), u.Path
	} else {
		rest := repo
		if at := strings.Index(rest, "@"); at >= 0 && at < strings.Index(rest, ":") {
			rest = rest[at+1:]
		}
		var ok bool
		if host, path, ok = strings.Cut(rest, ":"); !ok {
			return "", ""
		}
	}
	return strings.ToLower(host), strings.TrimSuffix(strings.Trim(path, "/"), ".git")
}

// repositoryProvider names the source provider of a repository URL by its host.
func repositoryProvider(repo string) string {
	host, _ := repositoryHostPath(repo)
	switch {
	case host == "github.com":
		return "github"
	case strings.Contains(host, "gitlab"):
		return "gitlab"
	case strings.Contains(host, "bitbucket"):
		return "bitbucket"
	default:
		return "git"
	}
}

// settingKind tells how a provider setting is typed.
type settingKind int

const (
	boolSetting settingKind = iota
	stringSetting
)

// providerSettingKeys lists the provider_settings each provider accepts (the notes: every provider has
// filter_enabled and filter_condition; GitHub adds the rest).
func providerSettingKeys(provider string) map[string]settingKind {
	keys := map[string]settingKind{"filter_enabled": boolSetting, "filter_condition": stringSetting}
	if provider != "github" {
		return keys
	}
	for _, k := range []string{
		"build_pull_requests", "pull_request_branch_filter_enabled", "skip_builds_for_existing_commits",
		"skip_pull_request_builds_for_existing_commits", "build_pull_request_ready_for_review",
		"build_pull_request_labels_changed", "build_pull_request_forks", "prefix_pull_request_fork_branch_names",
		"build_branches", "build_tags", "cancel_deleted_branch_builds", "publish_commit_status",
		"publish_commit_status_per_step", "separate_pull_request_statuses", "publish_blocked_as_pending",
		"use_step_key_as_commit_status",
	} {
		keys[k] = boolSetting
	}
	keys["trigger_mode"] = stringSetting
	keys["pull_request_branch_filter_configuration"] = stringSetting
	return keys
}

// sharedProviderSettings holds each provider's defaults, built once: most pipelines keep them, and one
// map per pipeline was most of a pipeline's memory.
var sharedProviderSettings sync.Map // provider → map[string]any

// defaultProviderSettings is what a new pipeline of the provider starts with. The map is shared: like
// every map of a record it is replaced, never changed in place.
func defaultProviderSettings(provider string) map[string]any {
	if m, ok := sharedProviderSettings.Load(provider); ok {
		return m.(map[string]any)
	}
	m, _ := sharedProviderSettings.LoadOrStore(provider, buildProviderSettings(provider))
	return m.(map[string]any)
}

// buildProviderSettings builds the provider's default settings.
func buildProviderSettings(provider string) map[string]any {
	out := map[string]any{}
	for k, kind := range providerSettingKeys(provider) {
		if kind == boolSetting {
			out[k] = false
		} else {
			out[k] = ""
		}
	}
	if provider == "github" {
		out["trigger_mode"] = "code"
		for _, k := range []string{"build_pull_requests", "build_branches", "publish_commit_status"} {
			out[k] = true
		}
	}
	return out
}

// ---- views ----

// providerView is a pipeline's provider (spec 2.12).
type providerView struct {
	ID         string         `json:"id"`
	WebhookURL string         `json:"webhook_url"`
	Settings   map[string]any `json:"settings"`
}

// pipelineView is a pipeline as spec 2.12 shows it.
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
}

// scriptStepView is a command step (spec 2.12 "Step object").
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

// pipelineView renders a pipeline as spec 2.12 shows it, for the pipeline endpoints and for the pipeline
// embedded in builds. canEdit is false when the caller lacks edit permission (webhook_url is then "").
// A lock must be held.
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

// canEditPipelines reports whether the request's token may edit pipelines (holds write_pipelines), which
// decides whether provider.webhook_url is shown.
func (s *Server) canEditPipelines(r *http.Request) bool {
	secret, ok := bearerToken(r)
	if !ok {
		return false
	}
	can := false
	_ = s.store.view(func() *apiError {
		t := s.store.tokens[secret]
		can = t != nil && t.scopes[scopeWritePipelines]
		return nil
	})
	return can
}

// ---- request bodies ----

// pipelineInput is a create or update body, read and type-checked before the store is locked.
type pipelineInput struct {
	name, slug, repository, description, clusterID, configuration, defaultBranch opt[string]
	branchConfiguration, skipQueuedFilter, cancelRunningFilter, templateID       opt[string]
	visibility                                                                   opt[string]
	skipQueued, cancelRunning, allowRebuilds                                     opt[bool]
	env                                                                          opt[map[string]string]
	tags                                                                         opt[[]string]
	settings                                                                     opt[map[string]any]
	defaultTimeout, maximumTimeout                                               opt[int]
	steps                                                                        []visualStep // nil when not given
	stepsGiven                                                                   bool
	teams                                                                        map[string]string // team id → access level
	problems                                                                     validationErrors
}

// readPipelineInput reads a create (creating) or update body; an update ignores teams.
func readPipelineInput(in *jsonObject, creating bool) *pipelineInput {
	p := &pipelineInput{
		name: in.String("name"), slug: in.String("slug"), repository: in.String("repository"),
		description: in.String("description"), clusterID: in.String("cluster_id"),
		configuration: in.String("configuration"), defaultBranch: in.String("default_branch"),
		branchConfiguration: in.String("branch_configuration"),
		skipQueuedFilter:    in.String("skip_queued_branch_builds_filter"),
		cancelRunningFilter: in.String("cancel_running_branch_builds_filter"),
		templateID:          in.String("pipeline_template_uuid"), visibility: in.String("visibility"),
		skipQueued: in.Bool("skip_queued_branch_builds"), cancelRunning: in.Bool("cancel_running_branch_builds"),
		allowRebuilds: in.Bool("allow_rebuilds"),
		env:           field[map[string]string](in, "env", "an object of strings"),
		tags:          in.Strings("tags"), settings: in.Object("provider_settings"),
		defaultTimeout: in.Int("default_command_step_timeout"), maximumTimeout: in.Int("maximum_command_step_timeout"),
	}
	steps := field[[]map[string]json.RawMessage](in, "steps", "an array of step objects")
	var teamUUIDs opt[[]string]
	if creating {
		teamUUIDs = in.Strings("team_uuids")
	}
	p.problems = in.Problems()
	if steps.Given() {
		p.stepsGiven = true
		p.steps = readSteps(steps.Value, &p.problems)
	}
	if creating {
		p.teams = readTeams(in.raw["teams"], teamUUIDs, &p.problems)
	}
	if p.visibility.Given() && !slices.Contains(pipelineVisibilities, p.visibility.Value) {
		p.problems.add("visibility", "must be one of "+strings.Join(pipelineVisibilities, ", "))
	}
	return p
}

// readTeams reads teams, a map of team UUID to access level (the notes' form), an array of team UUIDs or
// of {id, access_level} objects, and go-buildkite's team_uuids array; a team given without an access
// level gets manage_build_and_read.
func readTeams(raw json.RawMessage, teamUUIDs opt[[]string], problems *validationErrors) map[string]string {
	out := map[string]string{}
	for _, id := range teamUUIDs.Value {
		out[id] = "manage_build_and_read"
	}
	if raw != nil && string(raw) != "null" {
		var asMap map[string]string
		var asIDs []string
		var asObjects []struct {
			ID          string `json:"id"`
			UUID        string `json:"uuid"`
			AccessLevel string `json:"access_level"`
		}
		switch {
		case json.Unmarshal(raw, &asMap) == nil:
			maps.Copy(out, asMap)
		case json.Unmarshal(raw, &asIDs) == nil:
			for _, id := range asIDs {
				out[id] = "manage_build_and_read"
			}
		case json.Unmarshal(raw, &asObjects) == nil:
			for _, o := range asObjects {
				id, level := o.ID, o.AccessLevel
				if id == "" {
					id = o.UUID
				}
				if level == "" {
					level = "manage_build_and_read"
				}
				out[id] = level
			}
		default:
			problems.add("teams", "must be an object of team UUIDs to access levels")
		}
	}
	for _, id := range slices.Sorted(maps.Keys(out)) {
		if !slices.Contains(teamAccessLevels, out[id]) {
			problems.add("teams", fmt.Sprintf("access level %q of team %s must be one of %s", out[id], id,
				strings.Join(teamAccessLevels, ", ")))
		}
	}
	return out
}

// triggerBuildInput is the build object of a trigger step written in the response's form.
type triggerBuildInput struct {
	Message *string           `json:"message"`
	Commit  *string           `json:"commit"`
	Branch  *string           `json:"branch"`
	Env     map[string]string `json:"env"`
}

// readSteps reads the visual-step form. Problems name the step: "steps[1].command".
func readSteps(raw []map[string]json.RawMessage, problems *validationErrors) []visualStep {
	if len(raw) == 0 {
		problems.addBlank("steps")
	}
	out := make([]visualStep, 0, len(raw))
	for i, m := range raw {
		in := &jsonObject{raw: m}
		prefix := fmt.Sprintf("steps[%d].", i)
		typ := in.String("type")
		s := visualStep{typ: typ.Value}
		var own validationErrors
		switch typ.Value {
		case "script":
			name, _ := in.StringOr("name", "label")
			if name != "" {
				s.name = stringPtr(name)
			}
			s.command = in.String("command").Value
			s.artifactPaths = optPtr(in.String("artifact_paths"))
			s.branchConfiguration = optPtr(in.String("branch_configuration"))
			s.env = field[map[string]string](in, "env", "an object of strings").Value
			s.timeout = optPtr(in.Int("timeout_in_minutes"))
			s.concurrency = optPtr(in.Int("concurrency"))
			s.parallelism = optPtr(in.Int("parallelism"))
			s.agentQueryRules = in.Strings("agent_query_rules").Value
			if p, ok := m["plugins"]; ok && string(p) != "null" {
				if !json.Valid(p) || (p[0] != '{' && p[0] != '[') {
					own.add("plugins", "must be an object or an array")
				}
				s.plugins = p
			}
			if s.command == "" && s.plugins == nil {
				own.add("command", "can't be blank")
			}
		case "waiter":
		case "manual":
			s.label = optPtr(in.String("label"))
		case "trigger":
			s.label = optPtr(in.String("label"))
			build := field[triggerBuildInput](in, "build", "an object")
			s.pipeline = firstGiven(in.String("trigger_project_slug"), in.String("pipeline"))
			s.commit = firstGivenPtr(in.String("trigger_commit"), build.Value.Commit)
			s.branch = firstGivenPtr(in.String("trigger_branch"), build.Value.Branch)
			s.message = firstGivenPtr(in.String("trigger_message"), build.Value.Message)
			s.buildEnv = build.Value.Env
			async := in.Bool("trigger_async")
			if !async.Set {
				async = in.Bool("async")
			}
			s.async = async.Value
			s.branchConfiguration = optPtr(in.String("branch_configuration"))
			s.concurrency = optPtr(in.Int("concurrency"))
			s.parallelism = optPtr(in.Int("parallelism"))
			if deref(s.pipeline) == "" {
				own.add("trigger_project_slug", "can't be blank")
			}
		case "":
			own.add("type", "can't be blank")
		default:
			own.add("type", fmt.Sprintf("%q is not a step type (script, waiter, manual, trigger)", typ.Value))
		}
		stepProblems := in.Problems()
		for _, fe := range own {
			if fe.reason == "can't be blank" {
				stepProblems.addBlank(fe.field)
			} else {
				stepProblems.add(fe.field, fe.reason)
			}
		}
		for _, fe := range stepProblems {
			problems.add(prefix+fe.field, fe.reason)
		}
		out = append(out, s)
	}
	return out
}

// optPtr is a present, non-null property's value, or nil.
func optPtr[T any](v opt[T]) *T {
	if !v.Given() {
		return nil
	}
	return &v.Value
}

func firstGiven(vs ...opt[string]) *string {
	for _, v := range vs {
		if v.Given() {
			return stringPtr(v.Value)
		}
	}
	return nil
}

func firstGivenPtr(v opt[string], fallback *string) *string {
	if v.Given() {
		return stringPtr(v.Value)
	}
	return fallback
}

// setNullable applies a property to a nullable string: absent leaves it, null clears it.
func setNullable(dst **string, v opt[string]) {
	if v.Set {
		*dst = optPtr(v)
	}
}

func setNullableInt(dst **int, v opt[int]) {
	if v.Set {
		*dst = optPtr(v)
	}
}

// applyPipeline applies in to p (a fresh record when creating) and checks the result, returning the
// problems; p is changed only when there are none. The write lock must be held.
func (st *Store) applyPipeline(p *pipelineRecord, in *pipelineInput, creating bool, userID string) validationErrors {
	problems := append(validationErrors(nil), in.problems...)
	n := *p // the candidate; maps and slices below are replaced, never changed in place

	if in.name.Set || creating {
		if in.name.Value == "" {
			problems.addBlank("name")
		}
	}
	nameChanged := in.name.Value != "" && in.name.Value != p.name
	if nameChanged {
		n.name = in.name.Value
	}
	switch {
	case in.slug.Value != "":
		n.slug = in.slug.Value
	case creating || nameChanged:
		n.slug = slugify(n.name)
	}
	if n.name != "" {
		switch {
		case n.slug == "":
			problems.add("slug", "can't be derived from the name: it needs a letter or digit")
		case len(n.slug) > pipelineSlugMaxLen:
			problems.add("slug", fmt.Sprintf("is too long (maximum is %d characters)", pipelineSlugMaxLen))
		case !pipelineSlugPattern.MatchString(n.slug):
			problems.add("slug", "must start with a letter or digit and contain only letters, digits and hyphens")
		}
	}

	if in.repository.Set || creating {
		if in.repository.Value == "" {
			problems.addBlank("repository")
		}
	}
	if in.repository.Value != "" {
		n.repository = in.repository.Value
	}
	if provider := repositoryProvider(n.repository); provider != n.provider {
		n.provider, n.settings = provider, defaultProviderSettings(provider)
	}
	if in.settings.Given() {
		n.settings = maps.Clone(n.settings)
		keys := providerSettingKeys(n.provider)
		for _, k := range slices.Sorted(maps.Keys(in.settings.Value)) {
			v := in.settings.Value[k]
			kind, known := keys[k]
			if !known {
				continue
			}
			switch _, isString := v.(string); {
			case kind == boolSetting:
				if _, ok := v.(bool); !ok {
					problems.add("provider_settings", k+" must be a boolean")
					continue
				}
			case !isString:
				problems.add("provider_settings", k+" must be a string")
				continue
			case k == "trigger_mode" && !slices.Contains(githubTriggerModes, v.(string)):
				problems.add("provider_settings", "trigger_mode must be one of "+strings.Join(githubTriggerModes, ", "))
				continue
			}
			n.settings[k] = v
		}
	}

	setNullable(&n.description, in.description)
	setNullable(&n.branchConfiguration, in.branchConfiguration)
	setNullable(&n.skipQueuedFilter, in.skipQueuedFilter)
	setNullable(&n.cancelRunningFilter, in.cancelRunningFilter)
	setString(&n.defaultBranch, in.defaultBranch)
	if creating && !in.defaultBranch.Given() {
		n.defaultBranch = "main"
	}
	if in.visibility.Given() {
		n.visibility = in.visibility.Value
	}
	for _, b := range []struct {
		dst *bool
		v   opt[bool]
	}{{&n.skipQueued, in.skipQueued}, {&n.cancelRunning, in.cancelRunning}, {&n.allowRebuild, in.allowRebuilds}} {
		if b.v.Given() {
			*b.dst = b.v.Value
		}
	}
	if in.env.Set {
		n.env = maps.Clone(in.env.Value)
	}
	if in.tags.Set {
		n.tags = slices.Clone(in.tags.Value)
	}
	setNullableInt(&n.defaultTimeout, in.defaultTimeout)
	setNullableInt(&n.maximumTimeout, in.maximumTimeout)

	// cluster_id: null or "" (go-buildkite always sends it) means no cluster.
	if in.clusterID.Set {
		n.clusterID = in.clusterID.Value
		if n.clusterID != "" && st.cluster(p.org, n.clusterID) == nil {
			problems.add("cluster_id", "must be a cluster of this organization")
		}
	}

	// The steps: YAML, visual, or a template's.
	if in.configuration.Value != "" && in.stepsGiven {
		problems.add("steps", "can't be given together with configuration")
	}
	if in.configuration.Value != "" {
		if reason := checkYAML(in.configuration.Value); reason != "" {
			problems.add("configuration", reason)
		}
		n.configuration, n.visual = in.configuration.Value, nil
	}
	if in.stepsGiven {
		n.configuration, n.visual = "", in.steps
	}
	if in.templateID.Set {
		n.templateID = in.templateID.Value
		if n.templateID != "" {
			t := st.visibleTemplate(p.org, userID, n.templateID)
			if t == nil && n.templateID == p.templateID { // resending the template already assigned
				t = st.templateByID(p.org, n.templateID)
			}
			if t == nil {
				problems.add("pipeline_template_uuid", "must be a pipeline template of this organization")
			} else {
				n.configuration, n.visual = t.configuration, nil
			}
		}
	}
	emptyConfig := in.configuration.Set && in.configuration.Value == ""
	if (creating || emptyConfig) && in.configuration.Value == "" && !in.stepsGiven && n.templateID == "" {
		problems.addBlank("configuration")
	}

	// Names and slugs are unique in the organization; a taken name usually takes its slug too, so only
	// the name is reported then.
	taken := func(what, value string) bool {
		o, ok := st.pipelines.pipelines.lookup(nameKey(p.org, what, value))
		return value != "" && ok && o.id != p.id
	}
	if taken("name", n.name) {
		problems.add("name", "has already been taken")
	} else if taken("slug", n.slug) {
		problems.add("slug", "has already been taken")
	}

	if len(problems) == 0 {
		st.pipelines.pipelines.rename(p, func() { *p = n })
	}
	return problems
}

// ---- routes ----

func (s *Server) routePipelines(mux *http.ServeMux) {
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
	org, _, ok := s.authorize(w, r, scopeReadPipelines)
	if !ok {
		return
	}
	canEdit := s.canEditPipelines(r)
	name := strings.ToLower(r.URL.Query().Get("name"))
	repo := strings.ToLower(r.URL.Query().Get("repository"))
	var out []pipelineView
	_ = s.store.view(func() *apiError {
		items := s.store.pipelinesOf(org.slug)
		if name != "" || repo != "" { // only a filter needs to look at every pipeline
			items = slices.DeleteFunc(slices.Clone(items), func(p *pipelineRecord) bool {
				return !strings.Contains(strings.ToLower(p.name), name) || !strings.Contains(strings.ToLower(p.repository), repo)
			})
		}
		for _, p := range paginate(w, r, items) {
			out = append(out, s.store.pipelineView(baseURL(r), p, canEdit))
		}
		return nil
	})
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) getPipeline(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeReadPipelines)
	if !ok {
		return
	}
	canEdit := s.canEditPipelines(r)
	var out pipelineView
	err := s.store.view(func() *apiError {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return err
		}
		out = s.store.pipelineView(baseURL(r), p, canEdit)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) createPipeline(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWritePipelines)
	if !ok {
		return
	}
	obj, ok := readObject(w, r)
	if !ok {
		return
	}
	in := readPipelineInput(obj, true)
	var out pipelineView
	err := s.store.update(func() *apiError {
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
			return errPipelineValidation(problems)
		}
		p.seq = s.store.nextSeq()
		s.store.insertPipeline(p)
		for _, teamID := range teamIDs {
			s.store.addTeamPipeline(org.slug, teamID, id, in.teams[teamID], p.createdAt)
		}
		out = s.store.pipelineView(baseURL(r), p, true)
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

// updatePipeline changes any create property but teams (which only the team endpoints change).
func (s *Server) updatePipeline(w http.ResponseWriter, r *http.Request) {
	org, user, ok := s.authorize(w, r, scopeWritePipelines)
	if !ok {
		return
	}
	obj, ok := readObject(w, r)
	if !ok {
		return
	}
	in := readPipelineInput(obj, false)
	var out pipelineView
	err := s.store.update(func() *apiError {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return err
		}
		if !p.archivedAt.IsZero() {
			return errPipelineValidation(validationErrors{{"base", "Pipeline is archived; unarchive it to change it"}})
		}
		if problems := s.store.applyPipeline(p, in, false, user.id); len(problems) > 0 {
			return errPipelineValidation(problems)
		}
		out = s.store.pipelineView(baseURL(r), p, true)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) deletePipelineHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWritePipelines)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return err
		}
		s.store.deletePipeline(p)
		return nil
	})
	respondNoContent(w, err)
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
	org, _, ok := s.authorize(w, r, scopeWritePipelines)
	if !ok {
		return
	}
	var out pipelineView
	err := s.store.update(func() *apiError {
		p, err := s.store.findPipeline(org.slug, r)
		if err != nil {
			return err
		}
		switch {
		case archive && p.archivedAt.IsZero():
			p.archivedAt = s.store.timestamp()
		case !archive:
			p.archivedAt = time.Time{}
		}
		out = s.store.pipelineView(baseURL(r), p, true)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

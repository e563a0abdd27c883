package fakeserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A pipeline create or update body: read and type-checked before the store is locked, then applied to a
// record by applyPipeline.

// pipelineInput is a create or update body, read and type-checked before the store is locked.
type pipelineInput struct {
	name, slug, repository, description, clusterID, configuration, defaultBranch opt[string]
	branchConfiguration, skipQueuedFilter, cancelRunningFilter, templateID       opt[string]
	visibility                                                                   opt[string]
	emoji, color, cloneMirrorURL                                                 opt[string]
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
		emoji: in.String("emoji"), color: in.String("color"), cloneMirrorURL: in.String("clone_mirror_url"),
	}
	p.configuration.Value = normalizeConfiguration(p.configuration.Value)
	steps := field[[]map[string]json.RawMessage](in, "steps", "an array of step objects")
	var teamUUIDs opt[[]string]
	if creating {
		teamUUIDs = in.Strings("team_uuids")
	}
	p.problems = in.Problems()
	configurationTooLong(&p.problems, "steps", len(in.raw["steps"]))
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

// readTeams reads teams, a map of team UUID to access level (the form the service takes), an array of team
// UUIDs or of {id, access_level} objects, and go-buildkite's team_uuids array; a team given without an access
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
	applyPipelineName(&n, p, in, creating, &problems)
	applyPipelineRepository(&n, in, creating, &problems)
	applyPipelineProperties(&n, in, creating)
	checkCloneMirrorURL(in.cloneMirrorURL, st.features.cloneMirrorOff, &problems)
	// cluster_id: null or "" (go-buildkite always sends it) means no cluster.
	if in.clusterID.Set {
		n.clusterID = in.clusterID.Value
		if n.clusterID != "" && st.cluster(p.org, n.clusterID) == nil {
			problems.add("cluster_id", "must be a cluster of this organization")
		}
	}
	checkStepTimeouts(&n, &problems)
	st.applyPipelineSteps(&n, p, in, creating, userID, &problems)
	st.checkPipelineNames(&n, p, &problems)
	if len(problems) == 0 {
		if !creating && n.slug != p.slug && !slices.Contains(n.formerSlugs, p.slug) {
			n.formerSlugs = append(slices.Clone(p.formerSlugs), p.slug)
		}
		st.pipelines.pipelines.rename(p, func() { *p = n })
	}
	return problems
}

// applyPipelineName sets the candidate n's name and slug: a new name without a slug derives one.
func applyPipelineName(n, p *pipelineRecord, in *pipelineInput, creating bool, problems *validationErrors) {
	if (in.name.Set || creating) && in.name.Value == "" {
		problems.addBlank("name")
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
	if n.name == "" {
		return
	}
	switch {
	case n.slug == "":
		problems.add("slug", "can't be derived from the name: it needs a letter or digit")
	case len(n.slug) > pipelineSlugMaxLen:
		problems.add("slug", tooLong(pipelineSlugMaxLen, "characters"))
	case !pipelineSlugPattern.MatchString(n.slug):
		problems.add("slug", "must start with a letter or digit and contain only letters, digits and hyphens")
	}
}

// applyPipelineRepository sets the candidate n's repository, the provider it implies (a new provider
// starts from its default settings) and the provider settings given.
func applyPipelineRepository(n *pipelineRecord, in *pipelineInput, creating bool, problems *validationErrors) {
	if (in.repository.Set || creating) && in.repository.Value == "" {
		problems.addBlank("repository")
	}
	if in.repository.Value != "" {
		n.repository = in.repository.Value
	}
	if provider := repositoryProvider(n.repository); provider != n.provider {
		n.provider, n.settings = provider, defaultProviderSettings(provider)
	}
	if !in.settings.Given() {
		return
	}
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
		case settingEnums[k] != nil && v != "" && !slices.Contains(settingEnums[k], v.(string)):
			// blank is accepted and kept: the official provider sends "" for a setting it has no value for
			// yet, and its tests read "" back from the service
			problems.add("provider_settings", k+" must be one of "+strings.Join(settingEnums[k], ", "))
			continue
		}
		n.settings[k] = v
	}
}

// applyPipelineProperties sets the candidate n's plain properties: those a create or update sets as given.
func applyPipelineProperties(n *pipelineRecord, in *pipelineInput, creating bool) {
	setNullable(&n.description, in.description)
	for _, f := range []struct {
		dst **string
		v   opt[string]
	}{{&n.emoji, in.emoji}, {&n.color, in.color}, {&n.cloneMirrorURL, in.cloneMirrorURL}} {
		if f.v.Set { // null or "" clears
			f.v.Null = f.v.Null || strings.TrimSpace(f.v.Value) == ""
			setNullable(f.dst, f.v)
		}
	}
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
}

// checkStepTimeouts records a command step timeout that is a negative number of minutes, and a maximum
// below the default, which the default could never reach. 0 is no limit: the official provider sends 0 for
// a timeout left unset (its schema allows at least 0) and reads 0 back. The service's other rules are not
// shown; these are the emulator's.
func checkStepTimeouts(n *pipelineRecord, problems *validationErrors) {
	for _, t := range []struct {
		field string
		v     *int
	}{{"default_command_step_timeout", n.defaultTimeout}, {"maximum_command_step_timeout", n.maximumTimeout}} {
		if t.v != nil && *t.v < 0 {
			problems.add(t.field, "must be greater than or equal to 0")
		}
	}
	if n.defaultTimeout != nil && n.maximumTimeout != nil && *n.maximumTimeout > 0 && *n.maximumTimeout < *n.defaultTimeout {
		problems.add("maximum_command_step_timeout", "must be greater than or equal to default_command_step_timeout")
	}
}

// applyPipelineSteps sets the candidate n's steps: YAML, visual, or a template's.
func (st *Store) applyPipelineSteps(n, p *pipelineRecord, in *pipelineInput, creating bool, userID string, problems *validationErrors) {
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
}

// checkPipelineNames records the candidate n's name or slug when another pipeline of the organization
// has it. A taken name usually takes its slug too, so only the name is reported then.
func (st *Store) checkPipelineNames(n, p *pipelineRecord, problems *validationErrors) {
	taken := func(what, value string) bool {
		o, ok := st.pipelines.pipelines.lookup(nameKey(p.org, what, value))
		return value != "" && ok && o.id != p.id
	}
	if taken("name", n.name) {
		problems.add("name", "has already been taken")
	} else if taken("slug", n.slug) {
		problems.add("slug", "has already been taken")
	}
}

package fakeserver

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// GraphQL for pipelines (https://buildkite.com/docs/apis/graphql/cookbooks/pipelines) over the REST area's
// records: pipeline(slug: "<org>/<pipeline>", uuid:), node(id:) on Pipeline, Organization.pipelines(first:,
// after:) (a page of pipelines in one request), Pipeline.emoji, color and cloneMirrorUrl (written over REST,
// read here), the pipeline's repository and provider with the webhook POST /pipelines/{slug}/webhook made
// (pipeline_webhook.go), pipelineDeleteWebhook, and pipelineUpdate (below).
//
// Choices where the facts are silent (I): the provider's name is "GitHub", "GitHub Enterprise",
// "GitLab", "Bitbucket" or "Git" (RepositoryProviderUnknown); a webhook's url is the repository's hook
// settings page (https://<host>/<owner>/<repo>/settings/hooks/<externalId>); pipelineDeleteWebhook needs
// no administrator, refuses a repository argument that names another repository, and answers "No webhook
// found" when the repository has none made by the service.

func init() {
	gqlQueries["pipeline"] = func(x *gqlExec, args map[string]any) (any, error) {
		if slug, ok := args["slug"].(string); ok {
			org, pipeline, ok := strings.Cut(slug, "/")
			if !ok || x.visibleOrg(org) == nil {
				return nil, nil
			}
			// A slug is found whatever its case, and a slug the pipeline had before still finds it, as the
			// service finds them: the official provider's slug tests read a pipeline by its name after
			// giving it a slug of their own.
			p := x.st.pipelineBySlug(org, pipeline)
			if p == nil {
				p = x.st.pipelineBySlug(org, strings.ToLower(pipeline))
			}
			if p == nil {
				p = x.st.pipelineByFormerSlug(org, strings.ToLower(pipeline))
			}
			return x.pipelineObject(p), nil
		}
		if uuid, ok := args["uuid"].(string); ok {
			return x.pipelineObject(x.visiblePipeline(strings.ToLower(uuid))), nil
		}
		return nil, gqlError("Either slug or uuid must be provided")
	}
	gqlNodes["Pipeline"] = func(x *gqlExec, uuid string) any { return x.pipelineObject(x.visiblePipeline(uuid)) }
	gqlOrgFields["pipelines"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		items := x.st.pipelinesOf(o.slug)
		if search := strings.ToLower(argString(args, "search")); search != "" {
			var found []*pipelineRecord
			for _, p := range items {
				if strings.Contains(strings.ToLower(p.name), search) || strings.Contains(p.slug, search) {
					found = append(found, p)
				}
			}
			items = found
		}
		return gqlConnection("PipelineConnection", defaultFirst(args), items, func(p *pipelineRecord) any { return x.pipelineObject(p) })
	}
	gqlMutations["pipelineDeleteWebhook"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
		}
		if repo := in.str("repository"); repo != "" && !sameRepository(repo, p.repository) {
			return nil, gqlError("The repository does not match the pipeline's repository")
		}
		hook := x.st.repoWebhook(p.org, p.id)
		if hook == nil {
			return nil, gqlError("No webhook found")
		}
		x.st.deleteRepoWebhook(hook)
		return withClientMutationID(in, "PipelineDeleteWebhookPayload", map[string]any{
			"deletedWebhookExternalId": hook.externalID, "pipeline": x.pipelineObject(p),
		}), nil
	}
}

// sameRepository reports whether a repository argument (a URL, or its host and path) names repo.
func sameRepository(arg, repo string) bool {
	if arg == repo {
		return true
	}
	host, path := repositoryHostPath(repo)
	argHost, argPath := repositoryHostPath(arg)
	if argHost == "" {
		argPath = strings.TrimSuffix(strings.Trim(arg, "/"), ".git")
		return strings.EqualFold(argPath, path)
	}
	return argHost == host && strings.EqualFold(argPath, path)
}

// visiblePipeline returns the pipeline with this UUID when the token sees its organization, or nil.
func (x *gqlExec) visiblePipeline(uuid string) *pipelineRecord {
	if p, ok := x.st.pipelines.pipelines.get(uuid); ok && x.tok.orgs[p.org] {
		return p
	}
	return nil
}

// optional returns *s, or nil for nil.
func optional(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// pipelineObject is a Pipeline, or nil for nil: the fields REST's pipeline shows, under GraphQL's names.
func (x *gqlExec) pipelineObject(p *pipelineRecord) any {
	if p == nil {
		return nil
	}
	tags := make([]any, 0, len(p.tags))
	for _, t := range p.tags {
		tags = append(tags, gqlObject{typ: "PipelineTag", fields: map[string]any{"label": t}})
	}
	var steps, archivedAt, template, cluster any
	if p.visual == nil {
		steps = gqlObject{typ: "PipelineSteps", fields: map[string]any{"yaml": p.configuration}}
	}
	if !p.archivedAt.IsZero() {
		archivedAt = formatTime(p.archivedAt)
	}
	if p.templateID != "" {
		template = x.templateObject(x.st.templateByID(p.org, p.templateID))
	}
	if p.clusterID != "" {
		if c := x.st.cluster(p.org, p.clusterID); c != nil {
			cluster = x.clusterObject(c)
		}
	}
	return gqlObject{typ: "Pipeline", fields: map[string]any{
		"id": p.graphqlID, "uuid": p.id, "slug": p.slug, "name": p.name, "description": optional(p.description),
		"emoji": optional(p.emoji), "color": optional(p.color), "cloneMirrorUrl": optional(p.cloneMirrorURL),
		"repository":    x.repositoryObject(p),
		"organization":  x.orgObject(x.st.orgs[p.org]),
		"allowRebuilds": p.allowRebuild, "archived": !p.archivedAt.IsZero(), "archivedAt": archivedAt,
		"badgeURL":                 webURL(x.base, "badges", p.badgeToken+".svg"),
		"branchConfiguration":      optional(p.branchConfiguration),
		"cancelIntermediateBuilds": p.cancelRunning, "cancelIntermediateBuildsBranchFilter": optional(p.cancelRunningFilter),
		"skipIntermediateBuilds": p.skipQueued, "skipIntermediateBuildsBranchFilter": optional(p.skipQueuedFilter),
		"cluster": cluster, "createdAt": formatTime(p.createdAt), "defaultBranch": p.defaultBranch,
		"defaultTimeoutInMinutes": optionalInt(p.defaultTimeout), "maximumTimeoutInMinutes": optionalInt(p.maximumTimeout),
		"pipelineTemplate": template, "steps": steps, "tags": tags,
		"teams": gqlResolver(func(args map[string]any) (any, error) { return x.pipelineTeams(p, args) }),
		"schedules": gqlResolver(func(args map[string]any) (any, error) {
			return gqlConnection("PipelineScheduleConnection", defaultFirst(args), x.st.schedules.schedules.list(p.id),
				func(sc *scheduleRecord) any { return x.scheduleObject(p, sc) })
		}),
		"url":        webURL(x.base, p.org, p.slug),
		"visibility": strings.ToUpper(p.visibility),
		"webhookURL": webURL(x.base, "webhooks", p.provider, p.webhookToken),
	}}
}

// optionalInt returns *n, or nil for nil.
func optionalInt(n *int) any {
	if n == nil {
		return nil
	}
	return *n
}

// pipelineTeams is Pipeline.teams: the teams with access to p, by name (order NAME, the default) or by
// when the access was given (RECENTLY_CREATED, newest first), search narrowing them to names that contain it.
func (x *gqlExec) pipelineTeams(p *pipelineRecord, args map[string]any) (any, error) {
	type link struct {
		t *teamRecord
		l *teamLinkRecord
	}
	var links []link
	search := strings.ToLower(argString(args, "search"))
	for _, t := range x.st.teamsOf(p.org) {
		if l := x.st.teamLink(teamPipelines, p.org, t.id, p.id); l != nil && strings.Contains(strings.ToLower(t.name), search) {
			links = append(links, link{t, l})
		}
	}
	if argString(args, "order") == "RECENTLY_CREATED" {
		slices.SortStableFunc(links, func(a, b link) int { return cmp.Compare(b.l.seq, a.l.seq) })
	} else {
		slices.SortStableFunc(links, func(a, b link) int { return cmp.Compare(strings.ToLower(a.t.name), strings.ToLower(b.t.name)) })
	}
	return gqlConnection("TeamPipelineConnection", args, links, func(k link) any { return x.teamLinkObject("TeamPipeline", k.t, k.l) })
}

// repositoryProviders are the GraphQL provider types and names of the store's providers.
var repositoryProviders = map[string]struct{ typ, name string }{
	"github":            {"RepositoryProviderGithub", "GitHub"},
	"github_enterprise": {"RepositoryProviderGithubEnterprise", "GitHub Enterprise"},
	"gitlab":            {"RepositoryProviderGitlab", "GitLab"},
	"bitbucket":         {"RepositoryProviderBitbucket", "Bitbucket"},
}

// repositoryObject is a pipeline's Repository, with its provider and, on GitHub, the webhook the service made.
func (x *gqlExec) repositoryObject(p *pipelineRecord) any {
	kind, known := repositoryProviders[p.provider]
	if !known {
		kind = struct{ typ, name string }{"RepositoryProviderUnknown", "Git"}
	}
	host, path := repositoryHostPath(p.repository)
	var providerURL any
	if host != "" {
		providerURL = "https://" + host
	}
	provider := gqlObject{typ: kind.typ, fields: map[string]any{"name": kind.name, "url": providerURL}}
	if kind.typ == "RepositoryProviderGithub" || kind.typ == "RepositoryProviderGithubEnterprise" {
		provider.fields["webhook"] = nil
		if hook := x.st.repoWebhook(p.org, p.id); hook != nil {
			provider.fields["webhook"] = gqlObject{typ: kind.typ + "Webhook", fields: map[string]any{
				"externalId": hook.externalID, "provider": provider,
				"url": "https://" + host + "/" + path + "/settings/hooks/" + hook.externalID,
			}}
		}
	}
	provider.fields["settings"] = x.providerSettingsObject(kind.typ, p)
	return gqlObject{typ: "Repository", fields: map[string]any{"url": p.repository, "provider": provider}}
}

// providerSettingsObject is the settings of p's provider (the provider settings REST shows), as the
// settings type of the provider type typ: each field is the REST key of its name in snake case. A
// non-null field the provider's settings lack (a Bitbucket pipeline holds only the settings every
// provider has) takes GitHub's default (I); the match modes are enum values.
func (x *gqlExec) providerSettingsObject(typ string, p *pipelineRecord) any {
	settingsField := x.schema.Types[typ].Fields.ForName("settings")
	if settingsField == nil {
		return nil
	}
	def := x.schema.Types[settingsField.Type.Name()]
	defaults := defaultProviderSettings("github")
	fields := map[string]any{}
	for _, f := range def.Fields {
		key := snakeCase(f.Name)
		v, ok := p.settings[key]
		if !ok && f.Type.NonNull {
			v, ok = defaults[key]
		}
		if s, isString := v.(string); isString && f.Type.Name() == "CommandWordMatchMode" {
			v = strings.ToUpper(s)
			ok = s != "" // a blank match mode (see applyPipelineRepository) is no value of the enum
		}
		fields[f.Name] = nil
		if ok {
			fields[f.Name] = v
		}
	}
	return gqlObject{typ: def.Name, fields: fields}
}

// pipelineCreate, pipelineUpdate, pipelineDelete, pipelineArchive and pipelineUnarchive
// (https://buildkite.com/docs/apis/graphql/cookbooks/pipelines) write through the REST endpoints' own reader
// and checks (readPipelineInput, applyPipeline): the input is turned into the REST body it stands for
// (restPipelineBody), so both APIs refuse the same things with the same reasons. pipelineUpdate's
// allowRebuilds is declared with a default (true), which applies when it is left out (GraphQL applies a
// declared default to an argument left out). nextBuildNumber is refused with an error naming it (I: the store
// numbers builds itself). An archived pipeline refuses changes, as over REST; archiving twice changes
// nothing.
func init() {
	gqlMutations["pipelineCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org := x.visibleOrgByUUID(uuidOf(in.str("organizationId"), "Organization"))
		if org == nil {
			return nil, gqlError("No organization found")
		}
		body, err := restPipelineBody(in, true)
		if err != nil {
			return nil, err
		}
		pin := readPipelineInput(body, true)
		id := newID()
		p := &pipelineRecord{
			org: org.slug, id: id, graphqlID: graphQLID("Pipeline", id), visibility: "private", allowRebuild: true,
			webhookToken: newSecret()[:50], badgeToken: newSecret()[:40],
			createdAt: x.st.timestamp(), createdBy: x.user.id,
		}
		problems := x.st.applyPipeline(p, pin, true, x.user.id)
		teamIDs := slices.Sorted(maps.Keys(pin.teams))
		for _, teamID := range teamIDs {
			if x.st.teamByID(org.slug, teamID) == nil {
				problems.add("teams", teamID+" is not a team of this organization")
			}
		}
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		p.seq = x.st.nextSeq()
		x.st.insertPipeline(p)
		for _, teamID := range teamIDs {
			x.st.addTeamPipeline(org.slug, teamID, id, pin.teams[teamID], p.createdAt)
		}
		obj := x.pipelineObject(p).(gqlObject)
		return withClientMutationID(in, "PipelineCreatePayload", map[string]any{
			"pipeline": obj, "organization": obj.fields["organization"], "cluster": obj.fields["cluster"],
			"pipelineTemplate": obj.fields["pipelineTemplate"],
			"pipelineEdge":     gqlObject{typ: "PipelineEdge", fields: map[string]any{"cursor": cursorFor(len(x.st.pipelinesOf(org.slug)) - 1), "node": obj}},
		}), nil
	}
	gqlMutations["pipelineUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
		}
		if archived, ok := in["archived"].(bool); ok && archived != !p.archivedAt.IsZero() {
			x.st.setPipelineArchived(p, archived)
		}
		if !p.archivedAt.IsZero() {
			return nil, gqlError("Pipeline is archived; unarchive it to change it")
		}
		body, err := restPipelineBody(in, false)
		if err != nil {
			return nil, err
		}
		if problems := x.st.applyPipeline(p, readPipelineInput(body, false), false, x.user.id); len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		return withClientMutationID(in, "PipelineUpdatePayload", map[string]any{"pipeline": x.pipelineObject(p)}), nil
	}
	gqlMutations["pipelineDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
		}
		org := x.orgObject(x.st.orgs[p.org])
		x.st.deletePipeline(p)
		return withClientMutationID(in, "PipelineDeletePayload", map[string]any{"deletedPipelineID": p.graphqlID, "organization": org}), nil
	}
	for name, archive := range map[string]bool{"pipelineArchive": true, "pipelineUnarchive": false} {
		gqlMutations[name] = func(x *gqlExec, args map[string]any) (any, error) {
			in := gqlInputOf(args)
			p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
			if p == nil {
				return nil, gqlError("No pipeline found")
			}
			x.st.setPipelineArchived(p, archive)
			return withClientMutationID(in, strings.ToUpper(name[:1])+name[1:]+"Payload", map[string]any{"pipeline": x.pipelineObject(p)}), nil
		}
	}
}

// gqlPipelineKeys are the REST body's properties the plain PipelineCreateInput and PipelineUpdateInput
// fields stand for.
var gqlPipelineKeys = map[string]string{
	"name": "name", "description": "description", "emoji": "emoji", "color": "color",
	"cloneMirrorUrl": "clone_mirror_url", "defaultBranch": "default_branch", "branchConfiguration": "branch_configuration",
	"skipIntermediateBuilds": "skip_queued_branch_builds", "skipIntermediateBuildsBranchFilter": "skip_queued_branch_builds_filter",
	"cancelIntermediateBuilds": "cancel_running_branch_builds", "cancelIntermediateBuildsBranchFilter": "cancel_running_branch_builds_filter",
	"allowRebuilds": "allow_rebuilds", "defaultTimeoutInMinutes": "default_command_step_timeout",
	"maximumTimeoutInMinutes": "maximum_command_step_timeout",
}

// restPipelineBody turns a PipelineCreateInput or PipelineUpdateInput into the REST body it stands for:
// node IDs become UUIDs, enums the REST words, repository.url and steps.yaml the repository and
// configuration, tags their labels, teams {id, access_level}; an update's name its slug.
func restPipelineBody(in gqlInput, creating bool) (*jsonObject, error) {
	if in.has("nextBuildNumber") && in["nextBuildNumber"] != nil {
		return nil, gqlError("nextBuildNumber is not served by the emulator: builds are numbered from 1")
	}
	body := map[string]any{}
	for gql, rest := range gqlPipelineKeys {
		if v, ok := in[gql]; ok {
			body[rest] = v
		}
	}
	if name, ok := in["name"].(string); ok && name != "" && !creating {
		// pipelineUpdate derives the slug from the name it is given, even the current one: the official
		// provider removes a custom slug by sending only the name, and its tests read the derived slug back.
		body["slug"] = slugify(name)
	}
	if v, ok := in["visibility"].(string); ok {
		body["visibility"] = strings.ToLower(v)
	}
	if r, ok := in["repository"].(map[string]any); ok {
		body["repository"] = r["url"]
	}
	if st, ok := in["steps"].(map[string]any); ok {
		if y, _ := st["yaml"].(string); y != "" || creating {
			body["configuration"] = y
		}
	}
	for _, ref := range []struct{ gql, rest, typ, what string }{
		{"clusterId", "cluster_id", "Cluster", "cluster"}, {"pipelineTemplateId", "pipeline_template_uuid", "PipelineTemplate", "pipeline template"},
	} {
		v, ok := in[ref.gql]
		if !ok {
			continue
		}
		id, _ := v.(string)
		if id == "" {
			body[ref.rest] = nil
			continue
		}
		uuid := uuidOf(id, ref.typ)
		if uuid == "" {
			return nil, gqlErrorf("No %s found with ID %q", ref.what, id)
		}
		body[ref.rest] = uuid
	}
	if v, ok := in["tags"]; ok {
		var labels []string
		if list, isList := v.([]any); isList {
			labels = []string{}
			for _, t := range list {
				tag, _ := t.(map[string]any)
				label, _ := tag["label"].(string)
				labels = append(labels, label)
			}
		}
		body["tags"] = labels
	}
	if list, ok := in["teams"].([]any); ok && creating {
		var teams []map[string]any
		for _, t := range list {
			team, _ := t.(map[string]any)
			id, _ := team["id"].(string)
			uuid := uuidOf(id, "Team")
			if uuid == "" {
				return nil, gqlErrorf("No team found with ID %q", id)
			}
			level, _ := team["accessLevel"].(string)
			teams = append(teams, map[string]any{"id": uuid, "access_level": strings.ToLower(level)})
		}
		body["teams"] = teams
	}
	obj := &jsonObject{raw: map[string]json.RawMessage{}}
	for k, v := range body {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, gqlErrorf("PipelineInput.%s: %v", k, err)
		}
		obj.raw[k] = b
	}
	return obj, nil
}

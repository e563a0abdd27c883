package fakeserver

import (
	"strings"
)

// GraphQL for pipelines (graphql-subset.md §2.5, §2.6) over the REST area's records: pipeline(slug:
// "<org>/<pipeline>", uuid:), node(id:) on Pipeline, Organization.pipelines(first:, after:) (a page of
// pipelines in one request), Pipeline.emoji, color and cloneMirrorUrl (written over REST, read here), the
// pipeline's repository and provider with the webhook POST /pipelines/{slug}/webhook made
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
			return x.pipelineObject(x.st.pipelineBySlug(org, pipeline)), nil
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

// pipelineObject is a Pipeline, or nil for nil.
func (x *gqlExec) pipelineObject(p *pipelineRecord) any {
	if p == nil {
		return nil
	}
	return gqlObject{typ: "Pipeline", fields: map[string]any{
		"id": p.graphqlID, "uuid": p.id, "slug": p.slug, "name": p.name, "description": optional(p.description),
		"emoji": optional(p.emoji), "color": optional(p.color), "cloneMirrorUrl": optional(p.cloneMirrorURL),
		"repository":   x.repositoryObject(p),
		"organization": x.orgObject(x.st.orgs[p.org]),
	}}
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
	return gqlObject{typ: "Repository", fields: map[string]any{"url": p.repository, "provider": provider}}
}

// pipelineUpdate (§2.5) changes a pipeline through the REST update's checks (applyPipeline). It serves
// the fields a provider writes: name, description, emoji, color, cloneMirrorUrl, defaultBranch,
// branchConfiguration, the skip and cancel intermediate-builds switches and filters, clusterId,
// visibility and allowRebuilds, whose declared default (true) applies when it is left out, as §2.0 warns.
// The other input fields (repository, steps, tags, template, timeouts, archived, nextBuildNumber) are
// refused with an error naming them (I).
func init() {
	gqlMutations["pipelineUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		for _, unserved := range []string{"archived", "defaultTimeoutInMinutes", "maximumTimeoutInMinutes", "nextBuildNumber",
			"pipelineTemplateId", "repository", "steps", "tags"} {
			if in.has(unserved) {
				return nil, gqlError("PipelineUpdateInput." + unserved + " is not served by the emulator")
			}
		}
		p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
		}
		if !p.archivedAt.IsZero() {
			return nil, gqlError("Pipeline is archived; unarchive it to change it")
		}
		boolOpt := func(key string) opt[bool] {
			v, set := in[key]
			b, _ := v.(bool)
			return opt[bool]{Set: set, Null: set && v == nil, Value: b}
		}
		pin := &pipelineInput{
			name: gqlOpt(in, "name"), description: gqlOpt(in, "description"), emoji: gqlOpt(in, "emoji"),
			color: gqlOpt(in, "color"), cloneMirrorURL: gqlOpt(in, "cloneMirrorUrl"), defaultBranch: gqlOpt(in, "defaultBranch"),
			branchConfiguration: gqlOpt(in, "branchConfiguration"),
			skipQueuedFilter:    gqlOpt(in, "skipIntermediateBuildsBranchFilter"),
			cancelRunningFilter: gqlOpt(in, "cancelIntermediateBuildsBranchFilter"),
			skipQueued:          boolOpt("skipIntermediateBuilds"), cancelRunning: boolOpt("cancelIntermediateBuilds"),
			allowRebuilds: boolOpt("allowRebuilds"),
		}
		if v := gqlOpt(in, "visibility"); v.Set {
			v.Value = strings.ToLower(v.Value)
			pin.visibility = v
		}
		if c := gqlOpt(in, "clusterId"); c.Set {
			if c.Value != "" {
				c.Value = uuidOf(c.Value, "Cluster")
				if c.Value == "" {
					return nil, gqlError("No cluster found")
				}
			}
			pin.clusterID = c
		}
		if problems := x.st.applyPipeline(p, pin, false, x.user.id); len(problems) > 0 {
			return nil, gqlError("Validation failed: " + strings.Join(problems.sentences(), ", "))
		}
		return withClientMutationID(in, "PipelineUpdatePayload", map[string]any{"pipeline": x.pipelineObject(p)}), nil
	}
}

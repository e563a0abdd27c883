package fakeserver

import (
	"net/http"
	"strings"
	"testing"
)

func TestGraphQLPipelines(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "App", "repository": githubRepo, "emoji": ":rocket:", "color": "#FF5733"})
	id := p["graphql_id"].(string)
	const q = `query($id: ID!) { node(id: $id) { ... on Pipeline { id uuid slug emoji color cloneMirrorUrl } } }`
	a := e.gql(q, map[string]any{"id": id}).ok(t)
	if a.str(t, "node", "emoji") != ":rocket:" || a.str(t, "node", "color") != "#FF5733" || a.at(t, "node", "cloneMirrorUrl") != nil {
		t.Fatalf("emoji set over REST: %s", a.raw)
	}
	// Changed over REST, read over GraphQL.
	expect(t, e.api("PATCH", "/pipelines/app", map[string]any{"emoji": nil, "clone_mirror_url": "https://mirror.example.com/app.git"}), http.StatusOK)
	a = e.gql(`query { pipeline(slug: "acme/app") { emoji color cloneMirrorUrl } }`, nil).ok(t)
	if a.at(t, "pipeline", "emoji") != nil || a.str(t, "pipeline", "cloneMirrorUrl") != "https://mirror.example.com/app.git" {
		t.Fatalf("after PATCH: %s", a.raw)
	}
	for _, slug := range []string{"acme/nope", "other/app", "app"} {
		if a := e.gql(`query($s: ID) { pipeline(slug: $s) { id } }`, map[string]any{"s": slug}).ok(t); a.Data["pipeline"] != nil {
			t.Fatalf("%s: want null: %s", slug, a.raw)
		}
	}

	// A page of pipelines in one request, then the next.
	e.createPipeline(map[string]any{"name": "Two", "repository": githubRepo})
	e.createPipeline(map[string]any{"name": "Three", "repository": "https://gitlab.com/acme/three.git"})
	const page = `query($after: String) { organization(slug: "acme") { pipelines(first: 2, after: $after) {
  count edges { node { slug emoji } } pageInfo { hasNextPage endCursor } } } }`
	a = e.gql(page, nil).ok(t)
	if a.at(t, "organization", "pipelines", "count") != 3.0 || a.str(t, "organization", "pipelines", "edges", 1, "node", "slug") != "two" ||
		a.at(t, "organization", "pipelines", "pageInfo", "hasNextPage") != true {
		t.Fatalf("page 1: %s", a.raw)
	}
	a = e.gql(page, map[string]any{"after": a.str(t, "organization", "pipelines", "pageInfo", "endCursor")}).ok(t)
	if edges := a.at(t, "organization", "pipelines", "edges").([]any); len(edges) != 1 || a.str(t, "organization", "pipelines", "edges", 0, "node", "slug") != "three" ||
		a.at(t, "organization", "pipelines", "pageInfo", "hasNextPage") != false {
		t.Fatalf("page 2: %s", a.raw)
	}
	if a := e.gql(page, map[string]any{"after": "garbage"}); a.errorMessage(t) != `Invalid cursor "garbage"` {
		t.Fatalf("bad cursor: %s", a.raw)
	}
	a = e.gql(`{ pipeline(slug: "acme/three") { repository { provider { __typename name } } } }`, nil).ok(t)
	if a.str(t, "pipeline", "repository", "provider", "__typename") != "RepositoryProviderGitlab" {
		t.Fatalf("gitlab provider: %s", a.raw)
	}
}

func TestGraphQLPipelineWebhook(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.createPipeline(map[string]any{"name": "App", "repository": githubRepo})["graphql_id"].(string)
	const read = `query($id: ID!) { node(id: $id) { ... on Pipeline { repository { url provider {
  ... on RepositoryProviderGithub { webhook { externalId url } }
  ... on RepositoryProviderGithubEnterprise { webhook { externalId url } } } } } } }`
	a := e.gql(read, map[string]any{"id": id}).ok(t)
	if a.at(t, "node", "repository", "provider", "webhook") != nil || a.str(t, "node", "repository", "url") != githubRepo {
		t.Fatalf("before: %s", a.raw)
	}
	expect(t, e.api("POST", "/pipelines/app/webhook", nil), http.StatusCreated)
	a = e.gql(read, map[string]any{"id": id}).ok(t)
	external := a.str(t, "node", "repository", "provider", "webhook", "externalId")
	if a.str(t, "node", "repository", "provider", "webhook", "url") != "https://github.com/acme/app/settings/hooks/"+external {
		t.Fatalf("webhook: %s", a.raw)
	}
	const del = `mutation($id: ID!, $repo: String) { pipelineDeleteWebhook(input: {id: $id, repository: $repo}) {
  deletedWebhookExternalId pipeline { slug } } }`
	if a := e.gql(del, map[string]any{"id": id, "repo": "acme/other"}); a.errorMessage(t) != "The repository does not match the pipeline's repository" {
		t.Fatalf("other repository: %s", a.raw)
	}
	a = e.gql(del, map[string]any{"id": id, "repo": "acme/app"}).ok(t)
	if a.str(t, "pipelineDeleteWebhook", "deletedWebhookExternalId") != external {
		t.Fatalf("delete: %s", a.raw)
	}
	if e.srv.Store().Exists(KindPipelineWebhook, "acme", e.srv.Store().pipelines.pipelines.list("acme")[0].id) {
		t.Fatal("webhook still in the store")
	}
	if a := e.gql(del, map[string]any{"id": id}); a.errorMessage(t) != "No webhook found" {
		t.Fatalf("second delete: %s", a.raw)
	}
	if a := e.gql(del, map[string]any{"id": graphQLID("Pipeline", newID())}); a.errorMessage(t) != "No pipeline found" {
		t.Fatalf("unknown pipeline: %s", a.raw)
	}
	// REST can make it again.
	expect(t, e.api("POST", "/pipelines/app/webhook", nil), http.StatusCreated)
}

func TestGraphQLPipelineUpdate(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "App", "repository": githubRepo, "allow_rebuilds": false})
	id := p["graphql_id"].(string)
	const m = `mutation($input: PipelineUpdateInput!) { pipelineUpdate(input: $input) { clientMutationId pipeline { emoji color cloneMirrorUrl description } } }`
	a := e.gql(m, map[string]any{"input": map[string]any{"id": id, "clientMutationId": "x", "emoji": ":rocket:", "color": "#123456",
		"cloneMirrorUrl": "https://mirror.example.com/app.git"}}).ok(t)
	if a.str(t, "pipelineUpdate", "pipeline", "emoji") != ":rocket:" || a.str(t, "pipelineUpdate", "clientMutationId") != "x" {
		t.Fatalf("update: %s", a.raw)
	}
	// Set over GraphQL, read over REST (clone_mirror_url) and from the store (emoji and color, which REST
	// does not show); allowRebuilds left out took its declared default, true.
	r := e.api("GET", "/pipelines/app", nil)
	if got := r.object(t); got["clone_mirror_url"] != "https://mirror.example.com/app.git" || got["allow_rebuilds"] != true {
		t.Fatalf("REST: %s", r.raw)
	}
	if emoji, color, ok := e.srv.Store().PipelineLooks("acme", "app"); !ok || *emoji != ":rocket:" || *color != "#123456" {
		t.Fatal("store looks")
	}
	// null clears.
	a = e.gql(m, map[string]any{"input": map[string]any{"id": id, "emoji": nil, "cloneMirrorUrl": nil}}).ok(t)
	if a.at(t, "pipelineUpdate", "pipeline", "emoji") != nil || a.at(t, "pipelineUpdate", "pipeline", "cloneMirrorUrl") != nil ||
		a.str(t, "pipelineUpdate", "pipeline", "color") != "#123456" {
		t.Fatalf("clear: %s", a.raw)
	}
	for _, c := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{"id": id, "name": ""}, "Validation failed: Name can't be blank"},
		{map[string]any{"id": id, "nextBuildNumber": 7}, "nextBuildNumber is not served by the emulator: builds are numbered from 1"},
		{map[string]any{"id": graphQLID("Pipeline", newID())}, "No pipeline found"},
		{map[string]any{"id": id, "clusterId": "bm9wZQ=="}, `No cluster found with ID "bm9wZQ=="`},
	} {
		if got := e.gql(m, map[string]any{"input": c.input}).errorMessage(t); got != c.want {
			t.Errorf("%v: %q, want %q", c.input, got, c.want)
		}
	}
	if got := e.gql(m, map[string]any{"input": map[string]any{"id": id, "cloneMirrorUrl": "https://user:secret@mirror.example.com/app.git"}}).errorMessage(t); got == "" {
		t.Fatal("a mirror URL with credentials was accepted")
	}
}

// A pipeline made over GraphQL is the REST pipeline (the same ID, fields and checks), and the other way
// round; delete, archive and unarchive act on the same record.
func TestGraphQLPipelineCreate(t *testing.T) {
	e := newEnv(t, Options{})
	team := teamsKit{e}.createTeam("Ops")
	const create = `mutation($input: PipelineCreateInput!) { pipelineCreate(input: $input) { pipeline {
  id slug allowRebuilds archived badgeURL defaultBranch defaultTimeoutInMinutes maximumTimeoutInMinutes visibility webhookURL
  steps { yaml } tags { label } skipIntermediateBuilds skipIntermediateBuildsBranchFilter cluster { id } pipelineTemplate { id }
  teams(first: 5, order: NAME) { count edges { node { accessLevel team { id } } } } } } }`
	input := map[string]any{
		"organizationId": e.orgGraphQLID(), "name": "Made Here", "repository": map[string]any{"url": githubRepo},
		"steps": map[string]any{"yaml": "steps:\n  - command: make\n"}, "allowRebuilds": false, "defaultBranch": "trunk",
		"defaultTimeoutInMinutes": 0, "maximumTimeoutInMinutes": 30, "visibility": "PUBLIC", "skipIntermediateBuilds": true,
		"skipIntermediateBuildsBranchFilter": "!main", "tags": []any{map[string]any{"label": "web"}},
		"teams": []any{map[string]any{"id": graphQLID("Team", team), "accessLevel": "READ_ONLY"}},
	}
	a := e.gql(create, map[string]any{"input": input}).ok(t)
	p := func(path ...any) any { return a.at(t, append([]any{"pipelineCreate", "pipeline"}, path...)...) }
	if p("slug") != "made-here" || p("allowRebuilds") != false || p("visibility") != "PUBLIC" || p("defaultTimeoutInMinutes") != 0.0 ||
		p("tags", 0, "label") != "web" || p("teams", "edges", 0, "node", "accessLevel") != "READ_ONLY" || p("archived") != false ||
		p("steps", "yaml") != "steps:\n  - command: make\n" || p("cluster") != nil {
		t.Fatalf("create: %s", a.raw)
	}
	rest := e.api("GET", "/pipelines/made-here", nil).object(t)
	if rest["graphql_id"] != p("id") || rest["default_branch"] != "trunk" || rest["allow_rebuilds"] != false ||
		rest["badge_url"] != p("badgeURL") || rest["provider"].(map[string]any)["webhook_url"] != p("webhookURL") ||
		rest["maximum_command_step_timeout"] != 30.0 || rest["skip_queued_branch_builds_filter"] != "!main" {
		t.Fatalf("REST read of a GraphQL pipeline: %v", rest)
	}
	// The same checks as REST, in its words.
	input["name"] = "Made Here"
	if got := e.gql(create, map[string]any{"input": input}).errorMessage(t); got != "Validation failed: Name has already been taken" {
		t.Errorf("duplicate name: %q", got)
	}
	delete(input, "steps")
	input["name"] = "No Steps"
	if got := e.gql(create, map[string]any{"input": input}).errorMessage(t); got != "Validation failed: Configuration can't be blank" {
		t.Errorf("no steps: %q", got)
	}
	input["steps"], input["defaultTimeoutInMinutes"] = map[string]any{"yaml": "steps: []"}, -1
	if got := e.gql(create, map[string]any{"input": input}).errorMessage(t); got != "Validation failed: Default command step timeout must be greater than or equal to 0" {
		t.Errorf("negative timeout: %q", got)
	}

	// Updated over GraphQL: tags, steps and timeouts too; archived refuses changes until unarchived.
	id := p("id").(string)
	const update = `mutation($input: PipelineUpdateInput!) { pipelineUpdate(input: $input) { pipeline { tags { label } steps { yaml } maximumTimeoutInMinutes } } }`
	a = e.gql(update, map[string]any{"input": map[string]any{"id": id, "tags": []any{}, "steps": map[string]any{"yaml": "steps: []\n"}, "maximumTimeoutInMinutes": nil}}).ok(t)
	if len(a.at(t, "pipelineUpdate", "pipeline", "tags").([]any)) != 0 || a.at(t, "pipelineUpdate", "pipeline", "maximumTimeoutInMinutes") != nil {
		t.Fatalf("update: %s", a.raw)
	}
	// A name derives the slug, even a custom slug set over REST; a slug is found whatever its case.
	expect(t, e.api("PATCH", "/pipelines/made-here", map[string]any{"slug": "custom"}), http.StatusOK)
	a = e.gql(`mutation($id: ID!) { pipelineUpdate(input: {id: $id, name: "Made Here"}) { pipeline { slug } } }`, map[string]any{"id": id}).ok(t)
	if a.str(t, "pipelineUpdate", "pipeline", "slug") != "made-here" {
		t.Fatalf("slug after a name: %s", a.raw)
	}
	if a := e.gql(`{ pipeline(slug: "acme/Made-Here") { id } }`, nil).ok(t); a.str(t, "pipeline", "id") != id {
		t.Fatalf("mixed-case slug: %s", a.raw)
	}
	// The slug it had before still finds it.
	expect(t, e.api("PATCH", "/pipelines/made-here", map[string]any{"slug": "renamed"}), http.StatusOK)
	if a := e.gql(`{ pipeline(slug: "acme/Made-Here") { slug } }`, nil).ok(t); a.str(t, "pipeline", "slug") != "renamed" {
		t.Fatalf("former slug: %s", a.raw)
	}
	const act = `mutation($id: ID!) { pipelineArchive(input: {id: $id}) { pipeline { archived } } }`
	if a := e.gql(act, map[string]any{"id": id}).ok(t); a.at(t, "pipelineArchive", "pipeline", "archived") != true {
		t.Fatalf("archive: %s", a.raw)
	}
	if got := e.gql(update, map[string]any{"input": map[string]any{"id": id, "name": "x"}}).errorMessage(t); got != "Pipeline is archived; unarchive it to change it" {
		t.Errorf("update archived: %q", got)
	}
	if rest := e.api("GET", "/pipelines/renamed", nil).object(t); rest["archived_at"] == nil {
		t.Fatal("archived over GraphQL, not over REST")
	}
	e.gql(`mutation($id: ID!) { pipelineUnarchive(input: {id: $id}) { clientMutationId } }`, map[string]any{"id": id}).ok(t)
	a = e.gql(`mutation($id: ID!) { pipelineDelete(input: {id: $id}) { deletedPipelineID } }`, map[string]any{"id": id}).ok(t)
	if a.str(t, "pipelineDelete", "deletedPipelineID") != id {
		t.Fatalf("delete: %s", a.raw)
	}
	expect(t, e.api("GET", "/pipelines/renamed", nil), http.StatusNotFound)
	if got := e.gql(`mutation($id: ID!) { pipelineDelete(input: {id: $id}) { deletedPipelineID } }`, map[string]any{"id": id}).errorMessage(t); got != "No pipeline found" {
		t.Errorf("delete twice: %q", got)
	}
}

// Templates over GraphQL are REST's: made in one, read and changed in the other, with the same refusals.
func TestGraphQLPipelineTemplates(t *testing.T) {
	e := newEnv(t, Options{})
	const create = `mutation($org: ID!, $name: String!, $config: String!) { pipelineTemplateCreate(input: {organizationId: $org, name: $name, configuration: $config, available: true}) {
  pipelineTemplate { id uuid name description configuration available createdBy { id } } } }`
	a := e.gql(create, map[string]any{"org": e.orgGraphQLID(), "name": "Base", "config": "steps:\n  - command: make\n"}).ok(t)
	id, uuid := a.str(t, "pipelineTemplateCreate", "pipelineTemplate", "id"), a.str(t, "pipelineTemplateCreate", "pipelineTemplate", "uuid")
	if rest := e.api("GET", "/pipeline-templates/"+uuid, nil).object(t); rest["graphql_id"] != id || rest["available"] != true {
		t.Fatalf("REST read: %v", rest)
	}
	if got := e.gql(create, map[string]any{"org": e.orgGraphQLID(), "name": "Bad", "config": "steps: [unclosed"}).errorMessage(t); !strings.HasPrefix(got, "Validation failed: Configuration") {
		t.Errorf("bad YAML: %q", got)
	}
	expect(t, e.api("PATCH", "/pipeline-templates/"+uuid, map[string]any{"description": "From REST"}), http.StatusOK)
	a = e.gql(`query { organization(slug: "acme") { pipelineTemplates(order: NAME, first: 50) { edges { node { id description } } } } }`, nil).ok(t)
	if a.str(t, "organization", "pipelineTemplates", "edges", 0, "node", "description") != "From REST" {
		t.Fatalf("list: %s", a.raw)
	}
	// A template in use cannot be deleted; its configuration change reaches the pipeline.
	e.createPipeline(map[string]any{"name": "Uses", "repository": githubRepo, "pipeline_template_uuid": uuid})
	const update = `mutation($org: ID!, $id: ID!) { pipelineTemplateUpdate(input: {organizationId: $org, id: $id, configuration: "steps: []\n"}) { pipelineTemplate { configuration } } }`
	e.gql(update, map[string]any{"org": e.orgGraphQLID(), "id": id}).ok(t)
	if got := e.api("GET", "/pipelines/uses", nil).object(t)["configuration"]; got != "steps: []\n" {
		t.Fatalf("pipeline configuration after the template changed: %v", got)
	}
	const del = `mutation($org: ID!, $id: ID!) { pipelineTemplateDelete(input: {organizationId: $org, id: $id}) { deletedPipelineTemplateId } }`
	if got := e.gql(del, map[string]any{"org": e.orgGraphQLID(), "id": id}).errorMessage(t); got != templateInUse(1) {
		t.Errorf("delete in use: %q", got)
	}
	expect(t, e.api("DELETE", "/pipelines/uses", nil), http.StatusNoContent)
	e.gql(del, map[string]any{"org": e.orgGraphQLID(), "id": id}).ok(t)
	expect(t, e.api("GET", "/pipeline-templates/"+uuid, nil), http.StatusNotFound)
	// Only on the enterprise plan, in REST's words.
	if err := e.srv.Store().SetOrgPlan("acme", false, true); err != nil {
		t.Fatal(err)
	}
	if got := e.gql(create, map[string]any{"org": e.orgGraphQLID(), "name": "Late", "config": "steps: []"}).errorMessage(t); got != "Pipeline templates are only available on the Enterprise plan" {
		t.Errorf("not enterprise: %q", got)
	}
}

// Schedules over GraphQL are REST's; env is KEY=VALUE lines in and KEY=VALUE strings out, a quoted value
// read bare.
func TestGraphQLPipelineSchedules(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "App", "repository": githubRepo})
	const create = `mutation($p: ID!, $cron: String, $env: String) { pipelineScheduleCreate(input: {pipelineID: $p, label: "Nightly", cronline: $cron, env: $env, enabled: true}) {
  pipeline { id } pipelineScheduleEdge { node { id uuid label cronline branch commit env enabled pipeline { id } } } } }`
	a := e.gql(create, map[string]any{"p": p["graphql_id"], "cron": "@daily", "env": "FOO=\"BAR=2f\"\nPLAIN=x\n"}).ok(t)
	node := func(path ...any) any {
		return a.at(t, append([]any{"pipelineScheduleCreate", "pipelineScheduleEdge", "node"}, path...)...)
	}
	if node("env", 0) != "FOO=BAR=2f" || node("env", 1) != "PLAIN=x" || node("branch") != "main" || node("commit") != "HEAD" {
		t.Fatalf("create: %s", a.raw)
	}
	uuid, id := node("uuid").(string), node("id").(string)
	rest := e.api("GET", "/pipelines/app/schedules/"+uuid, nil).object(t)
	if rest["graphql_id"] != id || rest["env"].(map[string]any)["FOO"] != "BAR=2f" {
		t.Fatalf("REST read: %v", rest)
	}
	if got := e.gql(create, map[string]any{"p": p["graphql_id"], "cron": "not a cron"}).errorMessage(t); !strings.HasPrefix(got, "Validation failed: Cronline is not a valid cronline") {
		t.Errorf("bad cronline: %q", got)
	}
	expect(t, e.api("PATCH", "/pipelines/app/schedules/"+uuid, map[string]any{"label": "From REST"}), http.StatusOK)
	a = e.gql(`query($s: ID!) { pipelineSchedule(slug: $s) { label } }`, map[string]any{"s": "acme/app/" + uuid}).ok(t)
	if a.str(t, "pipelineSchedule", "label") != "From REST" {
		t.Fatalf("by slug: %s", a.raw)
	}
	a = e.gql(`mutation($id: ID!) { pipelineScheduleUpdate(input: {id: $id, env: "", enabled: false}) { pipelineSchedule { env enabled } } }`, map[string]any{"id": id}).ok(t)
	if len(a.at(t, "pipelineScheduleUpdate", "pipelineSchedule", "env").([]any)) != 0 || a.at(t, "pipelineScheduleUpdate", "pipelineSchedule", "enabled") != false {
		t.Fatalf("update: %s", a.raw)
	}
	e.gql(`mutation($id: ID!) { pipelineScheduleDelete(input: {id: $id}) { deletedPipelineScheduleID } }`, map[string]any{"id": id}).ok(t)
	expect(t, e.api("GET", "/pipelines/app/schedules/"+uuid, nil), http.StatusNotFound)
	if a := e.gql(`query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}).ok(t); a.Data["node"] != nil {
		t.Fatalf("deleted schedule's node: %s", a.raw)
	}
}

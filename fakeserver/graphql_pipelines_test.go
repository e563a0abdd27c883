package fakeserver

import (
	"net/http"
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

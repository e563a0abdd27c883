package fakeserver

import "testing"

// TestGraphQLPipelineCreateWebhook: pipelineCreateWebhook (bk pipeline create --create-webhook) makes the
// repository webhook REST's POST .../webhook makes, once, on GitHub only.
func TestGraphQLPipelineCreateWebhook(t *testing.T) {
	e := newEnv(t, Options{})
	p := e.createPipeline(map[string]any{"name": "app", "repository": githubRepo})
	other := e.createPipeline(map[string]any{"name": "lab", "repository": "https://gitlab.com/acme/lab.git"})
	const m = `mutation PipelineCreateWebhook($id: ID!) {
	  pipelineCreateWebhook(input: { id: $id }) { clientMutationId pipelineID webhook { externalId url } pipeline { slug } }
	}`
	a := e.gql(m, map[string]any{"id": p["graphql_id"]}).ok(t)
	if got := a.str(t, "pipelineCreateWebhook", "pipelineID"); got != p["graphql_id"] {
		t.Errorf("pipelineID %s", got)
	}
	if a.str(t, "pipelineCreateWebhook", "webhook", "externalId") == "" {
		t.Errorf("no webhook: %s", a.raw)
	}
	if !e.srv.Store().Exists(KindPipelineWebhook, "acme", p["id"].(string)) {
		t.Error("the webhook is not kept")
	}
	if msg := e.gql(m, map[string]any{"id": p["graphql_id"]}).errorMessage(t); msg != "Webhooks could not be created for your repository." {
		t.Errorf("a second webhook: %q", msg)
	}
	if msg := e.gql(m, map[string]any{"id": other["graphql_id"]}).errorMessage(t); msg != "Auto-creating webhooks is only supported for GitHub and GitHub Enterprise repositories." {
		t.Errorf("a GitLab pipeline: %q", msg)
	}
	if msg := e.gql(m, map[string]any{"id": graphQLID("Pipeline", newID())}).errorMessage(t); msg != "No pipeline found" {
		t.Errorf("an unknown pipeline: %q", msg)
	}
}

package fakeserver

// GraphQL's pipelineCreateWebhook, which Buildkite's CLI sends for bk pipeline create --create-webhook:
// the webhook REST's POST /pipelines/{slug}/webhook makes (pipeline_webhook.go), with its checks and its
// words but one: only on GitHub (GraphQL's own words, gqlWebhookUnsupported), only once
// ("Webhooks could not be created for your repository."). It answers the pipeline and the webhook, as
// Repository.provider.webhook shows it.

func init() {
	gqlMutations["pipelineCreateWebhook"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
		}
		if p.provider != "github" && p.provider != "github_enterprise" {
			return nil, gqlError(gqlWebhookUnsupported)
		}
		if err := x.st.addRepoWebhook(p); err != nil {
			return nil, gqlError(err.body.(messageBody).Message)
		}
		repo := x.repositoryObject(p).(gqlObject)
		provider := repo.fields["provider"].(gqlObject)
		return withClientMutationID(in, "PipelineCreateWebhookPayload", map[string]any{
			"pipeline": x.pipelineObject(p), "pipelineID": p.graphqlID, "webhook": provider.fields["webhook"],
		}), nil
	}
}

// gqlWebhookUnsupported is GraphQL's refusal of a webhook on a repository that is not on GitHub or GitHub
// Enterprise, as the official provider's tests match it against the service (REST words it otherwise:
// "Auto-creating webhooks is not supported for your repository.").
const gqlWebhookUnsupported = "Auto-creating webhooks is only supported for GitHub and GitHub Enterprise repositories."

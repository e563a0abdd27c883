package fakeserver

// GraphQL's pipelineCreateWebhook, which Buildkite's CLI sends for bk pipeline create --create-webhook:
// the webhook REST's POST /pipelines/{slug}/webhook makes (pipeline_webhook.go), with its checks and its
// words: only on GitHub ("Auto-creating webhooks is not supported for your repository."), only once
// ("Webhooks could not be created for your repository."). It answers the pipeline and the webhook, as
// Repository.provider.webhook shows it.

func init() {
	gqlMutations["pipelineCreateWebhook"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		p := x.visiblePipeline(uuidOf(in.str("id"), "Pipeline"))
		if p == nil {
			return nil, gqlError("No pipeline found")
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

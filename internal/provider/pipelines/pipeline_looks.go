package pipelines

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// A pipeline's emoji and color are written over REST, which never shows them; a refresh reads them back
// through GraphQL, where the provider can reach it (a GraphQL endpoint, and a token with the graphql scope
// or whose scopes are unknown), batched per page of the organization's pipelines (the client's
// Pipelines.Looks). Where it cannot, they stay as last applied: writing them needs no GraphQL, so neither
// does a workspace that sets them.

// pipelineLooksNote ends the descriptions of emoji and color.
const pipelineLooksNote = "Written over the REST API, which does not show it; a refresh reads it through Buildkite's " +
	"GraphQL API where the provider can reach it (an API token with the `graphql` scope, and `graphql_url` where " +
	"`rest_url` is set), so a change made outside Terraform is seen; otherwise it is kept as last applied. Removed, it is cleared."

// readLooks sets state's emoji and color from what GraphQL shows of p. A pipeline GraphQL does not list
// or find keeps them as they were.
func readLooks(ctx context.Context, d *kit.ProviderData, p *buildkite.Pipeline, state *pipelineModel, diags *diag.Diagnostics) {
	if !d.Client.HasGraphQL() || len(d.MissingScopes([]string{kit.ScopeGraphQL})) > 0 || p.GraphQLID == "" {
		return
	}
	looks, err := d.Client.Pipelines.Looks(ctx, p.ID, p.GraphQLID)
	switch {
	case buildkite.IsNotFound(err), errors.Is(err, buildkite.ErrNoGraphQLURL):
		return
	case err != nil:
		kit.AddAPIError(diags, "read", "pipeline emoji and color of", p.Slug, err)
		return
	}
	state.Emoji = types.StringPointerValue(looks.Emoji)
	state.Color = types.StringPointerValue(looks.Color)
}

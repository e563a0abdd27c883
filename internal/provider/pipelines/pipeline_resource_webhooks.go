package pipelines

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// github_webhooks_enabled: a pipeline's GitHub webhook processing switch (REST
// /pipelines/{slug}/github-webhooks), as the official provider has it since #1220: optional only, managed
// while configured, read only while state holds a value, and left as it is on the service once removed from
// the configuration.

// githubWebhooksAttribute is github_webhooks_enabled.
func githubWebhooksAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Whether Buildkite processes the GitHub webhooks of the pipeline's repository (REST " +
			"`/pipelines/{slug}/github-webhooks`). Only GitHub pipelines of organizations enrolled in expanded " +
			"webhook triggers have the switch; for others the service answers 404, which is an error. Removed from " +
			"the configuration, the service keeps its value and state holds null.",
		Optional: true,
	}
}

// githubWebhooksError words a failed call to the switch; a 404 says which pipelines have it.
func githubWebhooksError(diags *diag.Diagnostics, verb, slug string, err error) {
	detail := kit.DescribeError(err)
	if buildkite.IsNotFound(err) {
		detail = fmt.Sprintf("%s; only GitHub pipelines of organizations enrolled in "+
			"expanded webhook triggers have GitHub webhook processing. Leave github_webhooks_enabled out of the "+
			"configuration for this pipeline, or ask Buildkite to enroll the organization", detail)
	}
	diags.AddError("Unable to "+verb+" pipeline GitHub webhooks",
		fmt.Sprintf("%s the GitHub webhook processing of pipeline %s: %s.", kit.Gerund(verb), slug, detail))
}

// createGitHubWebhooks sets the switch of a new pipeline when configured: read, then changed only if it
// differs. It returns the value to keep in state (null when not configured).
func createGitHubWebhooks(ctx context.Context, c *buildkite.Client, slug string, want types.Bool, diags *diag.Diagnostics) types.Bool {
	if !kit.IsKnownValue(want) {
		return types.BoolNull()
	}
	client := c.Pipelines
	cur, err := client.GitHubWebhooks(ctx, slug)
	if err != nil {
		githubWebhooksError(diags, "read", slug, err)
		return types.BoolNull()
	}
	if cur.Enabled != want.ValueBool() {
		if cur, err = client.SetGitHubWebhooks(ctx, slug, want.ValueBool()); err != nil {
			githubWebhooksError(diags, "set", slug, err)
			return types.BoolNull()
		}
	}
	return types.BoolValue(cur.Enabled)
}

// githubWebhooksChanged reports whether an update must set the switch: configured and different from state.
func githubWebhooksChanged(plan, state types.Bool) bool {
	return kit.IsKnownValue(plan) && !plan.Equal(state)
}

// readGitHubWebhooks refreshes the switch while state holds a value.
func readGitHubWebhooks(ctx context.Context, c *buildkite.Client, slug string, held types.Bool, diags *diag.Diagnostics) types.Bool {
	if !kit.IsKnownValue(held) {
		return types.BoolNull()
	}
	cur, err := c.Pipelines.GitHubWebhooks(ctx, slug)
	if err != nil {
		githubWebhooksError(diags, "read", slug, err)
		return held
	}
	return types.BoolValue(cur.Enabled)
}

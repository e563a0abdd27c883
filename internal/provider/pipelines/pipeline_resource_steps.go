package pipelines

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// buildkite_pipeline's calls, which the object kind makes (pipelineKind): a create and an update are several
// calls, a Read completes what REST does not show, a Delete archives where configured. Their errors are in
// their own words (kit.APIError, githubWebhooksError), naming the pipeline by its slug.

// createPipeline creates the pipeline, then sets the GitHub webhook switch and archives it where the plan
// says so. A later step that fails answers the pipeline with the error, which the kind records in state (with
// the switch null where the switch failed, unarchived where the archive did) rather than leaving it orphaned,
// so that the next apply finishes it rather than creating it again.
func createPipeline(ctx context.Context, c *buildkite.Client, _ string, plan *pipelineModel) (*buildkite.Pipeline, error) {
	in, diags := plan.toCreate(ctx, configuredSettings(plan.configSettings))
	plan.heldBlank = settingsBlockEmpty(plan.configSettings)
	if diags.HasError() {
		return nil, kit.DiagnosticsError(diags)
	}
	p, err := c.Pipelines.Create(ctx, in)
	if err != nil {
		return nil, err
	}
	// recordable looks up the cluster's name where the plan does not know it (an apply keeps the name it
	// planned, the cluster not changing), at each point where the pipeline is to be recorded; a name that
	// cannot be read leaves the pipeline unrecorded, with the error.
	planned := plan.ClusterName
	recordable := func(p *buildkite.Pipeline, diags *diag.Diagnostics) bool {
		plan.ClusterName = planned
		if !planned.IsUnknown() {
			return true
		}
		if err := plan.withClusterName(p, clusterNameByGet(ctx, c)); err != nil {
			kit.AddAPIError(diags, "read", "pipeline", p.Slug, err)
			return false
		}
		return true
	}
	// recorded answers p with the errors in diags, for the kind to record it where it is recordable.
	recorded := func(p *buildkite.Pipeline, ok bool) (*buildkite.Pipeline, error) {
		if !ok {
			p = nil
		}
		return p, kit.DiagnosticsError(diags)
	}
	if want := plan.GitHubWebhooksEnabled; kit.IsKnownValue(want) {
		// The pipeline is recorded first, the switch null, so that a failure leaves it tracked rather than orphaned.
		plan.GitHubWebhooksEnabled = types.BoolNull()
		ok := recordable(p, &diags)
		if plan.GitHubWebhooksEnabled = createGitHubWebhooks(ctx, c, p.Slug, want, &diags); diags.HasError() {
			return recorded(p, ok)
		}
	}
	if plan.Archived.ValueBool() {
		archived, err := c.Pipelines.Archive(ctx, p.Slug)
		if err != nil {
			// The pipeline exists: it is recorded so that the next apply archives it rather than re-creating it.
			ok := recordable(p, &diags)
			kit.AddAPIError(&diags, "archive", "pipeline", p.Slug, err)
			return recorded(p, ok)
		}
		p = archived
	}
	if !recordable(p, &diags) {
		return recorded(p, false)
	}
	plan.slugSource = slugSourceOf(plan.slugConfigured)
	return p, nil
}

// findPipeline finds the pipeline by the slug last seen, then by its UUID: a pipeline renamed outside Terraform
// has a new slug.
func findPipeline(ctx context.Context, c *buildkite.Client, slug, id string) (*buildkite.Pipeline, error) {
	p, err := c.Pipelines.Find(ctx, id, slug)
	if buildkite.IsNotFound(err) {
		err = confirmGone(ctx, c, slug, err)
	}
	return p, err
}

// confirmGone checks a pipeline that a search did not find: it is gone when its slug answers 404, or names
// another pipeline (the slug was taken after a rename). An answer for the slug that is no pipeline at all
// proves nothing, and notFound is then turned into an error that keeps the pipeline in state.
func confirmGone(ctx context.Context, c *buildkite.Client, slug string, notFound error) error {
	if slug == "" {
		return notFound
	}
	p, err := c.Pipelines.Get(ctx, slug)
	switch {
	case buildkite.IsNotFound(err), err == nil && p != nil && p.ID != "":
		return notFound
	case err != nil:
		return err
	}
	return fmt.Errorf("the search found no pipeline with its UUID (%s), and the service answered for the slug %q "+
		"without a pipeline, so it is not taken for gone", kit.DescribeError(notFound), slug)
}

// readPipelineParts completes a Read with what the pipeline's REST answer does not show: emoji and color
// (through GraphQL), the webhook switch while state holds it, and the cluster's name, read afresh.
func readPipelineParts(ctx context.Context, d *kit.ProviderData, got *pipelineModel, diags *diag.Diagnostics) {
	p := got.answer
	readLooks(ctx, d, p, got, diags)
	if got.GitHubWebhooksEnabled = readGitHubWebhooks(ctx, d.Client, p.Slug, got.GitHubWebhooksEnabled, diags); diags.HasError() {
		return
	}
	if err := got.withClusterName(p, clusterNameByGet(ctx, d.Client)); err != nil {
		kit.AddAPIError(diags, "read", "pipeline", p.Slug, err)
	}
}

// updatePipeline sends only what changed. An archived pipeline is read-only (official provider #1162): it is
// unarchived first and archived again last, and archived again when a step between fails.
func updatePipeline(ctx context.Context, c *buildkite.Client, _, slug string, plan, state *pipelineModel) (*buildkite.Pipeline, error) {
	if state.heldBlank {
		// The state's blanks are no reading of the service: every key the configuration sets is sent.
		state.ProviderSettings = types.ObjectNull(settingsAttrTypes())
		plan.heldBlank = settingsBlockEmpty(plan.configSettings)
	}
	upd, diags := plan.toUpdate(ctx, state, plan.configSettings)
	if diags.HasError() {
		return nil, kit.DiagnosticsError(diags)
	}
	client := c.Pipelines
	wasArchived, wantArchived := state.Archived.ValueBool(), plan.Archived.ValueBool()
	teamChanged := !plan.DefaultTeamID.Equal(state.DefaultTeamID)
	webhooksChanged := githubWebhooksChanged(plan.GitHubWebhooksEnabled, state.GitHubWebhooksEnabled)
	// failed reports a step's error, archiving the pipeline again first where the update unarchived it.
	failed := func(op string, err error) (*buildkite.Pipeline, error) {
		kit.AddAPIError(&diags, op, "pipeline", slug, err)
		rearchive(ctx, c, wasArchived && wantArchived, slug, &diags)
		return nil, kit.DiagnosticsError(diags)
	}

	var p *buildkite.Pipeline
	var err error
	if wasArchived && (!upd.IsZero() || teamChanged || webhooksChanged || !wantArchived) {
		if p, err = client.Unarchive(ctx, slug); err != nil {
			return nil, kit.APIError("unarchive", "pipeline", slug, err)
		}
	}
	if !upd.IsZero() {
		if p, err = client.Update(ctx, slug, upd); err != nil {
			return failed("update", err)
		}
		slug = p.Slug
	}
	if teamChanged {
		if err := changeDefaultTeam(ctx, c, state.DefaultTeamID, plan.DefaultTeamID, kit.RestID(state.ID)); err != nil {
			return failed("update", err)
		}
	}
	if webhooksChanged {
		if _, err := client.SetGitHubWebhooks(ctx, slug, plan.GitHubWebhooksEnabled.ValueBool()); err != nil {
			githubWebhooksError(&diags, "set", slug, err)
			rearchive(ctx, c, wasArchived && wantArchived, slug, &diags)
			return nil, kit.DiagnosticsError(diags)
		}
	}
	if wantArchived && (!wasArchived || p != nil) {
		if p, err = client.Archive(ctx, slug); err != nil {
			return nil, kit.APIError("archive", "pipeline", slug, err)
		}
	}
	if p == nil {
		if p, err = client.Find(ctx, kit.RestID(state.ID), slug); err != nil {
			return nil, kit.APIError("read", "pipeline", slug, err)
		}
	}
	// The update is applied: the slug's source is recorded even where the cluster's name then cannot be read.
	plan.slugSource = slugSourceOf(plan.slugConfigured)
	if plan.ClusterName.IsUnknown() {
		if err := plan.withClusterName(p, clusterNameByGet(ctx, c)); err != nil {
			return nil, kit.APIError("read", "pipeline", p.Slug, err)
		}
	}
	return p, nil
}

// rearchive archives again a pipeline an update unarchived and then failed on, so that a failed apply
// does not leave it editable.
func rearchive(ctx context.Context, c *buildkite.Client, needed bool, slug string, diags *diag.Diagnostics) {
	if !needed {
		return
	}
	if _, err := c.Pipelines.Archive(ctx, slug); err != nil {
		kit.AddAPIError(diags, "archive", "pipeline", slug, err)
	}
}

// changeDefaultTeam gives the new default team manage access and removes the old one's.
func changeDefaultTeam(ctx context.Context, c *buildkite.Client, old, next kit.RefValue, pipelineID string) error {
	if !next.IsNull() {
		if err := c.Pipelines.GrantTeam(ctx, next.UUID(), pipelineID, "manage_build_and_read"); err != nil {
			return fmt.Errorf("giving team %s access: %w", next.UUID(), err)
		}
	}
	if !old.IsNull() {
		if err := c.Pipelines.RevokeTeam(ctx, old.UUID(), pipelineID); err != nil {
			return fmt.Errorf("removing team %s's access: %w", old.UUID(), err)
		}
	}
	return nil
}

// removePipeline deletes the pipeline, or archives it where archive_on_delete (else the provider block's
// archive_pipeline_on_delete) says so. It is found first: renamed outside Terraform, its slug is not the
// one in state.
func removePipeline(ctx context.Context, b *kit.ResourceBase, state *pipelineModel) error {
	d := b.Data
	archive := d.ArchivePipelineOnDelete
	if !state.ArchiveOnDelete.IsNull() {
		archive = state.ArchiveOnDelete.ValueBool()
	}
	client := d.Client.Pipelines
	p, err := client.Find(ctx, kit.RestID(state.ID), state.Slug.ValueString())
	if err != nil {
		return err
	}
	if archive {
		_, err = client.Archive(ctx, p.Slug)
		return err
	}
	return client.Delete(ctx, p.Slug)
}

// resolvePipelineImport takes a slug, a UUID or a GraphQL ID, from the import ID or the identity's slug, to
// the pipeline's slug; Read then fills in everything else.
func resolvePipelineImport(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
	key := parts[0]
	client := c.Pipelines
	p, err := kit.FindByIDOrKey(ctx, key,
		func(ctx context.Context, id string) (*buildkite.Pipeline, error) { return client.Find(ctx, id, "") },
		func(ctx context.Context) ([]buildkite.Pipeline, error) {
			one, err := client.Get(ctx, key)
			if err != nil {
				if buildkite.IsNotFound(err) {
					return nil, nil
				}
				return nil, err
			}
			return []buildkite.Pipeline{*one}, nil
		},
		func(p *buildkite.Pipeline) string { return p.Slug })
	if err != nil {
		return "", "", kit.APIError("import", "pipeline", key, err)
	}
	return "", p.Slug, nil
}

package pipelines

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// pipelineWebhookIdentity names the webhook by its pipeline, for import blocks.
var pipelineWebhookIdentity = kit.IdentifiedBy(kit.IdentityAttr("pipeline_id", "The UUID of the pipeline."))

// NewPipelineWebhookResource returns the buildkite_pipeline_webhook resource.
func NewPipelineWebhookResource() resource.Resource { return kit.NewObject(pipelineWebhookKind) }

// pipelineWebhookKind declares buildkite_pipeline_webhook: the webhook on a GitHub pipeline's repository
// that sends pushes and pull requests to the pipeline. REST creates it and shows where it sends (the
// pipeline's provider.webhook_url); GraphQL reads it (a webhook removed on the repository's host is seen)
// and deletes it (pipelineDeleteWebhook), so the type needs GraphQL, as the official provider's does. It is
// a setting of its pipeline, named by pipeline_id as written, whose UUID is also its id.
var pipelineWebhookKind = &kit.ObjectKind[pipelineWebhook, pipelineWebhookModel]{
	Name:     "pipeline_webhook",
	What:     "pipeline webhook",
	Scopes:   kit.WriteScopes("write_pipelines"),
	Identity: pipelineWebhookIdentity,
	Schema:   pipelineWebhookSchema,
	// The official provider's states hold id as the webhook's external ID and pipeline_id as a GraphQL ID:
	// id becomes the pipeline's UUID.
	Moves: kit.StateMoves{Refs: []string{"pipeline_id"}, Official: func(_ int64, a kit.StateAttrs) error {
		delete(a, kit.AttrGraphQLID)
		if p, ok := a["pipeline_id"].(string); ok {
			a[kit.AttrID] = p
		}
		if _, ok := a["repository_url"]; !ok {
			a["repository_url"] = a["repository"]
		}
		if _, ok := a["repository"]; !ok {
			a["repository"] = a["repository_url"]
		}
		return nil
	}},
	GraphQL:   &kit.GraphQLCalls{},
	Setting:   true,
	AsWritten: true,
	Parent:    "pipeline_id",
	Key:       kit.AttrID,
	FromAPI:   func(m *pipelineWebhookModel, _ string, w *pipelineWebhook) { m.fromAPI(w.Pipeline) },
	Create:    createPipelineWebhook,
	Get:       getPipelineWebhook,
	// Update has nothing to send: every configured attribute replaces the resource.
	Update: func(context.Context, *buildkite.Client, string, string, *pipelineWebhookModel, *pipelineWebhookModel) (*pipelineWebhook, error) {
		return nil, nil
	},
	// Remove deletes the repository's webhook through GraphQL (pipelineDeleteWebhook); one already gone, or
	// a pipeline already gone, is success.
	Remove: func(ctx context.Context, c *buildkite.Client, ref, _ string) error {
		p, err := findWebhookPipeline(ctx, c, ref)
		if err == nil {
			_, err = c.Pipelines.DeleteWebhook(ctx, p.GraphQLID, p.Repository)
		}
		return err
	},
	ImportParts: []kit.ImportPart{kit.KeyPart("<pipeline slug, UUID or GraphQL ID>", "Pipeline")},
	Resolve:     resolvePipelineWebhook,
	// A repository that had a webhook already is taken over, with a warning.
	Applied: func(_ *pipelineWebhookModel, w *pipelineWebhook, _ string, diags *diag.Diagnostics) {
		if w == nil || w.existed == nil {
			return
		}
		p := w.Pipeline
		diags.AddWarning("Repository Webhook Taken Over", fmt.Sprintf(
			"The service did not create a webhook on %s (%s): it refuses when the repository has one already, which this "+
				"resource now stands for. If pushes do not start builds of %s, check the repository's webhooks for %s.",
			p.Repository, kit.DescribeError(w.existed), p.Slug, p.Provider.WebhookURL))
	},
	ModifyPlan: planRepository,
	Validators: []resource.ConfigValidator{repositoryNamesAgree{}},
}

// pipelineWebhook is what the service shows of a webhook: its pipeline and, after a create, the refusal of
// a repository that had one already (nil where the create made it).
type pipelineWebhook struct {
	*buildkite.Pipeline
	existed error
}

type pipelineWebhookModel struct {
	ID         types.String `tfsdk:"id"`
	PipelineID kit.RefValue `tfsdk:"pipeline_id"`
	Repository types.String `tfsdk:"repository"`
	// RepositoryURL is repository under the name a later version of the official provider gives it.
	RepositoryURL types.String `tfsdk:"repository_url"`
	WebhookURL    types.String `tfsdk:"webhook_url"`
}

// wantedRepository is the repository the configuration or plan names, by either attribute.
func (m *pipelineWebhookModel) wantedRepository() types.String {
	if !m.Repository.IsNull() {
		return m.Repository
	}
	return m.RepositoryURL
}

// fromAPI copies what the pipeline shows of its webhook; the pipeline reference keeps its form.
func (m *pipelineWebhookModel) fromAPI(p *buildkite.Pipeline) {
	m.ID = types.StringValue(p.ID)
	if !kit.IsKnownValue(m.PipelineID) || !kit.SameObject(m.PipelineID.ValueString(), p.ID) {
		m.PipelineID = kit.NewRef(p.ID)
	}
	m.Repository = types.StringValue(p.Repository)
	m.RepositoryURL = m.Repository
	m.WebhookURL = types.StringValue(p.Provider.WebhookURL)
}

// webhookProviders are the source providers whose repositories the service can put a webhook on.
var webhookProviders = map[string]bool{"github": true, "github_enterprise": true}

func pipelineWebhookSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "The webhook on a GitHub (or GitHub Enterprise) pipeline's repository that starts its builds. " +
			"Buildkite's REST API creates it (the token needs `write_pipelines`, and the service its GitHub App on the " +
			"repository); its GraphQL API reads and deletes it, so the token needs the `graphql` scope too. A webhook " +
			"removed on the repository's host is planned again; destroying the resource deletes the webhook. A " +
			"repository that has one already is taken over. Import by the pipeline's slug, UUID or GraphQL ID; a " +
			"pipeline whose repository has no webhook cannot be imported.",
		Attributes: map[string]schema.Attribute{
			kit.AttrID:    kit.ComputedString("The pipeline's UUID, which identifies its webhook here (the REST API does not show the webhook's own ID)."),
			"pipeline_id": kit.ParentIDAttribute("The UUID of the pipeline.", "Pipeline"),
			"repository": schema.StringAttribute{
				MarkdownDescription: "The pipeline's repository URL, exactly as the pipeline has it (for example " +
					"`buildkite_pipeline.example.repository`). Changing it replaces the resource. Set this or `repository_url`.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{stringvalidator.AtLeastOneOf(path.MatchRoot("repository_url"))},
			},
			"repository_url": schema.StringAttribute{
				MarkdownDescription: "`repository` under the name later versions of the official provider give it; either may be set, and both hold the same URL.",
				Optional:            true,
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			},
			"webhook_url": kit.ComputedString("Where the webhook sends: the pipeline's `provider.webhook_url`."),
		},
	}
}

// repositoryNamesAgree refuses repository and repository_url naming different URLs.
type repositoryNamesAgree struct{}

func (repositoryNamesAgree) Description(context.Context) string {
	return "repository and repository_url name the same URL"
}

func (v repositoryNamesAgree) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (repositoryNamesAgree) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m pipelineWebhookModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !kit.IsKnownValue(m.Repository) || !kit.IsKnownValue(m.RepositoryURL) {
		return
	}
	if m.Repository.ValueString() != m.RepositoryURL.ValueString() {
		resp.Diagnostics.AddAttributeError(path.Root("repository_url"), "Conflicting Repository URLs", fmt.Sprintf(
			"repository (%q) and repository_url (%q) are two names of one setting: set one, or both to the same URL.",
			m.Repository.ValueString(), m.RepositoryURL.ValueString()))
	}
}

// planRepository plans the attribute of the two repository names that the configuration leaves out as the
// one it sets; another repository than the state's replaces the webhook.
func planRepository(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var config pipelineWebhookModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	wanted := config.wantedRepository()
	for _, name := range []string{"repository", "repository_url"} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), wanted)...)
	}
	if !req.State.Raw.IsNull() {
		var state pipelineWebhookModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if !wanted.IsUnknown() && wanted.ValueString() != state.Repository.ValueString() {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("repository"))
		}
	}
}

// findWebhookPipeline finds the pipeline that ref, pipeline_id as written (its UUID or GraphQL ID), names.
func findWebhookPipeline(ctx context.Context, c *buildkite.Client, ref string) (*buildkite.Pipeline, error) {
	return kit.FindPipelineByID(ctx, c, kit.NewRef(ref).UUID(), ref)
}

// createPipelineWebhook asks the service to put the webhook on the pipeline's repository, which must be the
// one the plan names and be on GitHub. A repository that has one already is taken over (Applied warns).
func createPipelineWebhook(ctx context.Context, c *buildkite.Client, ref string, plan *pipelineWebhookModel) (*pipelineWebhook, error) {
	p, err := findWebhookPipeline(ctx, c, ref)
	if err != nil {
		return nil, &kit.Reported{Err: err, Report: func(diags *diag.Diagnostics, _ string) {
			kit.NotFoundOrAPIError(diags, err, "pipeline", ref)
		}}
	}
	wanted := plan.wantedRepository().ValueString()
	switch {
	case p.Repository != wanted:
		return nil, &kit.Reported{Err: fmt.Errorf("repository %q is not the pipeline's", wanted), Report: func(diags *diag.Diagnostics, _ string) {
			diags.AddAttributeError(path.Root("repository"), "Repository URL Mismatch", fmt.Sprintf(
				"Repository URL mismatch: pipeline %s builds %q, not %q. The repository must be the pipeline's repository "+
					"URL exactly (for example buildkite_pipeline.example.repository).", p.Slug, p.Repository, wanted))
		}}
	case !webhookProviders[p.Provider.ID]:
		// The official provider's users match "Auto-creating webhooks is only\s+supported for GitHub and GitHub
		// Enterprise repositories"; the lead-in puts Terraform's line break (at 75 to 77 columns) after "only".
		return nil, &kit.DiagnosedError{Summary: "Unable to Create Pipeline Webhook", Detail: fmt.Sprintf(
			"The service cannot create this webhook. Auto-creating webhooks is only supported for GitHub and GitHub "+
				"Enterprise repositories, and pipeline %s builds %s (on %s). Add the webhook (%s) in the repository's "+
				"settings instead.", p.Slug, p.Repository, kit.DisplayOr(p.Provider.ID, "an unknown provider"), p.Provider.WebhookURL)}
	}
	w := &pipelineWebhook{Pipeline: p}
	switch err := c.Pipelines.CreateWebhook(ctx, p.Slug); {
	case buildkite.IsWebhookExists(err):
		w.existed = err
	case err != nil:
		return nil, &kit.Reported{Err: err, Report: func(diags *diag.Diagnostics, _ string) {
			kit.AddAPIError(diags, "create", "pipeline webhook", p.Slug, err)
		}}
	}
	// The webhook's URL is the pipeline's; read it again in case the create changed it.
	if again, err := c.Pipelines.Get(ctx, p.Slug); err == nil {
		w.Pipeline = again
	}
	return w, nil
}

// getPipelineWebhook reads the webhook through its pipeline: REST serves the pipeline, GraphQL the webhook.
// A pipeline no longer on GitHub, or a repository with no webhook any more, is left behind: Read warns and
// removes the resource from state.
func getPipelineWebhook(ctx context.Context, c *buildkite.Client, ref, _ string) (*pipelineWebhook, error) {
	p, err := findWebhookPipeline(ctx, c, ref)
	if err != nil {
		return nil, err
	}
	if !webhookProviders[p.Provider.ID] {
		return nil, &kit.LeftBehind{Summary: "Pipeline Repository Provider Changed", Detail: fmt.Sprintf(
			"Pipeline %s now builds %s, on %s, where the service keeps no webhook: buildkite_pipeline_webhook is removed "+
				"from state.", p.Slug, p.Repository, kit.DisplayOr(p.Provider.ID, "an unknown provider"))}
	}
	hook, err := c.Pipelines.Webhook(ctx, p.GraphQLID)
	if err != nil {
		// REST has just served the pipeline: a GraphQL null or not found for it is no sign the webhook is gone.
		return nil, &kit.Reported{Err: err, Report: func(diags *diag.Diagnostics, ident string) {
			kit.AddPartReadError(diags, "pipeline webhook", ident, "webhook (read through its pipeline)", err)
		}}
	}
	if hook == nil {
		return nil, &kit.LeftBehind{Summary: "Pipeline Webhook Not Found", Detail: fmt.Sprintf(
			"The repository of pipeline %s (%s) has no webhook from Buildkite any more (removed on the repository's host): "+
				"buildkite_pipeline_webhook is removed from state and planned again.", p.Slug, p.Repository)}
	}
	return &pipelineWebhook{Pipeline: p}, nil
}

// resolvePipelineWebhook imports by the pipeline's slug, UUID or GraphQL ID (the official provider's import
// ID). As the official provider's, a pipeline whose repository has no webhook has nothing to import.
func resolvePipelineWebhook(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
	p, err := kit.FindPipeline(ctx, c, parts[0])
	if err != nil {
		return "", "", &kit.Reported{Err: err, Report: func(diags *diag.Diagnostics, importID string) {
			kit.NotFoundOrAPIError(diags, err, "pipeline", importID)
		}}
	}
	hook, err := c.Pipelines.Webhook(ctx, p.GraphQLID)
	if err != nil {
		return "", "", &kit.Reported{Err: err, Report: func(diags *diag.Diagnostics, importID string) {
			kit.AddGraphQLError(diags, "import", "pipeline webhook", importID, err, nil)
		}}
	}
	if hook == nil {
		return "", "", &kit.Reported{Err: errors.New("no webhook"), Report: func(diags *diag.Diagnostics, importID string) {
			diags.AddError("Pipeline webhook not found", fmt.Sprintf(
				"Cannot import non-existent remote object: pipeline %s (%s) has no webhook on its repository %s. Create "+
					"it with this resource instead.", p.Slug, importID, p.Repository))
		}}
	}
	return p.ID, p.ID, nil
}

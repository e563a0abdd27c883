package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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

var (
	_ resource.Resource                   = (*pipelineWebhookResource)(nil)
	_ resource.ResourceWithConfigure      = (*pipelineWebhookResource)(nil)
	_ resource.ResourceWithImportState    = (*pipelineWebhookResource)(nil)
	_ resource.ResourceWithIdentity       = (*pipelineWebhookResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*pipelineWebhookResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*pipelineWebhookResource)(nil)
	_ resource.ResourceWithValidateConfig = (*pipelineWebhookResource)(nil)
)

// pipelineWebhookIdentity names the webhook by its pipeline, for import blocks.
var pipelineWebhookIdentity = kit.IdentifiedBy(kit.IdentityAttr("pipeline_id", "The UUID of the pipeline."))

// NewPipelineWebhookResource returns the buildkite_pipeline_webhook resource.
func NewPipelineWebhookResource() resource.Resource {
	return &pipelineWebhookResource{
		ResourceBase: kit.NewResourceBase("pipeline_webhook", kit.WriteScopes("write_pipelines"), pipelineWebhookIdentity).WithGraphQLType(),
	}
}

// pipelineWebhookResource is the webhook on a GitHub pipeline's repository that sends pushes and pull
// requests to the pipeline. REST creates it and shows where it sends (the pipeline's provider.webhook_url);
// GraphQL reads it (a webhook removed on the repository's host is seen) and deletes it
// (pipelineDeleteWebhook), so the type needs GraphQL, as the official provider's does.
type pipelineWebhookResource struct {
	kit.ResourceBase
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

func (r *pipelineWebhookResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
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

// ValidateConfig refuses repository and repository_url naming different URLs.
func (r *pipelineWebhookResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
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

// ModifyPlan checks scopes (ResourceBase), then plans the attribute of the two repository names that the
// configuration leaves out as the one it sets.
func (r *pipelineWebhookResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.ResourceBase.ModifyPlan(ctx, req, resp)
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

// UpgradeState moves the official provider's states (id the webhook's external ID, pipeline_id a GraphQL
// ID) to version 1: id becomes the pipeline's UUID.
func (r *pipelineWebhookResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{Refs: []string{"pipeline_id"}, Official: func(_ int64, a kit.StateAttrs) error {
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
	}})
}

func (r *pipelineWebhookResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan pipelineWebhookModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	ref := plan.PipelineID.ValueString()
	p, err := kit.FindPipelineByID(ctx, r.Client(), plan.PipelineID.UUID(), ref)
	if err != nil {
		kit.NotFoundOrAPIError(&resp.Diagnostics, err, "pipeline", ref)
		return
	}
	switch {
	case p.Repository != plan.wantedRepository().ValueString():
		resp.Diagnostics.AddAttributeError(path.Root("repository"), "Repository URL Mismatch", fmt.Sprintf(
			"Repository URL mismatch: pipeline %s builds %q, not %q. The repository must be the pipeline's repository "+
				"URL exactly (for example buildkite_pipeline.example.repository).", p.Slug, p.Repository, plan.wantedRepository().ValueString()))
		return
	case !webhookProviders[p.Provider.ID]:
		// The official provider's users match "Auto-creating webhooks is only\s+supported for GitHub and GitHub
		// Enterprise repositories"; the lead-in puts Terraform's line break (at 75 to 77 columns) after "only".
		resp.Diagnostics.AddError("Unable to Create Pipeline Webhook", fmt.Sprintf(
			"The service cannot create this webhook. Auto-creating webhooks is only supported for GitHub and GitHub "+
				"Enterprise repositories, and pipeline %s builds %s (on %s). Add the webhook (%s) in the repository's "+
				"settings instead.", p.Slug, p.Repository, kit.DisplayOr(p.Provider.ID, "an unknown provider"), p.Provider.WebhookURL))
		return
	}
	err = r.Client().Pipelines.CreateWebhook(ctx, p.Slug)
	switch {
	case buildkite.IsWebhookExists(err):
		resp.Diagnostics.AddWarning("Repository Webhook Taken Over", fmt.Sprintf(
			"The service did not create a webhook on %s (%s): it refuses when the repository has one already, which this "+
				"resource now stands for. If pushes do not start builds of %s, check the repository's webhooks for %s.",
			p.Repository, kit.DescribeError(err), p.Slug, p.Provider.WebhookURL))
	case err != nil:
		kit.AddAPIError(&resp.Diagnostics, "create", "pipeline webhook", p.Slug, err)
		return
	}
	// The webhook's URL is the pipeline's; read it again in case the create changed it.
	if again, err := r.Client().Pipelines.Get(ctx, p.Slug); err == nil {
		p = again
	}
	plan.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *pipelineWebhookResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state pipelineWebhookModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	p, err := kit.FindPipelineByID(ctx, r.Client(), state.PipelineID.UUID(), state.PipelineID.ValueString())
	if err != nil {
		r.ReadFailed(ctx, resp, err, "pipeline webhook", state.PipelineID.ValueString())
		return
	}
	if !webhookProviders[p.Provider.ID] {
		resp.Diagnostics.AddWarning("Pipeline Repository Provider Changed", fmt.Sprintf(
			"Pipeline %s now builds %s, on %s, where the service keeps no webhook: buildkite_pipeline_webhook is removed "+
				"from state.", p.Slug, p.Repository, kit.DisplayOr(p.Provider.ID, "an unknown provider")))
		r.RemoveGone(ctx, resp)
		return
	}
	hook, err := r.Client().Pipelines.Webhook(ctx, p.GraphQLID)
	if err != nil {
		// REST has just served the pipeline: a GraphQL null or not found for it is no sign the webhook is gone.
		kit.AddPartReadError(&resp.Diagnostics, "pipeline webhook", state.PipelineID.ValueString(), "webhook (read through its pipeline)", err)
		return
	}
	if hook == nil {
		resp.Diagnostics.AddWarning("Pipeline Webhook Not Found", fmt.Sprintf(
			"The repository of pipeline %s (%s) has no webhook from Buildkite any more (removed on the repository's host): "+
				"buildkite_pipeline_webhook is removed from state and planned again.", p.Slug, p.Repository))
		r.RemoveGone(ctx, resp)
		return
	}
	state.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update has nothing to send: every configured attribute replaces the resource.
func (r *pipelineWebhookResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan pipelineWebhookModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete deletes the repository's webhook through GraphQL (pipelineDeleteWebhook); one already gone, or a
// pipeline already gone, is success.
func (r *pipelineWebhookResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state pipelineWebhookModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	p, err := kit.FindPipelineByID(ctx, r.Client(), state.PipelineID.UUID(), state.PipelineID.ValueString())
	if err == nil {
		_, err = r.Client().Pipelines.DeleteWebhook(ctx, p.GraphQLID, p.Repository)
		if kit.ActedWithErrors(&resp.Diagnostics, err, "delete", "pipeline webhook", state.PipelineID.ValueString()) {
			return // the answer names the webhook it deleted
		}
	}
	r.DeleteFailed(ctx, &resp.Diagnostics, err, "pipeline webhook", state.PipelineID.ValueString())
}

// ImportState takes the pipeline's slug, UUID or GraphQL ID (the official provider's import ID).
func (r *pipelineWebhookResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.ImportParts(ctx, req, resp, kit.KeyPart("<pipeline slug, UUID or GraphQL ID>", "Pipeline"))
	if !ok {
		return
	}
	p, err := kit.FindPipeline(ctx, r.Client(), parts[0])
	if err != nil {
		kit.NotFoundOrAPIError(&resp.Diagnostics, err, "pipeline", req.ID)
		return
	}
	// As the official provider's: a pipeline whose repository has no webhook has nothing to import.
	hook, err := r.Client().Pipelines.Webhook(ctx, p.GraphQLID)
	if err != nil {
		kit.AddGraphQLError(&resp.Diagnostics, "import", "pipeline webhook", req.ID, err, nil)
		return
	}
	if hook == nil {
		resp.Diagnostics.AddError("Pipeline webhook not found", fmt.Sprintf(
			"Cannot import non-existent remote object: pipeline %s (%s) has no webhook on its repository %s. Create "+
				"it with this resource instead.", p.Slug, req.ID, p.Repository))
		return
	}
	var m pipelineWebhookModel
	m.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

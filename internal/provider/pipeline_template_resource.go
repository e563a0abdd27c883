package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*pipelineTemplateResource)(nil)
	_ resource.ResourceWithConfigure    = (*pipelineTemplateResource)(nil)
	_ resource.ResourceWithImportState  = (*pipelineTemplateResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*pipelineTemplateResource)(nil)
	_ resource.ResourceWithIdentity     = (*pipelineTemplateResource)(nil)
	_ resource.ResourceWithUpgradeState = (*pipelineTemplateResource)(nil)
)

// pipelineTemplateIdentity names a pipeline template for import blocks and terraform query: its UUID,
// since a name can change and need not be unique.
var pipelineTemplateIdentity = identifiedBy(identityAttr("id", "The pipeline template's UUID."))

// NewPipelineTemplateResource returns the buildkite_pipeline_template resource.
func NewPipelineTemplateResource() resource.Resource {
	return &pipelineTemplateResource{
		resourceBase: newResourceBase("pipeline_template", writeScopes("write_pipeline_templates"), pipelineTemplateIdentity),
	}
}

type pipelineTemplateResource struct {
	resourceBase
}

// pipelineTemplateModel is the template's state; the data sources show the same attributes.
type pipelineTemplateModel struct {
	ID            types.String   `tfsdk:"id"`
	UUID          types.String   `tfsdk:"uuid"`
	GraphQLID     types.String   `tfsdk:"graphql_id"`
	URL           types.String   `tfsdk:"url"`
	WebURL        types.String   `tfsdk:"web_url"`
	CreatedAt     types.String   `tfsdk:"created_at"`
	UpdatedAt     types.String   `tfsdk:"updated_at"`
	Name          types.String   `tfsdk:"name"`
	Configuration semanticString `tfsdk:"configuration"`
	Description   types.String   `tfsdk:"description"`
	Available     types.Bool     `tfsdk:"available"`
}

func (m *pipelineTemplateModel) fromAPI(t *buildkite.PipelineTemplate, prior *pipelineTemplateModel) {
	if prior == nil {
		prior = &pipelineTemplateModel{}
	}
	m.ID = types.StringValue(t.UUID)
	m.UUID = types.StringValue(t.UUID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.URL = types.StringValue(t.URL)
	m.WebURL = types.StringValue(t.WebURL)
	m.CreatedAt = timeValue(t.CreatedAt)
	m.UpdatedAt = timeValue(t.UpdatedAt)
	m.Name = types.StringValue(t.Name)
	m.Configuration = yamlString(t.Configuration)
	m.Description = keepEmpty(prior.Description, &t.Description)
	m.Available = types.BoolValue(t.Available)
}

func (r *pipelineTemplateResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "A pipeline template: a step configuration that pipelines run by naming it in " +
			"`pipeline_template_id`. Pipeline templates need the enterprise plan; admins manage them.\n\n" +
			"The service refuses to delete a template still assigned to pipelines (the error names them). Give the " +
			"template `lifecycle { create_before_destroy = true }`, as the example does: a change that removes the " +
			"template and its `pipeline_template_id` together then updates the pipelines first and deletes the " +
			"template after, where without it Terraform deletes the template first and the apply fails.",
		Attributes: withCommon("pipeline template", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The template's name.",
				Required:            true,
				Validators:          []validator.String{notBlank()},
			},
			"configuration": schema.StringAttribute{
				CustomType: yamlStringType,
				MarkdownDescription: "The steps as YAML. Compared by meaning: line endings, a byte-order mark, trailing " +
					"newlines and the service's re-rendering never show as a difference.",
				Required:      true,
				PlanModifiers: []planmodifier.String{keepSemanticallyEqualState(yamlFormat)},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the template.",
				Optional:            true,
			},
			"available": schema.BoolAttribute{
				MarkdownDescription: "Whether members who are not admins may assign the template to pipelines. Defaults to `false`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the template was last changed (RFC 3339).",
				Computed:            true,
			},
		}, attrID, attrUUID, attrGraphQLID, attrURL, attrWebURL, attrCreatedAt),
	}
}

// UpgradeState moves the official provider's states and ours of version 0 to version 1.
func (r *pipelineTemplateResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{})
}

// ModifyPlan keeps updated_at from state when nothing else changes, so that an empty plan stays empty;
// a change leaves it unknown, since the service sets a new time.
func (r *pipelineTemplateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.resourceBase.ModifyPlan(ctx, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var plan, state pipelineTemplateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.UpdatedAt = state.UpdatedAt
	if !plan.Name.Equal(state.Name) || !plan.Configuration.Equal(state.Configuration) ||
		!plan.Description.Equal(state.Description) || !plan.Available.Equal(state.Available) {
		plan.UpdatedAt = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *pipelineTemplateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan pipelineTemplateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	t, err := r.client().PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
		Name:          plan.Name.ValueString(),
		Configuration: plan.Configuration.ValueString(),
		Description:   stringPtrIfSet(plan.Description),
		Available:     plan.Available.ValueBoolPointer(),
	})
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "pipeline template", plan.Name.ValueString(), err)
		return
	}
	var state pipelineTemplateModel
	state.fromAPI(t, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *pipelineTemplateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var prior pipelineTemplateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	t, err := r.client().PipelineTemplates.Get(ctx, restID(prior.ID))
	if err != nil {
		r.readFailed(ctx, resp, err, "pipeline template", prior.ID.ValueString())
		return
	}
	var state pipelineTemplateModel
	state.fromAPI(t, &prior)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *pipelineTemplateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan, prior pipelineTemplateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	var in buildkite.PipelineTemplateUpdate
	if !plan.Name.Equal(prior.Name) {
		in.Name = plan.Name.ValueStringPointer()
	}
	if !yamlFormat.equal(plan.Configuration.ValueString(), prior.Configuration.ValueString()) {
		in.Configuration = plan.Configuration.ValueStringPointer()
	}
	if !plan.Description.Equal(prior.Description) {
		in.Description = stringPtr(plan.Description)
	}
	if !plan.Available.Equal(prior.Available) {
		in.Available = plan.Available.ValueBoolPointer()
	}
	id := restID(prior.ID)
	t, err := r.client().PipelineTemplates.Update(ctx, id, in)
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "pipeline template", id, err)
		return
	}
	var state pipelineTemplateModel
	state.fromAPI(t, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *pipelineTemplateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state pipelineTemplateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	id := restID(state.ID)
	err := r.client().PipelineTemplates.Delete(ctx, id)
	if buildkite.IsValidation(err) {
		// The service refuses while pipelines use the template; name them and the ways out.
		if users := r.templateUsers(ctx, id); len(users) > 0 {
			resp.Diagnostics.AddError("Unable to Delete Pipeline Template", templateInUseDetail(id, err, users))
			return
		}
	}
	r.deleteFailed(ctx, &resp.Diagnostics, err, "pipeline template", id)
}

// templateUsers returns the slugs of the pipelines assigned to template id, or none when they cannot be
// listed (the service's own refusal is then reported).
func (r *pipelineTemplateResource) templateUsers(ctx context.Context, id string) []string {
	all, err := r.client().Pipelines.List(ctx, nil)
	if err != nil {
		return nil
	}
	var slugs []string
	for _, p := range all {
		if p.PipelineTemplateUUID != nil && *p.PipelineTemplateUUID == id {
			slugs = append(slugs, p.Slug)
		}
	}
	return slugs
}

// templateInUseDetail explains a delete refused while pipelines use the template. The usual cause is one
// change that removes the template and its use: Terraform then deletes the template before it updates the
// pipelines, unless the template has create_before_destroy.
func templateInUseDetail(id string, err error, slugs []string) string {
	return fmt.Sprintf("Deleting pipeline template %s: %s. It is still assigned to pipeline%s %s.\n\n"+
		"When one change removes a template and its use, Terraform deletes the template before it updates the "+
		"pipelines, unless the template has `lifecycle { create_before_destroy = true }`. Either put the template "+
		"back in the configuration with that setting and apply, after which removing both applies at once; or "+
		"apply the pipelines first (`terraform apply -target=buildkite_pipeline.<name>` for each), then apply "+
		"again. Pipelines this configuration does not manage must drop pipeline_template_id, or be deleted, first.",
		id, describeError(err), plural(len(slugs)), quoteList(slugs))
}

// ImportState takes the template's UUID.
func (r *pipelineTemplateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	values, ok := r.importParts(ctx, req, resp, uuidPart("<pipeline template UUID>", "PipelineTemplate"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), values[0])...)
}

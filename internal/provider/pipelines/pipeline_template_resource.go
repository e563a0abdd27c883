package pipelines

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// pipelineTemplateIdentity names a pipeline template for import blocks and terraform query: its UUID,
// since a name can change and need not be unique.
var pipelineTemplateIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The pipeline template's UUID."))

// NewPipelineTemplateResource returns the buildkite_pipeline_template resource.
func NewPipelineTemplateResource() resource.Resource { return kit.NewObject(pipelineTemplateKind) }

// pipelineTemplateKind declares buildkite_pipeline_template: imported by UUID; an update sends only what
// changed; a delete refused while pipelines use the template names them and the ways out.
var pipelineTemplateKind = &kit.ObjectKind[buildkite.PipelineTemplate, pipelineTemplateModel]{
	Name:     "pipeline_template",
	What:     "pipeline template",
	Scopes:   kit.WriteScopes("write_pipeline_templates"),
	Identity: pipelineTemplateIdentity,
	Schema:   pipelineTemplateSchema,
	Key:      kit.AttrID,
	FromAPI: func(m *pipelineTemplateModel, _ string, t *buildkite.PipelineTemplate) {
		prior := *m
		m.fromAPI(t, &prior)
	},
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *pipelineTemplateModel) (*buildkite.PipelineTemplate, error) {
		return c.PipelineTemplates.Create(ctx, buildkite.PipelineTemplateCreate{
			Name:          plan.Name.ValueString(),
			Configuration: plan.Configuration.ValueString(),
			Description:   kit.StringPtrIfSet(plan.Description),
			Available:     plan.Available.ValueBoolPointer(),
		})
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.PipelineTemplate, error) {
		return c.PipelineTemplates.Get(ctx, id)
	},
	Update: func(ctx context.Context, c *buildkite.Client, _, id string, plan, prior *pipelineTemplateModel) (*buildkite.PipelineTemplate, error) {
		var in buildkite.PipelineTemplateUpdate
		if !plan.Name.Equal(prior.Name) {
			in.Name = plan.Name.ValueStringPointer()
		}
		if !kit.YamlFormat.Equal(plan.Configuration.ValueString(), prior.Configuration.ValueString()) {
			in.Configuration = plan.Configuration.ValueStringPointer()
		}
		if !plan.Description.Equal(prior.Description) {
			in.Description = kit.StringPtr(plan.Description)
		}
		if !plan.Available.Equal(prior.Available) {
			in.Available = plan.Available.ValueBoolPointer()
		}
		return c.PipelineTemplates.Update(ctx, id, in)
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, id string) error {
		return c.PipelineTemplates.Delete(ctx, id)
	},
	ImportParts: []kit.ImportPart{kit.UuidPart("<pipeline template UUID>", "PipelineTemplate")},
	Named:       func(plan *pipelineTemplateModel) string { return plan.Name.ValueString() },
	DeleteRefused: func(ctx context.Context, c *buildkite.Client, _, id string, err error) string {
		// The service refuses while pipelines use the template; name them and the ways out.
		if !buildkite.IsValidation(err) {
			return ""
		}
		if users := templateUsers(ctx, c, id); len(users) > 0 {
			return templateInUseDetail(id, err, users)
		}
		return ""
	},
	// updated_at stays from state when nothing else changes, so that an empty plan stays empty; a change
	// leaves it unknown, since the service sets a new time.
	Planned: func(plan, state *pipelineTemplateModel, _ *diag.Diagnostics) {
		plan.UpdatedAt = state.UpdatedAt
		if !plan.Name.Equal(state.Name) || !plan.Configuration.Equal(state.Configuration) ||
			!plan.Description.Equal(state.Description) || !plan.Available.Equal(state.Available) {
			plan.UpdatedAt = types.StringUnknown()
		}
	},
}

// pipelineTemplateModel is the template's state; the data sources show the same attributes.
type pipelineTemplateModel struct {
	ID            types.String       `tfsdk:"id"`
	UUID          types.String       `tfsdk:"uuid"`
	GraphQLID     types.String       `tfsdk:"graphql_id"`
	URL           types.String       `tfsdk:"url"`
	WebURL        types.String       `tfsdk:"web_url"`
	CreatedAt     types.String       `tfsdk:"created_at"`
	UpdatedAt     types.String       `tfsdk:"updated_at"`
	Name          types.String       `tfsdk:"name"`
	Configuration kit.SemanticString `tfsdk:"configuration"`
	Description   types.String       `tfsdk:"description"`
	Available     types.Bool         `tfsdk:"available"`
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
	m.CreatedAt = kit.TimeValue(t.CreatedAt)
	m.UpdatedAt = kit.TimeValue(t.UpdatedAt)
	m.Name = types.StringValue(t.Name)
	m.Configuration = kit.YamlString(t.Configuration)
	m.Description = kit.KeepEmpty(prior.Description, &t.Description)
	m.Available = types.BoolValue(t.Available)
}

// pipelineTemplateSchema is the schema of buildkite_pipeline_template.
func pipelineTemplateSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A pipeline template: a step configuration that pipelines run by naming it in " +
			"`pipeline_template_id`. Pipeline templates need the enterprise plan; admins manage them.\n\n" +
			"The service refuses to delete a template still assigned to pipelines (the error names them). Give the " +
			"template `lifecycle { create_before_destroy = true }`, as the example does: a change that removes the " +
			"template and its `pipeline_template_id` together then updates the pipelines first and deletes the " +
			"template after, where without it Terraform deletes the template first and the apply fails.",
		Attributes: kit.WithCommon("pipeline template", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The template's name.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"configuration": schema.StringAttribute{
				CustomType: kit.YamlStringType,
				MarkdownDescription: "The steps as YAML. Compared by meaning: line endings, a byte-order mark, trailing " +
					"newlines and the service's re-rendering never show as a difference.",
				Required:      true,
				PlanModifiers: []planmodifier.String{kit.KeepSemanticallyEqualState(kit.YamlFormat)},
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
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL, kit.AttrCreatedAt),
	}
}

// templateUsers returns the slugs of the pipelines assigned to template id, or none when they cannot be
// listed (the service's own refusal is then reported).
func templateUsers(ctx context.Context, c *buildkite.Client, id string) []string {
	all, err := c.Pipelines.List(ctx, nil)
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
		id, kit.DescribeError(err), kit.Plural(len(slugs)), kit.QuoteList(slugs))
}

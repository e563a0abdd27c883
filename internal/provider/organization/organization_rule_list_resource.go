package organization

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ list.ListResourceWithConfigure = (*organizationRuleListResource)(nil)

// NewOrganizationRuleListResource returns the buildkite_organization_rule list resource.
func NewOrganizationRuleListResource() list.ListResource {
	return &organizationRuleListResource{ListBase: kit.NewListBase("organization_rule", organizationRuleIdentity)}
}

type organizationRuleListResource struct {
	kit.ListBase
}

// organizationRuleListFilter: a rule has no name, so it is found by what a person knows of it, its type
// and a pipeline it names.
type organizationRuleListFilter struct {
	Type       types.String `tfsdk:"type"`
	PipelineID types.String `tfsdk:"pipeline_id"`
}

func (l *organizationRuleListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the organization's rules, shown as `<type>: <source> -> <target>` with pipelines " +
			"by name. The filters combine.",
		Attributes: map[string]schema.Attribute{
			"type": schema.StringAttribute{
				MarkdownDescription: "Only rules of this type, such as `pipeline.trigger_build.pipeline`.",
				Optional:            true,
				Validators: []validator.String{stringvalidator.RegexMatches(ruleTypePattern,
					"must have the form <source>.<action>.<target>, such as pipeline.trigger_build.pipeline")},
			},
			"pipeline_id": schema.StringAttribute{
				MarkdownDescription: "Only rules whose source or target is the pipeline with this ID (UUID). " +
					kit.RefDescription([]string{"Pipeline"}),
				Optional:   true,
				Validators: []validator.String{kit.RefValidator{GraphQLTypes: []string{"Pipeline"}}},
			},
		},
	}
}

func (l *organizationRuleListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter organizationRuleListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	callCtx, cancel := l.Timeout(ctx, kit.OpRead)
	defer cancel()
	var diags diag.Diagnostics
	all, err := l.Client().Rules.List(callCtx)
	if err != nil {
		kit.AddAPIError(&diags, "list", "rules", "", err)
		kit.ListFailed(stream, diags)
		return
	}
	var rules []*buildkite.Rule
	for i := range all {
		r := &all[i]
		if !filter.Type.IsNull() && r.Type != filter.Type.ValueString() {
			continue
		}
		if id := kit.CanonicalID(filter.PipelineID.ValueString()); id != "" &&
			(r.SourceType != "pipeline" || r.SourceUUID != id) && (r.TargetType != "pipeline" || r.TargetUUID != id) {
			continue
		}
		rules = append(rules, r)
	}
	names := l.pipelineNames(callCtx, rules, &diags)
	if diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	items := make([]kit.Found, 0, len(rules))
	for _, r := range rules {
		var m organizationRuleModel
		m.fromAPI(r, kit.JsonNull())
		items = append(items, kit.Found{Model: &m, DisplayName: fmt.Sprintf("%s: %s -> %s", r.Type,
			ruleEndName(names, r.SourceType, r.SourceUUID), ruleEndName(names, r.TargetType, r.TargetUUID))})
	}
	stream.Results = l.Results(ctx, req, items)
}

// pipelineNames maps the UUIDs of the organization's pipelines to their names, from one listing, when a
// rule names a pipeline.
func (l *organizationRuleListResource) pipelineNames(ctx context.Context, rules []*buildkite.Rule, diags *diag.Diagnostics) map[string]string {
	if !slices.ContainsFunc(rules, func(r *buildkite.Rule) bool { return r.SourceType == "pipeline" || r.TargetType == "pipeline" }) {
		return nil
	}
	pipelines, err := l.Client().Pipelines.List(ctx, nil)
	if err != nil {
		kit.AddAPIError(diags, "list", "pipelines", "named by rules", err)
		return nil
	}
	names := make(map[string]string, len(pipelines))
	for _, p := range pipelines {
		names[p.ID] = p.Name
	}
	return names
}

// ruleEndName is how a rule's display name shows its source or target: a pipeline by name, anything else
// (or a pipeline the token cannot see) as type and UUID.
func ruleEndName(names map[string]string, typ, id string) string {
	if name, ok := names[id]; ok && typ == "pipeline" {
		return name
	}
	return typ + " " + id
}

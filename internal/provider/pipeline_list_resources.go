package provider

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
)

// The list resources of pipelines, pipeline templates and organization rules. Each answers from one
// listing of its kind (the rules' also from the pipeline listing, to name their pipelines), so finding
// 1,000 pipelines costs ten calls, never one per pipeline.

var (
	_ list.ListResourceWithConfigure = (*pipelineListResource)(nil)
	_ list.ListResourceWithConfigure = (*organizationRuleListResource)(nil)
)

// ---- buildkite_pipeline ----

// NewPipelineListResource returns the buildkite_pipeline list resource.
func NewPipelineListResource() list.ListResource {
	return &pipelineListResource{listBase: newListBase("pipeline", pipelineIdentity)}
}

type pipelineListResource struct {
	listBase
}

// pipelineListFilter takes the filters of the buildkite_pipelines data source, with the same meaning.
type pipelineListFilter struct {
	Name       types.String `tfsdk:"name"`
	Repository types.String `tfsdk:"repository"`
	ClusterID  types.String `tfsdk:"cluster_id"`
	Tag        types.String `tfsdk:"tag"`
}

func (l *pipelineListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the organization's pipelines, archived ones included, shown by name. The filters " +
			"combine: a pipeline is found when it matches every one set.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "Only pipelines whose name contains this text (ignoring case).",
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
			"repository": schema.StringAttribute{
				MarkdownDescription: "Only pipelines whose repository URL contains this text (ignoring case).",
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "Only pipelines in the cluster with this ID.",
				Optional:            true,
				Validators:          []validator.String{uuidValidator()},
			},
			"tag": schema.StringAttribute{
				MarkdownDescription: "Only pipelines with this tag.",
				Optional:            true,
				Validators:          []validator.String{notBlank()},
			},
		},
	}
}

// List asks the service to filter by name and repository, as the buildkite_pipelines data source does, and
// filters by cluster and tag itself.
func (l *pipelineListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter pipelineListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	all, err := l.client().Pipelines.List(callCtx, &buildkite.PipelineListOptions{
		Name: filter.Name.ValueString(), Repository: filter.Repository.ValueString(),
	})
	var diags diag.Diagnostics
	if err != nil {
		addAPIError(&diags, "list", "pipelines", "", err)
		listFailed(stream, diags)
		return
	}
	var items []found
	for i := range all {
		p := &all[i]
		if !filter.ClusterID.IsNull() && deref(p.ClusterID) != filter.ClusterID.ValueString() {
			continue
		}
		if !filter.Tag.IsNull() && !slices.Contains(p.Tags, filter.Tag.ValueString()) {
			continue
		}
		// As an import leaves it: default_team_id and archive_on_delete unset.
		var m pipelineModel
		diags.Append(m.fromAPI(ctx, p, nil)...)
		items = append(items, found{model: &m, displayName: p.Name})
	}
	if diags.HasError() {
		listFailed(stream, diags)
		return
	}
	stream.Results = l.results(ctx, req, items)
}

// ---- buildkite_pipeline_template ----

// NewPipelineTemplateListResource returns the buildkite_pipeline_template list resource.
func NewPipelineTemplateListResource() list.ListResource {
	return &namedList[buildkite.PipelineTemplate]{
		listBase:    newListBase("pipeline_template", pipelineTemplateIdentity),
		what:        "pipeline templates",
		description: "Finds the pipeline templates the token may see (admins see every one), shown by name.",
		// Worded in the plural, as it was before the other by-name kinds shared namedList.
		nameFilter: "Only the pipeline templates with this name (compared without regard to case). Unset, all of them.",
		list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.PipelineTemplate, error) {
			return c.PipelineTemplates.List(ctx)
		},
		name: func(t *buildkite.PipelineTemplate) string { return t.Name },
		model: func(t *buildkite.PipelineTemplate) any {
			var m pipelineTemplateModel
			m.fromAPI(t, nil)
			return &m
		},
	}
}

// ---- buildkite_organization_rule ----

// NewOrganizationRuleListResource returns the buildkite_organization_rule list resource.
func NewOrganizationRuleListResource() list.ListResource {
	return &organizationRuleListResource{listBase: newListBase("organization_rule", organizationRuleIdentity)}
}

type organizationRuleListResource struct {
	listBase
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
				MarkdownDescription: "Only rules whose source or target is the pipeline with this ID (UUID).",
				Optional:            true,
				Validators:          []validator.String{uuidValidator()},
			},
		},
	}
}

func (l *organizationRuleListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter organizationRuleListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		listFailed(stream, diags)
		return
	}
	callCtx, cancel := l.timeout(ctx, opRead)
	defer cancel()
	var diags diag.Diagnostics
	all, err := l.client().Rules.List(callCtx)
	if err != nil {
		addAPIError(&diags, "list", "rules", "", err)
		listFailed(stream, diags)
		return
	}
	var rules []*buildkite.Rule
	for i := range all {
		r := &all[i]
		if !filter.Type.IsNull() && r.Type != filter.Type.ValueString() {
			continue
		}
		if id := filter.PipelineID.ValueString(); id != "" &&
			(r.SourceType != "pipeline" || r.SourceUUID != id) && (r.TargetType != "pipeline" || r.TargetUUID != id) {
			continue
		}
		rules = append(rules, r)
	}
	names := l.pipelineNames(callCtx, rules, &diags)
	if diags.HasError() {
		listFailed(stream, diags)
		return
	}
	items := make([]found, 0, len(rules))
	for _, r := range rules {
		var m organizationRuleModel
		m.fromAPI(r, jsonNull())
		items = append(items, found{model: &m, displayName: fmt.Sprintf("%s: %s -> %s", r.Type,
			ruleEndName(names, r.SourceType, r.SourceUUID), ruleEndName(names, r.TargetType, r.TargetUUID))})
	}
	stream.Results = l.results(ctx, req, items)
}

// pipelineNames maps the UUIDs of the organization's pipelines to their names, from one listing, when a
// rule names a pipeline.
func (l *organizationRuleListResource) pipelineNames(ctx context.Context, rules []*buildkite.Rule, diags *diag.Diagnostics) map[string]string {
	if !slices.ContainsFunc(rules, func(r *buildkite.Rule) bool { return r.SourceType == "pipeline" || r.TargetType == "pipeline" }) {
		return nil
	}
	pipelines, err := l.client().Pipelines.List(ctx, nil)
	if err != nil {
		addAPIError(diags, "list", "pipelines", "named by rules", err)
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

// ---- buildkite_pipeline_schedule ----

// pipelineParents are the parents of pipeline schedules: found in the pipeline listing, picked by UUID,
// whose schedules are listed by slug.
var pipelineParents = &parentKind[buildkite.Pipeline]{
	one:               "pipeline",
	many:              "pipelines",
	filter:            "pipeline_id",
	filterDescription: "Only those of the pipeline with this ID (UUID). Unset, those of every pipeline.",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Pipeline, error) {
		return c.Pipelines.List(ctx, nil)
	},
	hasID: func(p *buildkite.Pipeline, id string) bool { return p.ID == id },
	name:  func(p *buildkite.Pipeline) string { return p.Name },
	ref:   func(p *buildkite.Pipeline) string { return p.Slug },
}

// NewPipelineScheduleListResource returns the buildkite_pipeline_schedule list resource. Each schedule's
// pipeline_id is its pipeline's UUID.
func NewPipelineScheduleListResource() list.ListResource {
	return &childList[buildkite.Pipeline, buildkite.PipelineSchedule]{
		listBase:    newListBase("pipeline_schedule", pipelineScheduleIdentity),
		parents:     pipelineParents,
		what:        "pipeline schedules",
		description: "Finds the schedules of pipelines, shown as `<pipeline name> / <label>`.",
		listIn: func(ctx context.Context, c *buildkite.Client, p *buildkite.Pipeline) ([]buildkite.PipelineSchedule, error) {
			return c.PipelineSchedules.List(ctx, p.Slug)
		},
		found: func(p *buildkite.Pipeline, s *buildkite.PipelineSchedule) found {
			m := pipelineScheduleModel{PipelineID: types.StringValue(p.ID)}
			m.fromAPI(s)
			return found{model: &m, displayName: p.Name + " / " + displayOr(s.Label, s.Cronline)}
		},
	}
}

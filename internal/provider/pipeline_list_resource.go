package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The list resource of pipelines. Like those of templates, rules and schedules it answers from one listing
// of its kind, so finding 1,000 pipelines costs ten calls, never one per pipeline.

var _ list.ListResourceWithConfigure = (*pipelineListResource)(nil)

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
				MarkdownDescription: "Only pipelines in the cluster with this ID. " + refDescription([]string{"Cluster"}),
				Optional:            true,
				Validators:          []validator.String{refValidator{graphQLTypes: []string{"Cluster"}}},
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
	names := clusterNamesByList(callCtx, l.client())
	for i := range all {
		p := &all[i]
		if !filter.ClusterID.IsNull() && deref(p.ClusterID) != canonicalID(filter.ClusterID.ValueString()) {
			continue
		}
		if !filter.Tag.IsNull() && !slices.Contains(p.Tags, filter.Tag.ValueString()) {
			continue
		}
		// As an import leaves it: default_team_id and archive_on_delete unset.
		var m pipelineModel
		diags.Append(m.fromAPI(ctx, p, nil)...)
		if err := m.withClusterName(p, names); err != nil {
			addAPIError(&diags, "list", "pipelines", "", err)
			break
		}
		items = append(items, found{model: &m, displayName: p.Name})
	}
	if diags.HasError() {
		listFailed(stream, diags)
		return
	}
	stream.Results = l.results(ctx, req, items)
}

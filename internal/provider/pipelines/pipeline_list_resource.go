package pipelines

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The list resource of pipelines. Like those of templates, rules and schedules it answers from one listing
// of its kind, so finding 1,000 pipelines costs ten calls, never one per pipeline.

var _ list.ListResourceWithConfigure = (*pipelineListResource)(nil)

// NewPipelineListResource returns the buildkite_pipeline list resource.
func NewPipelineListResource() list.ListResource {
	return &pipelineListResource{ListBase: kit.NewListBase("pipeline", pipelineIdentity)}
}

type pipelineListResource struct {
	kit.ListBase
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
				Validators:          []validator.String{kit.NotBlank()},
			},
			"repository": schema.StringAttribute{
				MarkdownDescription: "Only pipelines whose repository URL contains this text (ignoring case).",
				Optional:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "Only pipelines in the cluster with this ID. " + kit.RefDescription([]string{"Cluster"}),
				Optional:            true,
				Validators:          []validator.String{kit.RefValidator{GraphQLTypes: []string{"Cluster"}}},
			},
			"tag": schema.StringAttribute{
				MarkdownDescription: "Only pipelines with this tag.",
				Optional:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
		},
	}
}

// List asks the service to filter by name and repository, as the buildkite_pipelines data source does, and
// filters by cluster and tag itself.
func (l *pipelineListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter pipelineListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	callCtx, cancel := l.Timeout(ctx, kit.OpRead)
	defer cancel()
	all, err := l.Client().Pipelines.List(callCtx, &buildkite.PipelineListOptions{
		Name: filter.Name.ValueString(), Repository: filter.Repository.ValueString(),
	})
	var diags diag.Diagnostics
	if err != nil {
		kit.AddAPIError(&diags, "list", "pipelines", "", err)
		kit.ListFailed(stream, diags)
		return
	}
	var items []kit.Found
	names := clusterNamesByList(callCtx, l.Client())
	for i := range all {
		p := &all[i]
		if !filter.ClusterID.IsNull() && kit.Deref(p.ClusterID) != kit.CanonicalID(filter.ClusterID.ValueString()) {
			continue
		}
		if !filter.Tag.IsNull() && !slices.Contains(p.Tags, filter.Tag.ValueString()) {
			continue
		}
		// As an import leaves it: default_team_id and archive_on_delete unset.
		var m pipelineModel
		diags.Append(m.fromAPI(ctx, p, nil)...)
		if err := m.withClusterName(p, names); err != nil {
			kit.AddAPIError(&diags, "list", "pipelines", "", err)
			break
		}
		items = append(items, kit.Found{Model: &m, DisplayName: p.Name})
	}
	if diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	stream.Results = l.Results(ctx, req, items)
}

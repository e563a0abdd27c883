package pipelines

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*pipelinesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*pipelinesDataSource)(nil)
)

// NewPipelinesDataSource returns the buildkite_pipelines data source.
func NewPipelinesDataSource() datasource.DataSource {
	return &pipelinesDataSource{DataSourceBase: kit.NewDataSourceBase("pipelines")}
}

type pipelinesDataSource struct {
	kit.DataSourceBase
}

type pipelinesModel struct {
	Name       types.String     `tfsdk:"name"`
	Repository types.String     `tfsdk:"repository"`
	ClusterID  types.String     `tfsdk:"cluster_id"`
	Tag        types.String     `tfsdk:"tag"`
	Search     types.String     `tfsdk:"search"`
	Archived   types.Bool       `tfsdk:"archived"`
	Tags       []string         `tfsdk:"tags"`
	Total      types.Int64      `tfsdk:"total"`
	Pipelines  []pipelineFields `tfsdk:"pipelines"`
}

func (d *pipelinesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	filter := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Optional: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the organization's pipelines, optionally filtered; each carries the attributes of " +
			"the `buildkite_pipeline` data source.",
		Attributes: map[string]schema.Attribute{
			"name":       filter("Only pipelines whose name contains this text (ignoring case)."),
			"repository": filter("Only pipelines whose repository URL contains this text (ignoring case)."),
			"cluster_id": kit.DataRefAttribute("Only pipelines in the cluster with this UUID.", false, "Cluster"),
			"tag":        filter("Only pipelines with this tag."),
			// The official provider's filters and count.
			"search": filter("Only pipelines whose name contains this text (ignoring case), as the official provider's " +
				"`search` matches."),
			"archived": schema.BoolAttribute{
				MarkdownDescription: "Only archived (`true`) or unarchived (`false`) pipelines; unset, both.",
				Optional:            true,
			},
			"tags": schema.ListAttribute{
				MarkdownDescription: "Only pipelines that have all these tags.",
				ElementType:         types.StringType,
				Optional:            true,
			},
			"total": schema.Int64Attribute{MarkdownDescription: "The number of pipelines that match.", Computed: true},
			"pipelines": schema.ListNestedAttribute{
				MarkdownDescription: "The pipelines, in the order the service lists them.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: pipelineDataAttributes()},
			},
		},
	}
}

func (d *pipelinesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m pipelinesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	// The service filters by name and repository; cluster and tag are filtered here.
	all, err := d.Client().Pipelines.List(ctx, &buildkite.PipelineListOptions{
		Name: m.Name.ValueString(), Repository: m.Repository.ValueString(),
	})
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "list", "pipelines", "", err)
		return
	}
	m.Pipelines = []pipelineFields{}
	names := clusterNamesByList(ctx, d.Client())
	for i := range all {
		p := &all[i]
		if !m.ClusterID.IsNull() && kit.Deref(p.ClusterID) != kit.CanonicalID(m.ClusterID.ValueString()) {
			continue
		}
		if !m.Tag.IsNull() && !slices.Contains(p.Tags, m.Tag.ValueString()) {
			continue
		}
		if !m.Search.IsNull() && !strings.Contains(strings.ToLower(p.Name), strings.ToLower(m.Search.ValueString())) {
			continue
		}
		if !m.Archived.IsNull() && p.Archived() != m.Archived.ValueBool() {
			continue
		}
		if slices.ContainsFunc(m.Tags, func(t string) bool { return !slices.Contains(p.Tags, t) }) {
			continue
		}
		var f pipelineFields
		resp.Diagnostics.Append(f.fromAPI(ctx, p, nil)...)
		if err := f.withClusterName(p, names); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "list", "pipelines", "", err)
			return
		}
		m.Pipelines = append(m.Pipelines, f)
	}
	m.Total = types.Int64Value(int64(len(m.Pipelines)))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

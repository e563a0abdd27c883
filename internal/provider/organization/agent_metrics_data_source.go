package organization

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*agentMetricsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*agentMetricsDataSource)(nil)
)

// envAgentToken is where the agent registration token comes from when agent_token is not set.
const envAgentToken = "BUILDKITE_AGENT_TOKEN"

// NewAgentMetricsDataSource returns the buildkite_agent_metrics data source.
func NewAgentMetricsDataSource() datasource.DataSource {
	return &agentMetricsDataSource{DataSourceBase: kit.NewDataSourceBase("agent_metrics")}
}

type agentMetricsDataSource struct {
	kit.DataSourceBase
}

type agentMetricsDataModel struct {
	AgentToken       types.String      `tfsdk:"agent_token"`
	Queue            types.String      `tfsdk:"queue"`
	OrganizationSlug types.String      `tfsdk:"organization_slug"`
	ClusterName      types.String      `tfsdk:"cluster_name"`
	Agents           *agentCountsModel `tfsdk:"agents"`
	Jobs             *jobCountsModel   `tfsdk:"jobs"`
}

type agentQueueCountsModel struct {
	Idle  int64 `tfsdk:"idle"`
	Busy  int64 `tfsdk:"busy"`
	Total int64 `tfsdk:"total"`
}

type agentCountsModel struct {
	Idle   int64                            `tfsdk:"idle"`
	Busy   int64                            `tfsdk:"busy"`
	Total  int64                            `tfsdk:"total"`
	Queues map[string]agentQueueCountsModel `tfsdk:"queues"`
}

type jobQueueCountsModel struct {
	Scheduled int64 `tfsdk:"scheduled"`
	Running   int64 `tfsdk:"running"`
	Waiting   int64 `tfsdk:"waiting"`
	Total     int64 `tfsdk:"total"`
}

type jobCountsModel struct {
	Scheduled int64                          `tfsdk:"scheduled"`
	Running   int64                          `tfsdk:"running"`
	Waiting   int64                          `tfsdk:"waiting"`
	Total     int64                          `tfsdk:"total"`
	Queues    map[string]jobQueueCountsModel `tfsdk:"queues"`
}

func (m *agentMetricsDataModel) fromAPI(in *buildkite.AgentMetrics) {
	m.OrganizationSlug = types.StringValue(in.Organization.Slug)
	m.ClusterName = types.StringNull()
	if in.Cluster != nil {
		m.ClusterName = types.StringValue(in.Cluster.Name)
	}
	a := in.Agents
	m.Agents = &agentCountsModel{Idle: a.Idle, Busy: a.Busy, Total: a.Total, Queues: map[string]agentQueueCountsModel{}}
	for name, q := range a.Queues {
		m.Agents.Queues[name] = agentQueueCountsModel{Idle: q.Idle, Busy: q.Busy, Total: q.Total}
	}
	j := in.Jobs
	m.Jobs = &jobCountsModel{Scheduled: j.Scheduled, Running: j.Running, Waiting: j.Waiting, Total: j.Total, Queues: map[string]jobQueueCountsModel{}}
	for name, q := range j.Queues {
		m.Jobs.Queues[name] = jobQueueCountsModel{Scheduled: q.Scheduled, Running: q.Running, Waiting: q.Waiting, Total: q.Total}
	}
}

// counts returns computed integer attributes with the given descriptions.
func counts(descriptions map[string]string) map[string]dschema.Attribute {
	attrs := make(map[string]dschema.Attribute, len(descriptions))
	for name, description := range descriptions {
		attrs[name] = dschema.Int64Attribute{MarkdownDescription: description, Computed: true}
	}
	return attrs
}

// countsWithQueues is an object of counts with the same counts per queue under "queues".
func countsWithQueues(description string, descriptions map[string]string) dschema.SingleNestedAttribute {
	attrs := counts(descriptions)
	attrs["queues"] = dschema.MapNestedAttribute{
		MarkdownDescription: "The same counts per queue, by queue key.",
		Computed:            true,
		NestedObject:        dschema.NestedAttributeObject{Attributes: counts(descriptions)},
	}
	return dschema.SingleNestedAttribute{MarkdownDescription: description, Computed: true, Attributes: attrs}
}

func (d *agentMetricsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Counts of agents and jobs, in total and per queue, from the agent API (`{agent_url}/v3/metrics`, " +
			"where `agent_url` is the provider's). It authenticates with an agent registration token, not the API token: " +
			"an organization's token reports all its agents, a cluster's agent token only that cluster's.",
		Attributes: map[string]dschema.Attribute{
			"agent_token": dschema.StringAttribute{
				MarkdownDescription: "An agent registration token. Falls back to the `" + envAgentToken + "` environment variable.",
				Optional:            true,
				Sensitive:           true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"queue": dschema.StringAttribute{
				MarkdownDescription: "Report only this queue (by key).",
				Optional:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"organization_slug": dschema.StringAttribute{
				MarkdownDescription: "The slug of the organization the token belongs to.",
				Computed:            true,
			},
			"cluster_name": dschema.StringAttribute{
				MarkdownDescription: "The name of the token's cluster, for a cluster's agent token; null otherwise.",
				Computed:            true,
			},
			"agents": countsWithQueues("Connected agents.", map[string]string{
				"idle": "Agents waiting for a job.", "busy": "Agents running a job.", "total": "All connected agents.",
			}),
			"jobs": countsWithQueues("Jobs not yet finished.", map[string]string{
				"scheduled": "Jobs waiting for an agent.", "running": "Jobs running on an agent.",
				"waiting": "Jobs waiting on a dependency or a concurrency limit.", "total": "All of them.",
			}),
		},
	}
}

func (d *agentMetricsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg agentMetricsDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	token := kit.ValueOrEnv(cfg.AgentToken, envAgentToken)
	if token == "" {
		resp.Diagnostics.AddAttributeError(path.Root("agent_token"), "Missing Agent Token",
			"Agent metrics are read with an agent registration token: set agent_token, or the "+envAgentToken+" environment variable.")
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var (
		m   *buildkite.AgentMetrics
		err error
	)
	if q := cfg.Queue.ValueString(); q != "" {
		m, err = d.Client().Metrics.GetQueue(ctx, token, q)
	} else {
		m, err = d.Client().Metrics.Get(ctx, token)
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "agent metrics", "from "+d.Client().AgentURL(), err)
		return
	}
	cfg.fromAPI(m)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

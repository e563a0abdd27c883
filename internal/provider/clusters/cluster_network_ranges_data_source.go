package clusters

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*clusterNetworkRangesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*clusterNetworkRangesDataSource)(nil)
)

// NewClusterNetworkRangesDataSource returns the buildkite_cluster_network_ranges data source.
func NewClusterNetworkRangesDataSource() datasource.DataSource {
	return &clusterNetworkRangesDataSource{DataSourceBase: kit.NewDataSourceBase("cluster_network_ranges")}
}

// clusterNetworkRangesDataSource reads the egress networks of a cluster's hosted agents, to allow through
// a firewall.
type clusterNetworkRangesDataSource struct {
	kit.DataSourceBase
}

type clusterNetworkRangesModel struct {
	ClusterUUID types.String `tfsdk:"cluster_uuid"`
	Ranges      types.Set    `tfsdk:"ranges"`
}

// networkRangeType is one element of ranges.
var networkRangeType = types.ObjectType{AttrTypes: map[string]attr.Type{"cidr_range": types.StringType, "kind": types.StringType}}

// clusterUUIDHint says what cluster_uuid takes, in the official provider's words.
const clusterUUIDHint = "must be a cluster UUID, for example buildkite_cluster.example.uuid"

// clusterUUIDValidator accepts a UUID only, as the official provider does (its test
// TestClusterNetworkRangesRejectsNonUUID): a cluster's GraphQL ID is refused at plan, naming the UUID it holds.
type clusterUUIDValidator struct{}

func (clusterUUIDValidator) Description(context.Context) string { return clusterUUIDHint }

func (v clusterUUIDValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (clusterUUIDValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) || kit.IsUUID(req.ConfigValue.ValueString()) {
		return
	}
	detail := fmt.Sprintf("Attribute %s %s.", req.Path, clusterUUIDHint)
	if uuid, err := kit.RefUUID(req.ConfigValue.ValueString(), []string{"Cluster"}); err == nil {
		detail += fmt.Sprintf(" %q is the cluster's GraphQL ID: use its UUID, %s (provider::buildkite::uuid(...) gives it).",
			req.ConfigValue.ValueString(), uuid)
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Cluster UUID", detail)
}

func (d *clusterNetworkRangesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The egress networks of a cluster's hosted agents (`GET /clusters/{id}/network_ranges`), to allow " +
			"through a firewall. A cluster without hosted agents has none: an empty set. The token needs `read_clusters`, " +
			"and its user must be able to manage the cluster (an administrator or one of its maintainers).",
		Attributes: map[string]schema.Attribute{
			"cluster_uuid": schema.StringAttribute{
				MarkdownDescription: "The cluster's UUID (`buildkite_cluster.example.uuid`); a GraphQL ID is refused at plan, as the official provider refuses it.",
				Required:            true,
				Validators:          []validator.String{clusterUUIDValidator{}},
			},
			"ranges": schema.SetNestedAttribute{
				MarkdownDescription: "The networks, each a `cidr_range` and the `kind` the service gives it (such as " +
					"`NAMESPACE_MANAGED`); either is null where the service answers none.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"cidr_range": schema.StringAttribute{MarkdownDescription: "The network in CIDR notation.", Computed: true},
					"kind":       schema.StringAttribute{MarkdownDescription: "What the network is for, in the service's words.", Computed: true},
				}},
			},
		},
	}
}

// rangesSet is the ranges as a set, empty (never null) when there are none.
func rangesSet(ranges []buildkite.NetworkRange) types.Set {
	elems := make([]attr.Value, 0, len(ranges))
	for _, r := range ranges {
		elems = append(elems, types.ObjectValueMust(networkRangeType.AttrTypes, map[string]attr.Value{
			"cidr_range": types.StringPointerValue(r.CIDRRange),
			"kind":       types.StringPointerValue(r.Kind),
		}))
	}
	return types.SetValueMust(networkRangeType, elems)
}

func (d *clusterNetworkRangesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m clusterNetworkRangesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	id := kit.CanonicalID(m.ClusterUUID.ValueString())
	ranges, err := d.Client().NetworkRanges.List(ctx, id)
	switch {
	case buildkite.IsNotFound(err):
		resp.Diagnostics.AddError("Unable to Read Cluster Network Ranges", fmt.Sprintf(
			"Reading the network ranges of cluster %s: %s. Organization %s has no such cluster: cluster_uuid %s.",
			id, kit.DescribeError(err), d.Client().Organization(), clusterUUIDHint))
		return
	case buildkite.IsForbidden(err):
		resp.Diagnostics.AddError("Unable to Read Cluster Network Ranges", fmt.Sprintf(
			"Reading the network ranges of cluster %s: %s.\n\nThis endpoint needs the read_clusters scope, and the token's "+
				"user must be able to manage the cluster: an organization administrator or one of the cluster's maintainers.",
			id, kit.DescribeError(err)))
		return
	case err != nil:
		kit.AddAPIError(&resp.Diagnostics, "read", "cluster network ranges", id, err)
		return
	}
	m.Ranges = rangesSet(ranges)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

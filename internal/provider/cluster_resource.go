package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*clusterResource)(nil)
	_ resource.ResourceWithConfigure    = (*clusterResource)(nil)
	_ resource.ResourceWithImportState  = (*clusterResource)(nil)
	_ resource.ResourceWithIdentity     = (*clusterResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*clusterResource)(nil)
	_ resource.ResourceWithUpgradeState = (*clusterResource)(nil)
)

// clusterIdentity names a cluster for import blocks and terraform query.
var clusterIdentity = identifiedBy(identityAttr("id", "The cluster's ID (a UUID)."))

// NewClusterResource returns the buildkite_cluster resource.
func NewClusterResource() resource.Resource {
	return &clusterResource{
		resourceBase: newResourceBase("cluster", writeScopes("write_clusters"), clusterIdentity),
	}
}

type clusterResource struct {
	resourceBase
}

type clusterModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Emoji       types.String `tfsdk:"emoji"`
	Color       types.String `tfsdk:"color"`
	URL         types.String `tfsdk:"url"`
	WebURL      types.String `tfsdk:"web_url"`
}

func (m *clusterModel) fromAPI(c *buildkite.Cluster) {
	m.ID = types.StringValue(c.ID)
	m.UUID = types.StringValue(c.ID)
	m.GraphQLID = types.StringValue(c.GraphQLID)
	m.Name = types.StringValue(c.Name)
	// A configured "" (a workspace written after importing its cluster has one) stays "": the service shows it
	// as empty, as it shows none.
	m.Description = keepEmpty(m.Description, &c.Description)
	m.Emoji = keepEmpty(m.Emoji, &c.Emoji)
	m.Color = keepEmpty(m.Color, &c.Color)
	m.URL = types.StringValue(c.URL)
	m.WebURL = types.StringValue(c.WebURL)
}

func (m *clusterModel) toCreate() buildkite.ClusterCreate {
	return buildkite.ClusterCreate{
		Name:        m.Name.ValueString(),
		Description: stringPtrIfSet(m.Description),
		Emoji:       stringPtrIfSet(m.Emoji),
		Color:       stringPtrIfSet(m.Color),
	}
}

func (m *clusterModel) toUpdate() buildkite.ClusterUpdate {
	name := m.Name.ValueString()
	return buildkite.ClusterUpdate{
		Name:        &name,
		Description: stringPtr(m.Description),
		Emoji:       stringPtr(m.Emoji),
		Color:       stringPtr(m.Color),
	}
}

func (r *clusterResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "A cluster groups queues of agents and the pipelines that run on them. " +
			"Manage its queues with `buildkite_cluster_queue`, its agent tokens with `buildkite_cluster_agent_token` " +
			"and its default queue with `buildkite_cluster_default_queue`. Import it by its ID (or its GraphQL ID).",
		Attributes: withCommon("cluster", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The cluster's name.",
				Required:            true,
				Validators:          []validator.String{notBlank()},
			},
			// No validators beyond the official provider's (none): "" is what an imported cluster's workspace holds.
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the cluster.",
				Optional:            true,
			},
			"emoji": schema.StringAttribute{
				MarkdownDescription: "An emoji shown with the cluster, in emoji syntax such as `:rocket:`.",
				Optional:            true,
			},
			"color": schema.StringAttribute{
				MarkdownDescription: "A color shown with the cluster, as a hex code such as `#A8D5FF`.",
				Optional:            true,
			},
		}, attrID, attrUUID, attrGraphQLID, attrURL, attrWebURL),
	}
}

// UpgradeState moves the official provider's states and ours of version 0 to version 1.
func (r *clusterResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{})
}

func (r *clusterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan clusterModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	c, err := r.client().Clusters.Create(ctx, plan.toCreate())
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "cluster", plan.Name.ValueString(), err)
		return
	}
	plan.fromAPI(c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state clusterModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	c, err := r.client().Clusters.Get(ctx, restID(state.ID))
	if err != nil {
		r.readFailed(ctx, resp, err, "cluster", state.ID.ValueString())
		return
	}
	state.fromAPI(c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan, state clusterModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	c, err := r.client().Clusters.Update(ctx, state.ID.ValueString(), plan.toUpdate())
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "cluster", state.ID.ValueString(), err)
		return
	}
	plan.fromAPI(c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	r.deleteFailed(ctx, &resp.Diagnostics, r.client().Clusters.Delete(ctx, state.ID.ValueString()), "cluster", state.ID.ValueString())
}

// ImportState accepts the cluster's ID or GraphQL ID.
func (r *clusterResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, uuidPart("<cluster id>", "Cluster"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[0])...)
}

package provider

import (
	"context"
	"fmt"
	"net"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithConfigure   = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithImportState = (*clusterAgentTokenResource)(nil)
)

// NewClusterAgentTokenResource returns the buildkite_cluster_agent_token resource.
func NewClusterAgentTokenResource() resource.Resource {
	return &clusterAgentTokenResource{}
}

type clusterAgentTokenResource struct {
	data *providerData
}

type clusterAgentTokenModel struct {
	ID                 types.String `tfsdk:"id"`
	GraphQLID          types.String `tfsdk:"graphql_id"`
	ClusterID          types.String `tfsdk:"cluster_id"`
	Description        types.String `tfsdk:"description"`
	AllowedIPAddresses types.String `tfsdk:"allowed_ip_addresses"`
	Token              types.String `tfsdk:"token"`
	URL                types.String `tfsdk:"url"`
}

// fromAPI copies the service's view. The secret is only in the create response, so it is kept from
// state otherwise.
func (m *clusterAgentTokenModel) fromAPI(clusterID string, t *buildkite.ClusterToken) {
	m.ID = types.StringValue(t.ID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.ClusterID = types.StringValue(clusterID)
	m.Description = types.StringValue(t.Description)
	m.AllowedIPAddresses = optionalString(t.AllowedIPAddresses)
	if t.Token != "" {
		m.Token = types.StringValue(t.Token)
	} else if m.Token.IsUnknown() {
		m.Token = types.StringNull()
	}
	m.URL = types.StringValue(t.URL)
}

func (m *clusterAgentTokenModel) ident() string {
	return m.ClusterID.ValueString() + "/" + m.ID.ValueString()
}

func (r *clusterAgentTokenResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster_agent_token"
}

func (r *clusterAgentTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An agent token of a cluster: agents started with it join the cluster. " +
			"The secret `token` is returned only when the token is created and is kept in state from then on; " +
			"an imported token therefore has no `token` value.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The token's ID (a UUID).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"graphql_id": schema.StringAttribute{
				MarkdownDescription: "The token's GraphQL ID.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cluster_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the cluster the token belongs to. Changing it replaces the token.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, such as where its agents run.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"allowed_ip_addresses": schema.StringAttribute{
				MarkdownDescription: "The network, in CIDR notation (for example `10.0.0.0/8`), from which agents may use the token.",
				Optional:            true,
				Validators:          []validator.String{cidrValidator{}},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The secret agents authenticate with. Known only to the Terraform run that created the token; null after import.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"url": schema.StringAttribute{
				MarkdownDescription: "The token's API URL.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// cidrValidator checks that a string is one network in CIDR notation.
type cidrValidator struct{}

func (cidrValidator) Description(context.Context) string {
	return "value must be a network in CIDR notation, such as 10.0.0.0/8"
}

func (v cidrValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v cidrValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, _, err := net.ParseCIDR(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR Notation",
			fmt.Sprintf("%s: %q is not a network in CIDR notation, such as 10.0.0.0/8.", req.Path, req.ConfigValue.ValueString()))
	}
}

func (r *clusterAgentTokenResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *clusterAgentTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan clusterAgentTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	clusterID := plan.ClusterID.ValueString()
	t, err := r.data.client.ClusterTokens.Create(ctx, clusterID, buildkite.ClusterTokenCreate{
		Description:        plan.Description.ValueString(),
		AllowedIPAddresses: stringPtrIfSet(plan.AllowedIPAddresses),
	})
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "cluster agent token", fmt.Sprintf("%q in cluster %s", plan.Description.ValueString(), clusterID), err)
		return
	}
	plan.fromAPI(clusterID, t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterAgentTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state clusterAgentTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	t, err := r.data.client.ClusterTokens.Get(ctx, state.ClusterID.ValueString(), state.ID.ValueString())
	if buildkite.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "read", "cluster agent token", state.ident(), err)
		return
	}
	state.fromAPI(state.ClusterID.ValueString(), t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterAgentTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state clusterAgentTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	desc := plan.Description.ValueString()
	t, err := r.data.client.ClusterTokens.Update(ctx, state.ClusterID.ValueString(), state.ID.ValueString(), buildkite.ClusterTokenUpdate{
		Description:        &desc,
		AllowedIPAddresses: stringPtr(plan.AllowedIPAddresses),
	})
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "cluster agent token", state.ident(), err)
		return
	}
	plan.Token = state.Token
	plan.fromAPI(state.ClusterID.ValueString(), t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterAgentTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterAgentTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	err := r.data.client.ClusterTokens.Delete(ctx, state.ClusterID.ValueString(), state.ID.ValueString())
	if err != nil && !buildkite.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "delete", "cluster agent token", state.ident(), err)
	}
}

// ImportState accepts "<cluster id>/<token id>". The secret cannot be recovered, so token stays null.
func (r *clusterAgentTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	clusterID, id, ok := splitImportID(req.ID)
	if !ok {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Expected \"<cluster id>/<token id>\", got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), clusterID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}

package provider

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ resource.Resource                 = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithConfigure    = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithImportState  = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithIdentity     = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*clusterAgentTokenResource)(nil)
	_ resource.ResourceWithUpgradeState = (*clusterAgentTokenResource)(nil)
)

// clusterAgentTokenIdentity names a cluster agent token for import blocks and terraform query.
var clusterAgentTokenIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("cluster_id", "The ID of the cluster the token belongs to."),
	kit.IdentityAttr("id", "The token's ID (a UUID)."),
)

// NewClusterAgentTokenResource returns the buildkite_cluster_agent_token resource.
func NewClusterAgentTokenResource() resource.Resource {
	return &clusterAgentTokenResource{
		ResourceBase: kit.NewResourceBase("cluster_agent_token", kit.WriteScopes("write_clusters"), clusterAgentTokenIdentity),
	}
}

type clusterAgentTokenResource struct {
	kit.ResourceBase
}

type clusterAgentTokenModel struct {
	ID                 types.String `tfsdk:"id"`
	UUID               types.String `tfsdk:"uuid"`
	GraphQLID          types.String `tfsdk:"graphql_id"`
	ClusterID          kit.RefValue `tfsdk:"cluster_id"`
	ClusterUUID        types.String `tfsdk:"cluster_uuid"`
	Description        types.String `tfsdk:"description"`
	AllowedIPAddresses types.List   `tfsdk:"allowed_ip_addresses"`
	ExpiresAt          types.String `tfsdk:"expires_at"`
	Token              types.String `tfsdk:"token"`
	URL                types.String `tfsdk:"url"`
}

// fromAPI copies the service's view; clusterID is the cluster's UUID (cluster_id keeps the configuration's
// form by its semantic equality). The secret is only in the create response, so it is kept from state
// otherwise.
func (m *clusterAgentTokenModel) fromAPI(clusterID string, t *buildkite.ClusterToken) {
	m.ID = types.StringValue(t.ID)
	m.UUID = types.StringValue(t.ID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.ClusterID = kit.NewRef(clusterID)
	m.ClusterUUID = types.StringValue(clusterID)
	m.Description = types.StringValue(t.Description)
	m.AllowedIPAddresses = types.ListNull(types.StringType)
	if blocks := strings.Fields(t.AllowedIPAddresses); len(blocks) > 0 {
		m.AllowedIPAddresses = kit.StringList(blocks)
	}
	// The configured spelling of the expiry is kept when it names the same instant as the service's.
	if t.ExpiresAt == nil {
		m.ExpiresAt = types.StringNull()
	} else if cur, err := time.Parse(time.RFC3339, m.ExpiresAt.ValueString()); err != nil || !cur.Equal(*t.ExpiresAt) {
		m.ExpiresAt = types.StringValue(t.ExpiresAt.UTC().Format(time.RFC3339))
	}
	if t.Token != "" {
		m.Token = types.StringValue(t.Token)
	} else if m.Token.IsUnknown() {
		m.Token = types.StringNull()
	}
	m.URL = types.StringValue(t.URL)
}

// allowedIPs joins the configured blocks with spaces, the form the service takes; nil leaves them unset.
func (m *clusterAgentTokenModel) allowedIPs() *string {
	if !kit.IsKnownValue(m.AllowedIPAddresses) {
		return nil
	}
	var blocks []string
	for _, v := range m.AllowedIPAddresses.Elements() {
		if s, ok := v.(types.String); ok {
			blocks = append(blocks, s.ValueString())
		}
	}
	joined := strings.Join(blocks, " ")
	return &joined
}

func (m *clusterAgentTokenModel) toCreate() buildkite.ClusterTokenCreate {
	in := buildkite.ClusterTokenCreate{Description: m.Description.ValueString(), AllowedIPAddresses: m.allowedIPs()}
	if t, err := time.Parse(time.RFC3339, m.ExpiresAt.ValueString()); err == nil {
		in.ExpiresAt = &t
	}
	return in
}

func (m *clusterAgentTokenModel) toUpdate() buildkite.ClusterTokenUpdate {
	desc := m.Description.ValueString()
	ips := m.allowedIPs()
	if ips == nil {
		// Removing the attribute clears the restriction on the service.
		empty := ""
		ips = &empty
	}
	return buildkite.ClusterTokenUpdate{Description: &desc, AllowedIPAddresses: ips}
}

func (m *clusterAgentTokenModel) ident() string {
	return m.ClusterID.UUID() + "/" + m.ID.ValueString()
}

func (r *clusterAgentTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "An agent token of a cluster: agents started with it join the cluster. " +
			"The secret `token` is returned only when the token is created and is kept in state from then on; " +
			"an imported token therefore has no `token` value. Import it as `<cluster id>/<token id>`.",
		Attributes: kit.WithCommon("token", map[string]schema.Attribute{
			"cluster_id":   kit.ParentIDAttribute("The ID of the cluster the token belongs to.", "Cluster"),
			"cluster_uuid": kit.ComputedString("The UUID of the cluster the token belongs to; configurations written for the official provider refer to it."),
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, such as where its agents run.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"allowed_ip_addresses": schema.ListAttribute{
				MarkdownDescription: "The networks, in CIDR notation (for example `[\"10.0.0.0/8\", \"192.168.1.0/24\"]`), " +
					"from which agents may use the token. Unset, agents may use it from anywhere.",
				ElementType: types.StringType,
				Optional:    true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(cidrValidator{}),
				},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the token stops working, in RFC 3339 (`2030-01-01T00:00:00Z`). " +
					"Unset, it does not expire. Changing it replaces the token.",
				Optional:      true,
				Validators:    []validator.String{kit.Rfc3339Validator{}},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The secret agents authenticate with. Known only to the Terraform run that created the token; null after import.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL),
	}
}

// UpgradeState moves the official provider's states and ours of version 0 to version 1.
func (r *clusterAgentTokenResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return kit.Upgraders(ctx, r, kit.StateMoves{Refs: []string{"cluster_id"}, Ours: func(_ int64, a kit.StateAttrs) error {
		a["cluster_uuid"] = a["cluster_id"]
		return nil
	}})
}

// cidrValidator checks that a string is one network in CIDR notation with no host bits set, since the
// service would store what the user did not mean.
type cidrValidator struct{}

func (cidrValidator) Description(context.Context) string {
	return "value must be a network in CIDR notation, such as 10.0.0.0/8"
}

func (v cidrValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v cidrValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	s := req.ConfigValue.ValueString()
	ip, network, err := net.ParseCIDR(s)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR Notation",
			fmt.Sprintf("%s: %q is not a network in CIDR notation, such as 10.0.0.0/8.", req.Path, s))
	case !ip.Equal(network.IP):
		resp.Diagnostics.AddAttributeError(req.Path, "Host Bits Set in CIDR Block",
			fmt.Sprintf("%s: %q has host bits set; the network it names is %q.", req.Path, s, network.String()))
	}
}

func (r *clusterAgentTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.FinishCreate(ctx, resp)
	var plan clusterAgentTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpCreate)
	defer cancel()
	clusterID := plan.ClusterID.UUID()
	t, err := r.Client().ClusterTokens.Create(ctx, clusterID, plan.toCreate())
	lost := t != nil && kit.SecretLost(ctx, &resp.Diagnostics, err, "cluster agent token", fmt.Sprintf("%q in cluster %s", plan.Description.ValueString(), clusterID), "token")
	if err != nil && !lost {
		kit.AddAPIError(&resp.Diagnostics, "create", "cluster agent token", fmt.Sprintf("%q in cluster %s", plan.Description.ValueString(), clusterID), err)
		return
	}
	plan.fromAPI(clusterID, t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterAgentTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.FinishRead(ctx, req, resp)
	var state clusterAgentTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	t, err := r.Client().ClusterTokens.Get(ctx, state.ClusterID.UUID(), kit.RestID(state.ID))
	if err != nil {
		r.ReadFailed(ctx, resp, err, "cluster agent token", state.ident())
		return
	}
	state.fromAPI(state.ClusterID.UUID(), t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterAgentTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.FinishUpdate(ctx, req, resp)
	var plan, state clusterAgentTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpUpdate)
	defer cancel()
	t, err := r.Client().ClusterTokens.Update(ctx, state.ClusterID.UUID(), kit.RestID(state.ID), plan.toUpdate())
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "update", "cluster agent token", state.ident(), err)
		return
	}
	plan.Token = state.Token
	plan.fromAPI(state.ClusterID.UUID(), t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clusterAgentTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterAgentTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, kit.OpDelete)
	defer cancel()
	err := r.Client().ClusterTokens.Delete(ctx, state.ClusterID.UUID(), kit.RestID(state.ID))
	r.DeleteFailed(ctx, &resp.Diagnostics, err, "cluster agent token", state.ident())
}

// ImportState accepts "<cluster id>/<token id>", each a UUID or a GraphQL ID. The secret cannot be
// recovered, so token stays null.
func (r *clusterAgentTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	ctx, cancel := r.Timeout(ctx, kit.OpRead)
	defer cancel()
	if !kit.QualifyImportID(ctx, &req, resp, "cluster agent token", "<cluster id>/<token id>", kit.ClusterIDs(r.Client()), kit.Answers(r.Client().ClusterTokens.Get)) {
		return
	}
	parts, ok := r.ImportParts(ctx, req, resp, kit.UuidPart("<cluster id>", "Cluster"), kit.UuidPart("<token id>", "ClusterToken"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[1])...)
}

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*agentTokenResource)(nil)
	_ resource.ResourceWithConfigure    = (*agentTokenResource)(nil)
	_ resource.ResourceWithImportState  = (*agentTokenResource)(nil)
	_ resource.ResourceWithIdentity     = (*agentTokenResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*agentTokenResource)(nil)
	_ resource.ResourceWithUpgradeState = (*agentTokenResource)(nil)
)

// agentTokenIdentity names an unclustered agent token by its ID.
var agentTokenIdentity = identifiedBy(identityAttr("id", "The token's ID (a UUID)."))

// NewAgentTokenResource returns the buildkite_agent_token resource: an unclustered agent token, which only
// Buildkite's GraphQL API creates, reads and revokes
// (https://buildkite.com/docs/apis/graphql/cookbooks/agents), so every plan that holds one needs the
// provider's GraphQL endpoint and the token's graphql scope (graphql_scope.go).
func NewAgentTokenResource() resource.Resource {
	return &agentTokenResource{
		resourceBase: newResourceBase("agent_token", operationScopes{}, agentTokenIdentity).withGraphQLType(),
	}
}

type agentTokenResource struct {
	resourceBase
}

type agentTokenModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	Description types.String `tfsdk:"description"`
	Token       types.String `tfsdk:"token"`
}

// fromAPI copies the service's view. The secret is only in the create answer, so it is kept from state
// otherwise (null after an import).
func (m *agentTokenModel) fromAPI(t *buildkite.AgentToken) {
	m.ID = types.StringValue(t.UUID)
	m.UUID = types.StringValue(t.UUID)
	m.GraphQLID = types.StringValue(t.ID)
	m.Description = types.StringPointerValue(t.Description)
	if t.Token != "" {
		m.Token = types.StringValue(t.Token)
	} else if m.Token.IsUnknown() {
		m.Token = types.StringNull()
	}
}

func (m *agentTokenModel) ident() string {
	if d := m.Description.ValueString(); d != "" && m.UUID.ValueString() == "" {
		return fmt.Sprintf("%q", d)
	}
	return m.UUID.ValueString()
}

// uuid is the token's UUID, as restID reads it from id (a UUID, or a GraphQL ID a state once held).
func (m *agentTokenModel) uuid() string { return restID(m.ID) }

// graphQLID is the token's GraphQL ID, which its mutations take.
func (m *agentTokenModel) graphQLID() string {
	if id := m.GraphQLID.ValueString(); id != "" {
		return id
	}
	return graphQLID("AgentToken", m.uuid())
}

func (r *agentTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "An unclustered agent token of the organization: agents started with it join no cluster. " +
			"Only Buildkite's GraphQL API manages these tokens, so this type needs `graphql_url` (where `rest_url` is set) and " +
			"an API token with the `graphql` scope; Buildkite lets only organizations created before 2024-02-26 have them. " +
			"The secret `token` is returned only when the token is created and is kept in state from then on; an imported " +
			"token has no `token` value. A token revoked outside Terraform is planned for re-creation. Destroying the " +
			"resource revokes the token (Buildkite keeps revoked tokens). Import it by its GraphQL ID or its UUID. " +
			"For agents in a cluster, use `buildkite_cluster_agent_token`.",
		Attributes: withCommon("token", map[string]schema.Attribute{
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, such as where its agents run. Changing it replaces the token.",
				Optional:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The secret agents authenticate with. Known only to the Terraform run that created the token; null after import.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, attrID, attrUUID, attrGraphQLID),
	}
}

// UpgradeState moves the official provider's states (version 0) to version 1 by the common steps: its `id`,
// the GraphQL ID, becomes the UUID and graphql_id; the secret it kept stays.
func (r *agentTokenResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{})
}

func (r *agentTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan agentTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	t, err := r.client().AgentTokens.Create(ctx, plan.Description.ValueStringPointer())
	lost := t != nil && secretLost(ctx, &resp.Diagnostics, err, "agent token", plan.ident(), "token")
	// A token in an answer with errors exists: it is recorded, the errors shown as a warning.
	acted := t != nil && actedWithErrors(&resp.Diagnostics, err, "create", "agent token", plan.ident())
	if err != nil && !lost && !acted {
		addGraphQLError(&resp.Diagnostics, "create", "agent token", plan.ident(), err,
			map[string]path.Path{"description": path.Root("description")})
		return
	}
	plan.fromAPI(t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read removes the resource when the token is gone or revoked: a revoked token can never be used again, so
// Terraform plans a new one.
func (r *agentTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state agentTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	t, err := r.client().AgentTokens.Get(ctx, state.uuid())
	if err != nil {
		r.readFailed(ctx, resp, err, "agent token", state.ident())
		return
	}
	if t.Revoked() {
		resp.Diagnostics.AddWarning("Agent Token Revoked",
			fmt.Sprintf("The agent token %s was revoked outside Terraform at %s; Terraform will plan a new token to replace it.",
				state.ident(), t.RevokedAt.UTC().Format("2006-01-02T15:04:05Z")))
		r.removeGone(ctx, resp)
		return
	}
	state.fromAPI(t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update only records the plan: every attribute that can change replaces the token.
func (r *agentTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan agentTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete revokes the token, with the official provider's reason. A token already revoked or gone is done.
func (r *agentTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state agentTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	err := r.client().AgentTokens.Revoke(ctx, state.graphQLID(), buildkite.AgentTokenRevokeReason)
	if actedWithErrors(&resp.Diagnostics, err, "revoke", "agent token", state.ident()) {
		return // the answer shows the token revoked
	}
	r.deleteFailed(ctx, &resp.Diagnostics, err, "agent token", state.ident())
}

// ImportState takes the token's GraphQL ID or its UUID; Read then fills the rest (the secret stays null).
func (r *agentTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, uuidPart("<token id>", "AgentToken"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attrID), parts[0])...)
}

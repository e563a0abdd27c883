package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

var (
	_ resource.Resource                 = (*agentTokenResource)(nil)
	_ resource.ResourceWithConfigure    = (*agentTokenResource)(nil)
	_ resource.ResourceWithImportState  = (*agentTokenResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*agentTokenResource)(nil)
	_ resource.ResourceWithUpgradeState = (*agentTokenResource)(nil)
)

// NewAgentTokenResource returns the buildkite_agent_token resource, which this provider declares only to
// refuse: unclustered agent tokens have no REST endpoint at all (Buildkite's GraphQL API alone creates and
// revokes them), so a configuration or state written for the official provider gets a plain answer at plan
// time rather than Terraform's "provider does not support resource type".
func NewAgentTokenResource() resource.Resource {
	return &agentTokenResource{resourceBase: newResourceBase("agent_token", operationScopes{}, identifiedBy(identityAttr("id", "The token's GraphQL ID.")))}
}

type agentTokenResource struct {
	resourceBase
}

// agentTokenRefusal is the summary of every refusal.
const agentTokenRefusal = "Unclustered Agent Tokens Are Not Supported"

// agentTokenWhy says why and what to do instead.
const agentTokenWhy = "buildkite_agent_token is an unclustered agent token, which Buildkite's REST API cannot create, " +
	"read or revoke (only its GraphQL API can, and this provider uses REST alone). Nothing has been changed. Either move " +
	"the agents to a cluster and give them a buildkite_cluster_agent_token (a cluster and its token are managed here " +
	"in full), or stop managing this token with Terraform: remove the resource from the configuration and run " +
	"`terraform state rm <address>`, which leaves the token itself as it is, and revoke or keep it in the web " +
	"interface (Agents → Agent Tokens)."

// addAgentTokenRefusal adds the one error every operation gives.
func addAgentTokenRefusal(diags *diag.Diagnostics) { diags.AddError(agentTokenRefusal, agentTokenWhy) }

func (r *agentTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states load and meet the refusal below
		MarkdownDescription: "**Not supported: every plan that holds this resource fails.** An unclustered agent token " +
			"has no REST endpoint: Buildkite creates and revokes it through GraphQL only. The type exists so that a " +
			"configuration or state written for the official provider gets this answer instead of Terraform's generic " +
			"refusal. Move the agents to a cluster and use `buildkite_cluster_agent_token`, or remove the resource from " +
			"the configuration and run `terraform state rm` on it (the token stays as it is; revoke it in the web interface).",
		Attributes: map[string]schema.Attribute{
			attrID:   computedString("The token's GraphQL ID, as the official provider stored it."),
			attrUUID: computedString("The token's UUID."),
			"description": schema.StringAttribute{
				MarkdownDescription: "The token's description.",
				Optional:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The token's secret, as the official provider stored it.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// UpgradeState loads the official provider's states unchanged, so that the plan that follows gives the
// refusal rather than an upgrade error.
func (r *agentTokenResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{})
}

// ModifyPlan refuses every plan that creates, keeps, changes or destroys the token.
func (r *agentTokenResource) ModifyPlan(_ context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() && req.State.Raw.IsNull() {
		return
	}
	addAgentTokenRefusal(&resp.Diagnostics)
}

// Read keeps the state as it is: there is nothing to read it from, and the plan that follows refuses it.
func (r *agentTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
}

func (r *agentTokenResource) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	addAgentTokenRefusal(&resp.Diagnostics)
}

func (r *agentTokenResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	addAgentTokenRefusal(&resp.Diagnostics)
}

func (r *agentTokenResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	addAgentTokenRefusal(&resp.Diagnostics)
}

func (r *agentTokenResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	addAgentTokenRefusal(&resp.Diagnostics)
}

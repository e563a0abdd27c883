package organization

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// agentTokenIdentity names an unclustered agent token by its ID.
var agentTokenIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The token's ID (a UUID)."))

// NewAgentTokenResource returns the buildkite_agent_token resource.
func NewAgentTokenResource() resource.Resource { return kit.NewObject(agentTokenKind) }

// agentTokenKind declares buildkite_agent_token: an unclustered agent token, which only Buildkite's GraphQL
// API creates, reads and revokes (https://buildkite.com/docs/apis/graphql/cookbooks/agents), so every plan
// that holds one needs the provider's GraphQL endpoint and the token's graphql scope (kit/graphql_scope.go).
// Every attribute that can change replaces it; the secret is only in the create answer; a token revoked
// outside Terraform leaves state, so that Terraform plans a new one.
var agentTokenKind = &kit.ObjectKind[buildkite.AgentToken, agentTokenModel]{
	Name:     "agent_token",
	What:     "agent token",
	Identity: agentTokenIdentity,
	Schema:   agentTokenSchema,
	GraphQL:  &kit.GraphQLCalls{Fields: map[string]path.Path{"description": path.Root("description")}, Removes: "revoke"},
	Named:    (*agentTokenModel).ident,
	Secret:   "token",
	Key:      kit.AttrID,
	FromAPI:  func(m *agentTokenModel, _ string, t *buildkite.AgentToken) { m.fromAPI(t) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *agentTokenModel) (*buildkite.AgentToken, error) {
		return c.AgentTokens.Create(ctx, plan.Description.ValueStringPointer())
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.AgentToken, error) {
		t, err := c.AgentTokens.Get(ctx, id)
		if err == nil && t.Revoked() {
			// A revoked token can never be used again.
			return nil, &kit.LeftBehind{Summary: "Agent Token Revoked", Detail: fmt.Sprintf(
				"The agent token %s was revoked outside Terraform at %s; Terraform will plan a new token to replace it.",
				id, t.RevokedAt.UTC().Format("2006-01-02T15:04:05Z"))}
		}
		return t, err
	},
	// Destroying revokes the token, with the official provider's reason; Buildkite keeps revoked tokens.
	Remove: func(ctx context.Context, c *buildkite.Client, _, id string) error {
		return c.AgentTokens.Revoke(ctx, kit.GraphQLID("AgentToken", id), buildkite.AgentTokenRevokeReason)
	},
	// The import ID is the token's GraphQL ID or its UUID; Read fills the rest (the secret stays null).
	ImportParts: []kit.ImportPart{kit.UuidPart("<token id>", "AgentToken")},
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

// agentTokenSchema is the schema of buildkite_agent_token.
func agentTokenSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "An unclustered agent token of the organization: agents started with it join no cluster. " +
			"Only Buildkite's GraphQL API manages these tokens, so this type needs `graphql_url` (where `rest_url` is set) and " +
			"an API token with the `graphql` scope; Buildkite lets only organizations created before 2024-02-26 have them. " +
			"The secret `token` is returned only when the token is created and is kept in state from then on; an imported " +
			"token has no `token` value. A token revoked outside Terraform is planned for re-creation. Destroying the " +
			"resource revokes the token (Buildkite keeps revoked tokens). Import it by its GraphQL ID or its UUID. " +
			"For agents in a cluster, use `buildkite_cluster_agent_token`.",
		Attributes: kit.WithCommon("token", map[string]schema.Attribute{
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
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID),
	}
}

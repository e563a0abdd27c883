package organization

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var _ list.ListResourceWithConfigure = (*agentTokenListResource)(nil)

// NewAgentTokenListResource returns the buildkite_agent_token list resource: the organization's unclustered
// agent tokens that are not revoked, which only Buildkite's GraphQL API lists.
func NewAgentTokenListResource() list.ListResource {
	return &agentTokenListResource{ListBase: kit.NewListBase("agent_token", agentTokenIdentity)}
}

type agentTokenListResource struct {
	kit.ListBase
}

// agentTokenListFilter: a token has no name, so it is found by its description.
type agentTokenListFilter struct {
	Description types.String `tfsdk:"description"`
}

func (l *agentTokenListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the organization's unclustered agent tokens that are not revoked (without their " +
			"secrets, which the service returns only on creation), shown by description, or by UUID where a token " +
			"has none. Only Buildkite's GraphQL API lists them, so this needs `graphql_url` (where `rest_url` is set) " +
			"and an API token with the `graphql` scope. Its listing has no cursor: it shows the first 500 tokens and " +
			"the last 500, so of an organization with over 1,000 unrevoked tokens the rest are not found, and the " +
			"query says how many in a warning.",
		Attributes: map[string]schema.Attribute{
			"description": schema.StringAttribute{
				MarkdownDescription: "Only the tokens with this description (compared without regard to case). Unset, " +
					"every token.",
				Optional:   true,
				Validators: []validator.String{kit.NotBlank()},
			},
		},
	}
}

// List makes one GraphQL query, or two where the organization has over 500 tokens (AgentTokens.Listing).
func (l *agentTokenListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var filter agentTokenListFilter
	if diags := req.Config.Get(ctx, &filter); diags.HasError() {
		kit.ListFailed(stream, diags)
		return
	}
	callCtx, cancel := l.Timeout(ctx, kit.OpRead)
	defer cancel()
	listing, err := l.Client().AgentTokens.Listing(callCtx)
	if err != nil {
		var diags diag.Diagnostics
		kit.AddGraphQLError(&diags, "list", "agent tokens", "", err, nil)
		kit.ListFailed(stream, diags)
		return
	}
	var items []kit.Found
	for i := range listing.Tokens {
		t := &listing.Tokens[i]
		description := kit.Deref(t.Description)
		if !filter.Description.IsNull() && !strings.EqualFold(description, filter.Description.ValueString()) {
			continue
		}
		var m agentTokenModel
		m.fromAPI(t)
		name := description
		if name == "" {
			name = t.UUID
		}
		items = append(items, kit.Found{Model: &m, DisplayName: name})
	}
	var warnings diag.Diagnostics
	if n := listing.Unseen(); n > 0 {
		warnings.AddWarning("Not Every Agent Token Listed", fmt.Sprintf(
			"The organization %q has %d unclustered agent tokens that are not revoked, and Buildkite's GraphQL API "+
				"shows only the first 500 and the last 500 of them (its agentTokens listing has no cursor), so %d "+
				"were not found. Revoke the tokens no agent uses, or import those you need by their UUID.",
			l.Client().Organization(), listing.Total, n))
	}
	stream.Results = kit.WithWarnings(warnings, l.Results(ctx, req, items))
}

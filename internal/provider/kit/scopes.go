package kit

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// OperationScopes lists the token scopes a resource's writes need.
type OperationScopes struct {
	Create, Update, Delete []string
}

// WriteScopes is the usual case: one set of scopes for create, update and delete.
func WriteScopes(scopes ...string) OperationScopes {
	return OperationScopes{Create: scopes, Update: scopes, Delete: scopes}
}

// MissingScopes returns those of scopes the token lacks, or nil where the token's scopes are unknown.
func (d *ProviderData) MissingScopes(scopes []string) []string {
	if d == nil || d.Token == nil {
		return nil
	}
	var missing []string
	for _, s := range scopes {
		if !d.Token.HasScope(s) {
			missing = append(missing, s)
		}
	}
	return missing
}

// ModifyPlan implements resource.ResourceWithModifyPlan: a change the token lacks the scope for fails at plan
// time, before anything is applied, rather than leaving a run half-applied on a 403, and so does a change that
// needs GraphQL where GraphQL cannot be reached (graphql_scope.go). A resource with its own ModifyPlan calls
// this one first.
func (b *ResourceBase) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	b.maskSensitive(ctx, req) // logging.go: the client masks what the schema calls secret
	if b.Data == nil {
		return
	}
	b.checkGraphQL(ctx, req, resp)
	var need []string
	var action string
	switch {
	case req.State.Raw.IsNull():
		need, action = b.scopes.Create, "create"
	case req.Plan.Raw.IsNull():
		need, action = b.scopes.Delete, "delete"
	case !req.Plan.Raw.Equal(req.State.Raw):
		need, action = b.scopes.Update, "update"
	default:
		return
	}
	if !b.Data.contactForPlan(ctx, &resp.Diagnostics) {
		return
	}
	if missing := b.Data.MissingScopes(need); len(missing) > 0 {
		resp.Diagnostics.AddError("Missing API Token Scope",
			fmt.Sprintf("Terraform plans to %s a buildkite_%s, which needs the %s scope%s, and the API token lacks it. "+
				"Add the scope to the token (or use another token) and plan again; nothing has been changed.",
				action, b.Name, QuoteList(missing), Plural(len(missing))))
	}
}

// contactForPlan makes sure first contact has been made, so that a change's scopes are checked at plan
// time. Configure makes it before any resource is given the provider's data, so this asks nothing; a failure
// is the plan's error. It reports whether the scopes can be checked.
func (d *ProviderData) contactForPlan(ctx context.Context, diags *diag.Diagnostics) bool {
	if err := d.Client.Contact(ctx); err != nil {
		AddContactError(err, diags, false)
		return false
	}
	return true
}

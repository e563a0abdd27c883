package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// resourceBase gives every resource its Metadata, Configure, a plan-time scope check (scopes.go), operation
// timeouts and the read-or-remove and delete conventions. Embed it and build it with newResourceBase.
type resourceBase struct {
	name   string // type name without the "buildkite_" prefix
	scopes operationScopes
	data   *providerData
	// graphQLOnly are the attributes the official provider sets through GraphQL (graphql_only.go).
	graphQLOnly []string
}

func newResourceBase(name string, scopes operationScopes) resourceBase {
	return resourceBase{name: name, scopes: scopes}
}

// Metadata implements resource.Resource.
func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure implements resource.ResourceWithConfigure.
func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// client returns the shared REST client.
func (b *resourceBase) client() *buildkite.Client { return b.data.client }

// timeout bounds an operation by the provider block's timeouts.
func (b *resourceBase) timeout(ctx context.Context, op operation) (context.Context, context.CancelFunc) {
	return operationContext(ctx, b.data, op)
}

// readFailed handles the error of a Read's lookup: a 404 removes the resource from state, but only once the
// organization is confirmed to answer; anything else is an error naming the object.
func (b *resourceBase) readFailed(ctx context.Context, resp *resource.ReadResponse, err error, what, ident string) {
	if buildkite.IsNotFound(err) {
		if orgErr := b.data.confirmOrganization(ctx); orgErr != nil {
			resp.Diagnostics.AddError("Unable to Read "+titleWords(what),
				fmt.Sprintf("Reading %s %s: the service answered 404, and %s. The resource stays in state.", what, ident, orgErr))
			return
		}
		resp.State.RemoveResource(ctx)
		return
	}
	addAPIError(&resp.Diagnostics, "read", what, ident, err)
}

// deleteFailed handles the error of a Delete: a 404 means it is already gone (once the organization is
// confirmed to answer), anything else is an error.
func (b *resourceBase) deleteFailed(ctx context.Context, diags *diag.Diagnostics, err error, what, ident string) {
	if err == nil {
		return
	}
	if buildkite.IsNotFound(err) {
		if orgErr := b.data.confirmOrganization(ctx); orgErr != nil {
			diags.AddError("Unable to Delete "+titleWords(what),
				fmt.Sprintf("Deleting %s %s: the service answered 404, and %s.", what, ident, orgErr))
		}
		return
	}
	addAPIError(diags, "delete", what, ident, err)
}

package provider

import (
	"context"
	"iter"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

// List resources (Terraform 1.14+): `terraform query` finds what exists with them, and
// `terraform query -generate-config-out` writes configuration and import blocks for it. Each list resource
// has the type name of the resource it finds, and answers with the resource's state and identity, built from
// the service's listings (a page of 100 objects per call) rather than one GET per object.

var _ provider.ProviderWithListResources = (*buildkiteProvider)(nil)

// ListResources implements provider.ProviderWithListResources.
func (p *buildkiteProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewClusterListResource,
		NewClusterQueueListResource,
		NewClusterAgentTokenListResource,
		NewClusterDefaultQueueListResource,
		NewTestSuiteListResource,
		NewRegistryListResource,
		NewRegistryTokenListResource,
		NewTeamListResource,
		NewTeamMemberListResource,
		NewPipelineTeamListResource,
		NewTestSuiteTeamListResource,
		NewPipelineListResource,
		NewPipelineTemplateListResource,
		NewOrganizationRuleListResource,
	}
}

// listBase gives every list resource the Metadata of the resource it finds, Configure, the client, a read
// timeout, and the identity it shares with that resource. Embed it and build it with newListBase.
type listBase struct {
	resourceBase
	identity resourceIdentity
}

// newListBase builds the base of the list resource for the resource type name (without "buildkite_"),
// whose identity is identity.
func newListBase(name string, identity resourceIdentity) listBase {
	return listBase{resourceBase: newResourceBase(name, operationScopes{}), identity: identity}
}

// found is one object a list resource found: the resource's model as Read leaves it (a struct with tfsdk
// tags, or a pointer to one) and the name `terraform query` shows for it.
type found struct {
	model       any
	displayName string
}

// results answers a List request with what was found, in order of display name and up to the request's
// limit. Each result's identity is taken from its model, so it is the identity Read keeps.
func (b *listBase) results(ctx context.Context, req list.ListRequest, items []found) iter.Seq[list.ListResult] {
	sort.SliceStable(items, func(i, j int) bool { return items[i].displayName < items[j].displayName })
	return func(push func(list.ListResult) bool) {
		for n, it := range items {
			if req.Limit > 0 && int64(n) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = it.displayName
			result.Diagnostics.Append(result.Resource.Set(ctx, it.model)...)
			if !result.Diagnostics.HasError() {
				b.identity.identify(ctx, *result.Resource, result.Identity, &result.Diagnostics)
			}
			if !push(result) {
				return
			}
		}
	}
}

// listFailed answers a List request with diagnostics instead of results.
func listFailed(stream *list.ListResultsStream, diags diag.Diagnostics) {
	stream.Results = list.ListResultsStreamDiagnostics(diags)
}

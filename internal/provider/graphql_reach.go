package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// graphQLReachable reports whether Buildkite's GraphQL API can be asked: the provider has a GraphQL
// endpoint and the API token, as far as the provider knows, has the graphql scope. Reads that add what only
// GraphQL tells (a rule's description and conditions, say) ask it only then, so that a configuration that
// sets none of it keeps working with a REST-only token.
func (d *providerData) graphQLReachable() bool {
	return d != nil && d.client != nil && d.client.HasGraphQL() && len(d.missingScopes([]string{scopeGraphQL})) == 0
}

// requireGraphQL fails a plan whose change of the attribute at p (of resource type name) only GraphQL can
// make, where GraphQL cannot be reached; what says what the change is.
func (d *providerData) requireGraphQL(diags *diag.Diagnostics, name string, p path.Path, what string) {
	if d == nil || d.graphQLReachable() {
		return
	}
	why := fmt.Sprintf("the API token lacks the %q scope (\"Enable GraphQL API access\")", scopeGraphQL)
	if !d.client.HasGraphQL() {
		why = "the provider has no GraphQL endpoint (rest_url is set and graphql_url is not)"
	}
	diags.AddAttributeError(p, "GraphQL Needed",
		fmt.Sprintf("buildkite_%s: %s is made through Buildkite's GraphQL API, and %s. Set \"graphql_url\" (or %s) "+
			"or add the scope to the API token, and plan again; nothing has been changed.", name, what, why, envGraphQLURL))
}

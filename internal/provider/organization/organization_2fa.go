package organization

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// buildkite_organization's enforce_2fa, which only Buildkite's GraphQL API reads and sets. Configured, it is
// read and written only when it differs. Left out, it is never written (leaving it out must never turn
// two-factor authentication off), but it is read wherever GraphQL can be reached: create, import and every
// refresh hold the service's value, as the official provider's state does, and null where GraphQL cannot be
// reached (a workspace that leaves it out never needs GraphQL). Destroy leaves it as it is, as the official
// provider does ("Enforce 2FA setting left intact").

// enforce2FANote is the resource description's sentence on enforce_2fa.
const enforce2FANote = "`enforce_2fa` is read and set through Buildkite's GraphQL API: set only where the configuration " +
	"sets it (the API token then needs the `graphql` scope), and read wherever GraphQL can be reached; leaving it out " +
	"never turns two-factor authentication off, and destroy leaves it as it is."

// enforce2FADescription is enforce_2fa's description.
const enforce2FADescription = "Whether members must use two-factor authentication, read and set through Buildkite's " +
	"GraphQL API (the API token needs the `graphql` scope, and where `rest_url` is set the provider needs `graphql_url`). " +
	"Left out, it is never written: create, import and refresh read the organization's value where GraphQL can be " +
	"reached (the API token has the `graphql` scope and the provider a GraphQL endpoint), and it is null where GraphQL " +
	"cannot be reached. Destroy leaves it as it is."

// apply2FA runs after the REST settings of a create or update: when the configuration sets enforce_2fa (want,
// null where it is left out), the service's value is read and the mutation sent only if it differs; plan ends
// with what the service holds. Left out and planned unknown (a create where GraphQL can be reached), it is only
// read.
func apply2FA(ctx context.Context, d *kit.ProviderData, want types.Bool, plan *organizationResourceModel, action string, diags *diag.Diagnostics) {
	if want.IsNull() {
		if plan.Enforce2FA.IsUnknown() {
			readUnset2FA(ctx, d, plan, kit.Gerund(action), diags)
		}
		return
	}
	if want.IsUnknown() { // never at apply; a state holds no unknown
		plan.Enforce2FA = types.BoolNull()
		return
	}
	orgs := d.Client.Organizations
	live, err := orgs.TwoFactorEnforced(ctx)
	if err != nil {
		kit.AddGraphQLError(diags, "read", "organization two-factor enforcement", d.Client.Organization(), err, nil)
		return
	}
	if target := want.ValueBool(); live != target {
		live, err = orgs.SetTwoFactorEnforced(ctx, target)
		if kit.ActedWithErrors(diags, err, "set", "organization two-factor enforcement", d.Client.Organization()) {
			err = nil // live is what the service's answer holds
		}
		if err != nil {
			diags.AddAttributeError(path.Root("enforce_2fa"), "Unable to Set 2FA", fmt.Sprintf(
				"%s organization %s with enforce_2fa = %t: %s. The token's user must be an administrator of the organization.",
				kit.Gerund(action), d.Client.Organization(), target, kit.DescribeError(err)))
			return
		}
	}
	plan.Enforce2FA = types.BoolValue(live)
}

// read2FA refreshes enforce_2fa wherever GraphQL can be reached, configured or not (one rule with create
// and import); otherwise the state keeps what it held, so that a workspace whose token lacks the graphql
// scope never needs it. A state that holds no value yet is read as a create reads it: a failure is a
// warning, since the configuration leaves it out (one that sets it holds a value after its apply).
func read2FA(ctx context.Context, d *kit.ProviderData, state *organizationResourceModel, diags *diag.Diagnostics) {
	if state.Enforce2FA.IsUnknown() || !d.GraphQLReachable() {
		return
	}
	if state.Enforce2FA.IsNull() {
		readUnset2FA(ctx, d, state, "Refreshing", diags)
		return
	}
	live, err := d.Client.Organizations.TwoFactorEnforced(ctx)
	if err != nil {
		kit.AddGraphQLError(diags, "read", "organization two-factor enforcement", d.Client.Organization(), err, nil)
		return
	}
	state.Enforce2FA = types.BoolValue(live)
}

// readUnset2FA reads enforce_2fa that the configuration leaves out, for a create, an import or the first
// refresh that can (so that create and import agree, and a configuration that sets it later plans no change
// where the service already holds it): the service's value, or null where GraphQL cannot be reached or the
// read fails. A failed read is a warning, not an error: nothing is written to enforce_2fa, and the settings
// already applied must not be lost from state.
func readUnset2FA(ctx context.Context, d *kit.ProviderData, m *organizationResourceModel, doing string, diags *diag.Diagnostics) {
	m.Enforce2FA = types.BoolNull()
	if !d.GraphQLReachable() {
		return
	}
	live, err := d.Client.Organizations.TwoFactorEnforced(ctx)
	if err != nil {
		diags.AddWarning("Unable to Read 2FA", fmt.Sprintf(
			"%s organization %s: reading enforce_2fa through GraphQL failed: %s. The state holds no value for it; "+
				"the next refresh reads it again. If this persists, check that graphql_url reaches Buildkite's GraphQL API "+
				"and that the API token's user is an administrator of the organization.", doing, d.Client.Organization(), kit.DescribeError(err)))
		return
	}
	m.Enforce2FA = types.BoolValue(live)
}

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// buildkite_organization's enforce_2fa, which only Buildkite's GraphQL API reads and sets. It follows the
// organization's settings rule: configured, it is read and written only when it differs; left out, it is
// neither read nor written (a workspace that leaves it out never needs GraphQL; import reads it where it can), and the state keeps what it
// held; destroy leaves it as it is, as the official provider does ("Enforce 2FA setting left intact").

// enforce2FANote is the resource description's sentence on enforce_2fa.
const enforce2FANote = "`enforce_2fa` is read and set through Buildkite's GraphQL API, and only where the configuration " +
	"sets it (the API token then needs the `graphql` scope); leaving it out never turns two-factor authentication off, " +
	"and destroy leaves it as it is."

// enforce2FADescription is enforce_2fa's description.
const enforce2FADescription = "Whether members must use two-factor authentication, read and set through Buildkite's " +
	"GraphQL API (the API token needs the `graphql` scope, and where `rest_url` is set the provider needs `graphql_url`). " +
	"Left out, it is neither read nor written (import reads it, where GraphQL can be reached): the state keeps what it held. " +
	"Destroy leaves it as it is."

// apply2FA runs after the REST settings of a create or update: when the configuration sets enforce_2fa, the
// service's value is read and the mutation sent only if it differs; plan ends with what the service holds.
func (r *organizationResource) apply2FA(ctx context.Context, config tfsdk.Config, plan *organizationResourceModel, action string, diags *diag.Diagnostics) {
	var want types.Bool
	diags.Append(config.GetAttribute(ctx, path.Root("enforce_2fa"), &want)...)
	if diags.HasError() || want.IsNull() || want.IsUnknown() || plan.Enforce2FA.IsUnknown() || plan.Enforce2FA.IsNull() {
		return
	}
	orgs := r.client().Organizations
	live, err := orgs.TwoFactorEnforced(ctx)
	if err != nil {
		addGraphQLError(diags, "read", "organization two-factor enforcement", r.client().Organization(), err, nil)
		return
	}
	if target := plan.Enforce2FA.ValueBool(); live != target {
		live, err = orgs.SetTwoFactorEnforced(ctx, target)
		if actedWithErrors(diags, err, "set", "organization two-factor enforcement", r.client().Organization()) {
			err = nil // live is what the service's answer holds
		}
		if err != nil {
			diags.AddAttributeError(path.Root("enforce_2fa"), "Unable to Set 2FA", fmt.Sprintf(
				"%s organization %s with enforce_2fa = %t: %s. The token's user must be an administrator of the organization.",
				gerund(action), r.client().Organization(), target, describeError(err)))
			return
		}
	}
	plan.Enforce2FA = types.BoolValue(live)
}

// read2FA refreshes enforce_2fa where the state holds a value (it was configured, or a state moved from the
// official provider holds one) and GraphQL can be reached; otherwise the state keeps what it held, so that
// a workspace that does not configure it never needs the graphql scope.
func (r *organizationResource) read2FA(ctx context.Context, state *organizationResourceModel, diags *diag.Diagnostics) {
	if state.Enforce2FA.IsNull() || state.Enforce2FA.IsUnknown() || !r.client().HasGraphQL() ||
		len(r.data.missingScopes([]string{scopeGraphQL})) > 0 {
		return
	}
	live, err := r.client().Organizations.TwoFactorEnforced(ctx)
	if err != nil {
		addGraphQLError(diags, "read", "organization two-factor enforcement", r.client().Organization(), err, nil)
		return
	}
	state.Enforce2FA = types.BoolValue(live)
}

// import2FA gives an imported organization the service's enforce_2fa where GraphQL can be reached, so that a
// configuration that sets it plans no change after import (the official provider reads it on import too);
// where it cannot, or the read fails, the state holds none and says so in a warning.
func (r *organizationResource) import2FA(ctx context.Context, m *organizationResourceModel, diags *diag.Diagnostics) {
	m.Enforce2FA = types.BoolNull()
	if !r.data.graphQLReachable() {
		return
	}
	live, err := r.client().Organizations.TwoFactorEnforced(ctx)
	if err != nil {
		diags.AddWarning("Unable to Read 2FA", fmt.Sprintf(
			"Importing organization %s: reading enforce_2fa through GraphQL failed: %s. The state holds no value for it; "+
				"the next apply that sets it reads it again.", r.client().Organization(), describeError(err)))
		return
	}
	m.Enforce2FA = types.BoolValue(live)
}

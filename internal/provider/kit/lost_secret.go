package kit

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// A secret that only the create answer carries (a portal's token, a cluster agent token, a registry token, a
// suite's API token, an unclustered agent token) is never silently lost. The client re-creates, exactly
// once, what a create with a lost answer made, to obtain the secret (buildkite.createForSecret); when that
// fails too it returns the object it made with a *buildkite.SecretLostError. What the create made is only
// ever the one matching object that did not exist before it was sent and that no other create returned;
// with more than one, nothing is deleted and the create fails (*buildkite.AmbiguousCreateError, reported
// as any failed create). The resource's Create then
// records that object, as it records any, and calls SecretLost: the error it adds makes Terraform keep the
// instance tainted, so that nothing is orphaned and the next apply replaces it, and says why. A type whose
// secret comes only at create uses it in Create as:
//
//	obj, err := r.client().X.Create(ctx, ...)
//	lost := obj != nil && SecretLost(ctx, &resp.Diagnostics, err, "<kind>", <ident>, "<secret attribute>")
//	if err != nil && !lost { ... the create failed, as before; return ... }
//	plan.fromAPI(obj) // without the secret when lost: the attribute is null
//	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)

// SecretLost reports whether err is a lost secret, adding the error that makes Terraform keep the instance
// (recorded by the caller) tainted.
func SecretLost(_ context.Context, diags *diag.Diagnostics, err error, kind, ident, attr string) bool {
	var lost *buildkite.SecretLostError
	if !errors.As(err, &lost) {
		return false
	}
	how := "Its create answer, the only one that carries it, was lost"
	if lost.Recreated {
		how = "The create's answer, the only one that carries it, was lost; the " + kind + " it made was deleted and " +
			"created once more, and that answer was lost as well"
	}
	diags.AddError("Secret of "+titleWords(kind)+" Lost", fmt.Sprintf(
		"Creating %s %s: the %s exists, but its %s is unknown. %s (%s). It is recorded in state as tainted, with %s "+
			"null, so nothing is left behind: the next apply replaces it and obtains a new %s.",
		kind, ident, kind, attr, how, DescribeError(lost.Cause), attr, attr))
	return true
}

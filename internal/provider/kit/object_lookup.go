package kit

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Objects found from what their state holds, and adopted rather than made. Most objects have a key the
// service addresses them by, and the kind reads, updates and removes them at it. A few are found by a lookup
// of several attributes instead (a membership: by the user's UUID, else by the invitation tracked, else by
// the e-mail), and a create may take over one that exists rather than make one: an adoption the plan must
// announce, since the apply changes someone who is already there, and that destroy must undo rather than
// remove what it did not make. The kind's hooks for them (ObjectKind's Lookup, PlanWith, RemoveFrom,
// Import) are given the resource's base, for its client, timeouts and shared failure paths, and the state.

// AsReported returns diags as the error of a call that reported them: nil when they hold nothing, so that
// a call that succeeded quietly answers as any other.
func AsReported(diags diag.Diagnostics) error {
	if len(diags) == 0 {
		return nil
	}
	var err error
	for _, d := range diags {
		if d.Severity() == diag.SeverityError {
			err = errors.New(d.Summary() + ": " + d.Detail())
			break
		}
	}
	return &Reported{Err: err, Report: func(to *diag.Diagnostics, _ string) { to.Append(diags...) }}
}

// findRecorded finds the object for Read: with the kind's Lookup from the state where it has one, else at
// its address.
func (r *objectResource[T, M]) findRecorded(ctx context.Context, a objectAddress, state *M) (*T, error) {
	if r.kind.Lookup != nil {
		return r.kind.Lookup(ctx, &r.ResourceBase, state)
	}
	return r.find(ctx, a)
}

// importOwn is ImportState for a kind with an import of its own: the kind's Import, under the read timeout.
func (r *objectResource[T, M]) importOwn(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	ctx, cancel := r.Timeout(ctx, OpRead)
	defer cancel()
	r.kind.Import(ctx, &r.ResourceBase, req, resp)
}

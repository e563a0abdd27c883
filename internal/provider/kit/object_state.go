package kit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The object kind's hooks for an object whose state steers its calls beyond its key (a pipeline): its
// private state (LoadPrivate, SavePrivate), a removal that depends on the state and the provider's settings
// (RemoveFrom), and a hook that fails in more than one way at once (DiagnosticsError). Find is in object.go's find.

// DiagnosticsError returns the errors among diags as an error a hook answers, to be reported as they are
// (Reported): nil where there is none. A create's answer that comes with it is recorded.
func DiagnosticsError(diags diag.Diagnostics) error {
	return AsReported(diags.Errors())
}

// APIError is the error AddAPIError reports, as a hook answers it: "Unable to <Action> <Kind>", "<Acting>
// <kind> <ident>: <the service's error>".
func APIError(action, kind, ident string, err error) *DiagnosedError {
	var diags diag.Diagnostics
	AddAPIError(&diags, action, kind, ident, err)
	return &DiagnosedError{Summary: diags[0].Summary(), Detail: diags[0].Detail()}
}

// loadPrivate fills state from the private state through the kind's LoadPrivate; a key that cannot be read
// is taken as absent.
func (r *objectResource[T, M]) loadPrivate(ctx context.Context, p PrivateReader, state *M) {
	r.kind.LoadPrivate(state, func(key string) []byte {
		if p == nil {
			return nil
		}
		v, d := p.GetKey(ctx, key)
		if d.HasError() {
			return nil
		}
		return v
	})
}

// savePrivate records the keys the kind's SavePrivate returns for plan.
func (r *objectResource[T, M]) savePrivate(ctx context.Context, p PrivateWriter, plan *M, diags *diag.Diagnostics) {
	for key, value := range r.kind.SavePrivate(plan) {
		diags.Append(p.SetKey(ctx, key, value)...)
	}
}

// removeFrom is Delete for a kind with RemoveFrom: the hook removes the object the state holds; one already
// gone is success, as for every kind.
func (r *objectResource[T, M]) removeFrom(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	a := r.address(ctx, req.State, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, OpDelete)
	defer cancel()
	err := r.kind.RemoveFrom(ctx, &r.ResourceBase, &state)
	if ownWords(err) {
		r.hookFailed(&resp.Diagnostics, "delete", a.ident, err)
		return
	}
	r.DeleteFailed(ctx, &resp.Diagnostics, err, r.kind.What, a.ident)
}

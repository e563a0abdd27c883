package kit

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The object kind's hooks for an object whose state steers its calls beyond its key (a pipeline): its
// private state (LoadPrivate, SavePrivate), a removal that depends on the state and the provider's settings
// (RemoveFrom), and a hook that fails in more than one way at once (Diagnoses). Find is in object.go's find.

// Diagnoses are the errors of a hook that failed in more than one way (a step, then the undoing of an earlier
// step that failed too): each is reported as it is, in its own words. It unwraps to the first, so that a
// create's answer that came with it is recorded as with one DiagnosedError.
type Diagnoses []*DiagnosedError

func (d Diagnoses) Error() string {
	msgs := make([]string, len(d))
	for i, e := range d {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

func (d Diagnoses) Unwrap() error { return d[0] }

func (d Diagnoses) addTo(diags *diag.Diagnostics) {
	for _, e := range d {
		diags.AddError(e.Summary, e.Detail)
	}
}

// DiagnosticsError returns the errors among diags as an error a hook answers, to be reported as they are: nil
// where there is none, a *DiagnosedError for one, Diagnoses for more.
func DiagnosticsError(diags diag.Diagnostics) error {
	var out Diagnoses
	for _, d := range diags.Errors() {
		out = append(out, &DiagnosedError{Summary: d.Summary(), Detail: d.Detail()})
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
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
	err := r.kind.RemoveFrom(ctx, r.Data, &state)
	if errors.As(err, new(*DiagnosedError)) {
		r.hookFailed(&resp.Diagnostics, "delete", a.ident, err)
		return
	}
	r.DeleteFailed(ctx, &resp.Diagnostics, err, r.kind.What, a.ident)
}

package kit

import "github.com/hashicorp/terraform-plugin-framework/diag"

// Reported is an error a client call or hook reports itself, where DiagnosedError's one summary and detail
// cannot say it: on an attribute (a repository that is not the pipeline's), as several errors (one for each
// of a GraphQL answer's), or naming the object as the operation names it (an import by the ID as written),
// which Report is given as ident; or warnings beside an error, or alone (an adoption announced, then
// refused or done: AsReported). Like DiagnosedError, it is reported as it says, by whichever operation meets
// it, and a get's leaves the object in state; returned with the object by a create or update, the object is
// recorded as with a DiagnosedError (without an error, Err nil: done, with the warnings).
type Reported struct {
	Err    error
	Report func(diags *diag.Diagnostics, ident string)
}

func (e *Reported) Error() string {
	if e.Err == nil {
		return "reported without an error"
	}
	return e.Err.Error()
}

func (e *Reported) Unwrap() error { return e.Err }

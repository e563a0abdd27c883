package kit

import "github.com/hashicorp/terraform-plugin-framework/diag"

// Reported is an error a client call or hook reports itself, where DiagnosedError's one summary and detail
// cannot say it: on an attribute (a repository that is not the pipeline's), as several errors (one for each
// of a GraphQL answer's), or naming the object as the operation names it (an import by the ID as written),
// which Report is given as ident. Like DiagnosedError, it is reported as it says, by whichever operation
// meets it, and a get's leaves the object in state.
type Reported struct {
	Err    error
	Report func(diags *diag.Diagnostics, ident string)
}

func (e *Reported) Error() string { return e.Err.Error() }

func (e *Reported) Unwrap() error { return e.Err }

package kit

import "github.com/hashicorp/terraform-plugin-framework/diag"

// StepFailed is the error of a step that follows the create of an object, in the same client call (a setting
// the service takes only on an update, a pause): in the words AddAPIError gives the step, naming the object
// by ident. Returned by a kind's Create together with the answer of the steps before it, it is reported as
// it is, and the state records that answer, so that the object made is tracked rather than orphaned.
func StepFailed(action, what, ident string, err error) error {
	var d diag.Diagnostics
	AddAPIError(&d, action, what, ident, err)
	return &DiagnosedError{Summary: d[0].Summary(), Detail: d[0].Detail()}
}

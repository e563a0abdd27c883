package fakeserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// apiError is an error response: a status, a JSON body and any extra headers. Every error the emulator
// answers is built by one of the constructors below and written by writeError.
type apiError struct {
	status int
	body   any
	header map[string]string
}

// Error makes an apiError usable as an error (for logs and tests).
func (e *apiError) Error() string { return fmt.Sprintf("%d %v", e.status, e.body) }

// messageBody is the body of nearly every error: {"message": "..."}.
type messageBody struct {
	Message string `json:"message"`
}

// writeError writes e.
func writeError(w http.ResponseWriter, e *apiError) {
	for k, v := range e.header {
		w.Header().Set(k, v)
	}
	writeJSON(w, e.status, e.body)
}

func newMessageError(status int, message string) *apiError {
	return &apiError{status: status, body: messageBody{Message: message}}
}

// authDocsURL is where the real service's 401 message points.
const authDocsURL = "https://buildkite.com/docs/apis/rest-api#authentication"

// errUnauthorized: the access token is missing or unknown (401).
func errUnauthorized() *apiError {
	return newMessageError(http.StatusUnauthorized,
		"Authentication required. Please supply a valid API Access Token: "+authDocsURL)
}

// errAgentUnauthorized: the agent registration token of /v3/metrics is missing, unknown or expired (401).
func errAgentUnauthorized() *apiError {
	return newMessageError(http.StatusUnauthorized,
		`Authentication required. Please supply a valid agent registration token as "Authorization: Token <token>"`)
}

// errAgentAddressRefused: a cluster agent token used from outside its allowed_ip_addresses (403).
func errAgentAddressRefused(host, allowed string) *apiError {
	return newMessageError(http.StatusForbidden,
		"Forbidden: this agent token may not be used from "+host+" (allowed: "+allowed+")")
}

// errMissingScope: the token lacks the endpoint's scope (403).
func errMissingScope(scope string) *apiError {
	return newMessageError(http.StatusForbidden, "Your access token doesn't have the "+scope+" scope")
}

// errForbidden: the token's user may not do this (403).
func errForbidden() *apiError { return newMessageError(http.StatusForbidden, "Forbidden") }

// errNotFound: an unknown resource, or one outside the token's organizations (404 "No <resource> found").
func errNotFound(resource string) *apiError {
	return newMessageError(http.StatusNotFound, "No "+resource+" found")
}

// errInjected: a server error injected by Options.Faults (500, 502 or 503), worded as the status.
func errInjected(status int) *apiError { return newMessageError(status, http.StatusText(status)) }

// errRouteNotFound: no endpoint has this path (404).
func errRouteNotFound() *apiError { return newMessageError(http.StatusNotFound, "Not Found") }

// errMethodNotAllowed: the path exists but not with this method (405); allow lists the methods that do.
func errMethodNotAllowed(allow string) *apiError {
	e := newMessageError(http.StatusMethodNotAllowed, "Method Not Allowed")
	if allow != "" {
		e.header = map[string]string{"Allow": allow}
	}
	return e
}

// errMalformedJSON: the body is not JSON (400).
func errMalformedJSON() *apiError {
	return newMessageError(http.StatusBadRequest, "Problems parsing JSON")
}

// errBadRequest: the request cannot be understood for another reason (400).
func errBadRequest(message string) *apiError { return newMessageError(http.StatusBadRequest, message) }

// errBodyTooLarge: the body exceeds maxBodyBytes (413).
func errBodyTooLarge() *apiError {
	return newMessageError(http.StatusRequestEntityTooLarge,
		fmt.Sprintf("Request body is too large (maximum is %d bytes)", maxBodyBytes))
}

// errStateNotSaved: the change was made but the state file could not be written (500).
func errStateNotSaved(path string, err error) *apiError {
	return newMessageError(http.StatusInternalServerError,
		"The change was made but could not be saved to the state file "+path+": "+err.Error()+
			"; it will be lost when the emulator restarts unless a later change is saved")
}

// errUnprocessable: a 422 whose message is given whole, such as "Cluster queue is already paused" or the
// reason a delete was refused.
func errUnprocessable(message string) *apiError {
	return newMessageError(http.StatusUnprocessableEntity, message)
}

// errValidation: the 422 of clusters, queues, tokens, teams and templates:
// "Validation failed: <reason>, <reason>".
func errValidation(v validationErrors) *apiError {
	return errUnprocessable("Validation failed: " + strings.Join(v.sentences(), ", "))
}

// fieldErrorBody is one entry of the errors array of the pipeline/build form of 422.
type fieldErrorBody struct {
	Field string `json:"field"`
	Code  string `json:"code"`
}

// pipelineValidationBody is the pipeline/build form of 422.
type pipelineValidationBody struct {
	Message string           `json:"message"`
	Errors  []fieldErrorBody `json:"errors"`
}

// errPipelineValidation: the 422 of pipelines and builds:
// {"message":"Validation Failed","errors":[{"field":"configuration","code":"<reason>"}]}.
func errPipelineValidation(v validationErrors) *apiError {
	body := pipelineValidationBody{Message: "Validation Failed", Errors: make([]fieldErrorBody, 0, len(v))}
	for _, fe := range v {
		body.Errors = append(body.Errors, fieldErrorBody{Field: fe.field, Code: fe.reason})
	}
	return &apiError{status: http.StatusUnprocessableEntity, body: body}
}

// rateLimitBody is the body of a 429.
type rateLimitBody struct {
	Message string `json:"message"`
	Scope   string `json:"scope"`
	Limit   int    `json:"limit"`
	Current int    `json:"current"`
	Reset   int    `json:"reset"`
}

// rateLimitMessage is the 429 message, also sent as RateLimit-Warning.
func rateLimitMessage(reset int) string {
	return "You have exceeded your API rate limit. Please wait " + strconv.Itoa(reset) +
		" seconds before making more requests."
}

// errRateLimited: the token used up its requests for the window (429).
func errRateLimited(scope string, limit, current, reset int) *apiError {
	return &apiError{
		status: http.StatusTooManyRequests,
		body:   rateLimitBody{Message: rateLimitMessage(reset), Scope: scope, Limit: limit, Current: current, Reset: reset},
	}
}

// fieldError is one validation problem: the JSON property and the reason, worded to follow the
// property's humanized name ("can't be blank").
type fieldError struct {
	field  string
	reason string
}

// validationErrors collects the problems of one request, in the order found.
type validationErrors []fieldError

// add records that field has the problem reason.
func (v *validationErrors) add(field, reason string) { *v = append(*v, fieldError{field, reason}) }

// addOnce records that field has the problem reason unless it is recorded already (a property read twice).
func (v *validationErrors) addOnce(field, reason string) {
	for _, fe := range *v {
		if fe == (fieldError{field, reason}) {
			return
		}
	}
	v.add(field, reason)
}

// addBlank records "can't be blank" for field unless it already has a problem, so "Name must be a
// string" is not followed by "Name can't be blank".
func (v *validationErrors) addBlank(field string) {
	for _, fe := range *v {
		if fe.field == field {
			return
		}
	}
	v.add(field, "can't be blank")
}

// sentences words each problem the way Rails does: "Name can't be blank".
func (v validationErrors) sentences() []string {
	out := make([]string, len(v))
	for i, fe := range v {
		out[i] = humanize(fe.field) + " " + fe.reason
	}
	return out
}

// humanize turns a JSON property into the name Rails shows: "default_queue_id" becomes "Default queue".
func humanize(field string) string {
	s := strings.TrimSuffix(field, "_id")
	s = strings.ReplaceAll(s, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

package buildkite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"
)

// Sentinel errors matched by errors.Is against an *Error. They compare the
// status code only, because the service's message text is not a contract.
var (
	// ErrUnauthorized matches a 401: the token is missing or unknown.
	ErrUnauthorized = errors.New("buildkite: unauthorized")
	// ErrForbidden matches a 403: the token lacks a scope or permission.
	ErrForbidden = errors.New("buildkite: forbidden")
	// ErrNotFound matches a 404: the object does not exist or is not visible.
	ErrNotFound = errors.New("buildkite: not found")
	// ErrValidation matches a 422: the service refused the change.
	ErrValidation = errors.New("buildkite: validation failed")
	// ErrRateLimited matches a 429 that outlasted the retries.
	ErrRateLimited = errors.New("buildkite: rate limited")
)

// Error is returned for every non-2xx response.
type Error struct {
	StatusCode int
	Method     string
	Path       string
	Message    string       // the service's "message"
	Errors     []FieldError // the service's "errors" array when present
}

// FieldError is one entry of the service's "errors" array, e.g.
// {"field":"configuration","code":"invalid"}.
type FieldError struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

var _ error = (*Error)(nil)

// Error renders e.g.
// "PUT /v2/organizations/acme/clusters/123: 422 Validation failed: Name can't be blank".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Method != "" || e.Path != "" {
		fmt.Fprintf(&b, "%s %s: ", e.Method, e.Path)
	}
	fmt.Fprintf(&b, "%d", e.StatusCode)
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	if msg != "" {
		b.WriteString(" ")
		b.WriteString(msg)
	}
	if len(e.Errors) > 0 {
		parts := make([]string, 0, len(e.Errors))
		for _, fe := range e.Errors {
			parts = append(parts, fe.String())
		}
		b.WriteString(" (")
		b.WriteString(strings.Join(parts, "; "))
		b.WriteString(")")
	}
	return b.String()
}

// Is lets errors.Is(err, ErrNotFound) and friends work on the status code.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrValidation:
		return e.StatusCode == http.StatusUnprocessableEntity
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	}
	return false
}

// String joins the non-empty parts, which reads like "configuration can't be blank".
func (fe FieldError) String() string {
	parts := make([]string, 0, 3)
	for _, p := range []string{fe.Field, fe.Code, fe.Message} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// StatusCode returns the HTTP status of an *Error in err's chain, or 0.
func StatusCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is an *Error with status 404.
func IsNotFound(err error) bool { return StatusCode(err) == http.StatusNotFound }

// IsUnauthorized reports whether err is an *Error with status 401.
func IsUnauthorized(err error) bool { return StatusCode(err) == http.StatusUnauthorized }

// IsForbidden reports whether err is an *Error with status 403.
func IsForbidden(err error) bool { return StatusCode(err) == http.StatusForbidden }

// IsValidation reports whether err is an *Error with status 422.
func IsValidation(err error) bool { return StatusCode(err) == http.StatusUnprocessableEntity }

// IsRateLimited reports whether err is an *Error with status 429.
func IsRateLimited(err error) bool { return StatusCode(err) == http.StatusTooManyRequests }

// maxSnippet bounds how much of a non-JSON body (an HTML error page from a
// proxy, say) ends up in an error message.
const maxSnippet = 200

// newError decodes the service's error body. Bodies that are not the
// documented JSON shape still produce a useful message from their text.
func newError(method, path string, status int, body []byte) *Error {
	e := &Error{StatusCode: status, Method: method, Path: path}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return e
	}
	var payload struct {
		Message string          `json:"message"`
		Error   string          `json:"error"`
		Errors  json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(trimmed, &payload); err != nil {
		e.Message = snippet(trimmed)
		return e
	}
	e.Message = payload.Message
	if e.Message == "" {
		e.Message = payload.Error
	}
	e.Errors = decodeFieldErrors(payload.Errors)
	return e
}

// decodeFieldErrors accepts the documented array of objects and, because
// Rails-style services also emit them, an array of strings or an object
// mapping fields to messages.
func decodeFieldErrors(raw json.RawMessage) []FieldError {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err == nil {
		out := make([]FieldError, 0, len(items))
		for _, it := range items {
			var fe FieldError
			if err := json.Unmarshal(it, &fe); err == nil {
				out = append(out, fe)
				continue
			}
			var s string
			if err := json.Unmarshal(it, &s); err == nil {
				out = append(out, FieldError{Message: s})
			}
		}
		return out
	}
	var byField map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byField); err == nil {
		keys := make([]string, 0, len(byField))
		for k := range byField {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out []FieldError
		for _, k := range keys {
			var many []string
			var one string
			switch {
			case json.Unmarshal(byField[k], &many) == nil:
				for _, m := range many {
					out = append(out, FieldError{Field: k, Message: m})
				}
			case json.Unmarshal(byField[k], &one) == nil:
				out = append(out, FieldError{Field: k, Message: one})
			}
		}
		return out
	}
	return nil
}

// snippet collapses whitespace and truncates on a rune boundary.
func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) <= maxSnippet {
		return s
	}
	cut := maxSnippet
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

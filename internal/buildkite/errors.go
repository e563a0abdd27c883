package buildkite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
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
		fmt.Fprintf(&b, "%s %s: ", e.Method, Shorten(e.Path))
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

// IsNotFound reports whether err is an *Error with status 404, or a GraphQL answer whose every error says
// not found (GraphQLError.Is).
func IsNotFound(err error) bool {
	var ge *GraphQLError
	return StatusCode(err) == http.StatusNotFound || (errors.As(err, &ge) && ge.Is(ErrNotFound))
}

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

// maxMessage bounds the service's own message in an error: it may echo what
// it was sent, such as an ID of any length.
const maxMessage = 1000

// newError decodes the service's error body. Bodies that are not the
// documented JSON shape still produce a useful message from their text, cut
// to maxSnippet. Every text taken from the body is masked (maskText: token
// forms, and secrets, the configured API token) and shortened (Shorten).
func newError(method, path string, status int, body []byte, secrets ...string) *Error {
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
		e.Message = snippet([]byte(maskLoose(maskText(string(trimmed), secrets...))))
		return e
	}
	clean := func(s string) string { return bound(Shorten(maskText(s, secrets...)), maxMessage) }
	e.Message = payload.Message
	if e.Message == "" {
		e.Message = payload.Error
	}
	e.Message = clean(e.Message)
	e.Errors = decodeFieldErrors(payload.Errors)
	for i := range e.Errors {
		e.Errors[i].Field = clean(e.Errors[i].Field)
		e.Errors[i].Code = clean(e.Errors[i].Code)
		e.Errors[i].Message = clean(e.Errors[i].Message)
	}
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
	return bound(strings.Join(strings.Fields(string(b)), " "), maxSnippet)
}

// bound cuts s to at most limit bytes on a rune boundary, marking the cut.
func bound(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// maxMaskInput bounds the text maskText reads: what an error or a log line
// shows of a body is far shorter, and the rest is not scanned.
const maxMaskInput = 1 << 20

// Token forms a body may echo (a proxy's error page that shows the request's
// headers, say), which maskText replaces:
//   - Buildkite's tokens: a short lower-case prefix such as bkua_ (API access
//     tokens) or bkct_ (cluster agent tokens), then the secret; the prefix is
//     kept so that a reader sees which kind was masked;
//   - a credential after "Bearer", or after an Authorization header's name.
var (
	tokenForm  = regexp.MustCompile(`\b(bk[a-z]{2,4}_)[A-Za-z0-9_\-]{6,}`)
	bearerForm = regexp.MustCompile(`(?i)\b(bearer\s+)[A-Za-z0-9._~+/=\-]{8,}`)
	headerForm = regexp.MustCompile(`(?i)\b(authorization["']?\s*[:=]\s*["']?(?:[a-z]+\s+)?)[A-Za-z0-9._~+/=\-]{8,}`)
	// A value after a secret's name: token=<hex> in a query string or form a proxy's page echoes, or
	// "password":"..." in a JSON text that is not parsed as such.
	namedForm = regexp.MustCompile(`(?i)\b((?:[a-z]+[_-])?(?:token|secret|password|api_?key|access_?key)s?(?:=|["']\s*:\s*["']))[^\s"'&<>,;]{6,}`)
	// A run of 32 or more hex digits: token-shaped in a body that is not JSON (a UUID has dashes).
	hexRun = regexp.MustCompile(`\b[0-9A-Fa-f]{32,}\b`)
)

// maskLoose masks, in a body that is not JSON (an HTML page from a proxy), runs of hex digits long enough to
// be a token as well: there no field name says what a value is.
func maskLoose(s string) string {
	return hexRun.ReplaceAllString(s, masked)
}

// maskText replaces, in text the service or something in front of it sent
// back, every secret given (the configured API token) and every token form
// (see tokenForm) with "***". Logs and errors both show bodies through it.
func maskText(s string, secrets ...string) string {
	if len(s) > maxMaskInput {
		s = s[:maxMaskInput]
	}
	for _, secret := range secrets {
		if len(secret) >= 4 { // a secret that short would mask ordinary words; none is
			s = strings.ReplaceAll(s, secret, masked)
		}
	}
	// The patterns run only where their words occur: most bodies have none, and a case-insensitive
	// pattern scans a listing page far slower than these look-ups do.
	if strings.Contains(s, "bk") {
		s = tokenForm.ReplaceAllString(s, "${1}"+masked)
	}
	if containsFold(s, "bearer") {
		s = bearerForm.ReplaceAllString(s, "${1}"+masked)
	}
	if containsFold(s, "authorization") {
		s = headerForm.ReplaceAllString(s, "${1}"+masked)
	}
	if containsFold(s, "token") || containsFold(s, "secret") || containsFold(s, "password") || containsFold(s, "key") {
		s = namedForm.ReplaceAllStringFunc(s, func(m string) string {
			sub := namedForm.FindStringSubmatch(m)
			if strings.HasSuffix(m, masked) {
				return m
			}
			return sub[1] + masked
		})
	}
	return s
}

// containsFold reports whether s holds word, an ASCII lower-case word, in any case.
func containsFold(s, word string) bool {
	upper := word[0] - 'a' + 'A'
	for i := 0; i+len(word) <= len(s); i++ {
		if c := s[i]; (c == word[0] || c == upper) && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// maxWord is the longest run of characters other than spaces and slashes,
// such as an ID, that Shorten leaves whole: longer than any ID, slug or name
// the service has.
const maxWord = 200

// longWord finds runs of characters other than spaces and slashes longer than
// maxWord: a path's segments are taken one by one.
var longWord = regexp.MustCompile(`[^\s/]{201,}`)

// Shorten cuts every run of characters other than spaces and slashes longer
// than maxWord (an ID of 100,000 characters someone pasted) to its start and
// its length, so that a message or path that names it stays readable:
// "xxxx…(100000 characters)".
func Shorten(s string) string {
	if len(s) <= maxWord {
		return s
	}
	return longWord.ReplaceAllStringFunc(s, func(w string) string {
		return bound(w, 40) + fmt.Sprintf("(%d characters)", utf8.RuneCountInString(w))
	})
}

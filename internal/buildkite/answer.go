package buildkite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// What a 2xx answer must hold. A read, create or update answered 2xx is worth only the object in it: an
// empty body, null, or an object without its identifier would hand the caller a zero object (and
// Terraform an empty ID), so such an answer is an error, a badAnswerError. The request path retries it
// for a repeatable call (maxBadAnswers times at most) and reports a create's outcome as unknown, which
// createOrAdopt and createOrReplace resolve as they do a lost answer.

// maxBadAnswers is how many 2xx answers that do not hold the object a repeatable call retries.
const maxBadAnswers = 2

// holds says what the 2xx body of a call with an out must hold.
type holds int

const (
	// holdsObject: a JSON object; when out is identified, one whose identity is set. The default.
	holdsObject holds = iota
	// holdsList: a JSON array, which may be empty.
	holdsList
	// holdsAny: anything or nothing; the caller checks what was decoded (queue dispatch actions, whose
	// answer the official client ignores, are read again when it holds no queue).
	holdsAny
)

// identified is implemented by every object the service answers with: identity returns the JSON field
// that identifies the object and its value, which a 2xx answer must hold. Each type asserts it at compile
// time beside its declaration.
type identified interface {
	identity() (field, value string)
}

// badAnswerError is a 2xx answer that does not hold what the call asked for.
type badAnswerError struct {
	status int
	what   string // what was missing, or what was there instead
}

func (e *badAnswerError) Error() string {
	return fmt.Sprintf("the service answered %d without the object: %s", e.status, e.what)
}

// hold checks that a 2xx body holds what r needs and decodes it into r.out. Nothing is decoded into r.out
// unless the whole body passes.
func hold(r call, status int, data []byte, secrets ...string) error {
	if r.out == nil {
		return nil
	}
	trimmed := bytes.TrimSpace(data)
	bad := func(what string) error { return &badAnswerError{status: status, what: what} }
	switch {
	case r.holds == holdsAny && (len(trimmed) == 0 || string(trimmed) == "null"):
		return nil
	case len(trimmed) == 0:
		return bad("the body is empty")
	case string(trimmed) == "null":
		return bad("the body is null")
	case r.holds == holdsList && trimmed[0] != '[':
		return bad("the body is not a list: " + snippet([]byte(maskLoose(maskText(string(trimmed), secrets...)))))
	case r.holds == holdsObject && trimmed[0] != '{':
		return bad("the body is not an object: " + snippet([]byte(maskLoose(maskText(string(trimmed), secrets...)))))
	}
	fresh := reflect.New(reflect.TypeOf(r.out).Elem())
	if err := json.Unmarshal(trimmed, fresh.Interface()); err != nil {
		return bad(fmt.Sprintf("decoding it: %v", err))
	}
	if id, ok := fresh.Interface().(identified); ok && r.holds == holdsObject {
		if field, value := id.identity(); value == "" {
			return bad(fmt.Sprintf("%q is missing", field))
		}
	}
	reflect.ValueOf(r.out).Elem().Set(fresh.Elem())
	return nil
}

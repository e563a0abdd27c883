package fakeserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// jsonObject is a request body decoded as one JSON object. Each property stays raw until a handler asks
// for it with a typed getter, so a handler can tell a missing property from null and from an empty value.
// A property of the wrong type is recorded as a validation problem naming it ("Name must be a string")
// instead of failing the request with a 5xx.
type jsonObject struct {
	raw      map[string]json.RawMessage
	problems validationErrors
}

// readObject reads the request body as a JSON object. An empty body is an empty object. On failure it
// writes the response itself (400 malformed or not an object, 413 too large) and returns false.
func readObject(w http.ResponseWriter, r *http.Request) (*jsonObject, bool) {
	obj, err := parseObject(r.Body)
	if err != nil {
		writeError(w, err)
		return nil, false
	}
	return obj, true
}

// parseObject decodes body as a JSON object.
func parseObject(body io.Reader) (*jsonObject, *apiError) {
	obj := &jsonObject{raw: map[string]json.RawMessage{}}
	if body == nil {
		return obj, nil
	}
	data, err := io.ReadAll(body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errBodyTooLarge()
		}
		return nil, errBadRequest("Could not read the request body")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return obj, nil
	}
	if err := json.Unmarshal(data, &obj.raw); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, errBadRequest("Request body must be a JSON object")
		}
		return nil, errMalformedJSON()
	}
	if obj.raw == nil { // the body was the literal null
		return nil, errBadRequest("Request body must be a JSON object")
	}
	return obj, nil
}

// Has reports whether the property is present (null included).
func (o *jsonObject) Has(field string) bool {
	_, ok := o.raw[field]
	return ok
}

// Problems returns the type problems found by the getters so far; a handler appends its own checks and
// answers errValidation when the result is not empty.
func (o *jsonObject) Problems() validationErrors { return append(validationErrors(nil), o.problems...) }

// opt is a property read from a jsonObject: Set when present, Null when present as null, Value otherwise.
type opt[T any] struct {
	Set   bool // the property is present
	Null  bool // the property is present as null
	Value T    // the value; the zero value when absent or null
}

// Given reports whether the property is present and not null.
func (o opt[T]) Given() bool { return o.Set && !o.Null }

// field reads a property as T. A value that does not decode as T is recorded as "<Field> must be <what>"
// and reads as absent.
func field[T any](o *jsonObject, name, what string) opt[T] {
	raw, ok := o.raw[name]
	if !ok {
		return opt[T]{}
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return opt[T]{Set: true, Null: true}
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		o.problems.add(name, "must be "+what)
		return opt[T]{}
	}
	return opt[T]{Set: true, Value: v}
}

// String reads a string property; a value beyond its length limit (limits.go) is recorded as too long.
func (o *jsonObject) String(name string) opt[string] {
	v := field[string](o, name, "a string")
	o.checkStringLimit(name, v.Value)
	return v
}

// Bool reads a boolean property.
func (o *jsonObject) Bool(name string) opt[bool] { return field[bool](o, name, "a boolean") }

// Int reads an integer property.
func (o *jsonObject) Int(name string) opt[int] { return field[int](o, name, "an integer") }

// Strings reads an array of strings.
func (o *jsonObject) Strings(name string) opt[[]string] {
	return field[[]string](o, name, "an array of strings")
}

// Object reads an object property.
func (o *jsonObject) Object(name string) opt[map[string]any] {
	return field[map[string]any](o, name, "an object")
}

// StringOr returns the value of the first of names that is present and not null, and whether one was.
func (o *jsonObject) StringOr(names ...string) (string, bool) {
	for _, n := range names {
		if v := o.String(n); v.Given() {
			return v.Value, true
		}
	}
	return "", false
}

package buildkite

import "encoding/json"

// Optional is a field of a request body that may be left out, set, or cleared (sent as null): the three
// things a PATCH can say of a field. Tag it `json:",omitzero"` so that an unset one is left out.
type Optional[T any] struct {
	set   bool
	null  bool
	value T
}

// Value is an Optional that sends v.
func Value[T any](v T) Optional[T] { return Optional[T]{set: true, value: v} }

// Cleared is an Optional that sends null.
func Cleared[T any]() Optional[T] { return Optional[T]{set: true, null: true} }

// IsZero reports whether o is unset (left out of the body).
func (o Optional[T]) IsZero() bool { return !o.set }

// Get returns the value o sends, and whether it sends one (false when unset or cleared).
func (o Optional[T]) Get() (T, bool) { return o.value, o.set && !o.null }

// MarshalJSON sends the value, or null.
func (o Optional[T]) MarshalJSON() ([]byte, error) {
	if o.null || !o.set {
		return []byte("null"), nil
	}
	return json.Marshal(o.value)
}

// deref is what p points to, or T's zero value.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

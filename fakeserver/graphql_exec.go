package fakeserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// The executor: it walks the chosen operation's selection set over objects the resolvers build, the
// way the GraphQL specification (https://spec.graphql.org) describes. An object is a gqlObject: its GraphQL
// type name and its fields, each a plain value (string, bool, int, nil, a gqlObject, a []any) or a gqlResolver
// run with the field's arguments when a document selects the field. Aliases name the answer's keys; inline
// fragments and fragment spreads apply by type condition; __typename, @skip and @include are honoured; a null
// in a non-null field makes its parent null, as the GraphQL specification says. No introspection.
//
// The root fields are data: each area file adds its query and mutation fields to gqlQueries and
// gqlMutations, and the types node(id:) resolves to gqlNodes, from an init function.

// gqlObject is a resolved object.
type gqlObject struct {
	typ    string
	fields map[string]any
}

// gqlResolver resolves one field from its arguments; an error becomes an entry of "errors" and the field
// null.
type gqlResolver func(args map[string]any) (any, error)

// gqlRoot resolves a root field (a query or a mutation) with the executor at hand.
type gqlRoot func(x *gqlExec, args map[string]any) (any, error)

// gqlNodeFinder returns the object of a node ID's type and UUID that the token may see, or nil.
type gqlNodeFinder func(x *gqlExec, uuid string) any

var (
	gqlQueries   = map[string]gqlRoot{}
	gqlMutations = map[string]gqlRoot{}
	gqlNodes     = map[string]gqlNodeFinder{}
)

// gqlExec runs one operation for one token. It is used under the store's lock.
type gqlExec struct {
	ctx    context.Context // the request's: once it ends (the client hung up), the executor stops
	schema *ast.Schema
	st     *Store
	vars   map[string]any
	tok    tokenRecord
	user   userRecord
	base   string
	errs   gqlerror.List
}

// run executes op and returns its data.
func (x *gqlExec) run(op *ast.OperationDefinition) *gqlResult {
	roots := gqlQueries
	typ := "Query"
	if op.Operation == ast.Mutation {
		roots, typ = gqlMutations, "Mutation"
	}
	root := gqlObject{typ: typ, fields: map[string]any{}}
	for name, fn := range roots {
		root.fields[name] = gqlResolver(func(args map[string]any) (any, error) { return fn(x, args) })
	}
	out, _ := x.selection(root, op.SelectionSet, nil)
	return out
}

// fail records an error raised while resolving; like the service's, it carries the message only.
func (x *gqlExec) fail(message string) {
	x.errs = append(x.errs, &gqlerror.Error{Message: message})
}

// gqlResult is an object of the answer, its keys in the order the document selected them.
type gqlResult struct {
	keys []string
	vals []any
}

// MarshalJSON writes the object with its keys in order.
func (r *gqlResult) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range r.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := json.Marshal(r.vals[i])
		if err != nil {
			return nil, err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// gqlCollected is one key of an object's answer and the fields that ask for it.
type gqlCollected struct {
	key    string
	fields []*ast.Field
}

// selection answers sel on obj; false means a non-null field was null, so obj must be null.
func (x *gqlExec) selection(obj gqlObject, sel ast.SelectionSet, path ast.Path) (*gqlResult, bool) {
	var collected []*gqlCollected
	x.collect(obj.typ, sel, &collected, map[string]*gqlCollected{})
	out := &gqlResult{}
	for _, c := range collected {
		if x.ctx.Err() != nil {
			return out, true // the client hung up: the answer will not be sent, so stop here
		}
		f := c.fields[0]
		p := slices.Concat(path, ast.Path{ast.PathName(c.key)})
		if f.Name == "__typename" {
			out.keys, out.vals = append(out.keys, c.key), append(out.vals, obj.typ)
			continue
		}
		raw, known := obj.fields[f.Name]
		failed := false
		if !known {
			x.fail(fmt.Sprintf("Field '%s' on type '%s' is not served by the emulator", f.Name, obj.typ))
			failed = true
		}
		if fn, ok := raw.(gqlResolver); ok {
			v, err := fn(x.args(f))
			if err != nil {
				x.fail(err.Error())
				v, failed = nil, true
			}
			raw = v
		}
		var sub ast.SelectionSet
		for _, ff := range c.fields {
			sub = append(sub, ff.SelectionSet...)
		}
		v, ok := x.complete(f.Definition.Type, sub, raw, p, failed)
		if !ok {
			return nil, false
		}
		out.keys, out.vals = append(out.keys, c.key), append(out.vals, v)
	}
	return out, true
}

// complete shapes v as type t with selection sel. false means v is null where t is non-null; the error
// says so unless one was already recorded for the field (reported).
func (x *gqlExec) complete(t *ast.Type, sel ast.SelectionSet, v any, path ast.Path, reported bool) (any, bool) {
	if v == nil {
		if t.NonNull {
			if !reported {
				x.fail("Cannot return null for non-nullable field " + pathString(path))
			}
			return nil, false
		}
		return nil, true
	}
	if t.Elem != nil {
		items, _ := v.([]any)
		out := make([]any, 0, len(items))
		for i, item := range items {
			c, ok := x.complete(t.Elem, sel, item, slices.Concat(path, ast.Path{ast.PathIndex(i)}), false)
			if !ok {
				return nil, !t.NonNull
			}
			out = append(out, c)
		}
		return out, true
	}
	obj, isObject := v.(gqlObject)
	if !isObject {
		return v, true
	}
	r, ok := x.selection(obj, sel, path)
	if !ok {
		return nil, !t.NonNull
	}
	return r, true
}

// pathString names a field by its path, for the non-null error.
func pathString(path ast.Path) string {
	parts := make([]string, 0, len(path))
	for _, p := range path {
		if name, ok := p.(ast.PathName); ok {
			parts = append(parts, string(name))
		}
	}
	return strings.Join(parts, ".")
}

// collect gathers the fields sel asks of an object of type typ, merging those of one key.
func (x *gqlExec) collect(typ string, sel ast.SelectionSet, out *[]*gqlCollected, byKey map[string]*gqlCollected) {
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if !x.included(s.Directives) {
				continue
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			if c, ok := byKey[key]; ok {
				c.fields = append(c.fields, s)
				continue
			}
			c := &gqlCollected{key: key, fields: []*ast.Field{s}}
			byKey[key] = c
			*out = append(*out, c)
		case *ast.InlineFragment:
			if x.included(s.Directives) && (s.TypeCondition == "" || x.applies(typ, s.TypeCondition)) {
				x.collect(typ, s.SelectionSet, out, byKey)
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && x.included(s.Directives) && x.applies(typ, s.Definition.TypeCondition) {
				x.collect(typ, s.Definition.SelectionSet, out, byKey)
			}
		}
	}
}

// applies reports whether a fragment on cond applies to an object of type typ.
func (x *gqlExec) applies(typ, cond string) bool {
	if cond == typ {
		return true
	}
	for _, def := range x.schema.PossibleTypes[cond] {
		if def.Name == typ {
			return true
		}
	}
	return false
}

// included applies @skip and @include.
func (x *gqlExec) included(dirs ast.DirectiveList) bool {
	if d := dirs.ForName("skip"); d != nil && d.ArgumentMap(x.vars)["if"] == true {
		return false
	}
	if d := dirs.ForName("include"); d != nil && d.ArgumentMap(x.vars)["if"] != true {
		return false
	}
	return true
}

// args returns f's arguments: an argument or input field left out (or given a variable the request did
// not send) is absent from its map, one given null is present and nil, so resolvers can tell "leave it"
// from "clear it". Declared defaults of arguments and input fields are applied.
func (x *gqlExec) args(f *ast.Field) map[string]any {
	out := map[string]any{}
	for _, def := range f.Definition.Arguments {
		var v any
		present := false
		if a := f.Arguments.ForName(def.Name); a != nil {
			v, present = x.value(a.Value)
		}
		if !present && def.DefaultValue != nil {
			v, present = x.value(def.DefaultValue)
		}
		if present {
			out[def.Name] = x.withDefaults(def.Type, v)
		}
	}
	return out
}

// value returns a literal's value, and false for a variable the request did not send.
func (x *gqlExec) value(v *ast.Value) (any, bool) {
	switch v.Kind {
	case ast.Variable:
		val, ok := x.vars[v.Raw]
		return val, ok
	case ast.ObjectValue:
		m := map[string]any{}
		for _, c := range v.Children {
			if cv, ok := x.value(c.Value); ok {
				m[c.Name] = cv
			}
		}
		return m, true
	case ast.ListValue:
		l := []any{}
		for _, c := range v.Children {
			cv, _ := x.value(c.Value)
			l = append(l, cv)
		}
		return l, true
	default:
		val, _ := v.Value(nil)
		return val, true
	}
}

// withDefaults fills the declared defaults of an input object's absent fields, at every depth.
func (x *gqlExec) withDefaults(t *ast.Type, v any) any {
	if t.Elem != nil {
		if l, ok := v.([]any); ok {
			for i := range l {
				l[i] = x.withDefaults(t.Elem, l[i])
			}
		}
		return v
	}
	m, ok := v.(map[string]any)
	def := x.schema.Types[t.NamedType]
	if !ok || def == nil || def.Kind != ast.InputObject {
		return v
	}
	for _, fd := range def.Fields {
		if cur, has := m[fd.Name]; has {
			m[fd.Name] = x.withDefaults(fd.Type, cur)
		} else if fd.DefaultValue != nil {
			m[fd.Name], _ = fd.DefaultValue.Value(nil)
		}
	}
	return m
}

// ---- argument helpers ----

// gqlInput is an input object argument.
type gqlInput map[string]any

// gqlInputOf returns the argument "input" of a mutation.
func gqlInputOf(args map[string]any) gqlInput {
	m, _ := args["input"].(map[string]any)
	return m
}

// str returns the string at key ("" when absent or null).
func (in gqlInput) str(key string) string {
	s, _ := in[key].(string)
	return s
}

// has reports whether key was given (null included).
func (in gqlInput) has(key string) bool {
	_, ok := in[key]
	return ok
}

// optStr returns the string at key as a pointer: nil for null; ok is false when absent.
func (in gqlInput) optStr(key string) (value *string, ok bool) {
	v, ok := in[key]
	if !ok || v == nil {
		return nil, ok
	}
	s, _ := v.(string)
	return &s, true
}

// object returns the input object at key, or nil.
func (in gqlInput) object(key string) gqlInput {
	m, _ := in[key].(map[string]any)
	return m
}

// argString returns a string argument ("" when absent or null).
func argString(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// argInt returns an Int argument, and whether one was given.
func argInt(args map[string]any, key string) (int, bool) {
	switch n := args[key].(type) {
	case int64:
		return int(n), true
	case int:
		return n, true
	case float64:
		if n == math.Trunc(n) {
			return int(n), true
		}
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return int(i), true
		}
	}
	return 0, false
}

// withClientMutationID adds the input's clientMutationId to a payload's fields, as every Relay payload
// echoes it.
func withClientMutationID(in gqlInput, typ string, fields map[string]any) gqlObject {
	fields["clientMutationId"] = in["clientMutationId"]
	return gqlObject{typ: typ, fields: fields}
}

// ---- IDs ----

// parseGraphQLID splits a node ID, base64 of "<Type>---<uuid>", into its type and UUID.
func parseGraphQLID(id string) (typ, uuid string, ok bool) {
	raw, err := base64.StdEncoding.DecodeString(id)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(id); err != nil {
			return "", "", false
		}
	}
	typ, uuid, ok = strings.Cut(string(raw), "---")
	return typ, strings.ToLower(uuid), ok && typ != "" && uuid != ""
}

// uuidOf returns the UUID of a node ID of type typ, or "".
func uuidOf(id, typ string) string {
	t, uuid, ok := parseGraphQLID(id)
	if !ok || t != typ {
		return ""
	}
	return uuid
}

// ---- connections ----

// gqlConnection pages items as a Relay connection: first/last and an after cursor (the item's position),
// with edges built by node. An organization's lists are short; count is the whole list's length.
func gqlConnection[T any](typ string, args map[string]any, items []T, node func(T) any) (any, error) {
	start, end := 0, len(items)
	if after := argString(args, "after"); after != "" {
		n, ok := cursorIndex(after)
		if !ok {
			return nil, gqlErrorf("Invalid cursor %q", after)
		}
		start = min(n+1, len(items))
	}
	if first, ok := argInt(args, "first"); ok {
		if first < 0 {
			return nil, gqlErrorf("Argument 'first' on Field '%s' must be at least 0", strings.TrimSuffix(typ, "Connection"))
		}
		end = min(start+first, end)
	}
	if last, ok := argInt(args, "last"); ok && last >= 0 && end-start > last {
		start = end - last
	}
	edges := make([]any, 0, end-start)
	for i := start; i < end; i++ {
		edges = append(edges, gqlObject{typ: strings.TrimSuffix(typ, "Connection") + "Edge", fields: map[string]any{
			"cursor": cursorFor(i), "node": node(items[i]),
		}})
	}
	page := map[string]any{"hasNextPage": end < len(items), "hasPreviousPage": start > 0, "startCursor": nil, "endCursor": nil}
	if end > start {
		page["startCursor"], page["endCursor"] = cursorFor(start), cursorFor(end-1)
	}
	return gqlObject{typ: typ, fields: map[string]any{
		"count": len(items), "edges": edges, "pageInfo": gqlObject{typ: "PageInfo", fields: page},
	}}, nil
}

// cursorFor is the opaque cursor of the item at position i.
func cursorFor(i int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "cursor---%d", i))
}

// cursorIndex reads a cursor made by cursorFor.
func cursorIndex(c string) (int, bool) {
	raw, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	var n int
	if _, err := fmt.Sscanf(string(raw), "cursor---%d", &n); err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// gqlMessage is an error a resolver raises, worded as the service words it (capitalised, like its other
// messages); its text is the "message" of the answer's error.
type gqlMessage string

// Error returns the message.
func (m gqlMessage) Error() string { return string(m) }

// gqlError returns the resolver error message.
func gqlError(message string) error { return gqlMessage(message) }

// gqlErrorf returns the resolver error of a formatted message.
func gqlErrorf(format string, args ...any) error { return gqlMessage(fmt.Sprintf(format, args...)) }

package fakeserver

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// The state file's codec (state.go): the Store's records encoded to JSON and decoded back, field by field,
// by reflection, reaching the unexported fields through unsafe. state.go says what is saved and why.

// ---- encoding ----

// stateEncoder writes values as JSON as it walks them. It refuses a pointer met twice: a record shared
// between two places would come back as two records.
type stateEncoder struct {
	buf  bytes.Buffer
	seen map[uintptr]bool
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	statefulType = reflect.TypeFor[stateful]()
)

// exposed returns v, a field reached through an unexported name, as a value that can be read whole and
// set. v must be addressable.
func exposed(v reflect.Value) reflect.Value {
	if v.CanInterface() && v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// value writes v.
func (e *stateEncoder) value(v reflect.Value) error {
	if v.Kind() == reflect.Struct && !v.CanAddr() { // a map's key or value: copy it where fields can be reached
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	if isStateful(v.Type()) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		return v.Interface().(stateful).saveState(e)
	}
	switch v.Kind() {
	case reflect.Bool:
		e.buf.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int64:
		e.buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Float64:
		return e.json(v.Float())
	case reflect.String:
		return e.json(v.String())
	case reflect.Pointer:
		return e.pointer(v)
	case reflect.Interface:
		if v.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
		return e.value(v.Elem())
	case reflect.Slice:
		return e.slice(v)
	case reflect.Map:
		return e.mapValue(v)
	case reflect.Struct:
		return e.structValue(v)
	default:
		return fmt.Errorf("a %s cannot be saved", v.Type())
	}
	return nil
}

// json writes a scalar as encoding/json does.
func (e *stateEncoder) json(x any) error {
	if s, ok := x.(string); ok && plainASCII(s) { // most strings: no escaping, no allocation
		e.buf.WriteByte('"')
		e.buf.WriteString(s)
		e.buf.WriteByte('"')
		return nil
	}
	data, err := json.Marshal(x)
	e.buf.Write(data)
	return err
}

// plainASCII reports whether s is printable ASCII that JSON holds unescaped.
func plainASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func (e *stateEncoder) pointer(v reflect.Value) error {
	if v.IsNil() {
		e.buf.WriteString("null")
		return nil
	}
	if e.seen[v.Pointer()] {
		return fmt.Errorf("a %s is reachable twice", v.Type())
	}
	e.seen[v.Pointer()] = true
	return e.value(v.Elem())
}

func (e *stateEncoder) slice(v reflect.Value) error {
	switch {
	case v.IsNil():
		e.buf.WriteString("null")
		return nil
	case v.Type().Elem().Kind() == reflect.Uint8: // json.RawMessage and other bytes
		return e.json(base64.StdEncoding.EncodeToString(v.Bytes()))
	}
	e.buf.WriteByte('[')
	for i := range v.Len() {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		if err := e.value(v.Index(i)); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	e.buf.WriteByte(']')
	return nil
}

// mapValue writes a map keyed by strings as an object, any other map as a list of [key, value] pairs;
// both in the order of their keys, so equal states save equal files.
func (e *stateEncoder) mapValue(v reflect.Value) error {
	if v.IsNil() {
		e.buf.WriteString("null")
		return nil
	}
	if v.Type().Key().Kind() == reflect.String {
		keys := make([]reflect.Value, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			keys = append(keys, it.Key())
		}
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		e.buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			if err := e.json(k.String()); err != nil {
				return err
			}
			e.buf.WriteByte(':')
			if err := e.value(v.MapIndex(k)); err != nil {
				return fmt.Errorf("[%s]: %w", k, err)
			}
		}
		e.buf.WriteByte('}')
		return nil
	}
	return e.mapPairs(v)
}

// mapPairs writes a map keyed by other than strings as [key, value] pairs in the order of the keys' JSON.
func (e *stateEncoder) mapPairs(v reflect.Value) error {
	type pair struct {
		key string // the key's JSON
		val reflect.Value
	}
	pairs := make([]pair, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		sub := &stateEncoder{seen: e.seen}
		if err := sub.value(it.Key()); err != nil {
			return err
		}
		pairs = append(pairs, pair{sub.buf.String(), it.Value()})
	}
	slices.SortFunc(pairs, func(a, b pair) int { return strings.Compare(a.key, b.key) })
	e.buf.WriteByte('[')
	for i, p := range pairs {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteString("[" + p.key + ",")
		if err := e.value(p.val); err != nil {
			return fmt.Errorf("[%s]: %w", p.key, err)
		}
		e.buf.WriteByte(']')
	}
	e.buf.WriteByte(']')
	return nil
}

func (e *stateEncoder) structValue(v reflect.Value) error {
	if v.Type() == timeType {
		text, err := v.Interface().(time.Time).MarshalText()
		if err != nil {
			return err
		}
		return e.json(string(text))
	}
	e.buf.WriteByte('{')
	for n, f := range savedFields(v.Type()) {
		if n > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteString(f.key)
		if err := e.value(exposed(v.Field(f.index))); err != nil {
			return fmt.Errorf("%s.%s: %w", v.Type().Name(), f.name, err)
		}
	}
	e.buf.WriteByte('}')
	return nil
}

// savedField is a struct field the state holds.
type savedField struct {
	index int
	name  string
	key   string // `"name":`
}

// stateTypes caches, by type, whether it is stateful and which of its fields are saved: every save walks
// thousands of records of a few types.
var stateTypes sync.Map // reflect.Type → *stateTypeInfo

type stateTypeInfo struct {
	stateful bool
	fields   []savedField
}

func stateTypeOf(t reflect.Type) *stateTypeInfo {
	if info, ok := stateTypes.Load(t); ok {
		return info.(*stateTypeInfo)
	}
	info := &stateTypeInfo{stateful: t.Implements(statefulType)}
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if f := t.Field(i); f.Tag.Get("state") != "-" {
				info.fields = append(info.fields, savedField{index: i, name: f.Name, key: strconv.Quote(f.Name) + ":"})
			}
		}
	}
	stateTypes.Store(t, info)
	return info
}

func isStateful(t reflect.Type) bool { return stateTypeOf(t).stateful }

// savedFields returns the fields of struct type t that the state holds, in declaration order.
func savedFields(t reflect.Type) []savedField { return stateTypeOf(t).fields }

// ---- decoding ----

// stateDecoder sets values from what encoding/json read (with UseNumber, so integers keep every digit).
type stateDecoder struct{}

// value sets v, which must be settable, from data.
func (d *stateDecoder) value(data any, v reflect.Value) error {
	if v.CanAddr() && v.Addr().Type().Implements(statefulType) {
		if v.Kind() != reflect.Struct {
			return fmt.Errorf("%s: a stateful value must be a struct", v.Type())
		}
		return v.Addr().Interface().(stateful).loadState(d, data)
	}
	if v.Kind() == reflect.Pointer && v.Type().Implements(statefulType) {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return v.Interface().(stateful).loadState(d, data)
	}
	if data == nil {
		v.SetZero()
		return nil
	}
	switch v.Kind() {
	case reflect.Bool, reflect.String:
		return d.scalar(data, v)
	case reflect.Int, reflect.Int64, reflect.Float64:
		return d.number(data, v)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := d.value(data, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Interface:
		v.Set(reflect.ValueOf(plainJSON(data)))
		return nil
	case reflect.Slice:
		return d.slice(data, v)
	case reflect.Map:
		return d.mapValue(data, v)
	case reflect.Struct:
		return d.structValue(data, v)
	}
	return fmt.Errorf("a %s cannot be restored", v.Type())
}

func (d *stateDecoder) scalar(data any, v reflect.Value) error {
	dv := reflect.ValueOf(data)
	if dv.Kind() != v.Kind() {
		return fmt.Errorf("want a %s, have %T", v.Kind(), data)
	}
	v.Set(dv.Convert(v.Type()))
	return nil
}

func (d *stateDecoder) number(data any, v reflect.Value) error {
	n, ok := data.(json.Number)
	if !ok {
		return fmt.Errorf("want a number, have %T", data)
	}
	if v.Kind() == reflect.Float64 {
		f, err := n.Float64()
		v.SetFloat(f)
		return err
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	v.SetInt(i)
	return err
}

func (d *stateDecoder) slice(data any, v reflect.Value) error {
	if v.Type().Elem().Kind() == reflect.Uint8 {
		s, ok := data.(string)
		if !ok {
			return fmt.Errorf("want base64 text, have %T", data)
		}
		b, err := base64.StdEncoding.DecodeString(s)
		v.SetBytes(b)
		return err
	}
	items, ok := data.([]any)
	if !ok {
		return fmt.Errorf("want a list, have %T", data)
	}
	out := reflect.MakeSlice(v.Type(), len(items), len(items))
	for i, item := range items {
		if item == nil && out.Index(i).Kind() == reflect.Pointer {
			return fmt.Errorf("[%d]: null, where the emulator always keeps a record", i)
		}
		if err := d.value(item, out.Index(i)); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	v.Set(out)
	return nil
}

func (d *stateDecoder) mapValue(data any, v reflect.Value) error {
	out := reflect.MakeMap(v.Type())
	set := func(key, val any) error {
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		if val == nil && e.Kind() == reflect.Pointer {
			return fmt.Errorf("[%v]: null, where the emulator always keeps a record", key)
		}
		if err := d.value(key, k); err != nil {
			return err
		}
		if err := d.value(val, e); err != nil {
			return fmt.Errorf("[%v]: %w", key, err)
		}
		out.SetMapIndex(k, e)
		return nil
	}
	switch m := data.(type) {
	case map[string]any:
		for key, val := range m {
			if err := set(key, val); err != nil {
				return err
			}
		}
	case []any:
		for _, pair := range m {
			kv, ok := pair.([]any)
			if !ok || len(kv) != 2 {
				return errors.New("want [key, value] pairs")
			}
			if err := set(kv[0], kv[1]); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("want an object, have %T", data)
	}
	v.Set(out)
	return nil
}

func (d *stateDecoder) structValue(data any, v reflect.Value) error {
	if v.Type() == timeType {
		s, ok := data.(string)
		if !ok {
			return fmt.Errorf("want a timestamp, have %T", data)
		}
		return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	}
	fields, ok := data.(map[string]any)
	if !ok {
		return fmt.Errorf("want an object for a %s, have %T", v.Type(), data)
	}
	for _, f := range savedFields(v.Type()) {
		val, present := fields[f.name]
		if !present {
			continue // a field the emulator that saved the file did not have keeps its zero or initial value
		}
		if val == nil && !v.Field(f.index).IsZero() {
			// The emulator never saves null where a new store holds a map or a table: taking it would
			// leave the store unable to take a change (a write to a nil map).
			return fmt.Errorf("%s.%s: null, where the emulator always keeps a value", v.Type().Name(), f.name)
		}
		if err := d.value(val, exposed(v.Field(f.index))); err != nil {
			return fmt.Errorf("%s.%s: %w", v.Type().Name(), f.name, err)
		}
	}
	return nil
}

// plainJSON turns the numbers of a decoded JSON value into float64, as encoding/json decodes them into
// an interface, so a restored value is the value the request body gave.
func plainJSON(data any) any {
	switch x := data.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = plainJSON(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plainJSON(x[k])
		}
	}
	return data
}

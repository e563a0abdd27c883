package fakeserver

import (
	"bytes"
	"cmp"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// The state file (Options.StateFile): the Store written as JSON after every change and read back when a
// server starts, so an emulator run as a local Buildkite keeps its objects across restarts.
//
// The file holds the Store's own records, encoded field by field by reflection: a field added to a record
// is saved with no second list to keep in step, and TestStateRoundTrip fails when something cannot be.
// The fields are unexported, so the codec reaches them through unsafe (reflect.NewAt on the field's
// address), the one place the package does. A table (index.go) is saved as its records in creation
// order and rebuilt by inserting them, its indexes with them. Store fields tagged `state:"-"` (the lock,
// the clock, the file's own settings) are not saved; a field of a kind JSON cannot hold (a func) is an
// error rather than silently lost. The layout is the emulator's own: a file of another stateFormat is
// refused, not misread.

// stateFormat is the version of the state file's layout.
const stateFormat = 1

// stateFileBody is the state file's top level.
type stateFileBody struct {
	Format  int             `json:"format"`
	SavedAt string          `json:"saved_at"`
	Store   json.RawMessage `json:"store"`
}

// stateful is a value saved and restored by its own methods rather than field by field: a table.
type stateful interface {
	saveState(enc *stateEncoder) error
	loadState(dec *stateDecoder, data any) error
}

// saveState writes t's records in creation order.
func (t *table[T]) saveState(enc *stateEncoder) error {
	recs := make([]T, 0, len(t.byID))
	for _, rec := range t.byID {
		recs = append(recs, rec)
	}
	slices.SortFunc(recs, func(a, b T) int { return cmp.Compare(a.recordSeq(), b.recordSeq()) })
	return enc.value(reflect.ValueOf(recs))
}

// loadState replaces t's records with data's, inserted in creation order so every index is rebuilt.
func (t *table[T]) loadState(dec *stateDecoder, data any) error {
	var recs []T
	if err := dec.value(data, reflect.ValueOf(&recs).Elem()); err != nil {
		return err
	}
	t.byID, t.ordered, t.named = map[string]T{}, map[string][]T{}, map[string]T{}
	slices.SortStableFunc(recs, func(a, b T) int { return cmp.Compare(a.recordSeq(), b.recordSeq()) })
	for _, rec := range recs {
		t.insert(rec)
	}
	return nil
}

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

// ---- the file ----

// encodeState returns the state file's content for st. A lock must be held.
func (st *Store) encodeState() ([]byte, error) {
	enc := &stateEncoder{seen: make(map[uintptr]bool, st.stateRecords)}
	enc.buf.Grow(st.stateBytes)
	fmt.Fprintf(&enc.buf, `{"format":%d,"saved_at":%q,"store":`, stateFormat, st.now().UTC().Format(time.RFC3339Nano))
	if err := enc.value(reflect.ValueOf(st).Elem()); err != nil {
		return nil, err
	}
	enc.buf.WriteString("}\n")
	st.stateBytes, st.stateRecords = enc.buf.Len(), len(enc.seen) // the next save's starting sizes
	return enc.buf.Bytes(), nil
}

// decodeState replaces st's state with data's. The write lock must be held (or st not yet shared).
func (st *Store) decodeState(data []byte) error {
	var body stateFileBody
	if err := json.Unmarshal(data, &body); err != nil {
		return fmt.Errorf("not a state file: %w", err)
	}
	if body.Format != stateFormat {
		return fmt.Errorf("state format %d, this emulator reads format %d", body.Format, stateFormat)
	}
	if store := bytes.TrimSpace(body.Store); len(store) == 0 || store[0] != '{' {
		return fmt.Errorf("the file's \"store\" is %s, not an object: the state is damaged", describeRaw(store))
	}
	dec := json.NewDecoder(bytes.NewReader(body.Store))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return err
	}
	return (&stateDecoder{}).value(tree, reflect.ValueOf(st).Elem())
}

// save writes the state to the state file, if the store has one: to a temporary file beside it, synced,
// then renamed over it, so the file always holds one complete state, and a change is on disk before the
// request that made it is answered. The write lock must be held.
func (st *Store) save() error {
	if st.statePath == "" {
		return nil
	}
	data, err := st.encodeState()
	if err != nil {
		return fmt.Errorf("encoding the state: %w", err)
	}
	return writeFileAtomic(st.statePath, data)
}

// saveOrLog saves the state; a failure is logged (Options.Logf), and healed by the next save, which
// writes the whole state again. The write lock must be held.
func (st *Store) saveOrLog() {
	if err := st.save(); err != nil && st.logf != nil {
		st.logf("saving the state to %s: %v", st.statePath, err)
	}
}

// writeFileAtomic replaces path with data: write a temporary file in the same directory, fsync it, rename
// it over path, fsync the directory.
func writeFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	return d.Sync()
}

// loadStateFile takes the state file's lock (see lockStateFile), removes the temporary files of saves a
// killed emulator left, and reads the state file into st, reporting whether there was one. A missing
// file is none; a file that is empty or white space only, or that is not a whole state, is an error
// naming it and saying how to start over: a state cut to nothing is lost, not new, and is not overwritten.
func (st *Store) loadStateFile(path string) (_ bool, err error) {
	lock, err := lockStateFile(path)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil {
			_ = lock.Close()
		} else {
			st.stateLock = lock
		}
	}()
	removeStaleTemps(path)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case len(bytes.TrimSpace(data)) == 0:
		return false, fmt.Errorf("%s is empty (%d bytes, no state): a state cut short is not taken as a new one. %s",
			path, len(data), startOver)
	}
	if err := st.decodeState(data); err != nil {
		return false, fmt.Errorf("%s: %w. %s", path, err, startOver)
	}
	return true, nil
}

// startOver says how to start from a new state when the state file cannot be taken.
const startOver = "Restore the file from a backup, or delete it (or name another file) to start over with a new state"

// describeRaw names a raw JSON value in a message: null, nothing, or its first characters.
func describeRaw(raw []byte) string {
	switch {
	case len(raw) == 0:
		return "missing"
	case len(raw) > 20:
		return string(raw[:20]) + "…"
	}
	return string(raw)
}

// removeStaleTemps removes the temporary files that saves to path left when the emulator was killed
// between writing one and renaming it (writeFileAtomic): they are never read. The lock must be held, so
// that no other emulator is writing one.
func removeStaleTemps(path string) {
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globEscape(filepath.Base(path))+".*.tmp"))
	for _, f := range stale {
		_ = os.Remove(f)
	}
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Close releases the state file's lock, so another emulator may take the file; a server without a state
// file has nothing to release. The server must not be used after.
func (s *Server) Close() error {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	if s.store.stateLock == nil {
		return nil
	}
	err := s.store.stateLock.Close()
	s.store.stateLock = nil
	s.store.statePath = "" // a change after Close is not written to a file this server no longer holds
	return err
}

// maxLinks bounds the symbolic links resolveStateFile follows, as the kernel bounds a path's.
const maxLinks = 40

// resolveStateFile follows path through symbolic links to the file they name (which may not exist yet), so
// that a save replaces the link's target and not the link: a state file kept behind a link (a shared
// volume, a dotfile manager) stays where the link points, and the link stays a link.
func resolveStateFile(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, os.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
}

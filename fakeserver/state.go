package fakeserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
)

// The state file (Options.StateFile): the Store written as JSON after every change and read back when a
// server starts, so an emulator run as a local Buildkite keeps its objects across restarts.
//
// The file holds the Store's own records, encoded field by field by reflection: a field added to a record
// is saved with no second list to keep in step, and TestStateRoundTrip fails when something cannot be.
// The fields are unexported, so the codec (state_codec.go) reaches them through unsafe (reflect.NewAt on
// the field's address), the one place the package does. A table (index.go) is saved as its records in creation
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

package fakeserver

import (
	"sort"
	"strings"
)

// Indexes keep every lookup the handlers make by ID, slug or name, every uniqueness check and every list
// independent of how many records the store holds: a table answers them from maps and from lists kept in
// creation order, maintained as records are inserted, renamed and removed, so no request scans or sorts
// the whole area.

// record is what a table needs of its records: an ID unique in the table and the creation sequence
// number (Store.nextSeq), which orders lists.
type record interface {
	comparable
	recordID() string
	recordSeq() int64
}

// table holds one kind of record. scopes names the lists a record appears in (an organization, a parent
// record; "" for every record), each kept in creation order; names gives the keys (see nameKey) under which
// it is found by something other than its ID, each naming at most one record. Both are read when the
// record is inserted and again when it is removed or renamed, so a change to what they depend on must go
// through rename.
type table[T record] struct {
	scopes func(T) []string
	names  func(T) []string

	byID    map[string]T
	ordered map[string][]T
	named   map[string]T
}

func newTable[T record](scopes, names func(T) []string) *table[T] {
	if names == nil {
		names = func(T) []string { return nil }
	}
	return &table[T]{scopes: scopes, names: names, byID: map[string]T{}, ordered: map[string][]T{}, named: map[string]T{}}
}

// nameKey joins the parts of a name index key: the scope it is unique in, what it is, and its value.
func nameKey(parts ...string) string { return strings.Join(parts, "\x00") }

// get returns the record with id, and whether there is one.
func (t *table[T]) get(id string) (T, bool) {
	rec, ok := t.byID[id]
	return rec, ok
}

// lookup returns the record named key (see nameKey), and whether there is one.
func (t *table[T]) lookup(key string) (T, bool) {
	rec, ok := t.named[key]
	return rec, ok
}

// list returns the records of scope in creation order. The caller must not change the slice; appending
// to it copies.
func (t *table[T]) list(scope string) []T {
	items := t.ordered[scope]
	return items[:len(items):len(items)]
}

// len returns the number of records.
func (t *table[T]) len() int { return len(t.byID) }

// insert adds rec, which must have a sequence number above every record's already in its scopes.
func (t *table[T]) insert(rec T) {
	t.byID[rec.recordID()] = rec
	for _, scope := range t.scopes(rec) {
		t.ordered[scope] = append(t.ordered[scope], rec)
	}
	t.addNames(rec)
}

// remove deletes rec from the table.
func (t *table[T]) remove(rec T) {
	if cur, ok := t.byID[rec.recordID()]; !ok || cur != rec {
		return
	}
	delete(t.byID, rec.recordID())
	for _, scope := range t.scopes(rec) {
		items := t.ordered[scope]
		i := sort.Search(len(items), func(i int) bool { return items[i].recordSeq() >= rec.recordSeq() })
		if i < len(items) && items[i] == rec {
			items = append(items[:i], items[i+1:]...)
			var zero T
			t.ordered[scope][len(items)] = zero // let the removed record be collected
		}
		if len(items) == 0 {
			delete(t.ordered, scope)
		} else {
			t.ordered[scope] = items
		}
	}
	t.dropNames(rec)
}

// rename runs change, which may change what names depends on, and reindexes rec's names when rec is in
// the table (a record being created is not yet). Scopes must not change.
func (t *table[T]) rename(rec T, change func()) {
	if cur, ok := t.byID[rec.recordID()]; !ok || cur != rec {
		change()
		return
	}
	t.dropNames(rec)
	change()
	t.addNames(rec)
}

func (t *table[T]) addNames(rec T) {
	for _, k := range t.names(rec) {
		t.named[k] = rec
	}
}

func (t *table[T]) dropNames(rec T) {
	for _, k := range t.names(rec) {
		if t.named[k] == rec {
			delete(t.named, k)
		}
	}
}

// distinct drops repeated scopes, so a record whose two parents are one (a rule from a pipeline to
// itself) is listed once.
func distinct(scopes ...string) []string {
	out := scopes[:0]
	for _, s := range scopes {
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

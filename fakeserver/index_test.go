package fakeserver

import (
	"slices"
	"testing"
)

// indexed is a record for table tests: listed by group, named by name.
type indexed struct {
	seq         int64
	id, group   string
	name, other string
}

func (x *indexed) recordID() string { return x.id }
func (x *indexed) recordSeq() int64 { return x.seq }

func newIndexedTable() *table[*indexed] {
	return newTable(func(x *indexed) []string { return distinct(x.group, x.other) },
		func(x *indexed) []string { return []string{nameKey(x.group, "name", x.name)} })
}

func ids(items []*indexed) []string {
	out := make([]string, len(items))
	for i, x := range items {
		out[i] = x.id
	}
	return out
}

func TestTable(t *testing.T) {
	tbl := newIndexedTable()
	a := &indexed{seq: 1, id: "a", group: "g", name: "alpha", other: "o"}
	b := &indexed{seq: 2, id: "b", group: "g", name: "beta", other: "g"} // both scopes one: listed once
	c := &indexed{seq: 3, id: "c", group: "h", name: "alpha", other: "o"}
	for _, x := range []*indexed{a, b, c} {
		tbl.insert(x)
	}
	if got := ids(tbl.list("g")); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("list g %v", got)
	}
	if got := ids(tbl.list("o")); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("list o %v", got)
	}
	if x, ok := tbl.lookup(nameKey("h", "name", "alpha")); !ok || x != c {
		t.Fatal("lookup by name in its scope")
	}
	if _, ok := tbl.lookup(nameKey("h", "name", "beta")); ok {
		t.Fatal("a name found in another scope")
	}

	// Appending to a list copies rather than writing into the table's array.
	l := tbl.list("g")
	_ = append(l, c)
	if got := ids(tbl.list("g")); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("append changed the list: %v", got)
	}

	// Renaming frees the old name and takes the new; the list keeps its order.
	tbl.rename(a, func() { a.name = "gamma" })
	if _, ok := tbl.lookup(nameKey("g", "name", "alpha")); ok {
		t.Fatal("old name still found")
	}
	if x, _ := tbl.lookup(nameKey("g", "name", "gamma")); x != a || ids(tbl.list("g"))[0] != "a" {
		t.Fatal("rename")
	}
	// A record not in the table is changed but not indexed.
	d := &indexed{seq: 4, id: "d", group: "g", name: "delta"}
	tbl.rename(d, func() { d.name = "epsilon" })
	if _, ok := tbl.lookup(nameKey("g", "name", "epsilon")); ok || d.name != "epsilon" {
		t.Fatal("rename of a record outside the table")
	}

	// Removing takes a record out of every index; removing it again, or one never added, or another
	// record with the same id, changes nothing.
	tbl.remove(a)
	tbl.remove(a)
	tbl.remove(d)
	tbl.remove(&indexed{seq: 2, id: "b", group: "g", name: "beta"})
	if _, ok := tbl.get("a"); ok || tbl.len() != 2 {
		t.Fatalf("after remove: len %d", tbl.len())
	}
	if got := ids(tbl.list("g")); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("list g %v", got)
	}
	if got := ids(tbl.list("o")); !slices.Equal(got, []string{"c"}) {
		t.Fatalf("list o %v", got)
	}
	if x, ok := tbl.lookup(nameKey("g", "name", "beta")); !ok || x != b {
		t.Fatal("b lost its name")
	}
	tbl.remove(b)
	tbl.remove(c)
	if len(tbl.list("g")) != 0 || len(tbl.ordered) != 0 || len(tbl.named) != 0 {
		t.Fatalf("empty table keeps %v %v", tbl.ordered, tbl.named)
	}
}

func TestPipelineListOrderSurvivesRenamesAndDeletes(t *testing.T) {
	e := newEnv(t, Options{})
	for _, name := range []string{"one", "two", "three", "four"} {
		e.createPipeline(map[string]any{"name": name, "repository": githubRepo})
	}
	expect(t, e.api("PATCH", "/pipelines/two", map[string]any{"name": "deux"}), 200)
	expect(t, e.api("DELETE", "/pipelines/three", nil), 204)
	var got []string
	for _, p := range e.api("GET", "/pipelines", nil).list(t) {
		got = append(got, p["slug"].(string))
	}
	if !slices.Equal(got, []string{"one", "deux", "four"}) {
		t.Fatalf("list %v", got)
	}
	// The old slug and name are free again; the new ones are taken.
	expectError(t, e.api("GET", "/pipelines/two", nil), 404, "No pipeline found")
	e.createPipeline(map[string]any{"name": "two", "repository": githubRepo})
	r := e.api("POST", "/pipelines", map[string]any{"name": "deux", "repository": githubRepo, "configuration": uploadYAML})
	expect(t, r, 422)
}

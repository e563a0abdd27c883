package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	before := write("before.json", `{"format":1,"store":{"orgs":{"acme":{"id":"o1","slug":"acme"}},
		"clusters":{"clusters":[{"id":"c1","name":"kept"}]},"pipelines":{"pipelines":[]}}}`)
	after := write("after.json", `{"format":1,"store":{"orgs":{"acme":{"id":"o1","slug":"acme"}},
		"clusters":{"clusters":[{"id":"c1","name":"kept"},{"id":"c2","name":"tf-acc-left"}]},
		"pipelines":{"pipelines":[{"id":"p1","name":"renamed","teams":[{"uuid":"t1","slug":"owners"}]}]},
		"portals":{"portals":[{"uuid":"x1","slug":"new-kind"}]}}}`)
	var out strings.Builder
	n, err := diff(before, after, &out)
	if err != nil {
		t.Fatal(err)
	}
	// The new cluster, the pipeline and the team nested in it, and an object of a section the first file
	// lacks; nothing that was there at the start.
	if n != 4 {
		t.Errorf("diff found %d objects, want 4:\n%s", n, out.String())
	}
	for _, want := range []string{`clusters c2 "tf-acc-left"`, `pipelines p1 "renamed"`, `pipelines t1 "owners"`, `portals x1 "new-kind"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "c1") || strings.Contains(out.String(), "o1") {
		t.Errorf("output names objects there at the start:\n%s", out.String())
	}
	if n, err := diff(after, after, &out); err != nil || n != 0 {
		t.Errorf("diff of a file with itself = %d, %v; want 0", n, err)
	}
	if _, err := diff(write("bad.json", `{"format":1}`), after, &out); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Errorf("a file without a store: err = %v", err)
	}
}

// TestDiffRevokedTokens: a token the suite revoked (what deleting an unclustered agent token does; the service
// keeps it) is no object left behind; a live one is.
func TestDiffRevokedTokens(t *testing.T) {
	dir := t.TempDir()
	before := filepath.Join(dir, "before.json")
	after := filepath.Join(dir, "after.json")
	if err := os.WriteFile(before, []byte(`{"format":1,"store":{"unclusteredTokens":{"tokens":[]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(after, []byte(`{"format":1,"store":{"unclusteredTokens":{"tokens":[
		{"id":"revoked1","revokedAt":"2026-11-27T10:00:00Z"},
		{"id":"live1","revokedAt":"0001-01-01T00:00:00Z"},
		{"id":"live2"}]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	n, err := diff(before, after, &out)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || strings.Contains(out.String(), "revoked1") || !strings.Contains(out.String(), "live1") || !strings.Contains(out.String(), "live2") {
		t.Errorf("diff = %d, want the two live tokens alone:\n%s", n, out.String())
	}
}

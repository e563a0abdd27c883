// Command storediff compares two state files of the emulator (its --state-file) and fails when the second
// holds objects the first does not: what a run against it left behind, whatever its type. make
// testacc-live-emulator runs it on the state at the start and at the end.
//
//	go run ./scripts/storediff <before.json> <after.json>
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: storediff <before.json> <after.json>")
		os.Exit(2)
	}
	left, err := diff(os.Args[1], os.Args[2], os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storediff:", err)
		os.Exit(2)
	}
	if left > 0 {
		os.Exit(1)
	}
}

// diff writes to w each object of after that before lacks, by section of the store, and returns how many.
func diff(beforePath, afterPath string, w io.Writer) (int, error) {
	before, err := objects(beforePath)
	if err != nil {
		return 0, err
	}
	after, err := objects(afterPath)
	if err != nil {
		return 0, err
	}
	sections := make([]string, 0, len(after))
	for s := range after {
		sections = append(sections, s)
	}
	sort.Strings(sections)
	left := 0
	for _, s := range sections {
		for id, name := range after[s] {
			if _, ok := before[s][id]; !ok {
				_, _ = fmt.Fprintf(w, "left in the emulator: %s %s %q\n", s, id, name)
				left++
			}
		}
	}
	_, _ = fmt.Fprintf(w, "storediff: %d object(s) not there at the start\n", left)
	return left, nil
}

// objects reads a state file and returns, for each section of its store, every object in it that has an
// "id" or a "uuid", mapped to its name (or slug, or key).
func objects(path string) (map[string]map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct {
		Store map[string]any `json:"store"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if file.Store == nil {
		return nil, fmt.Errorf("%s: no store: is it an emulator state file?", path)
	}
	out := map[string]map[string]string{}
	for section, v := range file.Store {
		found := map[string]string{}
		walk(v, found)
		out[section] = found
	}
	return out, nil
}

// walk collects the objects with an ID under v.
func walk(v any, found map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		id, _ := x["id"].(string)
		if id == "" {
			id, _ = x["uuid"].(string)
		}
		if id != "" && !revoked(x) {
			found[id] = label(x)
		}
		for _, c := range x {
			walk(c, found)
		}
	case []any:
		for _, c := range x {
			walk(c, found)
		}
	}
}

// revoked reports whether m is a token the service revoked and keeps (an unclustered agent token: its
// revokedAt is set). Deleting one through Terraform revokes it; nothing can remove it, in the emulator or in
// a real organization, so it is no object left behind.
func revoked(m map[string]any) bool {
	at, _ := m["revokedAt"].(string)
	return at != "" && !strings.HasPrefix(at, "0001-01-01")
}

func label(m map[string]any) string {
	for _, k := range []string{"name", "slug", "key", "email"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

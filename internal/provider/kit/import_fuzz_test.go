package kit

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
)

// fuzzImportForms are the import ID forms the provider's types use, for FuzzSplitImportID to pick from.
var fuzzImportForms = [][]ImportPart{
	{UuidPart("<cluster id>")},
	{UuidPart("<cluster id>"), KeyPart("<queue id or key>")},
	{UuidPart("<cluster id>"), UuidPart("<token id>")},
	{KeyPart("<registry slug>"), UuidPart("<token id>")},
	{KeyPart("<team id>"), KeyPart("<pipeline slug or id>")},
}

// FuzzSplitImportID: whatever is typed as an import ID, SplitImportID never panics; a refusal shows the
// accepted form; an acceptance has one non-empty part per form part, UUIDs where the form wants them, the
// typed text where it takes a key, and parses again to itself.
func FuzzSplitImportID(f *testing.F) {
	const cluster = "7b6a1d2e-4c3f-4b1a-9e8d-0f1e2d3c4b5a"
	graphQL := base64.StdEncoding.EncodeToString([]byte("Cluster---" + cluster))
	for _, seed := range []string{
		cluster, cluster + "/linux", cluster + "/" + cluster, cluster + "/", " " + cluster + "/linux\n", "/",
		graphQL, graphQL + "/" + cluster, "gems/" + cluster, "a/b/c", "", "\u00a0" + cluster, cluster + "/%2F",
		strings.ToUpper(cluster), "{" + cluster + "}",
	} {
		for form := range fuzzImportForms {
			f.Add(seed, uint8(form))
		}
	}
	f.Fuzz(func(t *testing.T, id string, form uint8) {
		parts := fuzzImportForms[int(form)%len(fuzzImportForms)]
		values, err := SplitImportID(id, parts...)
		if err != nil {
			if !strings.Contains(err.Error(), importForm(parts)) {
				t.Fatalf("splitImportID(%q) refused without showing the form %q: %v", id, importForm(parts), err)
			}
			return
		}
		if len(values) != len(parts) {
			t.Fatalf("splitImportID(%q) = %q for %d parts", id, values, len(parts))
		}
		typed := strings.Split(strings.TrimSpace(id), "/")
		for i, v := range values {
			switch {
			case v == "" || strings.Contains(v, "/"):
				t.Fatalf("splitImportID(%q): part %s is %q", id, parts[i].name, v)
			case parts[i].uuid && !IsUUID(v):
				t.Fatalf("splitImportID(%q): %s %q is not a UUID", id, parts[i].name, v)
			case !parts[i].uuid && (i >= len(typed) || v != typed[i]):
				t.Fatalf("splitImportID(%q): %s %q is not what was typed", id, parts[i].name, v)
			}
		}
		again, err := SplitImportID(strings.Join(values, "/"), parts...)
		if err != nil || !slices.Equal(again, values) {
			t.Fatalf("splitImportID(%q) = %q, which parses to %q, %v", id, values, again, err)
		}
	})
}

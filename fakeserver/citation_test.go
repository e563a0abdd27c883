package fakeserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// unshippedSpecs are files a clone of this repository does not have: the specification notes the
// emulator and the client were first written from. A comment cites Buildkite's public documentation
// instead (https://buildkite.com/docs/apis/rest-api/..., /docs/apis/graphql/..., /docs/agent/...), or
// says in plain words what the service does. The names are split so that this file does not name them.
var unshippedSpecs = []string{
	"shared" + "/spec",
	"rest-api" + ".md",
	"rest-beyond" + "-spec",
	"real-service" + "-notes",
	"graphql-subset" + ".md",
	"official-provider" + ".md",
	"buildkite-graphql-schema" + ".graphql",
}

// sectionCitation matches a bare reference to a section of those notes ("spec N.N", "spec section N.N",
// "spec convention N", "§N.N", "the notes" with an apostrophe): a number means nothing without its file.
var sectionCitation = regexp.MustCompile(`(?i)\bspec(?: section| convention)? \d+(?:\.\d+)*\b` +
	`|§\s*\d|\bthe notes'`)

// TestNoUnshippedSpecCitations: no Go file of fakeserver/, cmd/ or internal/ names one of unshippedSpecs or
// cites one of their sections by number, so that every source a comment cites is one a reader can open.
func TestNoUnshippedSpecCitations(t *testing.T) {
	for _, root := range []string{".", "../cmd", "../internal"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				for _, name := range unshippedSpecs {
					if strings.Contains(line, name) {
						t.Errorf("%s:%d names %s, which a clone does not have: cite Buildkite's public "+
							"documentation page (https://buildkite.com/docs/...) or say it in plain words", path, i+1, name)
					}
				}
				if m := sectionCitation.FindString(line); m != "" {
					t.Errorf("%s:%d cites %q, a section of notes a clone does not have: cite Buildkite's public "+
						"documentation page (https://buildkite.com/docs/...) or say it in plain words", path, i+1, m)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walking %s: %v", root, err)
		}
	}
}

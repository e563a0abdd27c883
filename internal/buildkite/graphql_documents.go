package buildkite

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
)

// The GraphQL documents the client sends are files, graphql/<operation>.graphql, one operation each,
// embedded in the binary: a document is read and checked as GraphQL (TestGraphQLDocuments validates every
// one against Buildkite's schema and the emulator's), not assembled from Go strings. A file's name is its
// operation's name; queryFile and mutationFile declare an operation from its file and refuse, when the
// package is initialised, a file that is missing or whose operation is of another kind or name. What the
// client knows of an operation beyond its document (whether a mutation may be sent again) stays in Go,
// beside the named type of its answer's data.

//go:embed graphql/*.graphql
var documentFiles embed.FS

// documentHead is a document's operation: its kind and name, after its comment lines.
var documentHead = regexp.MustCompile(`^(query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)\b`)

// declared are the operations declared from files, by name: TestGraphQLDocuments checks that every file is one.
var declared = map[string]operation{}

// queryFile declares the query of graphql/<name>.graphql, which is always repeatable.
func queryFile(name string) operation {
	return declareFile(name, "query", true)
}

// mutationFile declares the mutation of graphql/<name>.graphql; repeatable says whether sending it twice
// does no more than once.
func mutationFile(name string, repeatable bool) operation {
	return declareFile(name, "mutation", repeatable)
}

func declareFile(name, kind string, repeatable bool) operation {
	doc, err := loadDocument(name, kind)
	if err != nil {
		panic(err) // a file the build embeds is wrong: no client could work
	}
	op := operation{name: name, document: doc, repeatable: repeatable}
	declared[name] = op
	return op
}

// loadDocument reads graphql/<name>.graphql without its comment lines and checks that its operation is a
// kind one named name.
func loadDocument(name, kind string) (string, error) {
	src, err := documentFiles.ReadFile("graphql/" + name + ".graphql")
	if err != nil {
		return "", fmt.Errorf("buildkite: the GraphQL operation %s has no document: %w", name, err)
	}
	doc := stripComments(string(src))
	m := documentHead.FindStringSubmatch(doc)
	if m == nil || m[1] != kind || m[2] != name {
		return "", fmt.Errorf("buildkite: graphql/%s.graphql must begin with the %s %s, as its name says", name, kind, name)
	}
	return doc, nil
}

// stripComments drops a document's comment lines (those that begin with #), which the service need not read.
func stripComments(src string) string {
	var keep []string
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			keep = append(keep, line)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n")) + "\n"
}

package fakeserver

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	gqlast "github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	gqlparse "github.com/vektah/gqlparser/v2/parser"
)

// updateCoverage rewrites the coverage table: go test ./fakeserver -run TestCoverageTable -update
var updateCoverage = flag.Bool("update", false, "rewrite EMULATOR-COVERAGE.md from the emulator's route table and schema")

// coverageFile is the coverage table, beside EMULATOR.md, which links it.
const coverageFile = "../EMULATOR-COVERAGE.md"

// TestCoverageTable: EMULATOR-COVERAGE.md is what the emulator's own route table (Server.Routes, the
// controls) and GraphQL schema say it serves, for every REST endpoint Buildkite's REST documentation describes
// (testdata/coverage/rest-endpoints.txt), every route it serves beyond them, every GraphQL operation the
// provider sends (its documents under internal/buildkite) and every one Buildkite's CLI sends. A route
// added or removed, or a schema change that serves an operation or stops serving one, fails this test
// until the table is regenerated with -update.
func TestCoverageTable(t *testing.T) {
	got := coverageTable(t)
	if *updateCoverage {
		if err := os.WriteFile(coverageFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(coverageFile)
	if err != nil {
		t.Fatalf("reading the coverage table: %v (write it with: go test ./fakeserver -run TestCoverageTable -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("EMULATOR-COVERAGE.md is not what the emulator serves: a route or the GraphQL schema changed. "+
			"Regenerate it with `go test ./fakeserver -run TestCoverageTable -update` and review the diff.\n%s",
			firstDifference(string(want), string(got)))
	}
}

// TestCoverageTableSeesRouteChanges: the table changes when a route is added to the route table or taken
// out of it, so TestCoverageTable fails for either until the table is regenerated.
func TestCoverageTableSeesRouteChanges(t *testing.T) {
	srv := New(Options{})
	endpoints := readEndpoints(t)
	base := restCoverage(srv, endpoints)
	srv.mux.HandleFunc("GET /v2/organizations/{org}/emojis", func(http.ResponseWriter, *http.Request) {})
	if added := restCoverage(srv, endpoints); added == base || !strings.Contains(added, "`GET /v2/organizations/{org}/emojis`") {
		t.Fatal("a route added to the route table does not change the coverage table")
	}
	removed := &routeMux{ServeMux: http.NewServeMux()}
	for _, p := range srv.mux.patterns {
		if p != "GET /v2/meta" && p != "GET /v2/organizations/{org}/emojis" {
			removed.HandleFunc(p, func(http.ResponseWriter, *http.Request) {})
		}
	}
	srv.mux = removed
	if got := restCoverage(srv, endpoints); got == base || !strings.Contains(got, "| `GET /v2/meta` | no |") {
		t.Fatal("a route taken out of the route table does not change the coverage table")
	}
}

// endpoint is one line of testdata/coverage/rest-endpoints.txt.
type endpoint struct{ method, path, source string }

func readEndpoints(t *testing.T) []endpoint {
	t.Helper()
	f, err := os.Open("testdata/coverage/rest-endpoints.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var out []endpoint
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		route, source, _ := strings.Cut(line, " | ")
		method, path, ok := strings.Cut(route, " ")
		if !ok {
			t.Fatalf("rest-endpoints.txt: %q is not METHOD PATH | source", line)
		}
		out = append(out, endpoint{method, path, strings.TrimSpace(source)})
	}
	return out
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// restCoverage is the REST part of the table: each endpoint, served when the route table routes its method
// and path (each parameter given a value) to a pattern; then every pattern no endpoint reached.
func restCoverage(srv *Server, endpoints []endpoint) string {
	var b strings.Builder
	reached := map[string]bool{}
	served := 0
	var rows []string
	for _, e := range endpoints {
		req, _ := http.NewRequest(e.method, pathParam.ReplaceAllString(e.path, "p1"), nil)
		_, pattern := srv.mux.Handler(req)
		mark := "no"
		if pattern != "" {
			reached[pattern] = true
			mark = "yes"
			served++
		}
		rows = append(rows, fmt.Sprintf("| `%s %s` | %s | %s |", e.method, e.path, mark, e.source))
	}
	fmt.Fprintf(&b, "## REST: the endpoints Buildkite's REST documentation describes\n\n%d of %d served.\n\n", served, len(endpoints))
	b.WriteString("| endpoint | served | described in |\n|---|---|---|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n\n")

	var api, test []string
	for _, p := range srv.Routes() {
		if reached[p] {
			continue
		}
		row := "| `" + p + "` |"
		if strings.Contains(p, " "+testRoutePrefix) {
			test = append(test, row)
		} else {
			api = append(api, row)
		}
	}
	b.WriteString("## Routes served beyond those pages\n\n")
	b.WriteString("Routes of Buildkite's REST API that list does not name, GraphQL, and the\n")
	b.WriteString("forms of a path the emulator also takes.\n\n| route |\n|---|\n")
	b.WriteString(strings.Join(api, "\n") + "\n\n")
	b.WriteString("## The emulator's own routes\n\nThe test routes (`--test-routes`; always on in Go tests) and the controls (EMULATOR.md, \"Controls while it runs\").\n\n| route |\n|---|\n")
	b.WriteString(strings.Join(test, "\n") + "\n")
	var controls []string
	for _, c := range controlRoutes {
		controls = append(controls, "| `"+c.method+" "+c.path+"` |")
	}
	b.WriteString(strings.Join(controls, "\n") + "\n")
	return b.String()
}

// gqlOperation is a GraphQL operation a client sends: its name, where it is written, and its document
// ("" when the document is built at run time).
type gqlOperation struct{ name, where, document string }

// gqlCoverage is a GraphQL part of the table: each operation, served when its document validates against
// the schema the emulator serves, else the first reason it does not.
func gqlCoverage(title, intro string, ops []gqlOperation) string {
	var b strings.Builder
	served := 0
	var rows []string
	for _, op := range ops {
		mark := "yes"
		switch reason := gqlRefusal(op.document); {
		case op.document == "":
			mark = "not checked here: the document is built at run time"
		case reason != "":
			mark = "no: " + reason
		default:
			served++
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %s |", op.name, mark, op.where))
	}
	fmt.Fprintf(&b, "## %s\n\n%s\n\n%d of %d served.\n\n| operation | served | written in |\n|---|---|---|\n%s\n",
		title, intro, served, len(ops), strings.Join(rows, "\n"))
	return b.String()
}

// gqlRefusal is "" when document validates against the emulator's schema, else the first error.
func gqlRefusal(document string) string {
	if document == "" {
		return ""
	}
	_, errs := gqlparser.LoadQueryWithRules(graphqlSchema(), document, nil)
	for _, err := range errs {
		if err.Rule != "NoUnusedFragments" {
			return strings.ReplaceAll(err.Message, "|", `\|`)
		}
	}
	return ""
}

// graphqlFileOperations splits a .graphql file into its operations, each with the file's fragments.
func graphqlFileOperations(t *testing.T, path, where string) []gqlOperation {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, gerr := gqlparse.ParseQuery(&gqlast.Source{Name: path, Input: string(src)})
	if gerr != nil {
		t.Fatalf("%s: %v", path, gerr)
	}
	var out []gqlOperation
	for _, op := range doc.Operations {
		var buf bytes.Buffer
		formatter.NewFormatter(&buf).FormatQueryDocument(&gqlast.QueryDocument{
			Operations: gqlast.OperationList{op}, Fragments: doc.Fragments})
		out = append(out, gqlOperation{name: string(op.Operation) + " " + op.Name, where: where, document: buf.String()})
	}
	return out
}

// providerOperations are the GraphQL operations the provider sends: every operation of a .graphql file
// under internal/buildkite, where the client keeps each of its documents (embedded).
func providerOperations(t *testing.T) []gqlOperation {
	t.Helper()
	const dir = "../internal/buildkite"
	var out []gqlOperation
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".graphql") {
			if err == nil && d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir // Buildkite's schema, which the client's tests keep: no operation
			}
			return err
		}
		rel, _ := filepath.Rel("..", path)
		out = append(out, graphqlFileOperations(t, path, "`"+filepath.ToSlash(rel)+"`")...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// coverageTable renders EMULATOR-COVERAGE.md.
func coverageTable(t *testing.T) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("# What the emulator serves\n\n")
	b.WriteString("Generated by `go test ./fakeserver -run TestCoverageTable -update` from the emulator's own route table\n")
	b.WriteString("(`Server.Routes`, and the controls) and the GraphQL schema it serves at `POST /v1`; do not edit it by hand.\n")
	b.WriteString("`TestCoverageTable` fails when a route is added or removed, or the schema comes to serve an operation or\n")
	b.WriteString("stops serving one, without this file changing. [EMULATOR.md](EMULATOR.md) says how each area behaves.\n\n")
	b.WriteString("A REST endpoint is served when the route table has a route for its method and path; the endpoints are those\n")
	b.WriteString("Buildkite's REST documentation describes (`fakeserver/testdata/coverage/rest-endpoints.txt` names the page of each).\n")
	b.WriteString("A GraphQL operation is served when its document validates against the emulator's schema.\n\n")
	b.WriteString(restCoverage(New(Options{}), readEndpoints(t)))
	b.WriteString("\n")
	b.WriteString(gqlCoverage("GraphQL: the operations the provider sends",
		"Every operation of the provider's client (`internal/buildkite`).", providerOperations(t)))
	b.WriteString("\n")
	b.WriteString(gqlCoverage("GraphQL: the operations Buildkite's CLI sends",
		"Every operation `bk` v3.34.0 (github.com/buildkite/cli) sends (`fakeserver/testdata/coverage/bk-v3.34.0.graphql`).",
		graphqlFileOperations(t, "testdata/coverage/bk-v3.34.0.graphql", "bk v3.34.0")))
	return []byte(b.String())
}

// firstDifference shows the first line where want and got differ.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  committed: %s\n  generated: %s", i+1, wl, gl)
		}
	}
	return ""
}

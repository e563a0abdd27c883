package buildkite

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// graphQLSchemas are the schemas every document must validate against: Buildkite's own (testdata, see
// testdata/README.md), so that the service takes it, and the subset the emulator serves, read as a file, so
// that the provider's tests can send it.
func graphQLSchemas(t *testing.T) map[string]*ast.Schema {
	t.Helper()
	out := map[string]*ast.Schema{}
	for name, file := range map[string]string{
		"Buildkite's schema": "../../testdata/buildkite-schema.graphql",
		"the emulator's":     "../../fakeserver/graphql/schema.graphql",
	} {
		sdl, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, gerr := loadSchema(&ast.Source{Name: file, Input: string(sdl)})
		if gerr != nil {
			t.Fatalf("%s (%s): %v", name, file, gerr)
		}
		out[name] = s
	}
	return out
}

// loadSchema loads an SDL file with GraphQL's built-in types and directives, which Buildkite's schema, as
// introspection prints it, declares itself (Boolean, @include, …): its own declarations of them give way.
func loadSchema(src *ast.Source) (*ast.Schema, error) {
	prelude, err := parser.ParseSchema(validator.Prelude)
	if err != nil {
		return nil, err
	}
	doc, err := parser.ParseSchema(src)
	if err != nil {
		return nil, err
	}
	builtIn := map[string]bool{}
	for _, d := range prelude.Definitions {
		builtIn[d.Name] = true
	}
	for _, d := range prelude.Directives {
		builtIn["@"+d.Name] = true
	}
	merged := &ast.SchemaDocument{Directives: prelude.Directives, Definitions: prelude.Definitions}
	for _, d := range doc.Definitions {
		if !builtIn[d.Name] {
			merged.Definitions = append(merged.Definitions, d)
		}
	}
	for _, d := range doc.Directives {
		if !builtIn["@"+d.Name] {
			merged.Directives = append(merged.Directives, d)
		}
	}
	merged.Schema, merged.SchemaExtension, merged.Extensions = doc.Schema, doc.SchemaExtension, doc.Extensions
	s, gerr := validator.ValidateSchemaDocument(merged)
	if gerr != nil {
		return nil, gerr
	}
	return s, nil
}

// documentErrors validates document against schema by every rule of the GraphQL specification.
func documentErrors(schema *ast.Schema, document string) gqlerror.List {
	_, errs := gqlparser.LoadQueryWithRules(schema, document, nil)
	return errs
}

// TestGraphQLDocuments: every document the client sends, each file of graphql/ and a batched rules read of
// three aliases, is an operation declared from its own file under its own name, and valid against Buildkite's
// schema and the emulator's; a document with a typo (the table's broken cases) is refused by the same check,
// so that a wrong document fails here rather than at the service.
func TestGraphQLDocuments(t *testing.T) {
	schemas := graphQLSchemas(t)
	files, err := fs.Glob(documentFiles, "graphql/*.graphql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no documents embedded: %v", err)
	}
	type doc struct {
		name, document string
		broken         bool // a typo the check must refuse
	}
	var docs []doc
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".graphql")
		op, ok := declared[name]
		if !ok {
			t.Errorf("%s: no operation is declared from it (queryFile or mutationFile)", f)
			continue
		}
		docs = append(docs, doc{name: name, document: op.document})
	}
	if len(docs) != len(declared) {
		t.Errorf("%d documents checked, but the client declares %d operations: each is a file of graphql/", len(docs), len(declared))
	}
	batch, vars := rulesDetailsOp([]string{"a", "b", "c"})
	if !strings.Contains(batch.document, "r2: rule(uuid: $u2)") || !strings.Contains(batch.document, "$u1: ID!, $u2: ID!") || len(vars) != 3 {
		t.Errorf("the batched rules read of three does not ask for three rules:\n%s", batch.document)
	}
	docs = append(docs,
		doc{name: "getOrganizationRules of three", document: batch.document},
		doc{name: "a field Buildkite does not have", broken: true,
			document: strings.Replace(opGetRule.document, "description", "descripton", 1)}, //nolint:misspell // the typo is the test
		doc{name: "an undeclared variable", broken: true,
			document: strings.Replace(opGetAgentToken.document, "agentToken(slug: $slug)", "agentToken(slug: $slugg)", 1)},
		doc{name: "a batch whose alias repeats a field with other arguments", broken: true,
			document: strings.Replace(batch.document, "r2: rule(uuid: $u2)", "r1: rule(uuid: $u2)", 1)},
	)
	for _, d := range docs {
		for schemaName, schema := range schemas {
			errs := documentErrors(schema, d.document)
			switch {
			case d.broken && errs == nil:
				t.Errorf("%s: taken by %s, want it refused:\n%s", d.name, schemaName, d.document)
			case !d.broken && errs != nil:
				t.Errorf("%s: refused by %s: %v", d.name, schemaName, errs)
			}
		}
	}
}

// TestGraphQLDocuments_fileMustNameItsOperation: a file is declared only under its operation's kind and name.
func TestGraphQLDocuments_fileMustNameItsOperation(t *testing.T) {
	if _, err := loadDocument("getAgentToken", "query"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, kind string }{
		{"getAgentToken", "mutation"}, // its kind is query
		{"noSuchOperation", "query"},  // no file
	} {
		if _, err := loadDocument(c.name, c.kind); err == nil {
			t.Errorf("%s %s: declared, want refused", c.kind, c.name)
		}
	}
	if m := documentHead.FindStringSubmatch(stripComments("# a comment\nquery getThing { a }")); m == nil || m[2] != "getThing" {
		t.Errorf("the operation's name after a comment is not read: %v", m)
	}
}

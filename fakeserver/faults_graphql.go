package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"unicode"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// The GraphQL side of the faults: which operation a POST /v1 asks for (for aimed faults and the request
// log), whether a mutation acted (for Faults.DropCreates), and the answers the GraphQL kinds give.

// gqlTarget is what the fault layer knows of a GraphQL request, read from its body before it is served.
type gqlTarget struct {
	name     string   // the operation's name; "" when anonymous
	first    string   // its first root field's name
	keys     []string // its root fields' answer keys (alias or name), in order
	types    []string // its root fields' named types, beside keys ("" when the schema has no such field)
	mutation bool
}

// label names the operation in the request log: its name, else its first root field.
func (g *gqlTarget) label() string {
	if g == nil {
		return ""
	}
	if g.name != "" {
		return g.name
	}
	return g.first
}

// isGraphQL reports whether r is a GraphQL request.
func isGraphQL(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/v1" }

// readGraphQLTarget reads r's body, puts it back for the handler, and returns the operation it asks for,
// or nil when the body is too large or not a document with that operation (the handler then answers as
// it would without faults).
func readGraphQLTarget(r *http.Request) *gqlTarget {
	if r.Body == nil || r.ContentLength > maxBodyBytes {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errorReader{err}))
	if err != nil {
		return nil
	}
	var req graphqlRequest
	if json.Unmarshal(body, &req) != nil || req.Query == nil {
		return nil
	}
	doc, perr := parser.ParseQuery(&ast.Source{Input: *req.Query})
	if perr != nil {
		return nil
	}
	op, gerr := pickOperation(doc, req.OperationName)
	if gerr != nil {
		return nil
	}
	g := &gqlTarget{name: op.Name, mutation: op.Operation == ast.Mutation}
	root := graphqlSchema().Query
	if g.mutation {
		root = graphqlSchema().Mutation
	}
	g.collect(doc, root, op.SelectionSet, 0, map[string]bool{})
	return g
}

// collect adds the root fields of sel, through fragments. The document is not validated yet, so a fragment
// may spread itself or fan out: each named fragment is followed once (seen), and inline fragments to a
// bounded depth, so that a small document cannot make this walk long.
func (g *gqlTarget) collect(doc *ast.QueryDocument, root *ast.Definition, sel ast.SelectionSet, depth int, seen map[string]bool) {
	if depth > 10 {
		return
	}
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if g.first == "" {
				g.first = s.Name
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			typ := ""
			if root != nil {
				if def := root.Fields.ForName(s.Name); def != nil {
					typ = def.Type.Name()
				}
			}
			g.keys, g.types = append(g.keys, key), append(g.types, typ)
		case *ast.InlineFragment:
			g.collect(doc, root, s.SelectionSet, depth+1, seen)
		case *ast.FragmentSpread:
			if f := doc.Fragments.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				g.collect(doc, root, f.SelectionSet, depth+1, seen)
			}
		}
	}
}

// errorReader returns err (io.EOF when nil) once the body read before it is spent.
type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

// gqlAnswerBody is a GraphQL answer as the fault layer reads and rewrites it.
type gqlAnswerBody struct {
	Data   json.RawMessage   `json:"data,omitempty"`
	Errors []json.RawMessage `json:"errors,omitempty"`
	Stats  json.RawMessage   `json:"stats,omitempty"`
}

// mutationActed reports whether a buffered answer to g is a mutation that acted: 200 with at least one
// root field of data not null.
func mutationActed(g *gqlTarget, buf *probeWriter) bool {
	if g == nil || !g.mutation || buf.status != http.StatusOK {
		return false
	}
	var body struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	if json.Unmarshal(buf.body, &body) != nil {
		return false
	}
	for _, v := range body.Data {
		if string(v) != "null" {
			return true
		}
	}
	return false
}

// gqlFaultError is an errors[] entry the faults add.
type gqlFaultError struct {
	Message string   `json:"message"`
	Path    []string `json:"path,omitempty"`
	Type    string   `json:"type,omitempty"`
}

// injectedAfterMessage is the error FaultErrorsWithData adds to a real answer.
const injectedAfterMessage = "Something went wrong after the change was made; it may have been applied (error injected by the emulator)"

// withError returns buf's answer to g with one more entry in errors[], or false when buf is not a
// GraphQL answer with data.
func withError(g *gqlTarget, buf *probeWriter) ([]byte, bool) {
	var body gqlAnswerBody
	if buf.status != http.StatusOK || json.Unmarshal(buf.body, &body) != nil || len(body.Data) == 0 || string(body.Data) == "null" {
		return nil, false
	}
	e := gqlFaultError{Message: injectedAfterMessage}
	if len(g.keys) > 0 {
		e.Path = g.keys[:1]
	}
	extra, _ := json.Marshal(e)
	body.Errors = append(body.Errors, extra)
	out, err := json.Marshal(body)
	return append(out, '\n'), err == nil
}

// nullAnswer is the answer of FaultNullData, and with notFound of FaultNotFound, to g: every root field
// null, and for not-found an error per field worded as the resolvers word a missing object ("No agent
// token found").
func nullAnswer(g *gqlTarget, notFound bool) any {
	data := &gqlResult{}
	var errs []gqlFaultError
	for i, key := range g.keys {
		data.keys, data.vals = append(data.keys, key), append(data.vals, nil)
		if notFound {
			errs = append(errs, gqlFaultError{Message: "No " + typeWords(g.types[i]) + " found", Path: []string{key}, Type: "NOT_FOUND"})
		}
	}
	return struct {
		Data   *gqlResult      `json:"data"`
		Errors []gqlFaultError `json:"errors,omitempty"`
	}{data, errs}
}

// typeWords is a GraphQL type name as lower-case words: "AgentToken" is "agent token"; "" is "object".
func typeWords(typ string) string {
	if typ == "" {
		return "object"
	}
	var b strings.Builder
	for i, r := range typ {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

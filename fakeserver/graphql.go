package fakeserver

import (
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
)

// The GraphQL endpoint (https://buildkite.com/docs/apis/graphql-api): POST /v1 on the emulator's one origin
// stands for https://graphql.buildkite.com/v1. It takes the REST API's access tokens, in the same
// Authorization: Bearer header, and needs the token scope graphql, which is unscoped: the REST scopes do not
// narrow it (https://buildkite.com/docs/apis/graphql-api#authentication). Every document is parsed and
// validated against graphql/schema.graphql, the subset of Buildkite's schema the emulator serves, and then
// run by the small executor of graphql_exec.go over the REST store's own records, under the store's lock (the
// read lock for a query; the write lock, with the state saved, for a mutation). Each area's resolvers live in
// graphql_<area>.go. Before any of it, graphql_limits.go checks the organization's budget and the document's
// size, and a client that hangs up stops the work.
//
// Answers (https://buildkite.com/docs/apis/graphql-api): 200 with {"data": …} and, when something failed,
// "errors": [{"message": …}]. A document that does not parse or validate gets "errors" and no "data". Errors
// raised by a resolver carry a message only (no locations, no path), as the service's mutation errors do;
// validation errors keep their locations. A token that is missing, unknown or without the graphql scope is a
// 401 {"message": …}, the REST envelope (I: the service's status and envelope for it are not shown). A body
// that is not a JSON object is a 400 with "errors".

//go:embed graphql/schema.graphql
var graphqlSDL string

// graphqlSchema is the parsed SDL; it is loaded once, on the first request.
var graphqlSchema = sync.OnceValue(func() *ast.Schema {
	return gqlparser.MustLoadSchema(&ast.Source{Name: "schema.graphql", Input: graphqlSDL})
})

// GraphQLSchema returns the SDL the emulator serves at POST /v1, for client tests that validate their
// documents against it.
func GraphQLSchema() string { return graphqlSDL }

// scopeGraphQL is the token scope that opens the GraphQL API
// (https://buildkite.com/docs/apis/graphql-api#authentication).
const scopeGraphQL = "graphql"

// graphqlAuthDocsURL is where the service's GraphQL 401 message points.
const graphqlAuthDocsURL = "https://buildkite.com/docs/apis/graphql-api#authentication"

// graphqlPath is the GraphQL endpoint's path.
const graphqlPath = "/v1"

func (s *Server) routeGraphQL(mux *routeMux) {
	mux.HandleFunc("POST "+graphqlPath, s.serveGraphQL)
}

// graphqlRequest is the body of a GraphQL request.
type graphqlRequest struct {
	Query         *string        `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// graphqlResponse is the body of every GraphQL answer but the 401.
type graphqlResponse struct {
	Data   any           `json:"data,omitempty"`
	Errors gqlerror.List `json:"errors,omitempty"`
	// Stats is the cost, when the request asks for it (graphql_limits.go).
	Stats any `json:"stats,omitempty"`
}

func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	tok, usr, ok := s.graphqlAuthenticate(w, r)
	if !ok {
		return
	}
	org := budgetKey(tok)
	if !s.budgetGate(w, org) {
		return
	}
	var req graphqlRequest
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, errBodyTooLarge())
		return
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, graphqlResponse{Errors: gqlerror.List{
			{Message: "The request body is not a JSON object of query, variables and operationName: " + err.Error()}}})
		return
	}
	if req.Query == nil || strings.TrimSpace(*req.Query) == "" {
		writeJSON(w, http.StatusOK, graphqlResponse{Errors: gqlerror.List{{Message: "No query string was present"}}})
		return
	}
	ctx := r.Context()
	schema := graphqlSchema()
	doc, errs, ok := loadGraphQL(ctx, schema, *req.Query)
	if !ok {
		return // the client hung up: nobody to answer
	}
	if len(errs) > 0 {
		writeJSON(w, http.StatusOK, graphqlResponse{Errors: errs})
		return
	}
	op, gerr := pickOperation(doc, req.OperationName)
	if gerr != nil {
		writeJSON(w, http.StatusOK, graphqlResponse{Errors: gqlerror.List{gerr}})
		return
	}
	vars, err := validator.VariableValues(schema, op, req.Variables)
	if err != nil {
		writeJSON(w, http.StatusOK, graphqlResponse{Errors: gqlerror.List{variableError(op, err)}})
		return
	}
	x := &gqlExec{ctx: ctx, schema: schema, st: s.store, vars: vars, tok: tok, user: usr, base: baseURL(r)}
	cost := x.complexity(op.SelectionSet)
	complexityHeaders(w.Header(), cost)
	var stats any
	if r.Header.Get("Buildkite-Include-Query-Stats") == "true" {
		stats = map[string]int{"requestedComplexity": cost, "actualComplexity": cost}
	}
	if cost > gqlMaxComplexity {
		writeJSON(w, http.StatusOK, graphqlResponse{Errors: gqlerror.List{{Message: errTooComplex(cost)}}, Stats: stats})
		return
	}
	data, saveErr := s.runGraphQL(x, op)
	if ctx.Err() != nil {
		return // the client hung up while it ran
	}
	s.budget.spend(org, cost).headers(w, graphqlScope, "")
	if saveErr != nil {
		writeError(w, saveErr)
		return
	}
	writeJSON(w, http.StatusOK, graphqlResponse{Data: data, Errors: x.errs, Stats: stats})
}

// runGraphQL runs op under the store's lock: the write lock, with the state saved, for a mutation.
func (s *Server) runGraphQL(x *gqlExec, op *ast.OperationDefinition) (data *gqlResult, saveErr *apiError) {
	run := func() *apiError {
		data = x.run(op)
		return nil
	}
	if op.Operation == ast.Mutation {
		saveErr = s.store.update(run)
	} else {
		_ = s.store.view(run)
	}
	return data, saveErr
}

// graphqlAuthenticate checks the bearer token and its graphql scope; a failure is the 401 the service
// answers a token without GraphQL access, written here.
func (s *Server) graphqlAuthenticate(w http.ResponseWriter, r *http.Request) (tokenRecord, userRecord, bool) {
	var tok tokenRecord
	var usr userRecord
	err := s.store.view(func() *apiError {
		unauthorized := newMessageError(http.StatusUnauthorized,
			"Authentication required. Please supply a valid API Access Token: "+graphqlAuthDocsURL)
		secret, ok := bearerToken(r)
		if !ok {
			return unauthorized
		}
		t, ok := s.store.tokens[secret]
		if !ok || !t.scopes[scopeGraphQL] {
			return unauthorized
		}
		u, ok := s.store.users[t.userID]
		if !ok {
			return unauthorized
		}
		tok, usr = *t, *u
		return nil
	})
	if err != nil {
		writeError(w, err)
		return tokenRecord{}, userRecord{}, false
	}
	return tok, usr, true
}

// pickOperation returns the operation the request names, or the document's only one.
func pickOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, *gqlerror.Error) {
	if name != "" {
		if op := doc.Operations.ForName(name); op != nil {
			return op, nil
		}
		return nil, &gqlerror.Error{Message: `No operation named "` + name + `"`}
	}
	if len(doc.Operations) != 1 {
		return nil, &gqlerror.Error{Message: "An operation name is required"}
	}
	return doc.Operations[0], nil
}

// variableError words a variable that failed coercion as the service does (I: graphql-ruby's
// "Variable $x of type T was provided invalid value"), with what was wrong as the problem's explanation.
func variableError(op *ast.OperationDefinition, err error) *gqlerror.Error {
	var gerr *gqlerror.Error
	if !errors.As(err, &gerr) || len(gerr.Path) < 2 {
		return &gqlerror.Error{Message: err.Error()}
	}
	name, _ := gerr.Path[1].(ast.PathName)
	def := op.VariableDefinitions.ForName(string(name))
	if def == nil {
		return &gqlerror.Error{Message: err.Error()}
	}
	var path []any
	for _, p := range gerr.Path[2:] {
		path = append(path, p)
	}
	return &gqlerror.Error{
		Message:   "Variable $" + def.Variable + " of type " + def.Type.String() + " was provided invalid value",
		Locations: []gqlerror.Location{{Line: def.Position.Line, Column: def.Position.Column}},
		Extensions: map[string]any{
			"value":    nil,
			"problems": []map[string]any{{"path": nonNil(path), "explanation": gerr.Message}},
		},
	}
}

// serviceRewrites turn gqlparser's validation messages into the service's words (graphql-ruby's), where
// they are known: `Field 'x' doesn't exist on type 'Y'` (V: buildkite/docs#2701); the others are
// graphql-ruby's (I). Messages without a rewrite keep gqlparser's words.
var serviceRewrites = []struct {
	pattern *regexp.Regexp
	replace string
}{
	{regexp.MustCompile(`^Cannot query field "([^"]+)" on type "([^"]+)"\..*$`), "Field '$1' doesn't exist on type '$2'"},
	{regexp.MustCompile(`^Unknown argument "([^"]+)" on field "(?:[^".]+\.)?([^"]+)"\..*$`), "Field '$2' doesn't accept argument '$1'"},
	{regexp.MustCompile(`^Field "([^"]+)" argument "([^"]+)" of type "[^"]+" is required, but it was not provided\.$`),
		"Field '$1' is missing required arguments: $2"},
	{regexp.MustCompile(`^Variable "\$([^"]+)" is not defined by operation "([^"]+)"\.$`), "Variable $$$1 is used by $2 but not declared"},
	{regexp.MustCompile(`^Variable "\$([^"]+)" is never used in operation "([^"]+)"\.$`), "Variable $$$1 is declared by $2 but not used"},
	{regexp.MustCompile(`^Unknown type "([^"]+)"\..*$`), "No such type $1, so it can't be a fragment condition"},
	{regexp.MustCompile(`^Field "([^"]+)" must not have a selection since type "([^"]+)" has no subfields\.$`),
		"Selections can't be made on scalars (field '$1' returns $2 but has selections [...])"},
	{regexp.MustCompile(`^Field "([^"]+)" of type "([^"]+)" must have a selection of subfields\..*$`),
		"Field must have selections (field '$1' returns $2 but has no selections. Did you mean '$1 { ... }'?)"},
}

// serviceErrors rewrites a validation error list (serviceRewrites) and drops gqlparser's extensions.
func serviceErrors(errs gqlerror.List) gqlerror.List {
	out := make(gqlerror.List, 0, len(errs))
	for _, e := range errs {
		msg := e.Message
		for _, rw := range serviceRewrites {
			if rw.pattern.MatchString(msg) {
				msg = rw.pattern.ReplaceAllString(msg, rw.replace)
				break
			}
		}
		out = append(out, &gqlerror.Error{Message: msg, Locations: e.Locations})
	}
	return out
}

package fakeserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// GraphQL's limits (https://buildkite.com/docs/apis/graphql/graphql-resource-limits), in the order a request
// meets them:
//
//  1. Size, always on and checked before the document is parsed or validated: at most gqlMaxTokens tokens
//     (counted by lexing, which stops at the ceiling), then, once parsed, at most gqlMaxNodes selections
//     (fields, inline fragments and fragment spreads, each fragment counted as often as it is spread).
//     Beyond either: HTTP 200 and "This query is too large to execute.", the words of graphql-ruby, on
//     which the service runs, for its token ceiling. The service publishes no numbers (I): these are the
//     emulator's, far above the provider's largest document (the batched rules read: about 2,100 tokens and
//     600 selections) and low enough that validation, whose cost grows with the square of the fields that
//     share a name, stays under a second; without them a 1 MiB document of 30,000 repeated fields kept a
//     core busy for minutes.
//  2. Complexity: each selected field costs 0 when it is a scalar or an enum and 1 when it is an object,
//     interface or union; a connection's selection is counted once per item asked for (first or last, else
//     the default page of 500). A query over 50,000 is refused before it runs, with HTTP 200 and the
//     service's message. Every answer carries RateLimit-Complexity-Requested and
//     RateLimit-Complexity-Actual, and "stats" when the request sets Buildkite-Include-Query-Stats: true.
//  3. The organization's budget of complexity points per window (Options.GraphQLBudget, off by default as
//     Options.RateLimit is; the service's is 20,000 points per 5 minutes): a request made once the window
//     holds nothing more is answered 429 with the service's message and RateLimit-Scope: graphql,
//     RateLimit-Limit, RateLimit-Remaining: 0 and RateLimit-Reset; every other answer carries the same
//     headers, the points its own query cost already taken off. Off, the headers report a full allowance
//     of 20,000. GraphQL requests do not count against the REST limit (Options.RateLimit), as on the
//     service, where the two scopes are apart.
//
// A client that hangs up stops the work: the request's context is checked before each step (parse,
// validation, execution) and by the executor at every object it completes.
//
// Choices where the facts are silent (I): the fields of every fragment count, even those that cannot apply
// together (an overestimate); the actual complexity is the requested one; a token of several
// organizations spends the budget of the first of them by slug; the per-user budget (5,000 points) is not
// kept; a 429's body is {"errors": [{"message": …}]}.

const (
	// gqlMaxTokens is the most tokens a document may hold.
	gqlMaxTokens = 10000
	// gqlMaxNodes is the most selections a document may hold, fragments expanded.
	gqlMaxNodes = 2000
	// gqlMaxComplexity is the most one query may request.
	gqlMaxComplexity = 50000
	// GraphQLServiceBudget is the service's budget of complexity points per organization per
	// GraphQLServiceBudgetWindow (the resource-limits page); the RateLimit-Limit GraphQL answers report
	// while Options.GraphQLBudget is 0.
	GraphQLServiceBudget = 20000
	// GraphQLServiceBudgetWindow is the service's budget window.
	GraphQLServiceBudgetWindow = 5 * time.Minute
	// graphqlScope is the RateLimit-Scope of GraphQL answers, and the rate_limit endpoint's key for them.
	graphqlScope = "graphql"
)

// errQueryTooLarge is the refusal of a document beyond gqlMaxTokens or gqlMaxNodes.
const errQueryTooLarge = "This query is too large to execute."

// newGraphQLBudget returns the organizations' complexity budget: limit points per window, 0 for none.
func newGraphQLBudget(limit int, window time.Duration, now func() time.Time) *rateLimiter {
	return newLimiter(limit, GraphQLServiceBudget, window, now)
}

// loadGraphQL parses and validates query after checking its size, and stops early, with ok false and no
// errors, when ctx ends (the client hung up).
func loadGraphQL(ctx context.Context, schema *ast.Schema, query string) (doc *ast.QueryDocument, errs gqlerror.List, ok bool) {
	if e := tooManyTokens(query); e != nil {
		return nil, gqlerror.List{e}, true
	}
	if ctx.Err() != nil {
		return nil, nil, false
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		var gerr *gqlerror.Error
		if !errors.As(err, &gerr) {
			gerr = gqlerror.Wrap(err)
		}
		return nil, gqlerror.List{gerr}, true
	}
	if countNodes(doc) > gqlMaxNodes {
		return nil, gqlerror.List{{Message: errQueryTooLarge}}, true
	}
	if ctx.Err() != nil {
		return nil, nil, false
	}
	if errs := validator.ValidateWithRules(schema, doc, nil); len(errs) > 0 {
		return nil, serviceErrors(errs), true
	}
	return doc, nil, ctx.Err() == nil
}

// tooManyTokens lexes query up to the ceiling: the refusal, at the token that passes it, or nil. A lexing
// error is left for the parser to report.
func tooManyTokens(query string) *gqlerror.Error {
	lx := lexer.New(&ast.Source{Input: query})
	for n := 0; ; {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			return nil
		}
		if tok.Kind == lexer.Comment {
			continue
		}
		if n++; n > gqlMaxTokens {
			return &gqlerror.Error{Message: errQueryTooLarge,
				Locations: []gqlerror.Location{{Line: tok.Pos.Line, Column: tok.Pos.Column}}}
		}
	}
}

// countNodes counts the selections of doc's operations, each fragment as often as it is spread, stopping
// past gqlMaxNodes. Fragments are counted once each (memo), so a document of fragments that spread one
// another many times is counted in time linear in its size; a cycle counts as nothing here, and validation
// refuses it.
func countNodes(doc *ast.QueryDocument) int {
	memo := map[string]int{}
	var count func(sel ast.SelectionSet) int
	count = func(sel ast.SelectionSet) int {
		total := 0
		for _, s := range sel {
			switch s := s.(type) {
			case *ast.Field:
				total += 1 + count(s.SelectionSet)
			case *ast.InlineFragment:
				total += 1 + count(s.SelectionSet)
			case *ast.FragmentSpread:
				n, seen := memo[s.Name]
				if !seen {
					memo[s.Name] = 0 // in progress: a cycle counts nothing
					if f := doc.Fragments.ForName(s.Name); f != nil {
						n = count(f.SelectionSet)
					}
					memo[s.Name] = n
				}
				total += 1 + n
			}
			if total > gqlMaxNodes {
				return total
			}
		}
		return total
	}
	total := 0
	for _, op := range doc.Operations {
		if total += count(op.SelectionSet); total > gqlMaxNodes {
			break
		}
	}
	return total
}

// budgetKey is the organization whose budget a token's requests spend: its first by slug.
func budgetKey(tok tokenRecord) string {
	orgs := make([]string, 0, len(tok.orgs))
	for slug := range tok.orgs {
		orgs = append(orgs, slug)
	}
	slices.Sort(orgs)
	if len(orgs) == 0 {
		return ""
	}
	return orgs[0]
}

// budgetGate sets the organization's budget headers on the answer, and answers 429, returning false, when
// its window holds nothing more.
func (s *Server) budgetGate(w http.ResponseWriter, org string) bool {
	d := s.budget.status(org)
	msg := fmt.Sprintf("Your organization has exceeded the limit of %d complexity points. Please try again in %d seconds.", d.limit, d.reset)
	d.headers(w, graphqlScope, msg)
	if d.exceeded {
		writeJSON(w, http.StatusTooManyRequests, graphqlResponse{Errors: gqlerror.List{{Message: msg}}})
	}
	return !d.exceeded
}

// complexity returns the requested complexity of sel.
func (x *gqlExec) complexity(sel ast.SelectionSet) int {
	total := 0
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if s.Definition == nil {
				continue
			}
			def := x.schema.Types[s.Definition.Type.Name()]
			if def == nil || !def.IsCompositeType() {
				continue
			}
			items := 1
			if def.Kind == ast.Object && def.Fields.ForName("edges") != nil && def.Fields.ForName("pageInfo") != nil {
				args := x.args(s)
				n, ok := argInt(args, "first")
				if !ok {
					n, ok = argInt(args, "last")
				}
				if !ok || n < 0 {
					n = gqlDefaultPage
				}
				items = n
			}
			total += 1 + items*x.complexity(s.SelectionSet)
		case *ast.InlineFragment:
			total += x.complexity(s.SelectionSet)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				total += x.complexity(s.Definition.SelectionSet)
			}
		}
		if total > gqlMaxComplexity*10 {
			return total // far past the limit: stop counting
		}
	}
	return total
}

// complexityHeaders sets the cost headers of an answer.
func complexityHeaders(h interface{ Set(key, value string) }, cost int) {
	h.Set("RateLimit-Complexity-Requested", strconv.Itoa(cost))
	h.Set("RateLimit-Complexity-Actual", strconv.Itoa(cost))
}

// errTooComplex is the refusal of a query over gqlMaxComplexity.
func errTooComplex(cost int) string {
	return fmt.Sprintf("Query has complexity of %d, which exceeds max complexity of %d", cost, gqlMaxComplexity)
}

package fakeserver

import (
	"fmt"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// GraphQL complexity (graphql-subset.md §3.5): each selected field costs 0 when it is a scalar or an enum
// and 1 when it is an object, interface or union; a connection's selection is counted once per item asked
// for (first or last, else the default page of 500). A query over 50,000 is refused before it runs, with
// HTTP 200 and the service's message. Every answer carries RateLimit-Complexity-Requested and
// RateLimit-Complexity-Actual, and "stats" when the request sets Buildkite-Include-Query-Stats: true.
//
// Choices where the facts are silent (I): the fields of every fragment count, even those that cannot apply
// together (an overestimate); the actual complexity is the requested one; the organization's and user's
// point budgets (20,000 and 5,000 per 5 minutes, 429) are not kept: the emulator's request rate limit
// (Options.RateLimit) applies to /v1 as to REST, with the same RateLimit-* headers.

// gqlMaxComplexity is the most one query may request.
const gqlMaxComplexity = 50000

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

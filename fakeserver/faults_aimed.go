package fakeserver

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// AimedFault aims one kind of fault at the requests that match Route or Operation (exactly one is set).
// Every AimedFault that matches a request counts it; the first, in order, whose turn it is (past Skip,
// within Times) applies. Aimed faults apply whatever Faults.Except says and draw nothing from the random
// generator, so arming one does not change which shares' faults other requests meet.
type AimedFault struct {
	// Route is "METHOD /path"; a path segment in braces ({org}, {id}) matches any one segment, e.g.
	// "POST /v2/organizations/{org}/clusters/{cluster}/tokens". The query string is not part of it.
	Route string
	// Operation is a GraphQL operation (POST /v1): the document's operation name, or when it has none, its
	// first root field (e.g. "agentTokenCreate"). A request matches when either is Operation.
	Operation string
	// Kind is one of FaultDropBefore, FaultDropAfter, FaultServerError, FaultRateLimited,
	// FaultErrorsWithData, FaultNullData and FaultNotFound; the last three are GraphQL's (Operation, or
	// Route "POST /v1").
	Kind string
	// Skip is how many matching requests are let through before the fault applies.
	Skip int
	// Times is how many matching requests meet the fault after Skip; 0 means every one.
	Times int
}

// The kinds an AimedFault can inject, besides FaultServerError (a 500 without acting) and
// FaultRateLimited (a 429 without acting). The request log's Fault is the kind.
const (
	// FaultDropBefore: the connection is closed with no answer; the service did not act. Where the
	// connection cannot be taken over (an httptest.ResponseRecorder), the answer is a 502 instead.
	FaultDropBefore = "drop_before"
	// FaultDropAfter: the service acted (the request was served, whatever its answer), then the connection
	// is closed with no answer; a 502 where the connection cannot be taken over.
	FaultDropAfter = "drop_after"
	// FaultErrorsWithData: GraphQL; the service acted and answered 200 with its real data and an entry more
	// in errors[].
	FaultErrorsWithData = "errors_with_data"
	// FaultNullData: GraphQL; answered 200 with every root field of data null and no errors, without acting.
	FaultNullData = "null_data"
	// FaultNotFound: GraphQL; answered 200 with every root field of data null and, for each, an errors[]
	// entry worded as the emulator's resolvers word a missing object, with the field's type in words:
	// {"message": "No agent token found", "path": ["agentToken"], "type": "NOT_FOUND"}, without acting.
	FaultNotFound = "not_found"
)

// aimableKinds are the kinds an AimedFault may have, in the order messages list them; graphQLKinds are
// those only a GraphQL request can meet.
var (
	aimableKinds = []string{FaultDropBefore, FaultDropAfter, FaultServerError, FaultRateLimited,
		FaultErrorsWithData, FaultNullData, FaultNotFound}
	graphQLKinds = []string{FaultErrorsWithData, FaultNullData, FaultNotFound}
)

// graphQLRoute is the route of every GraphQL request.
const graphQLRoute = "POST /v1"

var (
	routeMethod   = regexp.MustCompile(`^[A-Z]+$`)
	graphQLName   = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)
	routeWildcard = regexp.MustCompile(`^\{[^{}/]+\}$`)
)

// String is the fault in the form --faults takes after "aim=": "<METHOD> <path> <kind>" or
// "<operation> <kind>", then " skip=N" and " times=N" when not 0.
func (a AimedFault) String() string {
	target := a.Route
	if target == "" {
		target = a.Operation
	}
	s := target + " " + a.Kind
	if a.Skip != 0 {
		s += " skip=" + strconv.Itoa(a.Skip)
	}
	if a.Times != 0 {
		s += " times=" + strconv.Itoa(a.Times)
	}
	return s
}

// validate reports what is wrong with a, if anything.
func (a AimedFault) validate() error {
	var problems []string
	switch {
	case a.Route != "" && a.Operation != "":
		problems = append(problems, "set Route or Operation, not both")
	case a.Route == "" && a.Operation == "":
		problems = append(problems, "set Route (\"METHOD /path\") or Operation (a GraphQL operation name)")
	case a.Route != "":
		method, path, ok := strings.Cut(a.Route, " ")
		switch {
		case !ok || !routeMethod.MatchString(method) || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \t?"):
			problems = append(problems, fmt.Sprintf("route %q is not \"METHOD /path\", e.g. \"POST /v2/organizations/{org}/clusters\"", a.Route))
		default:
			for _, seg := range strings.Split(path, "/") {
				if strings.ContainsAny(seg, "{}") && !routeWildcard.MatchString(seg) {
					problems = append(problems, fmt.Sprintf("route %q: a wildcard is a whole segment in braces, such as {org}", a.Route))
					break
				}
			}
		}
	case !graphQLName.MatchString(a.Operation):
		problems = append(problems, fmt.Sprintf("operation %q is not a GraphQL name", a.Operation))
	}
	switch {
	case !slices.Contains(aimableKinds, a.Kind):
		problems = append(problems, fmt.Sprintf("unknown kind %q (known: %s)", a.Kind, strings.Join(aimableKinds, ", ")))
	case slices.Contains(graphQLKinds, a.Kind) && a.Operation == "" && a.Route != graphQLRoute:
		problems = append(problems, fmt.Sprintf("%s is a GraphQL fault: aim it at an operation (or at %q)", a.Kind, graphQLRoute))
	}
	if a.Skip < 0 || a.Times < 0 {
		problems = append(problems, "skip and times must not be negative")
	}
	if len(problems) > 0 {
		return fmt.Errorf("aimed fault %q: %s", a.String(), strings.Join(problems, "; "))
	}
	return nil
}

// parseAimed reads the value of an aim= pair of --faults (see AimedFault.String).
func parseAimed(spec string) (AimedFault, error) {
	fields := strings.Fields(spec)
	var a AimedFault
	switch {
	case len(fields) >= 2 && strings.HasPrefix(fields[1], "/"):
		a.Route, fields = fields[0]+" "+fields[1], fields[2:]
	case len(fields) >= 1:
		a.Operation, fields = fields[0], fields[1:]
	}
	if len(fields) == 0 {
		return a, fmt.Errorf("aim=%s: want \"<METHOD> <path> <kind>\" or \"<operation> <kind>\", then skip=N and times=N if needed", spec)
	}
	a.Kind = fields[0]
	seen := map[string]bool{}
	for _, f := range fields[1:] {
		key, value, _ := strings.Cut(f, "=")
		dst := map[string]*int{"skip": &a.Skip, "times": &a.Times}[key]
		n, err := strconv.Atoi(value)
		switch {
		case dst == nil:
			return a, fmt.Errorf("aim=%s: %q is not skip=N or times=N", spec, f)
		case seen[key]:
			return a, fmt.Errorf("aim=%s: %s given twice", spec, key)
		case err != nil || n < 0:
			return a, fmt.Errorf("aim=%s: %s: want a whole number, 0 or more", spec, f)
		}
		seen[key] = true
		*dst = n
	}
	return a, a.validate()
}

// aimedState is an armed AimedFault and the matching requests it has seen.
type aimedState struct {
	AimedFault
	method string
	path   []string // the route's segments; nil for an operation
	seen   int
}

func newAimedState(a AimedFault) *aimedState {
	st := &aimedState{AimedFault: a}
	if a.Route != "" {
		method, path, _ := strings.Cut(a.Route, " ")
		st.method, st.path = method, strings.Split(path, "/")
	}
	return st
}

// matches reports whether the request of method and path (gql for GraphQL, else nil) is a's target.
func (a *aimedState) matches(method, path string, gql *gqlTarget) bool {
	if a.Operation != "" {
		return gql != nil && (a.Operation == gql.name || a.Operation == gql.first)
	}
	if method != a.method {
		return false
	}
	segs := strings.Split(path, "/")
	if len(segs) != len(a.path) {
		return false
	}
	for i, seg := range a.path {
		if seg != segs[i] && (!routeWildcard.MatchString(seg) || segs[i] == "") {
			return false
		}
	}
	return true
}

// validateAimed checks every fault of list, naming each invalid one by its index.
func validateAimed(list []AimedFault) error {
	var problems []string
	for i, a := range list {
		if err := a.validate(); err != nil {
			problems = append(problems, fmt.Sprintf("[%d] %v", i, err))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

package buildkite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// GraphQL. Where the REST API cannot serve a value the official provider manages (unclustered agent tokens,
// an organization's two-factor enforcement, …), the client asks Buildkite's GraphQL API. A GraphQL call is
// one more call through the request path (do): the same go-retryablehttp client, retry verdicts, bounded
// attempts, request logs with secrets masked, and typed errors. What differs:
//
//   - the origin: the configured GraphQL endpoint (Config.GraphQLURL), or none, and then every operation
//     fails with ErrNoGraphQLURL before anything is sent;
//   - the pacing: its own gate (graphGate), since the endpoint's RateLimit-* headers count complexity
//     points in a window of their own, not REST requests;
//   - the answer: a 200 carries {"data": …, "errors": […]}. Any error makes the call fail with a
//     *GraphQLError, except a throttle ("currently busy"), which the service answers without acting and the
//     request path retries, even for a mutation that creates. A mutation's answer may carry errors and, in
//     its data, what the mutation made or changed: the service acted. gqlMutate then returns the data with
//     the error, and the operation returns what its data carries with the error marked Acted (actedWith),
//     so that its caller tells "refused, nothing made" (Acted false, no object) from "made, with errors";
//   - repetition: a query and a mutation that sets or revokes are repeatable; a mutation that creates is
//     not, so a lost answer leaves its outcome unknown (isUnknownOutcome) and is never sent again blindly;
//   - not found: a nullable root field (node, agentToken, organization) answers null without an error. The
//     typed operations turn that into an *Error with status 404, so that IsNotFound reads it as it reads a
//     REST 404; an error whose every message says "not found" counts as well. Where REST serves the object
//     and GraphQL only a part of it (a rule's description, a queue's macOS settings), that 404 is the
//     part's, not the object's: the caller must not take it for the object gone;
//   - a 401 or 403 to a token the REST API describes without the graphql scope is a *MissingScopeError,
//     which names the scope (the service's "Authentication required" does not).
//
// Operations are written by hand, one file per area as the REST services are: each document a constant,
// its variables a struct with explicit pointers where null and omitted differ, its result a struct with
// pointer fields for nullable objects.

// DefaultGraphQLURL is Buildkite's GraphQL endpoint, which the provider uses unless told otherwise.
const DefaultGraphQLURL = "https://graphql.buildkite.com/v1"

// ErrNoGraphQLURL is returned, wrapped, by every GraphQL operation of a client built without a GraphQL
// endpoint: nothing was sent.
var ErrNoGraphQLURL = errors.New("buildkite: no GraphQL endpoint is configured")

// operation is one GraphQL operation: its name (the document's, sent as operationName) and document.
type operation struct {
	name     string
	document string
	// repeatable: sending it again has no further effect (every query; a mutation that sets a value or
	// revokes). A mutation that creates is not.
	repeatable bool
}

// queryOp declares a query, which is always repeatable.
func queryOp(name, document string) operation {
	return operation{name: name, document: document, repeatable: true}
}

// mutationOp declares a mutation; repeatable says whether sending it twice could do more than once.
func mutationOp(name, document string, repeatable bool) operation {
	return operation{name: name, document: document, repeatable: repeatable}
}

// graphQLRequest is the body of every GraphQL call.
type graphQLRequest struct {
	Query         string `json:"query"`
	Variables     any    `json:"variables,omitempty"`
	OperationName string `json:"operationName,omitempty"`
}

// graphQLAnswer is the body of a 2xx GraphQL answer.
type graphQLAnswer struct {
	Data   json.RawMessage    `json:"data"`
	Errors []GraphQLErrorItem `json:"errors"`
}

var _ identified = graphQLAnswer{}

// identity makes an answer with neither data nor errors a bad answer (hold), which a repeatable call sends
// again and a create reports as of unknown outcome.
func (a graphQLAnswer) identity() (string, string) {
	if len(a.Errors) > 0 || (len(a.Data) > 0 && string(a.Data) != "null") {
		return "data", "present"
	}
	return "data", ""
}

// GraphQLErrorItem is one entry of a GraphQL answer's "errors". Buildkite's carry a message only; path,
// locations and extensions are the GraphQL specification's optional keys.
type GraphQLErrorItem struct {
	Message    string           `json:"message"`
	Path       []any            `json:"path,omitempty"`
	Locations  []GraphQLLocator `json:"locations,omitempty"`
	Extensions map[string]any   `json:"extensions,omitempty"`
}

// GraphQLLocator is where in the document an error was found.
type GraphQLLocator struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// PathString renders the error's path as "agentTokenCreate.input.description" (list indexes as numbers),
// or "" when it has none.
func (e GraphQLErrorItem) PathString() string {
	parts := make([]string, 0, len(e.Path))
	for _, p := range e.Path {
		switch v := p.(type) {
		case string:
			parts = append(parts, v)
		case float64:
			parts = append(parts, strconv.Itoa(int(v)))
		default:
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, ".")
}

// PathNames returns the names in the error's path, innermost last: what a caller maps to an attribute.
func (e GraphQLErrorItem) PathNames() []string {
	var names []string
	for _, p := range e.Path {
		if s, ok := p.(string); ok {
			names = append(names, s)
		}
	}
	return names
}

// GraphQLError is a GraphQL answer with errors: the service refused the operation, or part of it.
type GraphQLError struct {
	Operation string // the operation's name
	Errors    []GraphQLErrorItem
	// Acted is set when the answer's data carried what the mutation made or changed along with the errors:
	// the service acted, and the operation returned that object with this error. Unset, the service
	// refused the operation: nothing was made or changed.
	Acted bool
}

// ActedWithErrors returns the *GraphQLError in err's chain when it is Acted: the call returned what the
// service made or changed, which the caller records as done, showing the errors as a warning.
func ActedWithErrors(err error) (*GraphQLError, bool) {
	var ge *GraphQLError
	if errors.As(err, &ge) && ge.Acted {
		return ge, true
	}
	return nil, false
}

// actedWith returns obj, what a mutation's answer carries (nil when it carries nothing), with err: when
// both are there the service acted despite the errors, and the *GraphQLError is marked Acted. Without obj
// the error stands alone, a refusal.
func actedWith[T any](obj *T, err error) (*T, error) {
	if obj == nil {
		return nil, err
	}
	var ge *GraphQLError
	if errors.As(err, &ge) {
		ge.Acted = true
	}
	return obj, err
}

var _ error = (*GraphQLError)(nil)

// Error renders e.g. "GraphQL agentTokenCreate: Description is too long; organizationID: not found".
func (e *GraphQLError) Error() string {
	msgs := make([]string, 0, len(e.Errors))
	for _, it := range e.Errors {
		m := it.Message
		if p := it.PathString(); p != "" {
			m = p + ": " + m
		}
		msgs = append(msgs, m)
	}
	text := "GraphQL " + e.Operation + ": " + strings.Join(msgs, "; ")
	if e.Acted {
		text += " (the service acted nonetheless: its answer carries the result)"
	}
	return text
}

// Messages returns the service's messages, one per error.
func (e *GraphQLError) Messages() []string {
	out := make([]string, 0, len(e.Errors))
	for _, it := range e.Errors {
		out = append(out, it.Message)
	}
	return out
}

// notFoundText is how Buildkite's GraphQL resolvers that answer an error rather than null say "not found"
// ("No Pipeline found", "This resource no longer exists"); the official provider matches the same.
var notFoundText = regexp.MustCompile(`(?i)(No\s+\w+(\s+\w+)*\s+found|not\s+found|no\s+longer\s+exists)`)

// busyText is the throttle Buildkite answers with HTTP 200 before acting ("Cluster creation is currently
// busy, please try again.").
var busyText = regexp.MustCompile(`(?i)currently\s+busy`)

// Is lets errors.Is(err, ErrNotFound) hold for an answer whose every error says not found.
func (e *GraphQLError) Is(target error) bool {
	if target != ErrNotFound || len(e.Errors) == 0 {
		return false
	}
	for _, it := range e.Errors {
		if !notFoundText.MatchString(it.Message) {
			return false
		}
	}
	return true
}

// busyError is a 200 answer whose errors are all throttles: the service did not act, so the request path
// sends the call again, even a create.
type busyError struct{ messages []string }

func (e *busyError) Error() string {
	return "the service is busy: " + strings.Join(e.messages, "; ")
}

// busy returns the answer's throttle as a busyError, or nil when any of its errors is something else.
func (a *graphQLAnswer) busy() error {
	if len(a.Errors) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(a.Errors))
	for _, it := range a.Errors {
		if !busyText.MatchString(it.Message) {
			return nil
		}
		msgs = append(msgs, it.Message)
	}
	return &busyError{messages: msgs}
}

// gqlQuery runs a query and decodes its data into a new T. An answer with errors is the error alone,
// whatever data it carries.
func gqlQuery[T any](ctx context.Context, c *Client, op operation, vars any) (*T, error) {
	out, err := graphQL[T](ctx, c, op, vars)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gqlMutate runs a mutation and decodes its data into a new T. Whether it is sent again after an unknown
// outcome is the operation's repeatable; a create that is not fails with an error isUnknownOutcome
// recognises, for createOrReplace (or the caller) to find out what happened. An answer with errors and
// data returns both, the data decoded and the *GraphQLError: the caller looks in the data for what the
// mutation made or changed and returns it through actedWith, never drops it.
func gqlMutate[T any](ctx context.Context, c *Client, op operation, vars any) (*T, error) {
	return graphQL[T](ctx, c, op, vars)
}

// graphQL sends op to the GraphQL endpoint through the request path and decodes the answer's data into
// a new T. Errors in the answer become a *GraphQLError, their messages masked like every other text the
// service sends back (every registered secret, as in REST errors); data that came with them is returned
// along with it, decoded (nil when null or not of T's shape). A 401 or 403 names the graphql scope when the
// token lacks it (scopeRefusal).
func graphQL[T any](ctx context.Context, c *Client, op operation, vars any) (*T, error) {
	if c.graphqlURL == nil {
		return nil, fmt.Errorf("%w: the operation %s needs Buildkite's GraphQL API", ErrNoGraphQLURL, op.name)
	}
	var ans graphQLAnswer
	r := call{
		method:     http.MethodPost,
		in:         graphQLRequest{Query: op.document, Variables: vars, OperationName: op.name},
		out:        &ans,
		repeatable: op.repeatable,
		graphQL:    op.name,
	}
	if _, err := c.do(ctx, r, c.graphqlURL); err != nil {
		return nil, c.scopeRefusal(ctx, op.name, err)
	}
	if len(ans.Errors) > 0 {
		gerr := c.graphQLError(op.name, ans.Errors)
		var out T
		if len(ans.Data) == 0 || string(ans.Data) == "null" || json.Unmarshal(ans.Data, &out) != nil {
			return nil, gerr
		}
		return &out, gerr
	}
	var out T
	if err := json.Unmarshal(ans.Data, &out); err != nil {
		return nil, fmt.Errorf("GraphQL %s: decoding the answer's data: %w", op.name, err)
	}
	return &out, nil
}

// graphQLError builds the error of an answer's errors, each message masked and bounded.
func (c *Client) graphQLError(op string, items []GraphQLErrorItem) *GraphQLError {
	e := &GraphQLError{Operation: op, Errors: make([]GraphQLErrorItem, len(items))}
	for i, it := range items {
		it.Message = bound(Shorten(maskText(it.Message, c.secrets()...)), maxMessage)
		e.Errors[i] = it
	}
	return e
}

// ScopeGraphQL is the API token scope that opens Buildkite's GraphQL API ("Enable GraphQL API access").
const ScopeGraphQL = "graphql"

// MissingScopeError is a call refused (401 or 403) because the API token lacks Scope, as the token's own
// description (GET /v2/access-token) shows. It wraps the service's refusal, so that IsUnauthorized and
// IsForbidden still read it.
type MissingScopeError struct {
	Scope     string
	Operation string // the GraphQL operation refused
	Err       error
}

func (e *MissingScopeError) Error() string {
	return fmt.Sprintf("%v; the API token lacks the %q scope (\"Enable GraphQL API access\"), which every GraphQL call "+
		"such as %s needs: add the scope to the token in Buildkite (Personal Settings, API Access Tokens) or use a "+
		"token that has it", e.Err, e.Scope, e.Operation)
}

func (e *MissingScopeError) Unwrap() error { return e.Err }

// scopeRefusal turns a GraphQL call's 401 or 403 into a *MissingScopeError when the token, which the
// GraphQL endpoint refused, is one the REST API knows and it lacks the graphql scope: the service's own
// answer ("Authentication required") names neither. Any other error, or a token whose description cannot
// be read or that has the scope, is returned as it was.
func (c *Client) scopeRefusal(ctx context.Context, op string, err error) error {
	if !IsUnauthorized(err) && !IsForbidden(err) {
		return err
	}
	tok, terr := c.AccessToken.Get(ctx)
	if terr != nil || tok.HasScope(ScopeGraphQL) {
		return err
	}
	return &MissingScopeError{Scope: ScopeGraphQL, Operation: op, Err: err}
}

// graphQLNotFound is the error of a nullable root field that answered null: an *Error with status 404,
// which IsNotFound and errors.Is(err, ErrNotFound) read as they read a REST 404.
func (c *Client) graphQLNotFound(op, what string) error {
	return &Error{
		StatusCode: http.StatusNotFound,
		Method:     http.MethodPost,
		Path:       c.graphqlURL.EscapedPath() + " " + op,
		Message:    what + " not found (the service answered null)",
	}
}

// decodeGraphQL is the part of the response handler particular to GraphQL: a 2xx answer whose every
// error is a throttle is refused, so that the request path sends the call again.
func decodeGraphQL(r call) error {
	if ans, ok := r.out.(*graphQLAnswer); ok && r.graphQL != "" {
		return ans.busy()
	}
	return nil
}

// GraphQLURL returns the GraphQL endpoint the client talks to, or "" when it has none.
func (c *Client) GraphQLURL() string {
	if c.graphqlURL == nil {
		return ""
	}
	return c.graphqlURL.String()
}

// HasGraphQL reports whether the client has a GraphQL endpoint.
func (c *Client) HasGraphQL() bool { return c.graphqlURL != nil }

// organizationID returns the organization's GraphQL ID, which most mutations take: its REST answer's
// graphql_id, asked once per client (the official provider asks GraphQL once per run).
func (c *Client) organizationID(ctx context.Context) (string, error) {
	c.orgIDMu.Lock()
	defer c.orgIDMu.Unlock()
	if c.orgID != "" {
		return c.orgID, nil
	}
	org, err := c.Organizations.Get(ctx)
	if err != nil {
		return "", err
	}
	if org.GraphQLID == "" {
		return "", fmt.Errorf("the organization %s answered without its graphql_id, which GraphQL mutations need", c.org)
	}
	c.orgID = org.GraphQLID
	return c.orgID, nil
}

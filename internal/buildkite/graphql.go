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
//     request path retries, even for a mutation that creates;
//   - repetition: a query and a mutation that sets or revokes are repeatable; a mutation that creates is
//     not, so a lost answer leaves its outcome unknown (isUnknownOutcome) and is never sent again blindly;
//   - not found: a nullable root field (node, agentToken, organization) answers null without an error. The
//     typed operations turn that into an *Error with status 404, so that IsNotFound reads it as it reads a
//     REST 404; an error whose every message says "not found" counts as well.
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
	return "GraphQL " + e.Operation + ": " + strings.Join(msgs, "; ")
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

// gqlQuery runs a query and decodes its data into a new T.
func gqlQuery[T any](ctx context.Context, c *Client, op operation, vars any) (*T, error) {
	return graphQL[T](ctx, c, op, vars)
}

// gqlMutate runs a mutation and decodes its data into a new T. Whether it is sent again after an unknown
// outcome is the operation's repeatable; a create that is not fails with an error isUnknownOutcome
// recognises, for createOrReplace (or the caller) to find out what happened.
func gqlMutate[T any](ctx context.Context, c *Client, op operation, vars any) (*T, error) {
	return graphQL[T](ctx, c, op, vars)
}

// graphQL sends op to the GraphQL endpoint through the request path and decodes the answer's data into
// a new T. Errors in the answer become a *GraphQLError, their messages masked like every other text the
// service sends back.
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
		return nil, err
	}
	if len(ans.Errors) > 0 {
		return nil, c.graphQLError(op.name, ans.Errors)
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
		it.Message = bound(Shorten(maskText(it.Message, c.token)), maxMessage)
		e.Errors[i] = it
	}
	return e
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

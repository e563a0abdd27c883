package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The roots of the REST API that are not under one organization.
const (
	pathOrganizations = "/v2/organizations"
	pathAccessToken   = "/v2/access-token"
)

// call is one request through the request path (Client.send).
type call struct {
	method string
	// path is escaped and relative to the REST origin, or to the agent origin when agentToken is set.
	path  string
	query url.Values
	in    any // JSON request body, nil for none
	out   any // decoded from a non-empty 2xx body when non-nil
	// repeatable marks a call whose repetition has no further effect, so it may be retried after an
	// outcome that is unknown (a 5xx, a connection lost after sending). It is the call's property, not
	// the method's: a create by POST is not repeatable, an archive by POST is.
	repeatable bool
	// agentToken selects the agent API: the path is on the agent origin and the request is authenticated
	// with "Authorization: Token <agentToken>" instead of the API token.
	agentToken string
	// holds says what a 2xx body must hold for out; the zero value is an identified object.
	holds holds
	// graphQL names the GraphQL operation of a call to the GraphQL endpoint (graphql.go); "" for REST.
	graphQL string
}

// joinPath appends escaped segments to an escaped prefix. An empty segment, "." or ".." is refused, since it
// would turn a Get into a List or change which object the path names.
func joinPath(prefix string, segments ...string) (string, error) {
	var b strings.Builder
	b.WriteString(prefix)
	for _, s := range segments {
		if s == "" || s == "." || s == ".." {
			return "", fmt.Errorf("%w %q", ErrInvalidID, s)
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String(), nil
}

// orgPath builds "/v2/organizations/{org}/seg/...".
func (c *Client) orgPath(segments ...string) (string, error) {
	return joinPath(pathOrganizations+"/"+url.PathEscape(c.org), segments...)
}

// analyticsPath builds "/v2/analytics/organizations/{org}/seg/..." (test suites and flaky tests).
func (c *Client) analyticsPath(segments ...string) (string, error) {
	return joinPath("/v2/analytics/organizations/"+url.PathEscape(c.org), segments...)
}

// packagesPath builds "/v2/packages/organizations/{org}/seg/..." (registries and their tokens).
func (c *Client) packagesPath(segments ...string) (string, error) {
	return joinPath("/v2/packages/organizations/"+url.PathEscape(c.org), segments...)
}

// get reads path into a new T.
func get[T any](ctx context.Context, c *Client, path string, query url.Values) (*T, error) {
	var out T
	if _, err := c.send(ctx, call{method: http.MethodGet, path: path, query: query, out: &out, repeatable: true}); err != nil {
		return nil, err
	}
	return &out, nil
}

// create POSTs in to path and decodes the created T. A create is not repeatable: if its outcome is unknown,
// sending it again could make a second object.
func create[T any](ctx context.Context, c *Client, path string, in any) (*T, error) {
	var out T
	if _, err := c.send(ctx, call{method: http.MethodPost, path: path, in: in, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// change sends a repeatable write (PUT, PATCH, or a POST such as archive whose repetition has no further
// effect) and decodes the T it returns.
func change[T any](ctx context.Context, c *Client, method, path string, in any) (*T, error) {
	var out T
	if _, err := c.send(ctx, call{method: method, path: path, in: in, out: &out, repeatable: true}); err != nil {
		return nil, err
	}
	return &out, nil
}

// remove sends a DELETE, which is repeatable: a second one finds nothing left to delete.
func (c *Client) remove(ctx context.Context, path string) error {
	_, err := c.send(ctx, call{method: http.MethodDelete, path: path, repeatable: true})
	return err
}

package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The roots of the REST API that are not under one organization.
const (
	pathOrganizations = "/v2/organizations"
	pathAccessToken   = "/v2/access-token"
	pathBuilds        = "/v2/builds"
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

// createOrAdopt creates like create, for objects something identifies (a queue's key in its cluster, a
// pipeline's slug, an association's pair). When the create's outcome is unknown (the connection was lost
// after sending, or the service answered 5xx), find tells whether it happened: an object found is adopted,
// and when find returns (nil, nil) the create is sent again. Nothing is orphaned and nothing duplicated.
// find must ask the service (a listing, or a GET), never a cached listing. The whole exchange shares one
// deadline (the context's, else CallTimeout); MaxRetries, when positive, caps the repeated creates.
func createOrAdopt[T any](ctx context.Context, c *Client, path string, in any, find func(ctx context.Context) (*T, error)) (*T, error) {
	ctx, cancel := c.callContext(ctx)
	defer cancel()
	for tries := 0; ; tries++ {
		out, err := create[T](ctx, c, path, in)
		if tries > 0 && (IsValidation(err) || StatusCode(err) == http.StatusConflict) && ctx.Err() == nil {
			// A repeated create refused as a duplicate ("has already been taken", "already a member"): the
			// first one acted after all, though find did not see it then (a listing that lags, or a lost
			// answer that arrived late). Adopt what it made; a refusal find cannot explain stands.
			if found, ferr := find(ctx); ferr == nil && found != nil {
				c.debug(ctx, "adopted the object a create with a lost answer made, refused as a duplicate when repeated", map[string]any{"path": path})
				return found, nil
			}
			return out, err
		}
		if err == nil || !isUnknownOutcome(err) || ctx.Err() != nil {
			return out, err
		}
		found, ferr := find(ctx)
		if ferr != nil {
			return nil, fmt.Errorf("%w; then finding out whether it was created: %w", err, ferr)
		}
		if found != nil {
			c.debug(ctx, "adopted the object a create with a lost answer made", map[string]any{"path": path})
			return found, nil
		}
		if perr := c.pause(ctx, tries); perr != nil {
			return nil, fmt.Errorf("%w; it was not created, and cannot be sent again: %w", err, perr)
		}
	}
}

// createdSinceSlack widens "created since the request was sent" by how far the service's clock may be
// behind ours: an object of the same description created by someone else within it would be taken for
// ours.
const createdSinceSlack = time.Minute

// createOrReplace is createOrAdopt for objects nothing identifies but whose secret only the create response
// carries (agent tokens, registry tokens): after an unknown outcome, find returns what a lost create made
// (same description, created since the request was sent; since already allows for clock skew), del
// deletes it — find is asked again until it finds nothing — and the create is sent again.
func createOrReplace[T any](ctx context.Context, c *Client, path string, in any,
	find func(ctx context.Context, since time.Time) (*T, error), del func(ctx context.Context, obj *T) error) (*T, error) {
	ctx, cancel := c.callContext(ctx)
	defer cancel()
	since := time.Now().Add(-createdSinceSlack)
	for tries := 0; ; tries++ {
		out, err := create[T](ctx, c, path, in)
		if err == nil || !isUnknownOutcome(err) || ctx.Err() != nil {
			return out, err
		}
		for {
			found, ferr := find(ctx, since)
			if ferr != nil {
				return nil, fmt.Errorf("%w; then finding what it may have created: %w", err, ferr)
			}
			if found == nil {
				break
			}
			if derr := del(ctx, found); derr != nil && !IsNotFound(derr) {
				return nil, fmt.Errorf("%w; then deleting what it created, whose secret was lost: %w", err, derr)
			}
			c.debug(ctx, "deleted the object a create with a lost answer made", map[string]any{"path": path})
		}
		if perr := c.pause(ctx, tries); perr != nil {
			return nil, fmt.Errorf("%w; what it created is deleted, and it cannot be sent again: %w", err, perr)
		}
	}
}

// findCreated returns the newest object of the listing at listPath that match accepts and that was created
// at or after since, or nil: what a create whose answer was lost may have made. It lists afresh, never
// from readItem's listings.
func findCreated[T any](ctx context.Context, c *Client, listPath string, since time.Time,
	createdAt func(*T) *time.Time, match func(*T) bool) (*T, error) {
	var newest *T
	var newestAt time.Time
	for obj, err := range listEach[T](ctx, c, listPath, ListOptions{}) {
		if err != nil {
			return nil, err
		}
		at := createdAt(obj)
		if at == nil || at.Before(since) || !match(obj) {
			continue
		}
		if newest == nil || at.After(newestAt) {
			newest, newestAt = obj, *at
		}
	}
	return newest, nil
}

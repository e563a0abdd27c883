package buildkite

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Exactly-once creates. A create is not repeatable: when its outcome is unknown (the connection was lost
// after sending, the service answered 5xx, or a 2xx without the object), sending it again could make a
// second object. The helpers here find out what happened before anything is sent again.

// createOrAdopt creates like create, for objects something identifies (a queue's key in its cluster, a
// pipeline's slug, an association's pair). When the create's outcome is unknown (the connection was lost
// after sending, a 5xx, a 2xx without the object), find tells whether it happened: an object found is adopted,
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
	send := func(ctx context.Context) (*T, error) { return create[T](ctx, c, path, in) }
	return createOrReplaceWith(ctx, c, path, send, find, del)
}

// createOrReplaceWith is createOrReplace for a create that is not a REST POST (a GraphQL mutation): send
// makes one attempt at it, and what names it in the log.
func createOrReplaceWith[T any](ctx context.Context, c *Client, what string, send func(ctx context.Context) (*T, error),
	find func(ctx context.Context, since time.Time) (*T, error), del func(ctx context.Context, obj *T) error) (*T, error) {
	ctx, cancel := c.callContext(ctx)
	defer cancel()
	since := time.Now().Add(-createdSinceSlack)
	for tries := 0; ; tries++ {
		out, err := send(ctx)
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
			c.debug(ctx, "deleted the object a create with a lost answer made", map[string]any{"path": what})
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

// findListed returns the first member of the listing at listPath that match selects, or a 404 *Error
// worded like the service's ("No <what> found") when none does: for objects the service cannot address
// by the key the caller has.
func findListed[T any](ctx context.Context, c *Client, listPath, what string, match func(*T) bool) (*T, error) {
	found, err := findListedOrNil(ctx, c, listPath, match)
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, &Error{StatusCode: http.StatusNotFound, Method: http.MethodGet, Path: listPath, Message: "No " + what + " found"}
	}
	return found, nil
}

// findListedOrNil is findListed answering (nil, nil) when nothing matches, as createOrAdopt's find does.
func findListedOrNil[T any](ctx context.Context, c *Client, listPath string, match func(*T) bool) (*T, error) {
	all, err := listAll[T](ctx, c, listPath, nil)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if match(&all[i]) {
			return &all[i], nil
		}
	}
	return nil, nil
}

// absentAsNil turns a 404 into (nil, nil), the answer a createOrAdopt find gives for "not there".
func absentAsNil[T any](v *T, err error) (*T, error) {
	if IsNotFound(err) {
		return nil, nil
	}
	return v, err
}

// pause waits before retry number tries (0 for the first) of something that is not a single call, such as
// a create repeated after an unknown outcome, and tells when MaxRetries or the deadline forbid it.
func (c *Client) pause(ctx context.Context, tries int) error {
	if c.maxRetries < 0 || (c.maxRetries > 0 && tries >= c.maxRetries) {
		return errors.New("retries used up")
	}
	return sleep(ctx, exponential(c.retryWaitMin, c.retryWaitMax, tries))
}

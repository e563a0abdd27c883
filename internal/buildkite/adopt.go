package buildkite

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// Exactly-once creates. A create is not repeatable: when its outcome is unknown (the connection was lost
// after sending, the service answered 5xx, or a 2xx without the object), sending it again could make a
// second object, and taking an object that matches it for what it made could take someone else's. The
// helpers here find out what happened before anything is sent again, by one rule: an object is what a
// create made only if it did not exist before that create was sent, no other create of this Client
// returned it, and it is the only such object that matches what was sent.
//
// What existed is a listing made for the create, just before it is sent (never a kept listing: one kept
// from earlier lacks what this run has made since). After an unknown outcome, the objects that match are
// listed again; those that were not there before, less those that other creates of this Client returned
// or adopted, are the candidates:
//   - none: the create did not act, and it is sent once more;
//   - one: it is what the create made, adopted (or, where only the create answer carries its secret,
//     deleted and created once more);
//   - more: nothing is adopted, deleted or revoked, and the create fails with an *AmbiguousCreateError
//     naming them.
//
// Creates of one collection sent at once by this Client are told apart: the listing after an unknown
// outcome waits until every create of the same collection in flight has its answer (each object returned
// is then left out), and keeps new ones from being sent until it is done.

// lostCreate says how a create finds what it may have made.
type lostCreate[T any] struct {
	// matching lists afresh (never from readItem's kept listings) every object the create could have
	// made: those that match what it sends. For an object named by a key (a slug, a name, a pair), that is
	// the object the key names, if any.
	matching func(ctx context.Context) ([]T, error)
	id       func(*T) string // what tells two objects apart
	describe func(*T) string // names one in errors: `cluster agent token "ci" (ID …)`
	// reused says that id names the same object again once it is deleted and made anew (an association,
	// named by its two sides): what another create returned is then no reason to leave it out, as a replaced
	// association is the same pair; that two resources create one pair the provider refuses apart.
	reused bool
}

// onlyIf is the matching of an object a key names: v, when the lookup found it.
func onlyIf[T any](v *T, err error) ([]T, error) {
	if v == nil || err != nil {
		return nil, err
	}
	return []T{*v}, nil
}

// listMatching lists the collection at listPath afresh and keeps what match accepts.
func listMatching[T any](ctx context.Context, c *Client, listPath string, match func(*T) bool) ([]T, error) {
	var out []T
	for obj, err := range listEach[T](ctx, c, listPath, ListOptions{}) {
		if err != nil {
			return nil, err
		}
		if match(obj) {
			out = append(out, *obj)
		}
	}
	return out, nil
}

// keep is what of all match accepts.
func keep[T any](all []T, err error, match func(*T) bool) ([]T, error) {
	if err != nil {
		return nil, err
	}
	var out []T
	for i := range all {
		if match(&all[i]) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// createLedger is what a Client knows of its own creates: the objects they returned or adopted, and, per
// collection, a lock that creates in flight share and the resolution of an unknown outcome takes alone.
type createLedger struct {
	mu       sync.Mutex
	gates    map[string]*sync.RWMutex
	returned map[string]struct{} // collection + "\x00" + id
}

func (l *createLedger) gate(key string) *sync.RWMutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gates == nil {
		l.gates = map[string]*sync.RWMutex{}
	}
	g := l.gates[key]
	if g == nil {
		g = &sync.RWMutex{}
		l.gates[key] = g
	}
	return g
}

// claim records id as returned by a create of the collection key.
func (l *createLedger) claim(key, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.returned == nil {
		l.returned = map[string]struct{}{}
	}
	l.returned[key+"\x00"+id] = struct{}{}
}

func (l *createLedger) claimed(key, id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.returned[key+"\x00"+id]
	return ok
}

// existing lists what matches before a create is sent: the IDs present. A 404 (the parent is not there)
// is nothing: the create then fails with its own error.
func (lc *lostCreate[T]) existing(ctx context.Context) (map[string]bool, error) {
	all, err := lc.matching(ctx)
	if err != nil && !IsNotFound(err) {
		// The context follows the service's words, which the provider shows first.
		return nil, fmt.Errorf("%w (this was the listing made before the create, to tell what it makes should its "+
			"answer be lost; the create was not sent)", err)
	}
	ids := make(map[string]bool, len(all))
	for i := range all {
		ids[lc.id(&all[i])] = true
	}
	return ids, nil
}

// sendCreate makes one attempt at a create of the collection key, sharing the key's gate with the other
// creates in flight; an object returned is recorded as this Client's, also one returned with an error (a
// GraphQL answer that carries errors beside what the mutation made).
func sendCreate[T any](ctx context.Context, c *Client, key string, lc *lostCreate[T], send func(context.Context) (*T, error)) (*T, error) {
	g := c.creates.gate(key)
	g.RLock()
	defer g.RUnlock()
	out, err := send(ctx)
	if out != nil {
		c.creates.claim(key, lc.id(out))
	}
	return out, err
}

// AmbiguousCreateError is a create whose outcome is unknown, after which more than one object that it
// could have made appeared: which one it made cannot be told, so none was adopted, deleted or revoked.
type AmbiguousCreateError struct {
	Cause      error    // the failure of the create
	Candidates []string // the objects, each named with its ID
}

func (e *AmbiguousCreateError) Error() string {
	return fmt.Sprintf("%v; then %d objects that match it and did not exist before it was sent were found: %s. "+
		"One may be what this create made, the others someone else's made at the same time; which is which "+
		"cannot be told, so none was adopted, deleted or revoked. Find out who made each (its creator and "+
		"creation time): import the one this configuration made into this resource, or delete it, and apply again",
		e.Cause, len(e.Candidates), strings.Join(e.Candidates, "; "))
}

func (e *AmbiguousCreateError) Unwrap() error { return e.Cause }

// ExistedBeforeError is a repeated create refused as a duplicate when nothing new matches it: the object
// that holds its name or key existed before the create was sent, so it is not taken for what the create
// made.
type ExistedBeforeError struct {
	Cause    error  // the repeated create's refusal
	Existing string // the object that existed, named with its ID
}

func (e *ExistedBeforeError) Error() string {
	return fmt.Sprintf("%v; %s existed before this create was sent, so it is not taken for what the create made", e.Cause, e.Existing)
}

func (e *ExistedBeforeError) Unwrap() error { return e.Cause }

// resolve finds, after a create of the collection key whose outcome is unknown, what it made: the one
// candidate (claimed, so that no other create takes it), or nil when there is none. It also returns the
// IDs now present, which are what exists before the create is sent once more, and one object that existed
// before and matches, if any. It waits for the creates of key in flight, and holds new ones back.
func resolve[T any](ctx context.Context, c *Client, key string, lc *lostCreate[T], before map[string]bool, cause error) (found *T, now map[string]bool, older *T, err error) {
	g := c.creates.gate(key)
	g.Lock()
	defer g.Unlock()
	all, err := lc.matching(ctx)
	if err != nil && !IsNotFound(err) {
		return nil, nil, nil, err
	}
	now = make(map[string]bool, len(all))
	var candidates []*T
	for i := range all {
		obj := &all[i]
		id := lc.id(obj)
		now[id] = true
		switch {
		case before[id]:
			if older == nil {
				older = obj
			}
		case !lc.reused && c.creates.claimed(key, id):
		default:
			candidates = append(candidates, obj)
		}
	}
	switch len(candidates) {
	case 0:
		return nil, now, older, nil
	case 1:
		c.creates.claim(key, lc.id(candidates[0]))
		return candidates[0], now, older, nil
	}
	names := make([]string, len(candidates))
	for i, obj := range candidates {
		names[i] = lc.describe(obj)
	}
	return nil, now, older, &AmbiguousCreateError{Cause: cause, Candidates: names}
}

// createOrAdopt creates like create, and after an unknown outcome adopts what the create made, by the rule
// above; lc.matching lists what it could have made. A repeated create refused as a duplicate adopts the one
// new object that matches, which the first create made after all (a listing that lagged); when an object
// that existed before holds the name, the refusal stands as an *ExistedBeforeError naming it. The whole
// exchange shares one deadline (the context's, else CallTimeout); MaxRetries, when positive, caps the
// repeated creates.
func createOrAdopt[T any](ctx context.Context, c *Client, path string, in any, lc lostCreate[T]) (*T, error) {
	send := func(ctx context.Context) (*T, error) { return create[T](ctx, c, path, in) }
	return createOrAdoptWith(ctx, c, path, send, lc)
}

// createOrAdoptWith is createOrAdopt for a create that is not a REST POST (a GraphQL mutation): send makes
// one attempt, and path names the collection (the ledger's key, and the log's).
func createOrAdoptWith[T any](ctx context.Context, c *Client, path string, send func(ctx context.Context) (*T, error), lc lostCreate[T]) (*T, error) {
	ctx, cancel := c.callContext(ctx)
	defer cancel()
	before, err := lc.existing(ctx)
	if err != nil {
		return nil, err
	}
	for tries := 0; ; tries++ {
		out, err := sendCreate(ctx, c, path, &lc, send)
		if err == nil {
			return out, nil
		}
		duplicate := tries > 0 && (IsValidation(err) || StatusCode(err) == http.StatusConflict)
		if ctx.Err() != nil || !duplicate && !isUnknownOutcome(err) {
			return out, err
		}
		found, now, older, ferr := resolve(ctx, c, path, &lc, before, err)
		var ambiguous *AmbiguousCreateError
		switch {
		case errors.As(ferr, &ambiguous):
			return nil, ferr
		case ferr != nil && duplicate:
			return out, err
		case ferr != nil:
			return nil, fmt.Errorf("%w; then finding out whether it was created: %w", err, ferr)
		case found != nil:
			c.debug(ctx, "adopted the one object that a create with a lost answer made", map[string]any{"path": path, "repeated": duplicate})
			return found, nil
		case duplicate && older != nil:
			// A repeated create refused as a duplicate ("has already been taken", "already a member"), and
			// what holds the name was there before the first was sent: not ours.
			return out, &ExistedBeforeError{Cause: err, Existing: lc.describe(older)}
		case duplicate:
			return out, err
		}
		before = now
		if perr := c.pause(ctx, tries); perr != nil {
			return nil, fmt.Errorf("%w; it was not created, and cannot be sent again: %w", err, perr)
		}
	}
}

// SecretLostError is the answer to a create whose secret only the create answer carries (a portal's
// token, an agent or registry token, a suite's API token) when that answer was lost twice: the object the
// first create made was deleted and the create sent once more, and the answer to that one was lost too.
// The create returns what that second create made along with this error, so that the caller records it
// (Terraform keeps it tainted and replaces it on the next apply) rather than losing track of it.
type SecretLostError struct {
	Cause     error // the failure of the last create
	Recreated bool  // the first object was deleted and the create sent once more
}

func (e *SecretLostError) Error() string {
	if e.Recreated {
		return fmt.Sprintf("the object was created, but the answer that alone carries its secret was lost twice "+
			"(the object the first create made was deleted and the create sent once more): %v", e.Cause)
	}
	return fmt.Sprintf("the object was created, but the answer that alone carries its secret was lost: %v", e.Cause)
}

func (e *SecretLostError) Unwrap() error { return e.Cause }

// createForSecret creates an object whose secret only the create answer carries: createForSecretWith for a
// REST POST of in to path.
func createForSecret[T any](ctx context.Context, c *Client, path string, in any, lc lostCreate[T],
	del func(ctx context.Context, obj *T) error, hasSecret func(*T) bool) (*T, error) {
	send := func(ctx context.Context) (*T, error) { return create[T](ctx, c, path, in) }
	return createForSecretWith(ctx, c, path, send, lc, del, hasSecret)
}

// createForSecretWith creates an object whose secret only the create answer carries; send makes one
// attempt at the create (a REST POST or a GraphQL mutation), and what names its collection (the ledger's
// key, and the log's). After an unknown outcome (the answer lost, a 5xx, a 2xx without the object, or,
// where hasSecret says so, without the secret), the rule above tells what the create made. With no
// candidate the create is sent again, as createOrAdopt does; with more than one it fails with an
// *AmbiguousCreateError and nothing is deleted. The one candidate, proven to be what this create made, has
// no secret anyone knows: it is deleted (del) and the create sent once more, exactly once, to obtain one.
// When that answer is lost as well (or del is nil), what it made is returned with a *SecretLostError. The
// whole exchange shares one deadline (the context's, else CallTimeout).
func createForSecretWith[T any](ctx context.Context, c *Client, what string, send func(ctx context.Context) (*T, error),
	lc lostCreate[T], del func(ctx context.Context, obj *T) error, hasSecret func(*T) bool) (*T, error) {
	ctx, cancel := c.callContext(ctx)
	defer cancel()
	before, err := lc.existing(ctx)
	if err != nil {
		return nil, err
	}
	attempt := send
	if hasSecret != nil {
		// An answer without the secret is not this create's object to keep: its outcome is unknown.
		attempt = func(ctx context.Context) (*T, error) {
			out, err := send(ctx)
			if err == nil && !hasSecret(out) {
				return nil, &unknownOutcomeError{err: errors.New("the create answer held the object without its secret")}
			}
			return out, err
		}
	}
	recreated := false
	for tries := 0; ; tries++ {
		out, err := sendCreate(ctx, c, what, &lc, attempt)
		if err == nil || !isUnknownOutcome(err) || ctx.Err() != nil {
			return out, err
		}
		found, now, _, ferr := resolve(ctx, c, what, &lc, before, err)
		var ambiguous *AmbiguousCreateError
		switch {
		case errors.As(ferr, &ambiguous):
			return nil, ferr
		case ferr != nil:
			return nil, fmt.Errorf("%w; then finding what it may have created: %w", err, ferr)
		case found != nil && (recreated || del == nil):
			c.debug(ctx, "a create's answer was lost: its object is returned without its secret", map[string]any{"path": what})
			return found, &SecretLostError{Cause: err, Recreated: recreated}
		case found != nil:
			if derr := del(ctx, found); derr != nil && !IsNotFound(derr) {
				return nil, fmt.Errorf("%w; then deleting %s, which it created and whose secret was lost: %w", err, lc.describe(found), derr)
			}
			c.debug(ctx, "deleted the object a create with a lost answer made, to create it once more for its secret", map[string]any{"path": what})
			recreated = true
			delete(now, lc.id(found))
			before = now
			continue
		}
		before = now
		if perr := c.pause(ctx, tries); perr != nil {
			return nil, fmt.Errorf("%w; it was not created, and cannot be sent again: %w", err, perr)
		}
	}
}

// createOrReplace is createForSecret for tokens, whose answer always carries the secret.
func createOrReplace[T any](ctx context.Context, c *Client, path string, in any, lc lostCreate[T],
	del func(ctx context.Context, obj *T) error) (*T, error) {
	return createForSecret(ctx, c, path, in, lc, del, nil)
}

// createOrReplaceWith is createOrReplace for a create that is not a REST POST (a GraphQL mutation).
func createOrReplaceWith[T any](ctx context.Context, c *Client, what string, send func(ctx context.Context) (*T, error),
	lc lostCreate[T], del func(ctx context.Context, obj *T) error) (*T, error) {
	return createForSecretWith(ctx, c, what, send, lc, del, nil)
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

// findListedOrNil is findListed answering (nil, nil) when nothing matches.
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

// absentAsNil turns a 404 into (nil, nil): "not there".
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

// pairCreate is the lostCreate of an association its two sides name, read at item (the pair itself, not a
// listing that Get may keep): at most one exists, and what names it in errors.
func pairCreate[T any](c *Client, item, what string) lostCreate[T] {
	return lostCreate[T]{
		matching: func(ctx context.Context) ([]T, error) { return onlyIf(absentAsNil(get[T](ctx, c, item, nil))) },
		id:       func(*T) string { return item },
		describe: func(*T) string { return what },
		reused:   true,
	}
}

package buildkite

import (
	"context"
	"errors"
	"sync"
)

// First contact. A call that cannot connect is retried until its deadline, so that a service restarting
// under a running plan is waited for. Before the service has answered anything, though, a failure to
// connect most likely means a wrong address or a service that is not running, and waiting minutes to say
// so helps no one: calls marked with FirstContact fail at once instead, while the client has had no
// answer. Unknown hosts and TLS failures fail at once in any case.

type firstContactKey struct{}

// FirstContact marks the calls made with the returned context as a first contact with the service: while
// the client has had no answer from it, a failure to connect (connection refused, no route, an unknown
// host, a TLS failure) ends the call at once instead of being retried. Once the service has answered,
// such calls retry like any other.
func FirstContact(ctx context.Context) context.Context {
	return context.WithValue(ctx, firstContactKey{}, true)
}

// firstContact reports whether a call made with ctx should not retry a failure to connect.
func (c *Client) firstContact(ctx context.Context) bool {
	marked, _ := ctx.Value(firstContactKey{}).(bool)
	return marked && !c.answered.Load()
}

// IsUnreachable reports whether err says the service could not be reached at all: no connection could be
// made (refused, no route, an unknown host) or TLS failed, so no request reached it.
func IsUnreachable(err error) bool {
	var redirect *redirectError
	if err == nil || errors.As(err, &redirect) {
		return false
	}
	return neverConnected(err) || isPermanent(err)
}

// The first-contact check. Config.Contact, where set, is what the client's user checks of the service
// before anything else (the provider: that the token works and the organization answers). It runs once:
// when the client's user calls Contact (the provider does while Terraform configures it, so that a wrong
// address, token or organization is one error before anything is planned), or else just before the
// client's first request; never when the client is built. Concurrent first requests wait for the one
// check. Its success is kept; a failure marked with FinalContact is kept too and returned by every later
// call; any other failure is returned and the check runs again next time.
// Calls made by the check itself (their context carries the check's mark) pass, as do agent API calls.

type contactCheckKey struct{}

// finalContactError is a failed check that is not asked again.
type finalContactError struct{ err error }

func (e *finalContactError) Error() string { return e.err.Error() }
func (e *finalContactError) Unwrap() error { return e.err }

// FinalContact marks a failure of the first-contact check as one that asking again cannot change (an
// unreachable address, a refused token, an unknown organization): the client returns it for every call.
func FinalContact(err error) error {
	if err == nil {
		return nil
	}
	return &finalContactError{err: err}
}

// contactState is the outcome of the first-contact check, guarded by mu.
type contactState struct {
	mu    sync.Mutex
	check func(ctx context.Context) error
	ok    bool
	err   error // a final failure
}

// Contact runs the first-contact check unless it has run (and succeeded, or failed for good), and returns
// its outcome. Without Config.Contact it does nothing.
func (c *Client) Contact(ctx context.Context) error {
	s := &c.contact
	if s.check == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.ok:
		return nil
	case s.err != nil:
		return s.err
	}
	err := s.check(context.WithValue(FirstContact(ctx), contactCheckKey{}, true))
	var final *finalContactError
	switch {
	case err == nil:
		s.ok = true
	case errors.As(err, &final):
		s.err = err
	}
	return err
}

// contacted runs the check before a call, unless the call is the check's own or the agent API's.
func (c *Client) contacted(ctx context.Context, r call) error {
	if c.contact.check == nil || r.agentToken != "" {
		return nil
	}
	if own, _ := ctx.Value(contactCheckKey{}).(bool); own {
		return nil
	}
	return c.Contact(ctx)
}

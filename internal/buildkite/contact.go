package buildkite

import (
	"context"
	"errors"
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

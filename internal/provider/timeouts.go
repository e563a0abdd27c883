package provider

import (
	"context"
	"time"
)

// operation is one of the four things Terraform asks of a resource; each has its own timeout.
type operation int

const (
	opCreate operation = iota
	opRead
	opUpdate
	opDelete
)

// defaultTimeout bounds each operation unless the provider block's timeouts say otherwise, so a service
// that never answers cannot hang a plan.
const defaultTimeout = 3 * time.Minute

// operationTimeouts holds the provider block's timeouts, indexed by operation.
type operationTimeouts [4]time.Duration

func (t operationTimeouts) of(op operation) time.Duration {
	if d := t[op]; d > 0 {
		return d
	}
	return defaultTimeout
}

// operationContext bounds an operation by its timeout (the default where the provider is not configured,
// data nil).
func operationContext(ctx context.Context, data *providerData, op operation) (context.Context, context.CancelFunc) {
	if data == nil {
		return context.WithTimeout(ctx, defaultTimeout)
	}
	return context.WithTimeout(ctx, data.timeouts.of(op))
}

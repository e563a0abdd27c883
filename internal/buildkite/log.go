package buildkite

import "context"

// Logger receives the client's diagnostics. Its methods have the shape of tflog.Debug and tflog.Trace, so the
// provider passes them through with the context of the Terraform operation.
type Logger interface {
	// Debug logs one line per attempt: method, path, status, attempt, duration and what the rate-limit
	// window has left.
	Debug(ctx context.Context, msg string, fields map[string]any)
	// Trace logs request and response bodies, with secrets masked.
	Trace(ctx context.Context, msg string, fields map[string]any)
}

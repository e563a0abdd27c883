package buildkite

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Logger receives the client's diagnostics, with the context of the call that logs, so that a caller can
// pass them on with whatever its context carries (the provider writes them through tflog).
type Logger interface {
	// Debug logs one line per attempt: method, path, status, attempt, duration and what the rate-limit
	// window has left. Headers, and so the Authorization header, are never logged.
	Debug(ctx context.Context, msg string, fields map[string]any)
	// Trace logs request and response bodies, with secret fields masked.
	Trace(ctx context.Context, msg string, fields map[string]any)
}

// masked replaces the value of every secret field.
const masked = "***"

// logAttempt logs one attempt at DEBUG and its response body at TRACE.
func (c *Client) logAttempt(ctx context.Context, method, path string, attempt int32, took time.Duration, res attemptResult) {
	if c.log == nil {
		return
	}
	fields := map[string]any{
		"method":      method,
		"path":        path,
		"attempt":     attempt,
		"duration_ms": took.Milliseconds(),
	}
	if res.err != nil {
		fields["error"] = res.err.Error()
	}
	if res.status != 0 {
		fields["status"] = res.status
	}
	if v := res.header.Get(headerRateLimitRemaining); v != "" {
		fields["ratelimit_remaining"] = v
	}
	c.log.Debug(ctx, "buildkite API request", fields)
	if len(res.data) > 0 {
		c.log.Trace(ctx, "buildkite API response body", map[string]any{
			"method": method, "path": path, "attempt": attempt, "status": res.status, "body": maskBody(res.data),
		})
	}
}

// logRequestBody logs a call's request body at TRACE, once per call.
func (c *Client) logRequestBody(ctx context.Context, method, path string, body []byte) {
	if c.log == nil || len(body) == 0 {
		return
	}
	c.log.Trace(ctx, "buildkite API request body", map[string]any{"method": method, "path": path, "body": maskBody(body)})
}

// maskBody renders a JSON body with every secret field's value replaced. A body that is not JSON (an HTML
// page from a proxy) is shortened like an error message; it is not the service's, so holds none of its
// secrets.
func maskBody(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return snippet(data)
	}
	out, err := json.Marshal(maskSecrets(v))
	if err != nil {
		return snippet(data)
	}
	return string(out)
}

// maskSecrets replaces, at any depth, the values of the fields isSecretField names.
func maskSecrets(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if isSecretField(k) && val != nil {
				t[k] = masked
				continue
			}
			t[k] = maskSecrets(val)
		}
	case []any:
		for i := range t {
			t[i] = maskSecrets(t[i])
		}
	}
	return v
}

// isSecretField reports JSON keys whose values are secrets: token, api_token and any *_token or *secret.
func isSecretField(key string) bool {
	k := strings.ToLower(key)
	return k == "token" || strings.HasSuffix(k, "_token") || strings.HasSuffix(k, "secret") || k == "password"
}

// debug logs one line at DEBUG when a Logger is set.
func (c *Client) debug(ctx context.Context, msg string, fields map[string]any) {
	if c.log != nil {
		c.log.Debug(ctx, msg, fields)
	}
}

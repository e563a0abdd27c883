package buildkite

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
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
			"method": method, "path": path, "attempt": attempt, "status": res.status, "body": maskBody(res.data, c.secrets(), secretFieldsIn(ctx)...),
		})
	}
}

// logRequestBody logs a call's request body at TRACE, once per call.
func (c *Client) logRequestBody(ctx context.Context, method, path string, body []byte) {
	if c.log == nil || len(body) == 0 {
		return
	}
	c.log.Trace(ctx, "buildkite API request body", map[string]any{"method": method, "path": path, "body": maskBody(body, c.secrets(), secretFieldsIn(ctx)...)})
}

// maskBody renders a JSON body with every secret field's value replaced, those isSecretField knows and
// the extra ones named, then masks what maskText finds (token forms, and token, the configured API token)
// in what is left. A body that is not JSON (an HTML page from a proxy, which may echo the request's
// headers) is masked by maskText and shortened like an error message.
func maskBody(data []byte, secrets []string, extra ...string) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return snippet([]byte(maskLoose(maskText(string(data), secrets...))))
	}
	out, err := json.Marshal(maskSecrets(v, extra))
	if err != nil {
		return snippet([]byte(maskLoose(maskText(string(data), secrets...))))
	}
	return maskText(string(out), secrets...)
}

// masker holds the values a client never shows: those its caller registered with MaskValues (the
// provider's sensitive and write-only attributes), in their plain and JSON-escaped forms.
type masker struct {
	mu     sync.RWMutex
	values []string
	seen   map[string]bool
}

// MaskValues registers secrets the client must never show in a log line or an error, wherever they occur
// in a body: the provider registers every value its schemas mark sensitive or write-only before the calls
// that send them, so that no hand-kept list of field names decides what is masked. Values shorter than
// four characters are not masked (they would mask ordinary words).
func (c *Client) MaskValues(values ...string) {
	c.masks.mu.Lock()
	defer c.masks.mu.Unlock()
	if c.masks.seen == nil {
		c.masks.seen = map[string]bool{}
	}
	for _, v := range values {
		forms := []string{v}
		if enc, err := json.Marshal(v); err == nil && len(enc) >= 2 && string(enc[1:len(enc)-1]) != v {
			forms = append(forms, string(enc[1:len(enc)-1])) // as it appears inside a JSON body
		}
		for _, f := range forms {
			if len(f) >= 4 && !c.masks.seen[f] {
				c.masks.seen[f] = true
				c.masks.values = append(c.masks.values, f)
			}
		}
	}
	// Longest first: a secret that contains another is masked whole.
	slices.SortFunc(c.masks.values, func(a, b string) int { return len(b) - len(a) })
}

// secrets returns the configured API token and every value registered with MaskValues.
func (c *Client) secrets() []string {
	c.masks.mu.RLock()
	defer c.masks.mu.RUnlock()
	return append([]string{c.token}, c.masks.values...)
}

// maskSecrets replaces, at any depth, the values of the fields isSecretField or extra name.
func maskSecrets(v any, extra []string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if (isSecretField(k) || slices.Contains(extra, k)) && val != nil {
				t[k] = masked
				continue
			}
			t[k] = maskSecrets(val, extra)
		}
	case []any:
		for i := range t {
			t[i] = maskSecrets(t[i], extra)
		}
	}
	return v
}

// isSecretField reports JSON keys whose values are secrets: token, api_token and any *_token or *secret, and
// GraphQL's tokenValue (an agent token's secret in agentTokenCreate's answer).
func isSecretField(key string) bool {
	k := strings.ToLower(key)
	return k == "token" || k == "tokenvalue" || strings.HasSuffix(k, "_token") || strings.HasSuffix(k, "secret") || k == "password"
}

// secretFieldsKey is the context key of withSecretFields.
type secretFieldsKey struct{}

// withSecretFields marks the calls made with ctx as carrying a secret in the body properties named, beyond
// those isSecretField knows: a cluster secret's "value", which elsewhere (a rule's value) is no secret.
func withSecretFields(ctx context.Context, fields ...string) context.Context {
	return context.WithValue(ctx, secretFieldsKey{}, append(secretFieldsIn(ctx), fields...))
}

// secretFieldsIn returns the extra secret properties of the calls made with ctx.
func secretFieldsIn(ctx context.Context) []string {
	fields, _ := ctx.Value(secretFieldsKey{}).([]string)
	return slices.Clip(fields)
}

// debug logs one line at DEBUG when a Logger is set.
func (c *Client) debug(ctx context.Context, msg string, fields map[string]any) {
	if c.log != nil {
		c.log.Debug(ctx, msg, fields)
	}
}

package buildkite

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// perPage is the service's maximum page size; fewer pages means fewer
// requests counted against the rate limit.
const perPage = "100"

// maxPages stops a server that keeps inventing new next links. A variable
// only so a test can lower it.
var maxPages = 1000

// listAll fetches every page of a paginated list endpoint by following the
// Link header's rel="next" until there is none. path is already escaped.
func listAll[T any](ctx context.Context, c *Client, path string, query url.Values) ([]T, error) {
	q := url.Values{}
	for k, v := range query {
		q[k] = append([]string(nil), v...)
	}
	if q.Get("per_page") == "" {
		q.Set("per_page", perPage)
	}
	next, err := endpoint(c.baseURL, path, q)
	if err != nil {
		return nil, err
	}

	all := []T{}
	seen := map[string]bool{}
	for page := 0; next != nil; page++ {
		// A next link we already followed means the server is looping; what
		// we have is all it will give us.
		key := next.String()
		if seen[key] {
			break
		}
		seen[key] = true
		if page == maxPages {
			// Unlike a loop, there may be more data here: fail rather than
			// hand Terraform a silently truncated list.
			return nil, fmt.Errorf("GET %s: more than %d pages", path, maxPages)
		}

		var items []T
		h, err := c.do(ctx, call{method: http.MethodGet, out: &items, repeatable: true}, next)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)

		next, err = c.nextPage(next, h)
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}

// nextPage resolves the rel="next" link of a response, or returns nil on the
// last page. Links to another origin are not followed, so the token is never
// sent elsewhere; their path and query are applied to the base URL instead.
func (c *Client) nextPage(cur *url.URL, h http.Header) (*url.URL, error) {
	raw := linkNext(h.Values("Link"))
	if raw == "" {
		return nil, nil
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("GET %s: invalid next page link %q: %w", cur.EscapedPath(), raw, err)
	}
	next := cur.ResolveReference(ref)
	if !sameOrigin(next, c.baseURL) {
		rebased := *c.baseURL
		rebased.Path = next.Path
		rebased.RawPath = next.RawPath
		rebased.RawQuery = next.RawQuery
		next = &rebased
	}
	next.Fragment = ""
	next.RawFragment = ""
	q := next.Query()
	if q.Get("per_page") == "" {
		q.Set("per_page", perPage)
		next.RawQuery = q.Encode()
	}
	return next, nil
}

// sameOrigin compares scheme, host and port, treating default ports as equal.
func sameOrigin(a, b *url.URL) bool {
	if !strings.EqualFold(a.Scheme, b.Scheme) {
		return false
	}
	return strings.EqualFold(hostPort(a), hostPort(b))
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// linkNext returns the target of the first rel="next" link in the given Link
// header values, or "".
func linkNext(values []string) string {
	for _, v := range values {
		for _, l := range parseLinkHeader(v) {
			for _, rel := range l.rels {
				if rel == "next" {
					return l.target
				}
			}
		}
	}
	return ""
}

// link is one entry of a Link header (RFC 8288).
type link struct {
	target string
	rels   []string // lower-cased; rel may hold several space-separated types
}

// parseLinkHeader parses `<url>; rel="next", <url>; rel="last"`. It scans
// rather than splitting on commas because URLs and quoted values may contain
// them, and it skips malformed entries instead of failing.
func parseLinkHeader(s string) []link {
	var out []link
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			return out
		}
		if s[0] != '<' {
			s = skipEntry(s)
			continue
		}
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return out
		}
		l := link{target: strings.TrimSpace(s[1:end])}
		s = s[end+1:]
		for {
			s = strings.TrimLeft(s, " \t")
			if s == "" || s[0] == ',' {
				break
			}
			if s[0] != ';' {
				s = skipEntry(s)
				break
			}
			var key, val string
			key, val, s = parseLinkParam(s[1:])
			if key == "rel" {
				l.rels = append(l.rels, strings.Fields(strings.ToLower(val))...)
			}
		}
		out = append(out, l)
	}
}

// parseLinkParam parses `key=value` or `key="quoted value"` and returns the
// unparsed rest, which starts at the next ';' or ',' (or is empty).
func parseLinkParam(s string) (key, val, rest string) {
	s = strings.TrimLeft(s, " \t")
	i := strings.IndexAny(s, "=;,")
	if i < 0 {
		return strings.ToLower(strings.TrimSpace(s)), "", ""
	}
	key = strings.ToLower(strings.TrimSpace(s[:i]))
	s = s[i:]
	if s[0] != '=' {
		return key, "", s
	}
	s = strings.TrimLeft(s[1:], " \t")
	if strings.HasPrefix(s, `"`) {
		var b strings.Builder
		j := 1
		for ; j < len(s) && s[j] != '"'; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
			b.WriteByte(s[j])
		}
		if j < len(s) {
			j++ // closing quote
		}
		return key, b.String(), s[j:]
	}
	i = strings.IndexAny(s, ";,")
	if i < 0 {
		return key, strings.TrimSpace(s), ""
	}
	return key, strings.TrimSpace(s[:i]), s[i:]
}

// skipEntry drops the rest of a malformed entry, up to the next comma outside
// quotes.
func skipEntry(s string) string {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ',' && !quoted:
			return s[i+1:]
		}
	}
	return ""
}

package buildkite

import (
	"context"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// perPage is the service's maximum page size; fewer pages means fewer
// requests counted against the rate limit.
const perPage = 100

// maxPages stops a server that keeps inventing new next links. A variable
// only so a test can lower it.
var maxPages = 1000

// ListOptions narrows a listing. A service's typed filters (a build's branch, a pipeline's name) become
// Query; Limit stops the listing after that many items, fetching no page beyond them.
type ListOptions struct {
	// Query holds the endpoint's filters; page and per_page are set by the client unless given.
	Query url.Values
	// Limit is the most items to return; 0 returns all. A limit under 100 is also the page size.
	Limit int
}

// firstPage is the URL of a listing's first page: the query plus per_page (100, or a smaller limit).
func (c *Client) firstPage(path string, opts ListOptions) (*url.URL, error) {
	q := url.Values{}
	for k, v := range opts.Query {
		q[k] = append([]string(nil), v...)
	}
	if q.Get("per_page") == "" {
		n := perPage
		if opts.Limit > 0 && opts.Limit < n {
			n = opts.Limit
		}
		q.Set("per_page", strconv.Itoa(n))
	}
	return endpoint(c.baseURL, path, q)
}

// listEach yields the items of a paginated listing one by one, fetching each page (Link rel="next") only
// when the previous one is used up, so a caller that stops early — or reaches opts.Limit — fetches no
// further page. An error is yielded once, with a nil item, and ends the sequence.
func listEach[T any](ctx context.Context, c *Client, path string, opts ListOptions) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		first, err := c.firstPage(path, opts)
		if err != nil {
			yield(nil, err)
			return
		}
		n := 0
		err = walkPages(ctx, c, path, first, func(items []T, _ int, _ *url.URL) bool {
			for i := range items {
				if !yield(&items[i], nil) {
					return false
				}
				if n++; opts.Limit > 0 && n >= opts.Limit {
					return false
				}
			}
			return true
		})
		if err != nil {
			yield(nil, err)
		}
	}
}

// listAll fetches every page of a paginated list endpoint by following the
// Link header's rel="next" until there is none. path is already escaped.
func listAll[T any](ctx context.Context, c *Client, path string, query url.Values) ([]T, error) {
	all := []T{}
	for item, err := range listEach[T](ctx, c, path, ListOptions{Query: query}) {
		if err != nil {
			return nil, err
		}
		all = append(all, *item)
	}
	return all, nil
}

// walkPages fetches the pages of a listing from the page at u on, decoding each into a fresh []E and
// handing it to fn with the number of pages the listing has (Link rel="last"; 0 when not said) and the
// next page's URL (nil on the last). fn returns false to stop before the next page.
func walkPages[E any](ctx context.Context, c *Client, path string, u *url.URL, fn func(items []E, pages int, next *url.URL) bool) error {
	seen := map[string]bool{}
	for page := 0; u != nil; page++ {
		// A next link we already followed means the server is looping; what
		// we have is all it will give us.
		key := u.String()
		if seen[key] {
			return nil
		}
		seen[key] = true
		if page == maxPages {
			// Unlike a loop, there may be more data here: fail rather than
			// hand Terraform a silently truncated list.
			return fmt.Errorf("GET %s: more than %d pages", path, maxPages)
		}

		var items []E
		h, err := c.do(ctx, call{method: http.MethodGet, out: &items, repeatable: true, holds: holdsList}, u)
		if err != nil {
			return err
		}
		next, err := c.nextPage(u, h)
		if err != nil {
			return err
		}
		if !fn(items, lastPage(h), next) {
			return nil
		}
		u = next
	}
	return nil
}

// nextPage resolves the rel="next" link of a response, or returns nil on the
// last page. Links to another origin are not followed, so the token is never
// sent elsewhere; their path and query are applied to the base URL instead.
func (c *Client) nextPage(cur *url.URL, h http.Header) (*url.URL, error) {
	raw := linkRel(h.Values("Link"), "next")
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
	// Keep the page size we asked for when the link leaves it out.
	q := next.Query()
	if pp := cur.Query().Get("per_page"); q.Get("per_page") == "" && pp != "" {
		q.Set("per_page", pp)
		next.RawQuery = q.Encode()
	}
	return next, nil
}

// lastPage returns the page number of the Link header's rel="last" target, or 0.
func lastPage(h http.Header) int {
	raw := linkRel(h.Values("Link"), "last")
	if raw == "" {
		return 0
	}
	u, err := url.Parse(raw)
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(u.Query().Get("page"))
	if err != nil || n < 1 {
		return 0
	}
	return n
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

// linkRel returns the target of the first link of relation rel in the given Link header values, or "".
func linkRel(values []string, rel string) string {
	for _, v := range values {
		for _, l := range parseLinkHeader(v) {
			for _, r := range l.rels {
				if r == rel {
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

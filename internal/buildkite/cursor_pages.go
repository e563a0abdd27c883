package buildkite

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
)

// cursorPage is one page of a cursor-paged listing: {"items": [...], "links": {"next": "..."}}.
type cursorPage[T any] struct {
	Items *[]T `json:"items"`
	Links struct {
		Next *string `json:"next"`
	} `json:"links"`
}

var _ identified = (*cursorPage[struct{}])(nil)

// identity: a page must hold items (an empty list is fine).
func (p *cursorPage[T]) identity() (string, string) {
	if p.Items == nil {
		return "items", ""
	}
	return "items", "present"
}

// listCursor returns every item of the cursor-paged listing at path (per_page=100), following links.next.
// Only the next link's query (its cursor) is taken: the path stays the listing's, on the client's own
// origin, so the token is never sent elsewhere. A repeated cursor ends the listing.
func listCursor[T any](ctx context.Context, c *Client, path string, query url.Values) ([]T, error) {
	q := url.Values{}
	for k, v := range query {
		q[k] = append([]string(nil), v...)
	}
	q.Set("per_page", strconv.Itoa(perPage))
	all := []T{}
	seen := map[string]bool{}
	for pages := 0; ; pages++ {
		if pages == maxPages {
			return nil, fmt.Errorf("GET %s: more than %d pages", path, maxPages)
		}
		page, err := get[cursorPage[T]](ctx, c, path, q)
		if err != nil {
			return nil, err
		}
		all = append(all, *page.Items...)
		if page.Links.Next == nil || *page.Links.Next == "" || len(*page.Items) == 0 {
			return all, nil
		}
		next, err := url.Parse(*page.Links.Next)
		if err != nil {
			return nil, fmt.Errorf("GET %s: the next link %q: %w", path, *page.Links.Next, err)
		}
		q = next.Query()
		if seen[q.Encode()] {
			return all, nil
		}
		seen[q.Encode()] = true
	}
}

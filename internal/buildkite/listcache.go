package buildkite

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Refresh through lists. A Terraform refresh reads every managed object once; one GET each spends the
// organization's rate limit on what a few listing pages hold. readItem therefore decides, per collection
// and for the life of the Client, between single GETs and the collection's listing, like renting skis
// until renting has cost what buying would:
//
//   - the first read of a collection fetches page 1 of the listing, which costs what a single GET would,
//     answers the reads of what it holds (a refresh reads every managed object of a small collection in
//     that one call) and tells, by Link rel="last", how many pages P the listing has;
//   - then single GETs while fewer than P-1 were made, and once they would cost more than the pages
//     left, those pages, after which every read is answered from the listing.
//
// For R objects read, that is at most 2·min(R, P)+1 calls per collection. An object missing from a
// complete listing is confirmed with a GET before it is reported gone (it may have been created since).
// Writes through send drop what they may have changed: the object under the written path, or the whole
// collection when an ancestor was written (deleting a cluster deletes its queues).

// collections is every collection's listing state, keyed by list path.
type collections struct {
	mu     sync.Mutex
	byPath map[string]*collection
}

// collection is what is known of one collection's listing. All fields are guarded by collections.mu.
type collection struct {
	singles  int       // single GETs made since the collection was last dropped
	pages    int       // pages of the listing as page 1 said (rel="last"); 0 before page 1
	probed   bool      // page 1 was fetched
	complete bool      // every page was fetched
	next     *url.URL  // the first page not yet fetched, when probed and not complete
	listedAt time.Time // when page 1 was fetched
	items    map[string]*listed
	flight   *flight // a listing being fetched, which concurrent readers wait for
	gen      int     // bumped by every write that touches the collection: a listing that began before it is not kept
}

// listed is one object of a listing, kept as JSON so every read decodes its own copy.
type listed struct {
	raw  json.RawMessage
	keys []string
}

// flight is a listing fetch in progress.
type flight struct {
	done chan struct{}
	err  error
}

// lookup returns the collection at listPath, creating it. Called with mu held.
func (cs *collections) lookup(listPath string) *collection {
	if cs.byPath == nil {
		cs.byPath = map[string]*collection{}
	}
	col := cs.byPath[listPath]
	if col == nil {
		col = &collection{items: map[string]*listed{}}
		cs.byPath[listPath] = col
	}
	return col
}

// written drops what a write to path (escaped) may have changed: in a collection the path is under, the
// object it names; a collection under the path, whole. A create (a write to the list path itself) changes
// nothing listed: the new object is missing from the listing, so reading it confirms with a GET.
func (cs *collections) written(path string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for listPath, col := range cs.byPath {
		switch {
		case strings.HasPrefix(path, listPath+"/"):
			seg, _, _ := strings.Cut(path[len(listPath)+1:], "/")
			if key, err := url.PathUnescape(seg); err == nil {
				col.drop(key)
			} else {
				col.reset()
			}
		case strings.HasPrefix(listPath, path+"/"):
			col.reset()
		}
	}
}

// drop forgets the object answering to key.
func (col *collection) drop(key string) {
	col.gen++
	if it := col.items[key]; it != nil {
		for _, k := range it.keys {
			delete(col.items, k)
		}
	}
}

// reset forgets the whole listing and starts the choice between GETs and listing afresh.
func (col *collection) reset() {
	*col = collection{items: map[string]*listed{}, gen: col.gen + 1, flight: col.flight}
}

// store keeps the objects of one page, decoded into T to learn their keys.
func store[T any](col *collection, raws []json.RawMessage, keys func(*T) []string) {
	for _, raw := range raws {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			continue // a GET of it will report the problem
		}
		it := &listed{raw: raw, keys: keys(&v)}
		for _, k := range it.keys {
			if k != "" {
				col.items[k] = it
			}
		}
	}
}

// readItem reads one member of a listable collection: listPath is the collection's listing, itemPath the
// member's own path and key the ID, slug or key the member was asked for; keys returns every key a
// member answers to (a member asked for by a key keys does not return is never found in a listing, and
// costs a GET). With Config.ListReadTTL set, it answers from the collection's listing when that costs
// fewer calls than reading each member (see above); callers only see one object or an *Error with 404.
func readItem[T any](ctx context.Context, c *Client, listPath, itemPath, key string, keys func(*T) []string) (*T, error) {
	if c.listTTL <= 0 {
		return get[T](ctx, c, itemPath, nil)
	}
	cs := &c.lists
	for {
		cs.mu.Lock()
		col := cs.lookup(listPath)
		if col.probed && col.flight == nil && time.Since(col.listedAt) > c.listTTL {
			col.reset() // too old to answer for what others may have changed since
		}
		if it := col.items[key]; it != nil {
			cs.mu.Unlock()
			var out T
			if err := json.Unmarshal(it.raw, &out); err != nil {
				return get[T](ctx, c, itemPath, nil)
			}
			return &out, nil
		}
		if f := col.flight; f != nil {
			cs.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if f.err != nil {
				// The listing failed (perhaps its reader's context ended): this read stands on its own.
				return get[T](ctx, c, itemPath, nil)
			}
			continue
		}
		single := col.complete || // missing from a full listing: confirm before saying it is gone
			(col.probed && col.singles < col.pages-1)
		if single {
			if !col.complete {
				col.singles++
			}
			cs.mu.Unlock()
			return get[T](ctx, c, itemPath, nil)
		}
		f := &flight{done: make(chan struct{})}
		col.flight = f
		gen, from, probed := col.gen, col.next, col.probed
		cs.mu.Unlock()

		f.err = fetchListing(ctx, c, listPath, from, probed, gen, keys)
		cs.mu.Lock()
		if col.flight == f {
			col.flight = nil
		}
		cs.mu.Unlock()
		close(f.done)
		if f.err != nil {
			if ctx.Err() != nil {
				return nil, f.err
			}
			return get[T](ctx, c, itemPath, nil)
		}
	}
}

// fetchListing fetches page 1 of a collection's listing (when not probed) or every page from next on,
// and keeps what it got unless a write touched the collection meanwhile (its gen moved on).
func fetchListing[T any](ctx context.Context, c *Client, listPath string, next *url.URL, probed bool, gen int, keys func(*T) []string) error {
	if !probed {
		first, err := c.firstPage(listPath, ListOptions{})
		if err != nil {
			return err
		}
		next = first
	}
	var pages [][]json.RawMessage
	total, rest := 0, (*url.URL)(nil)
	err := walkPages(ctx, c, listPath, next, func(items []json.RawMessage, p int, n *url.URL) bool {
		pages = append(pages, items)
		if !probed {
			total = p
		}
		rest = n
		return probed // page 1 only, when probing
	})
	if err != nil {
		return err
	}

	cs := &c.lists
	cs.mu.Lock()
	defer cs.mu.Unlock()
	col := cs.lookup(listPath)
	if col.gen != gen {
		return nil // a write changed the collection while we listed: keep nothing, the readers retry
	}
	for _, p := range pages {
		store(col, p, keys)
	}
	if !probed {
		col.probed = true
		col.listedAt = time.Now()
		col.pages = max(total, 1)
		if rest != nil && total == 0 {
			col.pages = 2 // a next page without rel="last": at least two
		}
	}
	col.next = rest
	col.complete = rest == nil
	return nil
}

// noteWrite tells the listings that a call may have changed what they hold.
func (c *Client) noteWrite(r call) {
	if r.method != http.MethodGet && r.method != http.MethodHead && r.agentToken == "" && r.graphQL == "" {
		c.lists.written(r.path)
		if strings.Contains(r.path, "/pipelines") {
			c.looks.drop() // the write may have changed a pipeline's emoji or color (pipeline_looks.go)
		}
	}
}

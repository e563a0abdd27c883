package fakeserver

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

const (
	defaultPerPage = 30
	maxPerPage     = 100
)

// pageParams reads page (default 1) and per_page (default 30, capped at 100). A value that is not a
// positive integer is treated as absent, never as an error, as Rails' to_i-based pagination does.
func pageParams(r *http.Request) (page, perPage int) {
	page = positiveInt(r.URL.Query().Get("page"), 1)
	perPage = min(positiveInt(r.URL.Query().Get("per_page"), defaultPerPage), maxPerPage)
	return page, perPage
}

func positiveInt(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return def
	}
	return n
}

// paginate returns the requested page of items (an empty, non-nil slice past the end) and sets the Link
// header the real service sends: first and prev while not on the first page, next and last while not on
// the last, each an absolute URL carrying page and per_page.
func paginate[T any](w http.ResponseWriter, r *http.Request, items []T) []T {
	page, perPage := pageParams(r)
	lastPage := max(1, (len(items)+perPage-1)/perPage)

	var links []string
	link := func(p int, rel string) {
		links = append(links, "<"+pageURL(r, p, perPage)+`>; rel="`+rel+`"`)
	}
	if page > 1 {
		link(1, "first")
		link(min(page-1, lastPage), "prev")
	}
	if page < lastPage {
		link(page+1, "next")
		link(lastPage, "last")
	}
	h := w.Header()
	if len(links) > 0 {
		h.Set("Link", strings.Join(links, ", "))
	}
	h.Set("Access-Control-Expose-Headers", "Link")

	start := len(items) // past the end; also keeps a huge page number from overflowing
	if page <= lastPage {
		start = (page - 1) * perPage
	}
	end := min(start+perPage, len(items))
	out := make([]T, 0, end-start)
	return append(out, items[start:end]...)
}

// pageURL is the request's absolute URL with page and per_page replaced; other query parameters stay.
func pageURL(r *http.Request, page, perPage int) string {
	q := r.URL.Query()
	q.Set("page", strconv.Itoa(page))
	q.Set("per_page", strconv.Itoa(perPage))
	return baseURL(r) + r.URL.EscapedPath() + "?" + q.Encode()
}

// cursorPageOf returns the page of items a listing's per_page (1..100, default 30), after and before (not
// both; each an item's key) ask for, and whether items follow it.
func cursorPageOf[T any](r *http.Request, items []T, key func(T) string) ([]T, bool, *apiError) {
	q := r.URL.Query()
	perPage := defaultPerPage
	if v := q.Get("per_page"); v != "" {
		n := positiveInt(v, 0)
		if n < 1 || n > maxPerPage {
			return nil, false, errBadRequest("per_page must be between 1 and 100")
		}
		perPage = n
	}
	after, before := q.Get("after"), q.Get("before")
	if after != "" && before != "" {
		return nil, false, errBadRequest("Only one of after and before may be given")
	}
	index := func(k string) int {
		return slices.IndexFunc(items, func(it T) bool { return key(it) == strings.ToLower(k) })
	}
	start, end := 0, len(items)
	switch {
	case after != "":
		i := index(after)
		if i < 0 {
			return nil, false, errBadRequest("Invalid cursor: after")
		}
		start = i + 1
	case before != "":
		i := index(before)
		if i < 0 {
			return nil, false, errBadRequest("Invalid cursor: before")
		}
		end, start = i, max(0, i-perPage)
	}
	stop := min(start+perPage, end)
	return items[start:stop], stop < len(items), nil
}

// cursorLink is the request's absolute URL paged on from an item's key: rel "after" for the next page,
// "before" for the previous one (the other cursor dropped); other query parameters stay.
func cursorLink(r *http.Request, rel, key string) string {
	q := r.URL.Query()
	q.Del("after")
	q.Del("before")
	q.Set(rel, key)
	return baseURL(r) + r.URL.EscapedPath() + "?" + q.Encode()
}

package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// pagedClusters serves clusters c1..c<pages*2>, two per page, linking pages
// with absolute next/last URLs like the service does.
func pagedClusters(pages int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page == 0 {
			page = 1
		}
		base := "http://" + r.Host + r.URL.Path
		var links []string
		if page > 1 {
			links = append(links, fmt.Sprintf(`<%s?page=1&per_page=100>; rel="first"`, base),
				fmt.Sprintf(`<%s?page=%d&per_page=100>; rel="prev"`, base, page-1))
		}
		if page < pages {
			links = append(links, fmt.Sprintf(`<%s?page=%d&per_page=100>; rel="next"`, base, page+1),
				fmt.Sprintf(`<%s?page=%d&per_page=100>; rel="last"`, base, pages))
		}
		if len(links) > 0 {
			w.Header().Set("Link", strings.Join(links, ", "))
		}
		respond(http.StatusOK, fmt.Sprintf(`[{"id":"c%d"},{"id":"c%d"}]`, 2*page-1, 2*page))(w, r)
	}
}

func ids(cs []Cluster) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestListAll_followsLinkThroughThreePages(t *testing.T) {
	s := newStub(t, pagedClusters(3))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"c1", "c2", "c3", "c4", "c5", "c6"}; !reflect.DeepEqual(ids(got), want) {
		t.Errorf("ids = %v, want %v", ids(got), want)
	}
	reqs := s.requests()
	wantQueries := []string{"per_page=100", "page=2&per_page=100", "page=3&per_page=100"}
	if len(reqs) != len(wantQueries) {
		t.Fatalf("%d requests, want %d", len(reqs), len(wantQueries))
	}
	for i, r := range reqs {
		if r.Method != http.MethodGet || r.Path != "/v2/organizations/acme/clusters" || r.Query != wantQueries[i] {
			t.Errorf("request %d = %s %s?%s", i, r.Method, r.Path, r.Query)
		}
		if r.Header.Get("Authorization") != "Bearer test-token" {
			t.Errorf("request %d unauthenticated", i)
		}
	}
}

func TestListAll_emptyListIsNotNil(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Queues.List(context.Background(), "c1")
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("List = %#v, %v; want an empty non-nil slice", got, err)
	}
}

func TestListAll_stopsWhenNextRepeats(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		// Every page, including page 2 itself, claims page 2 comes next.
		w.Header().Set("Link", `</v2/organizations/acme/clusters?page=2&per_page=100>; rel="next"`)
		respond(http.StatusOK, `[{"id":"`+r.URL.Query().Get("page")+`"}]`)(w, r)
	})
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got), []string{"", "2"}) || s.count() != 2 {
		t.Errorf("ids = %q after %d requests, want 2 pages", ids(got), s.count())
	}
}

func TestListAll_capsPages(t *testing.T) {
	old := maxPages
	maxPages = 5
	t.Cleanup(func() { maxPages = old })

	s := newStub(t, pagedClusters(1_000_000))
	c := newTestClient(t, s.srv.URL)
	_, err := c.Clusters.List(context.Background())
	if err == nil || !strings.Contains(err.Error(), "more than 5 pages") {
		t.Errorf("error = %v, want the page cap", err)
	}
	if s.count() != 5 {
		t.Errorf("%d requests, want 5", s.count())
	}
}

func TestListAll_foreignHostLinkStaysOnBaseURL(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `<https://elsewhere.example/v2/organizations/acme/clusters?page=2>; rel="next"`)
		}
		respond(http.StatusOK, `[{"id":"x"}]`)(w, r)
	})
	c := newTestClient(t, s.srv.URL)
	got, err := c.Clusters.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(got) != 2 || len(reqs) != 2 || reqs[1].Path != "/v2/organizations/acme/clusters" || reqs[1].Query != "page=2&per_page=100" {
		t.Errorf("got %d items; requests %+v", len(got), reqs)
	}
}

// forbiddenOnPage2 serves one item on page 1 and a 403 on page 2.
func forbiddenOnPage2(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("page") == "2" {
		respond(http.StatusForbidden, `{"message":"Forbidden"}`)(w, r)
		return
	}
	w.Header().Set("Link", `<?page=2&per_page=100>; rel="next"`)
	respond(http.StatusOK, `[{"id":"x"}]`)(w, r)
}

func TestListAll_errorOnLaterPage(t *testing.T) {
	s := newStub(t, forbiddenOnPage2)
	c := newTestClient(t, s.srv.URL)
	got, err := c.ClusterTokens.List(context.Background(), "c1")
	if !IsForbidden(err) || got != nil {
		t.Errorf("List = %v, %v; want the page 2 error and no partial result", got, err)
	}
}

func TestLinkNext(t *testing.T) {
	cases := []struct {
		name   string
		values []string
		want   string
	}{
		{"none", nil, ""},
		{"empty", []string{""}, ""},
		{"service form", []string{`<https://api.example/v2/organizations/acme/pipelines?page=3&per_page=30>; rel="next", <https://api.example/v2/organizations/acme/pipelines?page=6&per_page=30>; rel="last"`},
			"https://api.example/v2/organizations/acme/pipelines?page=3&per_page=30"},
		{"next not first", []string{`<https://a/x?page=1>; rel="first", <https://a/x?page=1>; rel="prev", <https://a/x?page=3>; rel="next"`}, "https://a/x?page=3"},
		{"last page", []string{`<https://a/x?page=1>; rel="first", <https://a/x?page=5>; rel="prev"`}, ""},
		{"unquoted and spaced", []string{`<https://a/x?page=2> ;rel = next`}, "https://a/x?page=2"},
		{"case and several rels", []string{`<https://a/x?page=2>; REL="Next Last"`}, "https://a/x?page=2"},
		{"comma inside url", []string{`<https://a/x?ids=1,2&page=2>; rel="next"`}, "https://a/x?ids=1,2&page=2"},
		{"other params", []string{`<https://a/x?page=2>; title="a, b; c"; rel="next"`}, "https://a/x?page=2"},
		{"escaped quote", []string{`<https://a/p1>; title="say \"hi\", ok"; rel="prev", <https://a/p2>; rel="next"`}, "https://a/p2"},
		{"separate header values", []string{`<https://a/x?page=1>; rel="prev"`, `<https://a/x?page=3>; rel="next"`}, "https://a/x?page=3"},
		{"malformed entry skipped", []string{`garbage; rel="next", <https://a/x?page=4>; rel="next"`}, "https://a/x?page=4"},
		{"unterminated", []string{`<https://a/x?page=4; rel="next"`}, ""},
		{"relative", []string{`</v2/x?page=2>; rel="next"`}, "/v2/x?page=2"},
		{"nextish rel", []string{`<https://a/x>; rel="next-archive"`}, ""},
	}
	for _, tc := range cases {
		if got := linkRel(tc.values, "next"); got != tc.want {
			t.Errorf("%s: linkRel = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestListEach_stopsEarlyWithoutFetchingMorePages(t *testing.T) {
	s := newStub(t, pagedClusters(5))
	c := newTestClient(t, s.srv.URL)
	var got []string
	for cl, err := range c.Clusters.Each(context.Background(), ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, cl.ID)
		if cl.ID == "c3" {
			break
		}
	}
	if !reflect.DeepEqual(got, []string{"c1", "c2", "c3"}) || s.count() != 2 {
		t.Errorf("got %v after %d requests, want c1..c3 from 2 pages", got, s.count())
	}
}

func TestListEach_limitSetsPageSizeAndStops(t *testing.T) {
	s := newStub(t, pagedClusters(5))
	c := newTestClient(t, s.srv.URL)
	q := url.Values{"name": {"Primary Cluster"}}
	var got []string
	for cl, err := range listEach[Cluster](context.Background(), c, "/v2/organizations/acme/clusters", ListOptions{Query: q, Limit: 3}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, cl.ID)
	}
	reqs := s.requests()
	if !reflect.DeepEqual(got, []string{"c1", "c2", "c3"}) || len(reqs) != 2 {
		t.Fatalf("got %v after %d requests, want 3 items from 2 pages", got, len(reqs))
	}
	if reqs[0].Query != "name=Primary+Cluster&per_page=3" {
		t.Errorf("first query = %q, want the filter and per_page=3", reqs[0].Query)
	}
	if q.Get("per_page") != "" {
		t.Error("the caller's query was changed")
	}
}

func TestListEach_limitOverPageSizeIsCappedAt100(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[{"id":"a"}]`))
	c := newTestClient(t, s.srv.URL)
	for _, err := range c.Queues.Each(context.Background(), "c1", ListOptions{Limit: 500}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if q := s.only(t).Query; q != "per_page=100" {
		t.Errorf("query = %q", q)
	}
}

func TestListEach_errorIsYieldedOnce(t *testing.T) {
	s := newStub(t, forbiddenOnPage2)
	c := newTestClient(t, s.srv.URL)
	var items, errs int
	for tok, err := range c.ClusterTokens.Each(context.Background(), "c1", ListOptions{}) {
		if err != nil {
			errs++
			if !IsForbidden(err) || tok != nil {
				t.Errorf("yielded %v, %v", tok, err)
			}
			continue
		}
		items++
	}
	if items != 1 || errs != 1 {
		t.Errorf("%d items and %d errors, want 1 and 1", items, errs)
	}
}

func TestLastPage(t *testing.T) {
	h := http.Header{}
	if lastPage(h) != 0 {
		t.Error("no Link: want 0")
	}
	h.Set("Link", `<https://a/x?page=2&per_page=100>; rel="next", <https://a/x?page=7&per_page=100>; rel="last"`)
	if lastPage(h) != 7 {
		t.Errorf("lastPage = %d, want 7", lastPage(h))
	}
}

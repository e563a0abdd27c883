package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBuilds_FilterQuery(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[]`))
	c := newTestClient(t, s.srv.URL)
	from := time.Date(2024, 5, 1, 10, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	_, err := c.Builds.ListPipeline(context.Background(), "web", BuildFilter{
		Branches: []string{"main", "dev"}, Commits: []string{"abc"}, States: []string{"passed", "finished"},
		CreatedFrom: &from, Creator: "u1", MetaData: map[string]string{"env": "prod"}, IncludeRetriedJobs: true,
	}, 10)
	if err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", "/v2/organizations/acme/pipelines/web/builds", "")
	q, _ := url.ParseQuery(r.Query)
	want := url.Values{
		"branch[]": {"main", "dev"}, "commit[]": {"abc"}, "state[]": {"passed", "finished"},
		"created_from": {"2024-05-01T08:00:00Z"}, "creator": {"u1"}, "meta_data[env]": {"prod"},
		"include_retried_jobs": {"true"}, "per_page": {"10"},
	}
	if q.Encode() != want.Encode() {
		t.Errorf("query = %s\nwant    %s", q.Encode(), want.Encode())
	}
}

// pagedBuilds serves an endless history, pages of per_page builds each with a next link, as a service
// with years of builds would.
func pagedBuilds(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	size, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	w.Header().Set("Link", fmt.Sprintf(`<%s?page=%d&per_page=%d>; rel="next"`, r.URL.Path, page+1, size))
	items := make([]string, size)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id":"b%d","number":%d}`, page*1000+i, page*1000+i)
	}
	respond(http.StatusOK, "["+strings.Join(items, ",")+"]")(w, r)
}

func TestBuilds_LimitBoundsCalls(t *testing.T) {
	for _, tc := range []struct {
		limit, calls, firstPage int
	}{{5, 1, 5}, {100, 1, 100}, {150, 2, 100}, {250, 3, 100}} {
		s := newStub(t, pagedBuilds)
		c := newTestClient(t, s.srv.URL)
		got, err := c.Builds.ListOrganization(context.Background(), BuildFilter{}, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.limit || s.count() != tc.calls {
			t.Errorf("limit %d: %d builds in %d calls, want %d in %d", tc.limit, len(got), s.count(), tc.limit, tc.calls)
		}
		if q := s.requests()[0].Query; q != "per_page="+strconv.Itoa(tc.firstPage) {
			t.Errorf("limit %d: first query %q", tc.limit, q)
		}
	}
}

func TestBuilds_AllAndGet(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `[{"id":"b1","number":1,"state":"passed","blocked":false,
	  "creator":{"id":"u1","name":"Sam","email":"s@example.com","avatar_url":null,"created_at":"2024-01-01T00:00:00.000Z"},
	  "jobs":[{"id":"j1","type":"script","name":"Test","agent_query_rules":["queue=linux"],"state":"passed","exit_status":0}],
	  "meta_data":{"k":"v"},"pipeline":{"id":"p1","slug":"web","name":"Web"},"created_at":"2024-01-01T00:00:00.000Z"}]`))
	c := newTestClient(t, s.srv.URL)
	got, err := c.Builds.ListAll(context.Background(), BuildFilter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	assertRequest(t, s.only(t), "GET", "/v2/builds", "")
	b := got[0]
	if b.Pipeline == nil || b.Pipeline.Slug != "web" || b.Creator == nil || b.Creator.Name != "Sam" || len(b.Jobs) != 1 ||
		b.Jobs[0].ExitStatus == nil || *b.Jobs[0].ExitStatus != 0 || b.Jobs[0].AgentQueryRules[0] != "queue=linux" || b.MetaData["k"] != "v" {
		t.Errorf("decoded %+v", b)
	}

	g := newStub(t, respond(http.StatusOK, `{"id":"b1","number":7}`))
	c = newTestClient(t, g.srv.URL)
	if _, err := c.Builds.Get(context.Background(), "web", 7, true); err != nil {
		t.Fatal(err)
	}
	r := g.only(t)
	if r.Path != "/v2/organizations/acme/pipelines/web/builds/7" || r.Query != "include_retried_jobs=true" {
		t.Errorf("get %s?%s", r.Path, r.Query)
	}
}

func TestBuilds_EmulatorFilters(t *testing.T) {
	c, fs := emulatorWithStore(t)
	if _, err := c.Pipelines.Create(context.Background(), PipelineCreate{
		Name: "web", Repository: "https://example.com/web.git", Configuration: ptr("steps:\n  - command: make test\n"),
	}); err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct{ branch, commit, state string }{
		{"main", "aaaaaaaa", "passed"}, {"main", "bbbbbbbb", "failed"}, {"dev", "cccccccc", "running"},
	} {
		out, err := c.Builds.Create(context.Background(), "web", BuildCreate{
			Commit: b.commit, Branch: b.branch, MetaData: map[string]string{"branch": b.branch},
		})
		if err != nil {
			t.Fatal(err)
		}
		if out.State != "scheduled" || out.Number == 0 {
			t.Fatalf("created %+v", out)
		}
		if err := fs.Store().SetBuildState("acme", "web", int(out.Number), b.state); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		filter BuildFilter
		want   int
	}{
		{"all", BuildFilter{}, 3},
		{"branch", BuildFilter{Branches: []string{"main"}}, 2},
		{"commit", BuildFilter{Commits: []string{"cccccccc"}}, 1},
		{"finished", BuildFilter{States: []string{"finished"}}, 2},
		{"meta_data", BuildFilter{MetaData: map[string]string{"branch": "dev"}}, 1},
	} {
		got, err := c.Builds.ListPipeline(ctx, "web", tc.filter, 100)
		if err != nil || len(got) != tc.want {
			t.Errorf("%s: %d builds, %v; want %d", tc.name, len(got), err, tc.want)
		}
	}
	got, err := c.Builds.ListOrganization(ctx, BuildFilter{}, 2)
	if err != nil || len(got) != 2 || got[0].Number != 3 || got[0].Pipeline == nil || got[0].Pipeline.Slug != "web" {
		t.Errorf("newest two: %+v, %v", got, err)
	}
}

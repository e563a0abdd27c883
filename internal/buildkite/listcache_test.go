package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// emulator is the in-process emulator behind an httptest server.
type emulator struct {
	*fakeserver.Server
	url string
}

// newEmulator serves a new emulator, through front when given (a test's faults).
func newEmulator(t *testing.T, opts fakeserver.Options, front ...func(http.Handler) http.Handler) *emulator {
	t.Helper()
	fs := fakeserver.New(opts)
	var h http.Handler = fs
	for _, f := range front {
		h = f(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &emulator{Server: fs, url: srv.URL}
}

// gets counts the GETs the emulator served whose path is, or is under, prefix.
func (e *emulator) gets(prefix string) (lists, items int) {
	for _, r := range e.Requests() {
		switch {
		case r.Method != http.MethodGet:
		case r.Path == prefix:
			lists++
		case strings.HasPrefix(r.Path, prefix+"/"):
			items++
		}
	}
	return lists, items
}

// seed creates clusters, each with queues and tokens, through a client of its own and returns their IDs.
func seed(t *testing.T, e *emulator, clusters, queues, tokens int) (clusterIDs []string, queueIDs, tokenIDs map[string][]string) {
	t.Helper()
	ctx := context.Background()
	c := newTestClient(t, e.url, withListReads)
	queueIDs, tokenIDs = map[string][]string{}, map[string][]string{}
	for i := range clusters {
		cl, err := c.Clusters.Create(ctx, ClusterCreate{Name: fmt.Sprintf("Cluster %d", i), Description: ptr("seeded")})
		if err != nil {
			t.Fatal(err)
		}
		clusterIDs = append(clusterIDs, cl.ID)
		for j := range queues {
			q, err := c.Queues.Create(ctx, cl.ID, QueueCreate{Key: fmt.Sprintf("q%d-%d", i, j)})
			if err != nil {
				t.Fatal(err)
			}
			queueIDs[cl.ID] = append(queueIDs[cl.ID], q.ID)
		}
		for j := range tokens {
			tok, err := c.ClusterTokens.Create(ctx, cl.ID, ClusterTokenCreate{Description: fmt.Sprintf("token %d", j)})
			if err != nil {
				t.Fatal(err)
			}
			tokenIDs[cl.ID] = append(tokenIDs[cl.ID], tok.ID)
		}
	}
	e.ResetRequests()
	return clusterIDs, queueIDs, tokenIDs
}

// readAll reads every ID with read, from workers goroutines as Terraform's parallelism does, and fails on
// any error.
func readAll(t *testing.T, ids []string, workers int, read func(id string) error) {
	t.Helper()
	work := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for range workers {
		wg.Go(func() {
			for id := range work {
				if err := read(id); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
}

// TestReadItem_callsWithinBound: for R objects of a collection of P pages, a client makes at most
// 2·min(R,P)+1 calls, read one by one or ten at a time.
func TestReadItem_callsWithinBound(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	clusters, queues, _ := seed(t, e, 1, 250, 0) // 3 pages of queues
	const pages = 3
	cl := clusters[0]
	listPath := "/v2/organizations/acme/clusters/" + cl + "/queues"
	for _, r := range []int{1, 2, 3, 4, 5, 10, 250} {
		for _, workers := range []int{1, 10} {
			t.Run(fmt.Sprintf("R=%d/workers=%d", r, workers), func(t *testing.T) {
				e.ResetRequests()
				c := newTestClient(t, e.url, withListReads)
				readAll(t, queues[cl][:r], workers, func(id string) error {
					q, err := c.Queues.Get(context.Background(), cl, id)
					if err == nil && q.ID != id {
						err = fmt.Errorf("read %s, got %s", id, q.ID)
					}
					return err
				})
				lists, items := e.gets(listPath)
				if bound := 2*min(r, pages) + 1; lists+items > bound {
					t.Errorf("%d calls (%d list pages, %d GETs), bound %d", lists+items, lists, items, bound)
				}
			})
		}
	}
}

// TestReadItem_thousandObjects: refreshing 1,000 objects (5 clusters, 950 queues, 45 tokens) costs at most
// 0.05 calls per object.
func TestReadItem_thousandObjects(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 1,000 objects")
	}
	e := newEmulator(t, fakeserver.Options{})
	clusters, queues, tokens := seed(t, e, 5, 190, 9)
	c := newTestClient(t, e.url, withListReads)
	ctx := context.Background()
	type ref struct{ kind, cluster, id string }
	var refs []string
	byKey := map[string]ref{}
	add := func(kind, cluster, id string) {
		k := kind + "/" + cluster + "/" + id
		refs = append(refs, k)
		byKey[k] = ref{kind, cluster, id}
	}
	for _, cl := range clusters {
		add("cluster", "", cl)
		for _, q := range queues[cl] {
			add("queue", cl, q)
		}
		for _, tok := range tokens[cl] {
			add("token", cl, tok)
		}
	}
	readAll(t, refs, 10, func(k string) error {
		r := byKey[k]
		var err error
		switch r.kind {
		case "cluster":
			_, err = c.Clusters.Get(ctx, r.id)
		case "queue":
			_, err = c.Queues.Get(ctx, r.cluster, r.id)
		case "token":
			_, err = c.ClusterTokens.Get(ctx, r.cluster, r.id)
		}
		return err
	})
	calls := len(e.Requests())
	perObject := float64(calls) / float64(len(refs))
	t.Logf("refreshing %d objects took %d calls: %.3f per object", len(refs), calls, perObject)
	if perObject > 0.05 {
		t.Errorf("%.3f calls per object, want at most 0.05", perObject)
	}
}

// TestReadItem_concurrentReadsShareOneListing: reads waiting for a listing do not start their own.
func TestReadItem_concurrentReadsShareOneListing(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	clusters, queues, _ := seed(t, e, 1, 150, 0) // 2 pages
	cl := clusters[0]
	c := newTestClient(t, e.url, withListReads)
	readAll(t, queues[cl], 20, func(id string) error {
		_, err := c.Queues.Get(context.Background(), cl, id)
		return err
	})
	lists, items := e.gets("/v2/organizations/acme/clusters/" + cl + "/queues")
	if lists != 2 || items > 2 {
		t.Errorf("%d list pages and %d GETs, want each page once and at most 2 GETs", lists, items)
	}
}

// TestReadItem_writesAndDeletedObjects: a write through the client drops what it changed, an object
// created since the listing is found, and one deleted (by this client or another) is a 404 confirmed by a
// GET.
func TestReadItem_writesAndDeletedObjects(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	clusters, queues, tokens := seed(t, e, 2, 120, 3)
	ctx := context.Background()
	cl := clusters[0]
	qs := queues[cl]

	// Another client deletes a queue before ours lists.
	other := newTestClient(t, e.url, withListReads)
	if err := other.Queues.Delete(ctx, cl, qs[5]); err != nil {
		t.Fatal(err)
	}

	c := newTestClient(t, e.url, withListReads)
	readAll(t, append(append([]string{}, qs[:5]...), qs[6:]...), 4, func(id string) error {
		_, err := c.Queues.Get(ctx, cl, id)
		return err
	})
	e.ResetRequests()
	if _, err := c.Queues.Get(ctx, cl, qs[5]); !IsNotFound(err) {
		t.Errorf("deleted queue: error = %v, want 404", err)
	}
	if reqs := e.Requests(); len(reqs) != 1 || reqs[0].Path != "/v2/organizations/acme/clusters/"+cl+"/queues/"+qs[5] {
		t.Errorf("deleted queue: requests %v, want one confirming GET", reqs)
	}

	// An update through the client is seen by the next read.
	if _, err := c.Queues.Update(ctx, cl, qs[0], QueueUpdate{Description: ptr("changed")}); err != nil {
		t.Fatal(err)
	}
	if q, err := c.Queues.Get(ctx, cl, qs[0]); err != nil || q.Description != "changed" {
		t.Errorf("after update: %+v, %v", q, err)
	}
	// A queue deleted through the client is gone, and an unchanged one is still answered from the listing.
	if err := c.Queues.Delete(ctx, cl, qs[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Queues.Get(ctx, cl, qs[1]); !IsNotFound(err) {
		t.Errorf("after delete: error = %v, want 404", err)
	}
	e.ResetRequests()
	if _, err := c.Queues.Get(ctx, cl, qs[2]); err != nil || len(e.Requests()) != 0 {
		t.Errorf("unchanged queue: %v after %d requests, want it from the listing", err, len(e.Requests()))
	}
	// A queue created since the listing is found.
	created, err := c.Queues.Create(ctx, cl, QueueCreate{Key: "late"})
	if err != nil {
		t.Fatal(err)
	}
	if q, err := c.Queues.Get(ctx, cl, created.ID); err != nil || q.Key != "late" {
		t.Errorf("created queue: %+v, %v", q, err)
	}

	// Deleting the cluster drops its queues' and tokens' listings.
	readAll(t, tokens[cl], 2, func(id string) error { _, err := c.ClusterTokens.Get(ctx, cl, id); return err })
	if err := c.Clusters.Delete(ctx, cl); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Queues.Get(ctx, cl, qs[3]); !IsNotFound(err) {
		t.Errorf("queue of a deleted cluster: error = %v, want 404", err)
	}
	if _, err := c.ClusterTokens.Get(ctx, cl, tokens[cl][0]); !IsNotFound(err) {
		t.Errorf("token of a deleted cluster: error = %v, want 404", err)
	}
	// The other cluster's queues are untouched by all this.
	if _, err := c.Queues.Get(ctx, clusters[1], queues[clusters[1]][0]); err != nil {
		t.Error(err)
	}
}

// assertListMatchesGet checks that every object of a listing, as readItem answers it from the listing,
// equals what a GET of the object returns. Call it with a collection of two or more objects, so that
// readItem lists: list returns the collection's list path, itemPath an object's path, read the object
// through its service's Get.
func assertListMatchesGet[T any](t *testing.T, c *Client, listPath string, itemPath func(*T) string, read func(ctx context.Context, obj *T) (*T, error)) {
	t.Helper()
	ctx := context.Background()
	all, err := listAll[T](ctx, c, listPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 2 {
		t.Fatalf("%s lists %d objects, want at least 2", listPath, len(all))
	}
	for i := range all {
		want, err := get[T](ctx, c, itemPath(&all[i]), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&all[i], want) {
			t.Errorf("listed %+v\n  GET   %+v", all[i], *want)
		}
		got, err := read(ctx, &all[i])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("read %+v\n  GET  %+v", *got, *want)
		}
	}
}

// TestReadItem_listingEqualsGet: for clusters, queues and tokens.
func TestReadItem_listingEqualsGet(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	clusters, _, _ := seed(t, e, 3, 3, 3)
	c := newTestClient(t, e.url, withListReads)
	cl := clusters[1]
	if _, err := c.Queues.Pause(context.Background(), cl, mustQueueID(t, c, cl), "maintenance"); err != nil {
		t.Fatal(err)
	}
	org := "/v2/organizations/acme/clusters"
	assertListMatchesGet(t, c, org, func(x *Cluster) string { return org + "/" + x.ID },
		func(ctx context.Context, x *Cluster) (*Cluster, error) { return c.Clusters.Get(ctx, x.ID) })
	assertListMatchesGet(t, c, org+"/"+cl+"/queues", func(x *Queue) string { return org + "/" + cl + "/queues/" + x.ID },
		func(ctx context.Context, x *Queue) (*Queue, error) { return c.Queues.Get(ctx, cl, x.ID) })
	assertListMatchesGet(t, c, org+"/"+cl+"/tokens", func(x *ClusterToken) string { return org + "/" + cl + "/tokens/" + x.ID },
		func(ctx context.Context, x *ClusterToken) (*ClusterToken, error) {
			return c.ClusterTokens.Get(ctx, cl, x.ID)
		})
}

func mustQueueID(t *testing.T, c *Client, cluster string) string {
	t.Helper()
	qs, err := c.Queues.List(context.Background(), cluster)
	if err != nil || len(qs) == 0 {
		t.Fatalf("queues: %v, %v", qs, err)
	}
	return qs[0].ID
}

// withListReads turns on refresh through lists, as the provider does.
func withListReads(c *Config) { c.ListReadTTL = time.Minute }

// TestReadItem_offByDefaultAndExpires: without ListReadTTL every read is a GET; with it, a listing older
// than the TTL answers nothing.
func TestReadItem_offByDefaultAndExpires(t *testing.T) {
	e := newEmulator(t, fakeserver.Options{})
	clusters, queues, _ := seed(t, e, 1, 5, 0)
	cl := clusters[0]
	ctx := context.Background()
	readQueues := func(c *Client) (lists, items int) {
		e.ResetRequests()
		readAll(t, queues[cl], 1, func(id string) error { _, err := c.Queues.Get(ctx, cl, id); return err })
		return e.gets("/v2/organizations/acme/clusters/" + cl + "/queues")
	}
	if lists, items := readQueues(newTestClient(t, e.url)); lists != 0 || items != 5 {
		t.Errorf("default: %d list pages and %d GETs, want 5 GETs", lists, items)
	}
	c := newTestClient(t, e.url, func(c *Config) { c.ListReadTTL = 50 * time.Millisecond })
	// The first read lists page 1, which holds all five.
	if lists, items := readQueues(c); lists != 1 || items != 0 {
		t.Errorf("first refresh: %d list pages and %d GETs, want 1 and 0", lists, items)
	}
	time.Sleep(60 * time.Millisecond)
	if lists, items := readQueues(c); lists != 1 || items != 0 {
		t.Errorf("after the TTL: %d list pages and %d GETs, want the listing fetched again", lists, items)
	}
}

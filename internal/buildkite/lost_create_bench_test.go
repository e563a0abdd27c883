package buildkite

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// BenchmarkCreate_listingBefore: what a create costs with the listing made for it before it is sent
// (adopt.go), against the in-process emulator over loopback: a cluster agent token created in a cluster that
// already holds `existing` tokens (so the listing is ⌈existing/100⌉ pages, at least one), and a queue in a
// cluster of `existing` queues; each is deleted again, untimed, so that every create meets the same count.
// Reports requests per create besides the time.
//
//	go test -run '^$' -bench BenchmarkCreate_listingBefore -benchtime 200x ./internal/buildkite/
func BenchmarkCreate_listingBefore(b *testing.B) {
	ctx := context.Background()
	for _, existing := range []int{0, 100, 1000} {
		fs := fakeserver.New(fakeserver.Options{})
		srv := httptest.NewServer(fs)
		c, err := newClient(Config{
			BaseURL: srv.URL, Organization: "acme", Token: "test-token", UserAgent: "bench",
			RetryWaitMin: time.Millisecond, RetryWaitMax: time.Second,
		}, testUnit)
		if err != nil {
			b.Fatal(err)
		}
		cl, err := c.Clusters.Create(ctx, ClusterCreate{Name: fmt.Sprintf("bench-%d", existing)})
		if err != nil {
			b.Fatal(err)
		}
		for i := range existing {
			if _, err := c.ClusterTokens.Create(ctx, cl.ID, ClusterTokenCreate{Description: fmt.Sprintf("seed %d", i)}); err != nil {
				b.Fatal(err)
			}
			if _, err := c.Queues.Create(ctx, cl.ID, QueueCreate{Key: fmt.Sprintf("seed-%d", i)}); err != nil {
				b.Fatal(err)
			}
		}
		total := func() (n int64) {
			for _, c := range fs.RequestCounts() {
				n += c
			}
			return n
		}
		// run times create, then undoes it with the timer stopped (undo's requests are not counted), so that
		// the collection holds `existing` objects at every create.
		run := func(name string, create func(i int) (undo func() error, err error)) {
			b.Run(fmt.Sprintf("%s/existing=%d", name, existing), func(b *testing.B) {
				var requests int64
				b.ResetTimer()
				for i := range b.N {
					before := total()
					undo, err := create(i)
					if err != nil {
						b.Fatal(err)
					}
					requests += total() - before
					b.StopTimer()
					if err := undo(); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				b.StopTimer()
				b.ReportMetric(float64(requests)/float64(b.N), "requests/create")
			})
		}
		run("cluster_token", func(i int) (func() error, error) {
			tok, err := c.ClusterTokens.Create(ctx, cl.ID, ClusterTokenCreate{Description: fmt.Sprintf("bench %d", i)})
			if err != nil {
				return nil, err
			}
			return func() error { return c.ClusterTokens.Delete(ctx, cl.ID, tok.ID) }, nil
		})
		run("queue", func(i int) (func() error, error) {
			q, err := c.Queues.Create(ctx, cl.ID, QueueCreate{Key: fmt.Sprintf("bench-%d", i)})
			if err != nil {
				return nil, err
			}
			return func() error { return c.Queues.Delete(ctx, cl.ID, q.ID) }, nil
		})
		srv.Close()
	}
}

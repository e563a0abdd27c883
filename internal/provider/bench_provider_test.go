package provider

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/fakeserver"
)

// The provider benchmark (issue "Requests under load and faults", Benchmarks): apply and refresh N managed
// objects of a realistic shape (5% clusters, 5% agent tokens, the rest queues, as in the plan that made
// 1,005 calls) against the emulator enforcing the real service's 200 requests per minute, and the same
// count of terraform_data for the wall time Terraform itself takes. It prints figures; it is not a timed
// test, and only runs when asked:
//
//	BUILDKITE_BENCH=1 [BUILDKITE_BENCH_SIZES=10,100,1000] [BUILDKITE_BENCH_RATE=200] \
//	  go test -run TestBench -v ./internal/provider/
const (
	envBench      = "BUILDKITE_BENCH"
	envBenchSizes = "BUILDKITE_BENCH_SIZES"
	envBenchRate  = "BUILDKITE_BENCH_RATE"
)

// benchFigures are one size's results.
type benchFigures struct {
	objects                      int
	applyCalls, apply429         int
	refreshCalls, refresh429     int
	applyWall, refreshWall       time.Duration
	dataApplyWall, dataRefWall   time.Duration
	clusters, queues, tokens     int
	ratePerMinute                int
	refreshCallsPerManagedObject float64
}

func (f benchFigures) String() string {
	return fmt.Sprintf("objects=%d (clusters=%d queues=%d tokens=%d) rate=%d/min | apply: calls=%d 429s=%d wall=%s | "+
		"refresh: calls=%d 429s=%d calls/object=%.3f wall=%s | terraform_data: apply wall=%s refresh wall=%s",
		f.objects, f.clusters, f.queues, f.tokens, f.ratePerMinute,
		f.applyCalls, f.apply429, f.applyWall.Round(time.Millisecond),
		f.refreshCalls, f.refresh429, f.refreshCallsPerManagedObject, f.refreshWall.Round(time.Millisecond),
		f.dataApplyWall.Round(time.Millisecond), f.dataRefWall.Round(time.Millisecond))
}

func TestBench_providerApplyAndRefresh(t *testing.T) {
	if os.Getenv(envBench) == "" {
		t.Skipf("set %s=1 to measure (make bench)", envBench)
	}
	rate := benchInt(t, os.Getenv(envBenchRate), 200)
	var all []benchFigures
	for _, n := range benchSizes(t) {
		t.Run(fmt.Sprintf("objects=%d", n), func(t *testing.T) {
			f := benchFigures{objects: n, ratePerMinute: rate}
			f.clusters, f.tokens = max(1, n/20), max(1, n/20)
			f.queues = max(0, n-f.clusters-f.tokens)

			e := newTestEnvWith(t, fakeserver.Options{RateLimit: rate, RateLimitWindow: time.Minute})
			if e.live {
				t.Skip("the benchmark counts the emulator's requests")
			}
			var start time.Time
			mark := func() { e.server.ResetRequests(); start = time.Now() }
			cfg := e.config(benchConfig(f.clusters, f.queues, f.tokens))
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				Steps: []resource.TestStep{
					{PreConfig: mark, Config: cfg, Check: func(*terraform.State) error {
						f.applyWall = time.Since(start)
						f.applyCalls, f.apply429 = benchCount(e.server)
						return nil
					}},
					{PreConfig: mark, RefreshState: true, Check: func(*terraform.State) error {
						f.refreshWall = time.Since(start)
						f.refreshCalls, f.refresh429 = benchCount(e.server)
						return nil
					}},
				},
			})
			f.refreshCallsPerManagedObject = float64(f.refreshCalls) / float64(n)

			data := fmt.Sprintf(`
resource "terraform_data" "d" {
  count = %d
  input = "object-${count.index}"
}
`, n)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				Steps: []resource.TestStep{
					{PreConfig: mark, Config: data, Check: func(*terraform.State) error {
						f.dataApplyWall = time.Since(start)
						return nil
					}},
					{PreConfig: mark, RefreshState: true, Check: func(*terraform.State) error {
						f.dataRefWall = time.Since(start)
						return nil
					}},
				},
			})
			t.Log(f)
			all = append(all, f)
		})
	}
	for _, f := range all {
		fmt.Println("bench:", f)
	}
}

// benchConfig declares clusters, queues spread over them, and agent tokens spread over them.
func benchConfig(clusters, queues, tokens int) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "c" {
  count = %d
  name  = "bench-${count.index}"
}

resource "buildkite_cluster_queue" "q" {
  count      = %d
  cluster_id = buildkite_cluster.c[count.index %% %[1]d].id
  key        = "queue-${count.index}"
}

resource "buildkite_cluster_agent_token" "t" {
  count       = %d
  cluster_id  = buildkite_cluster.c[count.index %% %[1]d].id
  description = "bench token ${count.index}"
}
`, clusters, queues, tokens)
}

// benchCount returns how many requests the emulator served since its counters were reset, and how many
// of them it answered 429. The counters cover every request, however many the log keeps.
func benchCount(s *fakeserver.Server) (calls, tooMany int) {
	for status, n := range s.RequestCounts() {
		calls += int(n)
		if status == http.StatusTooManyRequests {
			tooMany += int(n)
		}
	}
	return calls, tooMany
}

// benchSizes reads BUILDKITE_BENCH_SIZES (default 10,100,1000).
func benchSizes(t *testing.T) []int {
	t.Helper()
	raw := os.Getenv(envBenchSizes)
	if raw == "" {
		raw = "10,100,1000"
	}
	var out []int
	for _, s := range strings.Split(raw, ",") {
		out = append(out, benchInt(t, s, 0))
	}
	return out
}

func benchInt(t *testing.T, s string, def int) int {
	t.Helper()
	s = strings.TrimSpace(s)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("benchmark setting %q: want a positive whole number", s)
	}
	return n
}

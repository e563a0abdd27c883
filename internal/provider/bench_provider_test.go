package provider

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
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
	if os.Getenv(acctest.EnvBench) == "" {
		t.Skipf("set %s=1 to measure (make bench)", acctest.EnvBench)
	}
	rate := acctest.BenchInt(t, os.Getenv(acctest.EnvBenchRate), 200)
	var all []benchFigures
	for _, n := range benchSizes(t) {
		t.Run(fmt.Sprintf("objects=%d", n), func(t *testing.T) {
			f := benchFigures{objects: n, ratePerMinute: rate}
			f.clusters, f.tokens = max(1, n/20), max(1, n/20)
			f.queues = max(0, n-f.clusters-f.tokens)

			e := acctest.NewTestEnvWith(t, fakeserver.Options{RateLimit: rate, RateLimitWindow: time.Minute})
			if e.Live {
				t.Skip("the benchmark counts the emulator's requests")
			}
			var start time.Time
			mark := func() { e.Server.ResetRequests(); start = time.Now() }
			cfg := e.Config(benchConfig(f.clusters, f.queues, f.tokens))
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps: []resource.TestStep{
					{PreConfig: mark, Config: cfg, Check: func(*terraform.State) error {
						f.applyWall = time.Since(start)
						f.applyCalls, f.apply429 = acctest.BenchCount(e.Server)
						return nil
					}},
					{PreConfig: mark, RefreshState: true, Check: func(*terraform.State) error {
						f.refreshWall = time.Since(start)
						f.refreshCalls, f.refresh429 = acctest.BenchCount(e.Server)
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
				ProtoV6ProviderFactories: e.Factories(),
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
  count      = %[2]d
  cluster_id = buildkite_cluster.c[count.index %% %[1]d].id
  key        = "queue-${count.index}"
}

resource "buildkite_cluster_agent_token" "t" {
  count       = %[3]d
  cluster_id  = buildkite_cluster.c[count.index %% %[1]d].id
  description = "bench token ${count.index}"
}
`, clusters, queues, tokens)
}

// benchSizes reads BUILDKITE_BENCH_SIZES (default 10,100,1000).
func benchSizes(t *testing.T) []int {
	t.Helper()
	raw := os.Getenv(acctest.EnvBenchSizes)
	if raw == "" {
		raw = "10,100,1000"
	}
	var out []int
	for _, s := range strings.Split(raw, ",") {
		out = append(out, acctest.BenchInt(t, s, 0))
	}
	return out
}

// The scale-out benchmark (issue 18, item 4): four workspaces apply 40 objects each at once against one
// organization whose one token allows 50 requests per 15 s (the service's 200 per minute, scaled), each
// through its own provider processes and so its own client: four processes sharing one window, none of
// which knows of the others but through the RateLimit-* headers. It prints the calls, the 429s, the wall
// time from the first call to the last apply's end (Terraform's start-up before the first call is not
// rate-limited work, and is printed apart) and the floor:
//
//	BUILDKITE_BENCH=1 go test -run TestBench_scaleOutSharedWindow -v ./internal/provider/
const (
	scaleOutWorkspaces = 4
	scaleOutObjects    = 40
	scaleOutLimit      = 50
	scaleOutWindow     = 15 * time.Second
)

// scaleOutFigures are the run's results.
type scaleOutFigures struct {
	calls, tooMany       int
	startup, wall, floor time.Duration
}

func (f scaleOutFigures) String() string {
	return fmt.Sprintf("scale-out: workspaces=%d objects=%d each limit=%d/%s | calls=%d 429s=%d wall=%s floor=%s (%.2fx) | start-up before the first call=%s",
		scaleOutWorkspaces, scaleOutObjects, scaleOutLimit, scaleOutWindow, f.calls, f.tooMany,
		f.wall.Round(time.Millisecond), f.floor.Round(time.Millisecond), float64(f.wall)/float64(f.floor),
		f.startup.Round(time.Millisecond))
}

// scaleOutFloor is the least time in which a fixed window of scaleOutLimit requests per scaleOutWindow,
// which opens with its first request, serves ok calls: the window that serves the last of them cannot
// open before every earlier one has ended.
func scaleOutFloor(ok int) time.Duration {
	windows := (ok + scaleOutLimit - 1) / scaleOutLimit
	return time.Duration(max(windows-1, 0)) * scaleOutWindow
}

// firstCall records when the emulator is first called.
type firstCall struct {
	once sync.Once
	at   time.Time
}

func (f *firstCall) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.once.Do(func() { f.at = time.Now() })
		next.ServeHTTP(w, r)
	})
}

func TestBench_scaleOutSharedWindow(t *testing.T) {
	if os.Getenv(acctest.EnvBench) == "" {
		t.Skipf("set %s=1 to measure (make bench)", acctest.EnvBench)
	}
	first := &firstCall{}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{RateLimit: scaleOutLimit, RateLimitWindow: scaleOutWindow}, first.wrap)
	if e.Live {
		t.Skip("the benchmark counts the emulator's requests")
	}
	// No max_retries: unset, the provider retries until the operation's timeout, as a user's would.
	provider := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = %q\n}\n", e.URL, e.Org, e.Token)
	clusters, tokens := 2, 2
	queues := scaleOutObjects - clusters - tokens

	// Every workspace waits in its apply's check until all have applied, so that no destroy is counted.
	var applied sync.WaitGroup
	applied.Add(scaleOutWorkspaces)
	allApplied := make(chan struct{})
	go func() { applied.Wait(); close(allApplied) }()
	var f scaleOutFigures
	var once sync.Once
	start := time.Now()
	measure := func() {
		f.startup, f.wall = first.at.Sub(start), time.Since(first.at)
		f.calls, f.tooMany = acctest.BenchCount(e.Server)
		f.floor = scaleOutFloor(f.calls - f.tooMany)
	}
	// Each workspace runs in its own goroutine, so that -parallel (the number of cores) cannot hold one back.
	var workspaces sync.WaitGroup
	for w := range scaleOutWorkspaces {
		workspaces.Go(func() {
			t.Run(fmt.Sprintf("workspace%d", w), func(t *testing.T) {
				var done sync.Once
				defer done.Do(applied.Done) // a workspace that fails before its check must not hold the others
				cfg := strings.ReplaceAll(benchConfig(clusters, queues, tokens), `"bench-`, fmt.Sprintf(`"bench-w%d-`, w))
				resource.Test(t, resource.TestCase{
					ProtoV6ProviderFactories: e.Factories(),
					Steps: []resource.TestStep{{Config: provider + cfg, Check: func(*terraform.State) error {
						done.Do(applied.Done)
						<-allApplied
						once.Do(measure)
						return nil
					}}},
				})
			})
		})
	}
	workspaces.Wait()
	t.Log(f)
	fmt.Println("bench:", f)
}

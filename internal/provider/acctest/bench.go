package acctest

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
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
	EnvBench      = "BUILDKITE_BENCH"
	EnvBenchSizes = "BUILDKITE_BENCH_SIZES"
	EnvBenchRate  = "BUILDKITE_BENCH_RATE"
)

// benchCount returns how many requests the emulator served since its counters were reset, and how many
// of them it answered 429. The counters cover every request, however many the log keeps.
func BenchCount(s *fakeserver.Server) (calls, tooMany int) {
	for status, n := range s.RequestCounts() {
		calls += int(n)
		if status == http.StatusTooManyRequests {
			tooMany += int(n)
		}
	}
	return calls, tooMany
}

func BenchInt(t *testing.T, s string, def int) int {
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

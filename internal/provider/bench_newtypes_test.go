package provider

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The benchmark of the types of issue 19: apply, then refresh, pipelines with schedules, clusters with
// secrets and teams as maintainers of every cluster, against the emulator enforcing the real service's 200
// requests per minute, and count the refresh's calls by what they read. Refresh goes through listings, so
// it costs one listing per pipeline or cluster for each kind, not one GET per object. It prints figures and
// only runs when asked:
//
//	BUILDKITE_BENCH=1 [BUILDKITE_BENCH_RATE=200] go test -run TestBench_newTypes -v ./internal/provider/
func TestBench_newTypesApplyAndRefresh(t *testing.T) {
	if os.Getenv(acctest.EnvBench) == "" {
		t.Skipf("set %s=1 to measure (make bench)", acctest.EnvBench)
	}
	const pipelines, schedules, clusters, secrets, teams = 5, 10, 5, 10, 4
	rate := acctest.BenchInt(t, os.Getenv(acctest.EnvBenchRate), 200)
	e := acctest.NewTestEnvWith(t, fakeserver.Options{RateLimit: rate, RateLimitWindow: time.Minute})
	if e.Live {
		t.Skip("the benchmark counts the emulator's requests")
	}
	var start time.Time
	var applyWall, refreshWall time.Duration
	var applyCalls, apply429 int
	var refresh []fakeserver.Request
	mark := func() { e.Server.ResetRequests(); start = time.Now() }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{PreConfig: mark, Config: e.Config(benchNewTypesConfig(pipelines, schedules, clusters, secrets, teams)),
				Check: func(*terraform.State) error {
					applyWall = time.Since(start)
					applyCalls, apply429 = acctest.BenchCount(e.Server)
					return nil
				}},
			{PreConfig: mark, RefreshState: true, Check: func(*terraform.State) error {
				refreshWall = time.Since(start)
				refresh = e.Server.Requests()
				return nil
			}},
		},
	})

	kinds := []struct {
		name    string
		objects int
		path    *regexp.Regexp // the collection; a GET of one member is the same path and an ID
	}{
		{"schedules", pipelines * schedules, regexp.MustCompile(`/pipelines/[^/]+/schedules`)},
		{"secrets", clusters * secrets, regexp.MustCompile(`/clusters/[^/]+/secrets`)},
		{"maintainers", clusters * teams, regexp.MustCompile(`/clusters/[^/]+/maintainers`)},
	}
	counted := map[int]bool{}
	var lines []string
	newObjects, newCalls, tooMany := 0, 0, 0
	for _, k := range kinds {
		lists, gets := 0, 0
		for i, r := range refresh {
			loc := k.path.FindStringIndex(r.Path)
			switch {
			case loc == nil || r.Method != http.MethodGet:
				continue
			case loc[1] == len(r.Path):
				lists++
			default:
				gets++
			}
			counted[i] = true
			if r.Status == http.StatusTooManyRequests {
				tooMany++
			}
		}
		newObjects += k.objects
		newCalls += lists + gets
		lines = append(lines, fmt.Sprintf("%s=%d: %d listings + %d GETs = %.3f calls per object",
			k.name, k.objects, lists, gets, float64(lists+gets)/float64(k.objects)))
	}
	var others []string
	for i, r := range refresh {
		if !counted[i] {
			others = append(others, r.Method+" "+benchPathShape(r.Path))
		}
	}
	sort.Strings(others)
	managed := pipelines + pipelines*schedules + clusters + clusters*secrets + teams + clusters*teams
	fmt.Printf("bench: newtypes objects=%d (of them schedules, secrets and maintainers: %d) rate=%d/min | apply: calls=%d 429s=%d wall=%s | "+
		"refresh: calls=%d wall=%s; the new types' calls=%d (%.3f per object, %d 429s): %s; the other calls: %s\n",
		managed, newObjects, rate, applyCalls, apply429, applyWall.Round(time.Millisecond),
		len(refresh), refreshWall.Round(time.Millisecond), newCalls, float64(newCalls)/float64(newObjects), tooMany,
		strings.Join(lines, "; "), strings.Join(benchTally(others), ", "))
	if newCalls > len(kinds)*max(pipelines, clusters) {
		t.Errorf("refreshing %d schedules, secrets and maintainers took %d calls, more than one listing per pipeline or cluster and kind",
			newObjects, newCalls)
	}
}

// benchNewTypesConfig declares pipelines with schedules each, clusters with secrets each, and teams that
// maintain every cluster.
func benchNewTypesConfig(pipelines, schedules, clusters, secrets, teams int) string {
	return fmt.Sprintf(`
resource "buildkite_pipeline" "p" {
  count      = %[1]d
  name       = "bench-${count.index}"
  repository = "https://github.com/acme/app.git"
}

resource "buildkite_pipeline_schedule" "s" {
  count       = %[1]d * %[2]d
  pipeline_id = buildkite_pipeline.p[count.index %% %[1]d].id
  label       = "schedule ${count.index}"
  cronline    = "${count.index %% 60} 3 * * *"
  branch      = "main"
}

resource "buildkite_cluster" "c" {
  count = %[3]d
  name  = "bench-${count.index}"
}

resource "buildkite_cluster_secret" "k" {
  count      = %[3]d * %[4]d
  cluster_id = buildkite_cluster.c[count.index %% %[3]d].id
  key        = "KEY_${count.index}"
  value      = "value-${count.index}"
}

resource "buildkite_team" "t" {
  count               = %[5]d
  name                = "bench-team-${count.index}"
  privacy             = "visible"
  default_team        = false
  default_member_role = "member"
}

resource "buildkite_cluster_maintainer" "m" {
  count        = %[3]d * %[5]d
  cluster_uuid = buildkite_cluster.c[floor(count.index / %[5]d)].uuid
  team_uuid    = buildkite_team.t[count.index %% %[5]d].id
}
`, pipelines, schedules, clusters, secrets, teams)
}

// benchPathShape replaces the IDs and slugs of a path with placeholders, so that calls can be tallied by
// what they read.
var benchIDSegment = regexp.MustCompile(`/(organizations|pipelines|clusters|teams)/[^/]+`)

func benchPathShape(path string) string {
	return benchIDSegment.ReplaceAllString(path, "/$1/*")
}

// benchTally counts equal strings: "GET /v2/access-token ×2".
func benchTally(items []string) []string {
	var out []string
	for i := 0; i < len(items); {
		j := i
		for j < len(items) && items[j] == items[i] {
			j++
		}
		out = append(out, fmt.Sprintf("%s ×%d", items[i], j-i))
		i = j
	}
	return out
}

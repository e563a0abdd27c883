package pipelines_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// pageLog records the query of every build listing the emulator answers, to show how far a read pages.
type pageLog struct {
	mu      sync.Mutex
	queries []string
}

func (l *pageLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/builds") {
			l.mu.Lock()
			l.queries = append(l.queries, r.URL.RawQuery)
			l.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

func (l *pageLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.queries...)
}

// seedBuild creates a build of pipeline through the API and puts it in state.
func seedBuild(t *testing.T, e *acctest.TestEnv, pipeline, branch, commit, state string, meta map[string]string) (creatorID string) {
	t.Helper()
	b, err := e.Client.Builds.Create(context.Background(), pipeline, buildkite.BuildCreate{
		Commit: commit, Branch: branch, Message: branch + " " + state, MetaData: meta,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Server.Store().SetBuildState(e.Org, pipeline, int(b.Number), state); err != nil {
		t.Fatal(err)
	}
	return b.Creator.ID
}

// buildSteps gives every build one job, with agent query rules.
var buildSteps = "steps:\n  - label: Test\n    command: make test\n    agents:\n      queue: linux\n"

const testSHA = "0123456789abcdef0123456789abcdef0123456"

func TestAccBuildsDataSource(t *testing.T) {
	t.Parallel()
	var log pageLog
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, log.wrap)
	if e.Live {
		t.Skip("builds are put in their states through the emulator")
	}
	for _, p := range []string{"web", "api"} {
		if _, err := e.Client.Pipelines.Create(context.Background(), buildkite.PipelineCreate{
			Name: p, Repository: "https://example.com/" + p + ".git", Configuration: &buildSteps,
		}); err != nil {
			t.Fatal(err)
		}
	}
	creator := seedBuild(t, e, "web", "main", testSHA+"1", "passed", map[string]string{"deploy": "true"})
	seedBuild(t, e, "web", "main", testSHA+"2", "failed", nil)
	seedBuild(t, e, "web", "dev", testSHA+"3", "running", nil)
	seedBuild(t, e, "web", "feature", testSHA+"4", "canceled", nil)
	seedBuild(t, e, "api", "main", testSHA+"5", "scheduled", nil)

	ds := func(name, body string) string {
		return fmt.Sprintf("data \"buildkite_builds\" %q {\n%s\n}\n", name, body)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(ds("all", "") +
					ds("web", `pipeline_slug = "web"`) +
					ds("main", `pipeline_slug = "web"
branch = ["main"]`) +
					ds("branches", `branch = ["dev", "feature"]`) +
					ds("commit", fmt.Sprintf(`commit = [%q]`, testSHA+"3")) +
					ds("finished", `state = ["finished"]`) +
					ds("running", `state = ["RUNNING", "scheduled"]`) +
					ds("meta", `meta_data = { deploy = "true" }`) +
					ds("creator", fmt.Sprintf(`creator = %q`, creator)) +
					ds("nobody", `creator = "01234567-89ab-cdef-0123-456789abcdef"`) +
					ds("future", `created_from = "2999-01-01T00:00:00Z"`) +
					ds("past", `created_to = "2000-01-01T00:00:00Z"`) +
					ds("finished_since", `finished_from = "2000-01-01T00:00:00+02:00"`) +
					ds("retried", `include_retried_jobs = true`) +
					ds("two", `limit = 2`)),
				Check: buildsChecks(creator, &log),
			},
			{
				Config:      e.Config(ds("bad", `created_from = "yesterday"`)),
				ExpectError: acctest.RegexpMust(`created_from must be an RFC 3339 timestamp`),
				PlanOnly:    true,
			},
			{
				Config:      e.Config(ds("bad", `state = ["green"]`)),
				ExpectError: acctest.RegexpMust(`(?s)state\[0\].*value must be one of`),
				PlanOnly:    true,
			},
			{
				Config:      e.Config(ds("bad", `pipeline_slug = "no-such-pipeline"`)),
				ExpectError: acctest.RegexpMust(`(?s)Unable to List Builds.*pipeline no-such-pipeline.*404`),
			},
		},
	})
}

// checkPaging checks that every build listing asked for one page, sized to its limit: the default 100, or
// 2 where limit = 2, and never a second page.
func checkPaging(queries []string) error {
	if len(queries) == 0 {
		return fmt.Errorf("no build listing was recorded")
	}
	sawTwo := false
	for _, raw := range queries {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return err
		}
		if page := q.Get("page"); page != "" && page != "1" {
			return fmt.Errorf("a listing asked for a further page: %s", raw)
		}
		switch q.Get("per_page") {
		case "2":
			sawTwo = true
		case "100":
		default:
			return fmt.Errorf("a listing asked for pages of another size: %s", raw)
		}
	}
	if !sawTwo {
		return fmt.Errorf("no listing asked for pages of 2: %v", queries)
	}
	return nil
}

// buildsChecks checks what each data source of TestAccBuildsDataSource found: how many builds (filters by
// pipeline, branch, commit, state, meta-data, creator and time, and a limit), in what order, with what
// fields, and that the builds were read a page at a time.
func buildsChecks(creator string, log *pageLog) resource.TestCheckFunc {
	count := func(name, n string) resource.TestCheckFunc {
		return resource.TestCheckResourceAttr("data.buildkite_builds."+name, "builds.#", n)
	}
	return resource.ComposeAggregateTestCheckFunc(
		count("all", "5"), count("web", "4"), count("main", "2"), count("branches", "2"), count("commit", "1"),
		count("finished", "3"), count("running", "2"), count("meta", "1"), count("creator", "5"),
		count("nobody", "0"), count("future", "0"), count("past", "0"), count("finished_since", "3"),
		count("retried", "5"), count("two", "2"),
		// Newest first, with the build's fields and its job.
		resource.TestCheckResourceAttr("data.buildkite_builds.all", "builds.0.pipeline_slug", "api"),
		resource.TestCheckResourceAttr("data.buildkite_builds.all", "builds.0.state", "scheduled"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.number", "1"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.branch", "main"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.commit", testSHA+"1"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.meta_data.deploy", "true"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.blocked", "false"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.creator.id", creator),
		resource.TestCheckResourceAttrSet("data.buildkite_builds.web", "builds.3.finished_at"),
		resource.TestCheckResourceAttrSet("data.buildkite_builds.web", "builds.3.web_url"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.jobs.#", "1"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.jobs.0.name", "Test"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.jobs.0.type", "script"),
		resource.TestCheckResourceAttr("data.buildkite_builds.web", "builds.3.jobs.0.agent_query_rules.0", "queue=linux"),
		resource.TestCheckResourceAttrSet("data.buildkite_builds.web", "builds.3.jobs.0.state"),
		resource.TestCheckNoResourceAttr("data.buildkite_builds.web", "builds.1.finished_at"),
		func(*terraform.State) error { return checkPaging(log.all()) },
	)
}

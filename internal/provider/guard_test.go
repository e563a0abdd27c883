package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// A service (or a proxy in front of it) that answers 2xx without the object must not empty the state: a
// refresh that reads nothing fails and leaves the state as it was, and a create whose answer holds nothing
// leaves no instance with an empty ID. The client refuses such answers too; these tests hold the
// provider's own guard (kit/resource_base.go) to it, whichever of the two catches them.

// emptyAnswers stands in front of the emulator: while reads is on it answers every read of the organization's
// objects (but the organization's own) with 200 and body, and while creates is on it answers every create
// the emulator performed with 201 and body.
type emptyAnswers struct {
	reads, creates atomic.Bool
	body           string
}

func (a *emptyAnswers) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		objects := strings.HasPrefix(r.URL.Path, "/v2/organizations/acme/")
		switch {
		case a.reads.Load() && objects && r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(a.body))
		case a.creates.Load() && r.Method == http.MethodPost:
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			if rec.Code != http.StatusCreated {
				copyResponse(w, rec)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(a.body))
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func copyResponse(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// TestAccProvider_emptyReadAnswersKeepState refreshes objects while every read is answered 200 with an empty
// object or null: the refresh fails, and afterwards (with the service answering again) the state still
// holds every object with its ID and plans no change. Each row refreshes alone, so that one object's error
// cannot hide another's silent removal.
func TestAccProvider_emptyReadAnswersKeepState(t *testing.T) {
	t.Parallel()
	rows := map[string]struct {
		config    func(e *acctest.TestEnv) string
		addresses []string
	}{
		"cluster and queue": {
			config:    func(e *acctest.TestEnv) string { return acctest.ClusterQueueConfig(e.Name("empty-read"), "linux", "") },
			addresses: []string{"buildkite_cluster.test", "buildkite_cluster_queue.test"},
		},
		"team": {
			config: func(e *acctest.TestEnv) string {
				return acctest.TeamConfig(e.Name("empty-read"), "visible", "member", false, "")
			},
			addresses: []string{"buildkite_team.test"},
		},
		"pipeline": {
			config: func(e *acctest.TestEnv) string {
				return fmt.Sprintf("resource \"buildkite_pipeline\" \"test\" {\n  name = %q\n  repository = \"https://github.com/acme/app.git\"\n}\n", e.Name("empty-read"))
			},
			addresses: []string{"buildkite_pipeline.test"},
		},
	}
	for name, row := range rows {
		for _, body := range []string{"{}", "null"} {
			t.Run(name+" "+body, func(t *testing.T) {
				t.Parallel()
				answers := &emptyAnswers{body: body}
				e := acctest.NewTestEnvWith(t, fakeserver.Options{}, answers.wrap)
				if e.Live {
					t.Skip("the answers are shaped in front of the emulator")
				}
				config := e.Config(row.config(e))
				var exist []resource.TestCheckFunc
				for _, a := range row.addresses {
					exist = append(exist, e.CheckExists(a))
				}
				resource.Test(t, resource.TestCase{
					ProtoV6ProviderFactories: e.Factories(),
					Steps: []resource.TestStep{
						{Config: config, Check: resource.ComposeTestCheckFunc(exist...)},
						{
							PreConfig:    func() { answers.reads.Store(true) },
							RefreshState: true,
							ExpectError:  regexp.MustCompile(`Unable to Read`),
						},
						{
							PreConfig: func() { answers.reads.Store(false) },
							Config:    config,
							ConfigPlanChecks: resource.ConfigPlanChecks{
								PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
							},
							Check: resource.ComposeTestCheckFunc(exist...),
						},
					},
				})
			})
		}
	}
}

// TestAccProvider_emptyCreateAnswerAdoptsTheObject creates a cluster whose create answer is an empty
// object. The service acted, so the answer's outcome is unknown rather than a failure: the client finds the
// cluster the create made and adopts it. The state then holds that cluster under its real ID, the service
// holds exactly one of that name (no duplicate, no orphan), and the next plan is empty. Before the client
// refused such answers, the instance was written with an empty ID and every later plan failed.
func TestAccProvider_emptyCreateAnswerAdoptsTheObject(t *testing.T) {
	t.Parallel()
	answers := &emptyAnswers{body: "{}"}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, answers.wrap)
	if e.Live {
		t.Skip("the answers are shaped in front of the emulator")
	}
	const addr = "buildkite_cluster.test"
	name := e.Name("empty-create")
	config := e.Config(acctest.ClusterConfig(name, ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { answers.creates.Store(true) },
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr),
					resource.TestMatchResourceAttr(addr, "id", kit.UuidPattern),
					func(*terraform.State) error {
						clusters, err := e.Client.Clusters.List(context.Background())
						if err != nil {
							return err
						}
						n := 0
						for _, c := range clusters {
							if c.Name == name {
								n++
							}
						}
						if n != 1 {
							return fmt.Errorf("the service holds %d clusters named %q, want exactly 1", n, name)
						}
						return nil
					},
				),
			},
			{
				PreConfig: func() { answers.creates.Store(false) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

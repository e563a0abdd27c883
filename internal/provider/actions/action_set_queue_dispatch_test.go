package actions_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// testAccSetQueueDispatchConfig is a cluster with the queue "linux", which the actions pause (by the
// queue's key, with a note, and again with another note) and resume (by the cluster's GraphQL ID and the
// queue's ID).
func testAccSetQueueDispatchConfig(cluster string) string {
	return acctest.ClusterQueueConfig(cluster, "linux", "") + `
action "buildkite_set_queue_dispatch" "pause" {
  config {
    cluster_id = buildkite_cluster.test.id
    queue_id   = "linux"
    paused     = true
    note       = "Agent maintenance"
  }
}

action "buildkite_set_queue_dispatch" "pause_again" {
  config {
    cluster_id = buildkite_cluster.test.id
    queue_id   = buildkite_cluster_queue.test.id
    paused     = true
    note       = "Another reason"
  }
}

action "buildkite_set_queue_dispatch" "resume" {
  config {
    cluster_id = buildkite_cluster.test.graphql_id
    queue_id   = buildkite_cluster_queue.test.id
    paused     = false
  }
}
`
}

// TestAccSetQueueDispatch_action pauses and resumes a queue with `terraform apply -invoke`, and asks for
// each state twice: the second time succeeds without asking the service for what it would refuse (422),
// and a pause with another note says that the queue keeps its note.
func TestAccSetQueueDispatch_action(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("dispatch")
	w := e.ActionWorkdir(t, testAccSetQueueDispatchConfig(cluster))
	w.Apply()
	clusterID, paused, _ := e.QueueDispatch(t, cluster)
	if paused {
		t.Fatal("the new queue is paused before any action")
	}
	what := fmt.Sprintf(`queue "linux" of cluster %s`, clusterID)

	out := w.MustInvoke("action.buildkite_set_queue_dispatch.pause")
	acctest.ExpectOutput(t, out, "Paused dispatch to "+what)
	if _, paused, note := e.QueueDispatch(t, cluster); !paused || note != "Agent maintenance" {
		t.Fatalf("after the pause the queue is paused=%t with note %q, want paused with the configured note", paused, note)
	}

	out = w.MustInvoke("action.buildkite_set_queue_dispatch.pause")
	acctest.ExpectOutput(t, out, "Dispatch to "+what+" is already paused; nothing to change")
	if strings.Contains(out, "Warning: Queue Already Paused") {
		t.Errorf("pausing again with the same note warned:\n%s", out)
	}

	out = w.MustInvoke("action.buildkite_set_queue_dispatch.pause_again")
	acctest.ExpectOutput(t, out, "is already paused; nothing to change", "Queue Already Paused",
		`was already paused with the note "Agent maintenance", which stays`)
	if _, _, note := e.QueueDispatch(t, cluster); note != "Agent maintenance" {
		t.Errorf("the note is %q after a second pause, want the first pause's", note)
	}

	out = w.MustInvoke("action.buildkite_set_queue_dispatch.resume")
	acctest.ExpectOutput(t, out, "Resumed dispatch to "+what)
	if _, paused, note := e.QueueDispatch(t, cluster); paused || note != "" {
		t.Fatalf("after the resume the queue is paused=%t with note %q, want it running without a note", paused, note)
	}
	out = w.MustInvoke("action.buildkite_set_queue_dispatch.resume")
	acctest.ExpectOutput(t, out, "Dispatch to "+what+" is already running; nothing to change")

	if !e.Live {
		want := map[string]int{"pause_dispatch 200": 1, "resume_dispatch 200": 1}
		if got := e.DispatchCalls(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("the service was asked %v, want %v: one pause and one resume, nothing it refuses", got, want)
		}
	}
	w.Destroy()
}

// TestAccSetQueueDispatch_actionRace: when someone else pauses the queue between the action's read and its
// pause, the service refuses the pause (422) and the action, finding the queue paused, succeeds.
func TestAccSetQueueDispatch_actionRace(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	var once sync.Once
	// Before the first pause reaches the emulator, the same pause goes through first, as another client's.
	pauseFirst := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/pause_dispatch") {
				once.Do(func() {
					other := r.Clone(r.Context())
					other.Body = http.NoBody
					next.ServeHTTP(httptest.NewRecorder(), other)
				})
			}
			next.ServeHTTP(w, r)
		})
	}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, pauseFirst)
	if e.Live {
		t.Skip("the race is staged in front of the emulator")
	}
	cluster := e.Name("race")
	w := e.ActionWorkdir(t, testAccSetQueueDispatchConfig(cluster))
	w.Apply()
	out := w.MustInvoke("action.buildkite_set_queue_dispatch.pause")
	acctest.ExpectOutput(t, out, "is already paused; nothing to change")
	if _, paused, _ := e.QueueDispatch(t, cluster); !paused {
		t.Fatal("the queue is not paused")
	}
	want := map[string]int{"pause_dispatch 200": 1, "pause_dispatch 422": 1}
	if got := e.DispatchCalls(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the service was asked %v, want %v: the other client's pause, then the action's, refused", got, want)
	}
}

// TestAccSetQueueDispatch_actionPlanErrors: IDs of the wrong kind and a note on a resume fail at plan time,
// naming the attribute; an unknown queue fails the invocation with the service's answer.
func TestAccSetQueueDispatch_actionPlanErrors(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const clusterUUID = "01234567-89ab-cdef-0123-456789abcdef"
	cases := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"note on a resume": {
			config: `cluster_id = "` + clusterUUID + `"` + "\n" + `queue_id = "linux"` + "\n" + `paused = false` + "\n" + `note = "why"`,
			want:   acctest.Wrapped(`A note explains a pause, and this action resumes dispatch (paused = false): remove the note.`),
		},
		"cluster slug": {
			config: `cluster_id = "platform"` + "\n" + `queue_id = "linux"` + "\n" + `paused = true`,
			want:   acctest.Wrapped(`"platform" is neither a UUID nor a GraphQL ID. Give the cluster's UUID (its id) or its GraphQL ID.`),
		},
		"queue graphql id of a team": {
			config: `cluster_id = "` + clusterUUID + `"` + "\n" + `queue_id = provider::buildkite::graphql_id("Team", "` + clusterUUID + `")` + "\n" + `paused = true`,
			want:   acctest.Wrapped(`is the GraphQL ID of a Team (` + clusterUUID + `), not of a ClusterQueue`),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps: []resource.TestStep{{
					Config:      e.Config(acctest.TriggeredAction("buildkite_set_queue_dispatch", tc.config)),
					PlanOnly:    true,
					ExpectError: tc.want,
				}},
			})
		})
	}

	// A queue the cluster does not have is found only when the action runs.
	c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("no-queue")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.Clusters.Delete(context.Background(), c.ID) })
	w := e.ActionWorkdir(t, `
action "buildkite_set_queue_dispatch" "missing" {
  config {
    cluster_id = "`+c.ID+`"
    queue_id   = "nowhere"
    paused     = true
  }
}
`)
	out, err := w.Invoke("action.buildkite_set_queue_dispatch.missing")
	if err == nil {
		t.Fatalf("pausing a queue the cluster does not have succeeded:\n%s", out)
	}
	acctest.ExpectOutput(t, out, "Unable to Read Cluster Queue", "Reading cluster queue nowhere of cluster "+c.ID+": the service answered 404")
}

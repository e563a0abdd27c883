package acctest

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccPipelineWithActions is a pipeline named name that triggers nothing, with action blocks beside it.
func PipelineWithActions(name, actions string) string {
	return fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name       = %q
  repository = "https://github.com/acme/app.git"
  steps      = "steps:\n  - command: make\n"
}
%s`, name, actions)
}

// pipelineBuilds lists the builds of the pipeline with slug on the service, oldest first.
func (e *TestEnv) PipelineBuilds(slug string) ([]buildkite.Build, error) {
	builds, err := e.Client.Builds.ListPipeline(context.Background(), slug, buildkite.BuildFilter{}, 0)
	slices.Reverse(builds)
	return builds, err
}

// mustPipelineSlug returns the slug of the pipeline named name.
func MustPipelineSlug(t *testing.T, e *TestEnv, name string) string {
	t.Helper()
	ps, err := e.Client.Pipelines.List(context.Background(), &buildkite.PipelineListOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Name == name {
			return p.Slug
		}
	}
	t.Fatalf("no pipeline is named %q", name)
	return ""
}

// queueDispatch reads whether the queue "linux" of the cluster named clusterName is paused, and its note.
func (e *TestEnv) QueueDispatch(t *testing.T, clusterName string) (clusterID string, paused bool, note string) {
	const key = "linux"
	t.Helper()
	ctx := context.Background()
	clusters, err := e.Client.Clusters.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clusters {
		if c.Name != clusterName {
			continue
		}
		queues, err := e.Client.Queues.List(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queues {
			if q.Key == key {
				return c.ID, q.DispatchPaused, kit.Deref(q.DispatchPausedNote)
			}
		}
	}
	t.Fatalf("no queue %q in a cluster named %q", key, clusterName)
	return "", false, ""
}

// dispatchCalls counts the emulator's pause_dispatch and resume_dispatch requests by status.
func (e *TestEnv) DispatchCalls() map[string]int {
	calls := map[string]int{}
	for _, r := range e.Server.Requests() {
		for _, action := range []string{"pause_dispatch", "resume_dispatch"} {
			if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/"+action) {
				calls[fmt.Sprintf("%s %d", action, r.Status)]++
			}
		}
	}
	return calls
}

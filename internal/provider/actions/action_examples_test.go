package actions_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// TestAccExamples_action applies the examples of the actions and functions (examples/actions and
// examples/functions, which the docs show) beside the cluster and queue examples they refer to, then
// invokes the queue actions by hand as their comments say: the docs' examples work as written. The
// pipeline's action names it as `caller` (Terraform 1.16), so Terraform does not warn of a reference to
// the triggering resource, and `-invoke` of that action takes `caller` from the pipeline in state (named
// by its address, as before, 1.16 warns and that -invoke fails: "Reference to uninitialized resource").
func TestAccExamples_action(t *testing.T) {
	acctest.RequireCLI(t, acctest.CallerCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the examples use fixed names (a cluster named Platform, a pipeline named App) that may exist in a real organization")
	}
	var body strings.Builder
	for _, f := range []string{
		"resources/buildkite_cluster/resource.tf",
		"resources/buildkite_cluster_queue/resource.tf",
		"actions/buildkite_create_build/action.tf",
		"actions/buildkite_set_queue_dispatch/action.tf",
		"functions/pipeline_slug/function.tf",
		"functions/graphql_id/function.tf",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		body.WriteString("\n# " + f + "\n" + string(b))
	}
	w := e.ActionWorkdir(t, body.String())
	out := w.Apply()
	acctest.ExpectOutput(t, out, "Created build #1 of app (scheduled)")
	if strings.Contains(out, "Reference to triggering resource") {
		t.Errorf("Terraform warns of an action's reference to the resource that triggers it; the examples name it as caller:\n%s", out)
	}
	acctest.ExpectOutput(t, w.MustInvoke("action.buildkite_create_build.app"), "Created build #2 of app (scheduled)")

	web, err := e.Client.Pipelines.Get(context.Background(), "web")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(kit.Deref(web.Configuration), "trigger: deploy-production") {
		t.Errorf("the pipeline_slug example's pipeline has the steps %q, want a trigger of deploy-production", kit.Deref(web.Configuration))
	}
	acctest.ExpectOutput(t, w.MustInvoke("action.buildkite_set_queue_dispatch.pause_linux"), `Paused dispatch to queue "linux"`)
	acctest.ExpectOutput(t, w.MustInvoke("action.buildkite_set_queue_dispatch.resume_linux"), `Resumed dispatch to queue "linux"`)
}

package provider

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"
	tfjson "github.com/hashicorp/terraform-json"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// An apply interrupted with Ctrl-C (SIGINT) must not lose what it created: Terraform asks the provider to
// stop, which cancels the context of every call in flight, and a create the service has received then acts
// without its answer reaching the state. The next apply would fail on names and keys already taken, or
// create duplicates where names need not be unique.

// interruptConfig is four clusters, and after them eight queues and four pipelines in those clusters: a
// second wave of twelve creates, most of which are in flight at once.
const interruptConfig = `
resource "buildkite_cluster" "c" {
  count = 4
  name  = "interrupt-${count.index}"
}

resource "buildkite_cluster_queue" "q" {
  count      = 8
  cluster_id = buildkite_cluster.c[count.index % 4].id
  key        = "q${count.index}"
}

resource "buildkite_pipeline" "p" {
  count      = 4
  name       = "interrupt-${count.index}"
  repository = "https://github.com/acme/app.git"
  cluster_id = buildkite_cluster.c[count.index].id
}
`

// TestAccProvider_interruptedApplyKeepsTrack applies interruptConfig against a service answering in 0.7 s,
// sends SIGINT once four creates of queues and pipelines have reached the service (and are waiting out its
// latency), and checks that the state records every object the service holds, those four included; then
// applies again, which must converge with exactly the configured objects.
func TestAccProvider_interruptedApplyKeepsTrack(t *testing.T) {
	t.Parallel()
	// The faults' Except sees each request as it arrives, before the latency: it counts the creates of the
	// second wave that have reached the service.
	var secondWave atomic.Int32
	e := acctest.NewTestEnvWith(t, fakeserver.Options{Faults: fakeserver.Faults{
		Latency: 700 * time.Millisecond,
		Except: func(r *http.Request) bool {
			if r.Method == http.MethodPost && (strings.HasSuffix(r.URL.Path, "/queues") || strings.HasSuffix(r.URL.Path, "/pipelines")) {
				secondWave.Add(1)
			}
			return r.UserAgent() == acctest.TestClientAgent
		},
	}})
	if e.Live {
		t.Skip("the service's latency is an emulator setting")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(e.Config(interruptConfig)), 0o600); err != nil {
		t.Fatal(err)
	}
	tf, err := tfexec.NewTerraform(dir, acctest.TerraformCLI(t))
	if err != nil {
		t.Fatal(err)
	}
	reattach := e.ServeInProcess(t)
	if err := tf.Init(context.Background(), tfexec.Reattach(reattach)); err != nil {
		t.Fatalf("terraform init: %v", err)
	}

	// tfexec sends SIGINT when the context ends.
	ctx, interrupt := context.WithCancel(context.Background())
	go func() {
		defer interrupt()
		for deadline := time.Now().Add(time.Minute); secondWave.Load() < 4 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	err = tf.Apply(ctx, tfexec.Reattach(reattach), tfexec.Parallelism(10))
	if err == nil {
		t.Fatal("the apply finished before it was interrupted; the test no longer interrupts it")
	}
	t.Logf("interrupted apply: %v", err)
	// A create whose caller gave up still acts once the emulator's latency has passed.
	time.Sleep(time.Second)
	interrupted := compareWithState(e, t, tf, reattach)
	if interrupted == 16 {
		t.Fatalf("all 16 objects exist after the interrupt; it came too late to test anything")
	}
	if sent := int(secondWave.Load()); interrupted < 4+sent {
		t.Fatalf("%d creates of queues and pipelines had reached the service when it was interrupted, but only %d objects exist", sent, interrupted-4)
	}
	t.Logf("%d of 16 objects existed, each in state, after the interrupt", interrupted)

	if err := tf.Apply(context.Background(), tfexec.Reattach(reattach)); err != nil {
		t.Fatalf("the apply after the interrupt: %v", err)
	}
	if n := compareWithState(e, t, tf, reattach); n != 16 {
		t.Fatalf("after the second apply the service holds %d objects, want 16", n)
	}
}

// compareWithState fails the test unless the service holds exactly the objects of the state in dir, and
// returns how many there are.
func compareWithState(e *acctest.TestEnv, t *testing.T, tf *tfexec.Terraform, reattach tfexec.ReattachInfo) int {
	t.Helper()
	state, err := tf.Show(context.Background(), tfexec.Reattach(reattach))
	if err != nil {
		t.Fatalf("terraform show: %v", err)
	}
	listed, err := acctest.ServiceObjects(context.Background(), e.Client)
	if err != nil {
		t.Fatal(err)
	}
	if err := acctest.CompareObjects(listed, jsonStateObjects(state)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ids := range listed {
		n += len(ids)
	}
	return n
}

// jsonStateObjects are the managed resources of a state as `terraform show -json` gives it, by type.
func jsonStateObjects(s *tfjson.State) acctest.ObjectsByType {
	inState := acctest.ObjectsByType{}
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return inState
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Mode != tfjson.ManagedResourceMode {
			continue
		}
		id, _ := r.AttributeValues["id"].(string)
		inState.Add(r.Type, id)
	}
	return inState
}

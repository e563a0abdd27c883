package provider

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/actions"
)

// TestAwaitStopsHidesNoPart: the wrapped framework server keeps every optional part terraform-plugin-go
// looks for (actions, list resources, state stores), so wrapping it loses nothing.
func TestAwaitStopsHidesNoPart(t *testing.T) {
	s := awaitStops(providerserver.NewProtocol6(New("test")())())
	if _, ok := s.(*stopAwaitingServer); !ok {
		t.Fatalf("the framework's server was not wrapped (%T): it lacks an optional part fullServer names", s)
	}
	if _, ok := s.(fullServer); !ok {
		t.Fatal("the wrapper hides an optional part")
	}
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestAccCreateBuild_actionInterrupt: Ctrl-C while the action waits for its build makes the invocation
// fail, saying Terraform stopped it, every time: never "Apply complete!" with exit 0. Before the provider
// awaited the stop (action_stop.go), 7 of 8 such runs exited 0. The build is left to go on.
func TestAccCreateBuild_actionInterrupt(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the build is left scheduled on the emulator; on the real service an agent may run it")
	}
	name := e.Name("interrupt")
	w := e.ActionWorkdir(t, acctest.PipelineWithActions(name, `
action "buildkite_create_build" "wait" {
  config {
    pipeline   = buildkite_pipeline.test.slug
    branch     = "main"
    wait_until = "finished"
    timeout    = "2m"
  }
}
`))
	w.Apply()
	slug := acctest.MustPipelineSlug(t, e, name)
	const runs = 4
	for i := range runs {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, w.CLI, "apply", "-no-color", "-input=false", "-auto-approve",
			"-invoke=action.buildkite_create_build.wait")
		cmd.Dir, cmd.Env = w.Dir, w.Env
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		for !strings.Contains(out.String(), "Created build") && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(time.Second) // the wait has begun
		stopped := time.Now()
		_ = cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		took := time.Since(stopped)
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Errorf("run %d: Ctrl-C during the wait ended with %v, want a failure:\n%s", i, err, out)
			continue
		}
		acctest.ExpectOutput(t, out.String(), "Stopped Waiting for Build", "when Terraform stopped the action, waiting until it finished. The build goes on")
		if strings.Contains(out.String(), "Apply complete!") {
			t.Errorf("run %d: an interrupted wait reported \"Apply complete!\":\n%s", i, out)
		}
		if took > 15*time.Second {
			t.Errorf("run %d: Terraform took %s to stop after Ctrl-C", i, took)
		}
	}
	builds, err := e.PipelineBuilds(slug)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builds {
		if b.State != actions.BuildScheduled {
			t.Errorf("build #%d is %s after the interrupt, want it left scheduled", b.Number, b.State)
		}
	}
}

package actions_test

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// testAccCreateBuildConfig is a pipeline named name, whose create and update trigger the action
// buildkite_create_build.first, which names the pipeline as `caller` (Terraform 1.16, callerCLI), with
// action blocks beside it (actions).
func testAccCreateBuildConfig(name, description, actions string) string {
	return fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name        = %q
  description = %q
  repository  = "https://github.com/acme/app.git"
  steps       = "steps:\n  - command: make\n"

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.buildkite_create_build.first]
    }
  }
}

action "buildkite_create_build" "first" {
  config {
    pipeline  = caller.slug
    branch    = "main"
    message   = "Built by Terraform"
    env       = { DEPLOY = "1" }
    meta_data = { "release-name" = caller.name }
  }
}
%s`, name, description, actions)
}

// checkBuilds checks that the pipeline in state has exactly want builds, each as the action asks for.
func checkBuilds(e *acctest.TestEnv, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		slug := acctest.PipelineAttr(s, "slug")
		builds, err := e.PipelineBuilds(slug)
		if err != nil {
			return err
		}
		if len(builds) != want {
			return fmt.Errorf("pipeline %s has %d builds, want %d", slug, len(builds), want)
		}
		for _, b := range builds {
			if b.Branch != "main" || b.Commit != "HEAD" || b.Message != "Built by Terraform" || b.MetaData["release-name"] != acctest.PipelineAttr(s, "name") {
				return fmt.Errorf("build #%d of %s: branch %q, commit %q, message %q, meta_data %v; want main, HEAD, the message and the pipeline's name",
					b.Number, slug, b.Branch, b.Commit, b.Message, b.MetaData)
			}
		}
		return nil
	}
}

// TestAccCreateBuild_action: a pipeline's create triggers exactly one build, an apply that changes
// nothing none, and an update one more.
func TestAccCreateBuild_action(t *testing.T) {
	acctest.RequireCLI(t, acctest.CallerCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("triggered")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccCreateBuildConfig(name, "first", "")),
				Check:  checkBuilds(e, 1),
			},
			{
				// The same configuration again: nothing is created or updated, so nothing is triggered.
				Config: e.Config(testAccCreateBuildConfig(name, "first", "")),
				Check:  checkBuilds(e, 1),
			},
			{
				Config: e.Config(testAccCreateBuildConfig(name, "second", "")),
				Check:  checkBuilds(e, 2),
			},
		},
	})
}

// TestAccCreateBuild_actionInvoke: `terraform apply -invoke` starts one more build, says which, and
// changes no state. The pipeline is named by its UUID here, which the action looks up; a slug that names
// no pipeline fails, naming it.
func TestAccCreateBuild_actionInvoke(t *testing.T) {
	acctest.RequireCLI(t, acctest.CallerCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("invoked")
	w := e.ActionWorkdir(t, testAccCreateBuildConfig(name, "invoked", `
action "buildkite_create_build" "by_id" {
  config {
    pipeline = buildkite_pipeline.test.id
    branch   = "release"
    commit   = "0123456789abcdef0123456789abcdef01234567"
  }
}

action "buildkite_create_build" "missing" {
  config {
    pipeline = "no-such-pipeline"
    branch   = "main"
  }
}
`))
	out := w.Apply()
	slug := acctest.MustPipelineSlug(t, e, name)
	acctest.ExpectOutput(t, out, "Created build #1 of "+slug+" (scheduled)")

	out = w.MustInvoke("action.buildkite_create_build.by_id")
	builds, err := e.PipelineBuilds(slug)
	if err != nil {
		t.Fatal(err)
	}
	if len(builds) != 2 {
		t.Fatalf("pipeline %s has %d builds after the create and one invocation, want 2", slug, len(builds))
	}
	b := builds[1]
	if b.Branch != "release" || b.Commit != "0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("the invoked build is of %s at %s, want release at the configured commit", b.Branch, b.Commit)
	}
	acctest.ExpectOutput(t, out, fmt.Sprintf("Created build #%d of %s (scheduled): %s", b.Number, slug, b.WebURL))
	w.ExpectNoChanges()

	out, err = w.Invoke("action.buildkite_create_build.missing")
	if err == nil {
		t.Fatalf("building a pipeline that does not exist succeeded:\n%s", out)
	}
	acctest.ExpectOutput(t, out, "Creating a build of pipeline no-such-pipeline: the service answered 404",
		"No pipeline of organization "+e.Org+" has that slug")
	w.Destroy()
}

// TestAccCreateBuild_actionInvokeCaller: an action that two pipelines trigger and that names its pipeline
// as `caller` (Terraform 1.16) builds each pipeline on create; `terraform apply -invoke` of it builds each
// once more, and with -target only the pipeline targeted, as the action's page says.
func TestAccCreateBuild_actionInvokeCaller(t *testing.T) {
	acctest.RequireCLI(t, acctest.CallerCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("callers")
	w := e.ActionWorkdir(t, fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  count      = 2
  name       = "%s-${count.index}"
  repository = "https://github.com/acme/app.git"
  steps      = "steps:\n  - command: make\n"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.buildkite_create_build.each]
    }
  }
}

action "buildkite_create_build" "each" {
  config {
    pipeline = caller.slug
    branch   = "main"
    message  = caller.name
  }
}
`, name))
	out := w.Apply()
	if strings.Contains(out, "Reference to triggering resource") {
		t.Errorf("Terraform warns of a reference to the triggering resource in an action that uses caller:\n%s", out)
	}
	slugs := []string{acctest.MustPipelineSlug(t, e, name+"-0"), acctest.MustPipelineSlug(t, e, name+"-1")}
	// checkBuilds checks that pipeline i has want[i] builds, each with its own pipeline's name as message.
	checkBuilds := func(when string, want ...int) {
		t.Helper()
		for i, slug := range slugs {
			builds, err := e.PipelineBuilds(slug)
			if err != nil {
				t.Fatal(err)
			}
			if len(builds) != want[i] {
				t.Errorf("%s: pipeline %s has %d builds, want %d", when, slug, len(builds), want[i])
			}
			for _, b := range builds {
				if b.Message != fmt.Sprintf("%s-%d", name, i) {
					t.Errorf("%s: build #%d of %s has the message %q, want its own pipeline's name (caller.name)", when, b.Number, slug, b.Message)
				}
			}
		}
	}
	checkBuilds("after the create", 1, 1)

	out = w.MustInvoke("action.buildkite_create_build.each")
	acctest.ExpectOutput(t, out, "Created build #2 of "+slugs[0]+" (scheduled)", "Created build #2 of "+slugs[1]+" (scheduled)")
	checkBuilds("after -invoke", 2, 2)

	w.MustInvoke("action.buildkite_create_build.each", "-target=buildkite_pipeline.test[0]")
	checkBuilds("after -invoke -target of the first pipeline", 3, 2)
	w.ExpectNoChanges()
	w.Destroy()
}

// TestAccCreateBuild_actionWait: waiting until started succeeds once the build runs; waiting until
// finished reports each state it sees and fails, with the build's URL and state, when the build fails.
// The build moves through states by the emulator's test routes, as agents would move it.
func TestAccCreateBuild_actionWait(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("builds are moved through states with the emulator's test routes, which the real service does not have")
	}
	name := e.Name("waited")
	w := e.ActionWorkdir(t, acctest.PipelineWithActions(name, `
action "buildkite_create_build" "started" {
  config {
    pipeline   = buildkite_pipeline.test.slug
    branch     = "main"
    wait_until = "started"
    timeout    = "2m"
  }
}

action "buildkite_create_build" "finished" {
  config {
    pipeline   = buildkite_pipeline.test.slug
    branch     = "main"
    wait_until = "finished"
  }
}
`))
	w.Apply()
	slug := acctest.MustPipelineSlug(t, e, name)

	moved := moveBuild(e, t, slug, 1, "running")
	out := w.MustInvoke("action.buildkite_create_build.started")
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
	acctest.ExpectOutput(t, out, "Created build #1 of "+slug+" (scheduled)", "Build #1 of "+slug+" is now running")

	moved = moveBuild(e, t, slug, 2, "running", "failed")
	out, err := w.Invoke("action.buildkite_create_build.finished")
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatalf("the action succeeded although the build it waited for failed:\n%s", out)
	}
	url := e.URL + "/acme/" + slug + "/builds/2"
	acctest.ExpectOutput(t, out, "Build #2 of "+slug+" is now running", "Build #2 of "+slug+" is now failed",
		"Build Did Not Pass", "Build #2 of pipeline "+slug+" ended in state failed: "+url)
}

// TestAccCreateBuild_actionTimeout: a build that does not start within the timeout fails the action,
// naming the build, its state and its URL; the build is left to go on.
func TestAccCreateBuild_actionTimeout(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("timeout")
	w := e.ActionWorkdir(t, acctest.PipelineWithActions(name, `
action "buildkite_create_build" "slow" {
  config {
    pipeline   = buildkite_pipeline.test.slug
    branch     = "main"
    wait_until = "started"
    timeout    = "3s"
  }
}
`))
	w.Apply()
	slug := acctest.MustPipelineSlug(t, e, name)
	start := time.Now()
	out, err := w.Invoke("action.buildkite_create_build.slow")
	if err == nil {
		t.Fatalf("the action succeeded although its build never started:\n%s", out)
	}
	acctest.ExpectOutput(t, out, "Timed Out Waiting for Build",
		"Build #1 of pipeline "+slug+" was still scheduled when the action's timeout of 3s passed, waiting until it started. The build goes on:")
	t.Logf("the invocation failed after %s", time.Since(start).Round(time.Millisecond))
	if !e.Live {
		if state, _, _ := e.Server.Store().BuildState(e.Org, slug, 1); state != "scheduled" {
			t.Errorf("the build is %s after the timeout, want it left scheduled", state)
		}
	}
	w.Destroy()
}

// TestAccCreateBuild_actionPlanErrors: what cannot work fails at plan time, naming the attribute, before
// the resource that triggers the action is created.
func TestAccCreateBuild_actionPlanErrors(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cases := map[string]struct {
		provider, config string
		want             *regexp.Regexp
	}{
		"wait_until": {
			config: `pipeline = "app"` + "\n" + `branch = "main"` + "\n" + `wait_until = "soon"`,
			want:   regexp.MustCompile(`(?s)wait_until.*value must be one of`),
		},
		"timeout": {
			config: `pipeline = "app"` + "\n" + `branch = "main"` + "\n" + `timeout = "ten minutes"`,
			want:   regexp.MustCompile(`(?s)timeout.*ten minutes`),
		},
		"graphql id of a cluster": {
			config: `pipeline = provider::buildkite::graphql_id("Cluster", "01234567-89ab-cdef-0123-456789abcdef")` + "\n" + `branch = "main"`,
			want:   acctest.Wrapped(`is the GraphQL ID of a Cluster (01234567-89ab-cdef-0123-456789abcdef), not of a Pipeline`),
		},
		"blank branch": {
			config: `pipeline = "app"` + "\n" + `branch = " "`,
			want:   acctest.Wrapped(`branch must contain a character other than white space`),
		},
	}
	if !e.Live {
		scopes := slices.DeleteFunc(fakeserver.AllScopes(), func(s string) bool { return s == "write_builds" || s == "read_builds" })
		e.Server.Store().AddToken("no-builds", []string{e.Org}, scopes)
		cases["missing scopes"] = struct {
			provider, config string
			want             *regexp.Regexp
		}{
			provider: e.ProviderBlock(e.Org, "no-builds"),
			config:   `pipeline = "app"` + "\n" + `branch = "main"` + "\n" + `wait_until = "finished"`,
			want:     acctest.Wrapped(`The buildkite_create_build action needs the "read_builds", "write_builds" scopes`),
		}
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := tc.provider + acctest.TriggeredAction("buildkite_create_build", tc.config)
			if tc.provider == "" {
				cfg = e.Config(cfg)
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: tc.want}},
			})
		})
	}
}

// moveBuild moves build number of the pipeline with slug through states in the background, with the
// emulator's test route, as an action waiting for it sees: it waits for the build to exist, and after
// each state for the action to read the build again, so that every state is seen. The channel answers
// once the last state is set (or the build did not appear within a minute).
func moveBuild(e *acctest.TestEnv, t *testing.T, slug string, number int, states ...string) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	buildPath := fmt.Sprintf("/v2/organizations/%s/pipelines/%s/builds/%d", e.Org, slug, number)
	go func() {
		deadline := time.Now().Add(time.Minute)
		for {
			if _, _, ok := e.Server.Store().BuildState(e.Org, slug, number); ok {
				break
			}
			if time.Now().After(deadline) {
				done <- fmt.Errorf("build #%d of %s was not created within a minute", number, slug)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		for i, state := range states {
			body := bytes.NewBufferString(`{"state":"` + state + `"}`)
			req, _ := http.NewRequest(http.MethodPut, e.URL+"/_fake/organizations/"+e.Org+"/pipelines/"+slug+fmt.Sprintf("/builds/%d", number), body)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				done <- err
				return
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				done <- fmt.Errorf("moving build #%d of %s to %s: the emulator answered %s", number, slug, state, resp.Status)
				return
			}
			if i == len(states)-1 {
				break
			}
			seen := readsOf(e, buildPath)
			for readsOf(e, buildPath) == seen && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
		}
		done <- nil
	}()
	return done
}

// readsOf counts the emulator's answered GETs of path.
func readsOf(e *acctest.TestEnv, path string) int {
	n := 0
	for _, r := range e.Server.Requests() {
		if r.Method == http.MethodGet && r.Path == path && r.Status/100 == 2 {
			n++
		}
	}
	return n
}

package acctest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-exec/tfexec"
)

// The action acceptance tests (named TestAcc…_action…) need Terraform 1.14 or later, and those whose
// action names its triggering resource as `caller` 1.16 (callerCLI): `make testacc-next` runs them under
// bin/terraform-1.16. terraform-plugin-testing v1.16 can trigger an action from a
// resource's lifecycle in an ordinary step, but has no step for `terraform apply -invoke`, so the tests
// that invoke an action drive the CLI themselves through cliWorkdir.

// actionCLI: action blocks, lifecycle action triggers and `terraform apply -invoke`, which OpenTofu does
// not have (1.12).
var ActionCLI = CLIFeature{"Terraform actions", goversion.Must(goversion.NewVersion("1.14.0")), nil}

// callerCLI: `caller`, the resource whose action_trigger runs an action, in the action's configuration
// (Terraform 1.16). An action that refers to that resource by its address instead works from 1.14, but 1.16
// warns that the reference may make a cycle; the examples and the tests of triggered actions use `caller`.
var CallerCLI = CLIFeature{"caller in an action's configuration", goversion.Must(goversion.NewVersion("1.16.0")), nil}

// cliWorkdir is a working directory where a test runs the CLI itself, with the provider served in this
// process as terraform-plugin-testing serves it to its own steps.
type CLIWorkdir struct {
	t   *testing.T
	CLI string
	Dir string
	Env []string
}

// actionWorkdir writes body, after the provider block of e, into a fresh directory and runs
// `terraform init` there with a CLI that has actions (see requireCLI).
func (e *TestEnv) ActionWorkdir(t *testing.T, body string) *CLIWorkdir {
	t.Helper()
	return e.WorkdirWith(t, RequireCLI(t, ActionCLI), body)
}

// workdirWith is actionWorkdir with the CLI cli (terraformCLI's, for a test that needs no action).
func (e *TestEnv) WorkdirWith(t *testing.T, cli, body string) *CLIWorkdir {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(e.Config(body)), 0o600); err != nil {
		t.Fatal(err)
	}
	served := e.ServeInProcess(t)
	// Provider functions are found only through required_providers, so the served address is declared.
	for address := range served {
		versions := "terraform {\n  required_providers {\n    buildkite = { source = \"" + address + "\" }\n  }\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "versions.tf"), []byte(versions), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w := Reattached(t, cli, dir, served)
	w.MustRun("init", "-no-color", "-input=false")
	return w
}

// reattached is a working directory dir where cli finds the provider served in this process (served).
func Reattached(t *testing.T, cli, dir string, served tfexec.ReattachInfo) *CLIWorkdir {
	t.Helper()
	reattach, err := json.Marshal(served)
	if err != nil {
		t.Fatal(err)
	}
	return &CLIWorkdir{t: t, CLI: cli, Dir: dir, Env: append(os.Environ(),
		"TF_REATTACH_PROVIDERS="+string(reattach), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
}

// run runs the CLI with args in the working directory, returning what it printed (stdout and stderr) and
// its error; it gives up after five minutes.
func (w *CLIWorkdir) Run(args ...string) (string, error) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.CLI, args...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	out, err := cmd.CombinedOutput()
	w.t.Logf("terraform %s:\n%s", strings.Join(args, " "), out)
	return string(out), err
}

// mustRun is run that fails the test when the CLI fails.
func (w *CLIWorkdir) MustRun(args ...string) string {
	w.t.Helper()
	out, err := w.Run(args...)
	if err != nil {
		w.t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// apply applies the configuration.
func (w *CLIWorkdir) Apply() string {
	w.t.Helper()
	return w.MustRun("apply", "-no-color", "-input=false", "-auto-approve")
}

// invoke runs `terraform apply -invoke=<address>` with the further arguments args (such as -var),
// returning what it printed and its error.
func (w *CLIWorkdir) Invoke(address string, args ...string) (string, error) {
	w.t.Helper()
	return w.Run(append([]string{"apply", "-no-color", "-input=false", "-auto-approve", "-invoke=" + address}, args...)...)
}

// mustInvoke is invoke that fails the test when the action fails.
func (w *CLIWorkdir) MustInvoke(address string, args ...string) string {
	w.t.Helper()
	out, err := w.Invoke(address, args...)
	if err != nil {
		w.t.Fatalf("terraform apply -invoke=%s: %v", address, err)
	}
	return out
}

// expectNoChanges fails the test unless `terraform plan` with args plans no change (an action changes no
// state; a workspace moved from the official provider has nothing to change), and returns what it printed.
func (w *CLIWorkdir) ExpectNoChanges(args ...string) string {
	w.t.Helper()
	out, err := w.Run(append([]string{"plan", "-no-color", "-input=false", "-detailed-exitcode"}, args...)...)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		w.t.Fatalf("terraform plan %s is not empty:\n%s", strings.Join(args, " "), out)
	}
	if err != nil {
		w.t.Fatalf("terraform plan %s: %v", strings.Join(args, " "), err)
	}
	if !strings.Contains(out, "No changes.") {
		w.t.Fatalf("terraform plan %s exited 0 without saying \"No changes.\"", strings.Join(args, " "))
	}
	return out
}

// destroy destroys what the configuration made, which matters on the real service.
func (w *CLIWorkdir) Destroy() {
	w.t.Helper()
	w.MustRun("destroy", "-no-color", "-input=false", "-auto-approve")
}

// triggeredAction is an action of actionType named test, with the attributes config, that a
// terraform_data's create triggers: a plan of it plans the action, so plan-time checks run.
func TriggeredAction(actionType, config string) string {
	return `
resource "terraform_data" "trigger" {
  input = "x"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.` + actionType + `.test]
    }
  }
}

action "` + actionType + `" "test" {
  config {
` + config + `
  }
}
`
}

// expectOutput fails the test unless out holds each of wants, each as Terraform may wrap it (see wrapped).
func ExpectOutput(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !Wrapped(want).MatchString(out) {
			t.Errorf("the CLI's output lacks %q:\n%s", want, out)
		}
	}
}

// providerBlock is the provider block of the emulator with another organization or token.
func (e *TestEnv) ProviderBlock(org, token string) string {
	return fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %q
  graphql_url  = %q
  organization = %q
  api_token    = %q
  max_retries  = 1
}
`, e.URL, e.GraphQLURL, org, token)
}

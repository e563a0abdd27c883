package actions_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/actions"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// Inputs that arrive through variables are unknown when Terraform validates a configuration, so the
// attribute validators skip them; these tests give the actions' inputs with -var and check that what a
// literal would be refused for is refused as well, before anything is sent to the service.

// actionVariables declares the variables the action blocks of these tests read.
const actionVariables = `
variable "timeout" {
  type    = string
  default = null
}

variable "wait_until" {
  type    = string
  default = null
}

variable "note" {
  type    = string
  default = null
}

variable "paused" {
  type    = bool
  default = true
}
`

// TestAccCreateBuild_actionVariables: a timeout or wait_until given by a variable that a literal would
// be refused for fails the invocation, and also the plan of a triggered action, naming the attribute and
// the value; no build is created, and no wait falls back to a default.
func TestAccCreateBuild_actionVariables(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("variables")
	w := e.ActionWorkdir(t, acctest.PipelineWithActions(name, actionVariables+`
action "buildkite_create_build" "from_vars" {
  config {
    pipeline   = buildkite_pipeline.test.slug
    branch     = "main"
    wait_until = var.wait_until
    timeout    = var.timeout
  }
}
`))
	w.Apply()
	slug := acctest.MustPipelineSlug(t, e, name)

	// wait_until comes with a short timeout, so that a wait taken for another never lasts the hour.
	cases := []struct{ vars, want string }{
		{"timeout=soon", `timeout must be a positive duration such as 90s or 5m, got "soon"`},
		{"timeout=-5s", `timeout must be a positive duration such as 90s or 5m, got "-5s"`},
		{"timeout=0s", `timeout must be a positive duration such as 90s or 5m, got "0s"`},
		{"wait_until=passed -var=timeout=20s", `wait_until value must be one of`},
	}
	for _, tc := range cases {
		out, err := w.Invoke("action.buildkite_create_build.from_vars", strings.Split("-var="+tc.vars, " ")...)
		if err == nil {
			t.Errorf("invoking with -var=%s succeeded:\n%s", tc.vars, out)
		}
		acctest.ExpectOutput(t, out, tc.want)
	}
	if builds, err := e.PipelineBuilds(slug); err != nil || len(builds) != 0 {
		t.Errorf("pipeline %s has %d builds (%v) after invocations that should have been refused, want none", slug, len(builds), err)
	}

	// The same refusal when the action is triggered by a create: the plan fails, nothing is created.
	for _, tc := range cases {
		t.Run("triggered "+tc.vars, func(t *testing.T) {
			tw := e.ActionWorkdir(t, actionVariables+acctest.TriggeredAction("buildkite_create_build",
				`pipeline = "app"`+"\n"+`branch = "main"`+"\n"+`wait_until = var.wait_until`+"\n"+`timeout = var.timeout`))
			out, err := tw.Run(append([]string{"plan", "-no-color", "-input=false"}, strings.Split("-var="+tc.vars, " ")...)...)
			if err == nil {
				t.Errorf("planning with -var=%s succeeded:\n%s", tc.vars, out)
			}
			acctest.ExpectOutput(t, out, tc.want)
		})
	}
	w.Destroy()
}

// TestAccSetQueueDispatch_actionVariables: a note with paused = false, given by variables, is refused
// when invoked and when planned, and the queue is not resumed with its note dropped.
func TestAccSetQueueDispatch_actionVariables(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("dispatch-vars")
	w := e.ActionWorkdir(t, acctest.ClusterQueueConfig(cluster, "linux", "")+actionVariables+`
action "buildkite_set_queue_dispatch" "from_vars" {
  config {
    cluster_id = buildkite_cluster.test.id
    queue_id   = "linux"
    paused     = var.paused
    note       = var.note
  }
}
`)
	w.Apply()
	out := w.MustInvoke("action.buildkite_set_queue_dispatch.from_vars", "-var=note=Agent maintenance")
	acctest.ExpectOutput(t, out, "Paused dispatch to")

	const want = "A note explains a pause, and this action resumes dispatch (paused = false): remove the note."
	out, err := w.Invoke("action.buildkite_set_queue_dispatch.from_vars", "-var=paused=false", "-var=note=done")
	if err == nil {
		t.Errorf("resuming with a note succeeded:\n%s", out)
	}
	acctest.ExpectOutput(t, out, want)
	if _, paused, note := e.QueueDispatch(t, cluster); !paused || note != "Agent maintenance" {
		t.Errorf("after the refused resume the queue is paused=%t with note %q, want it still paused with its note", paused, note)
	}
	if !e.Live {
		if got := e.DispatchCalls(); got[fmt.Sprintf("resume_dispatch %d", http.StatusOK)] != 0 {
			t.Errorf("the service was asked to resume: %v", got)
		}
	}

	tw := e.ActionWorkdir(t, actionVariables+acctest.TriggeredAction("buildkite_set_queue_dispatch",
		`cluster_id = "01234567-89ab-cdef-0123-456789abcdef"`+"\n"+`queue_id = "linux"`+"\n"+`paused = var.paused`+"\n"+`note = var.note`))
	out, err = tw.Run("plan", "-no-color", "-input=false", "-var=paused=false", "-var=note=done")
	if err == nil || !strings.Contains(out, "Note Without a Pause") {
		t.Errorf("planning a resume with a note did not fail with the note's error (%v):\n%s", err, out)
	}
	acctest.ExpectOutput(t, out, want)
	w.Destroy()
}

// TestAccCreateBuild_actionLongInput: a pipeline reference of 100,000 characters is not echoed whole in
// the error that names it, nor in the service's answer it quotes; what is shown says how long it was.
func TestAccCreateBuild_actionLongInput(t *testing.T) {
	acctest.RequireCLI(t, acctest.ActionCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	long := strings.Repeat("x", 100_000)
	w := e.ActionWorkdir(t, `
action "buildkite_create_build" "long" {
  config {
    pipeline = "`+long+`"
    branch   = "main"
  }
}
`)
	out, err := w.Invoke("action.buildkite_create_build.long")
	if err == nil {
		t.Fatalf("building a pipeline of a 100,000-character slug succeeded")
	}
	acctest.ExpectOutput(t, out, "Creating a build of pipeline xxxxxxxx", "(100000 characters)")
	// Terraform prints the configuration in the plan; what the provider said starts at "Action failed".
	// Terraform 1.16 also quotes, under the error, the configuration line it points at (`12:     pipeline =
	// "xxx…"`, after "on main.tf line 12"): Terraform's own quote of the configuration, left out of the count.
	_, said, _ := strings.Cut(out, "Action failed:")
	said = configQuote.ReplaceAllString(said, "")
	if said == "" || strings.Count(said, "x") > 1_000 {
		t.Errorf("the provider's error holds %d x: the slug was echoed", strings.Count(said, "x"))
	}
}

// configQuote is a line of the configuration that Terraform quotes under a diagnostic, after its "on
// <file> line <n>" line: the line's number, a colon, the line.
var configQuote = regexp.MustCompile(`(?m)^\s*\d+: .*$`)

// actionConfig is the configuration of action a with the string attributes given (the rest null), as
// Terraform sends it to Invoke.
func actionConfig(t *testing.T, a action.Action, values map[string]string) tfsdk.Config {
	t.Helper()
	ctx := context.Background()
	var sr action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
		if v, ok := values[name]; ok {
			attrs[name] = tftypes.NewValue(at, v)
		}
	}
	return tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, attrs)}
}

// TestCreateBuildInvokeChecksInputs: Invoke checks what it is given again, for values that were unknown
// when the action was planned (a resource's attribute not yet created), and refuses rather than falling
// back to a default; nothing is asked of the service (the action has no client here).
func TestCreateBuildInvokeChecksInputs(t *testing.T) {
	cases := map[string]struct {
		values map[string]string
		want   string
	}{
		"timeout":    {map[string]string{"timeout": "soon"}, `timeout must be a positive duration such as 90s or 5m, got "soon"`},
		"negative":   {map[string]string{"timeout": "-5s"}, `got "-5s"`},
		"zero":       {map[string]string{"timeout": "0s"}, `got "0s"`},
		"wait_until": {map[string]string{"wait_until": "passed"}, `value must be one of`},
		"pipeline":   {map[string]string{"pipeline": kit.GraphQLID("Cluster", "01234567-89ab-cdef-0123-456789abcdef")}, "not of a Pipeline"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := actions.NewCreateBuildAction()
			values := map[string]string{"pipeline": "app", "branch": "main"}
			maps.Copy(values, tc.values)
			resp := &action.InvokeResponse{}
			a.Invoke(context.Background(), action.InvokeRequest{Config: actionConfig(t, a, values)}, resp)
			if !resp.Diagnostics.HasError() {
				t.Fatal("the invocation was not refused")
			}
			text := fmt.Sprint(resp.Diagnostics)
			if !strings.Contains(text, tc.want) || strings.Contains(text, "Provider Not Configured") {
				t.Errorf("diagnostics %s, want %q before anything else", text, tc.want)
			}
		})
	}
}

// TestSetQueueDispatchInvokeChecksInputs: a note with paused = false is refused by Invoke as well.
func TestSetQueueDispatchInvokeChecksInputs(t *testing.T) {
	a := actions.NewSetQueueDispatchAction()
	ctx := context.Background()
	var sr action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	raw := tftypes.NewValue(typ, map[string]tftypes.Value{
		"cluster_id": tftypes.NewValue(tftypes.String, "01234567-89ab-cdef-0123-456789abcdef"),
		"queue_id":   tftypes.NewValue(tftypes.String, "linux"),
		"paused":     tftypes.NewValue(tftypes.Bool, false),
		"note":       tftypes.NewValue(tftypes.String, "done"),
	})
	resp := &action.InvokeResponse{}
	a.Invoke(ctx, action.InvokeRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: raw}}, resp)
	if text := fmt.Sprint(resp.Diagnostics); !strings.Contains(text, "Note Without a Pause") || strings.Contains(text, "Provider Not Configured") {
		t.Errorf("diagnostics %s, want the note refused before anything else", text)
	}
}

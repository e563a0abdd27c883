package actions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ action.ActionWithConfigure      = (*createBuildAction)(nil)
	_ action.ActionWithModifyPlan     = (*createBuildAction)(nil)
	_ action.ActionWithValidateConfig = (*createBuildAction)(nil)
)

// What wait_until accepts: "" returns once the build is created.
const (
	waitCreated  = ""
	waitStarted  = "started"
	waitFinished = "finished"
)

// Build states (https://buildkite.com/docs/apis/rest-api/builds) that the wait tells apart.
const (
	buildPassed    = "passed"
	buildRunning   = "running"
	buildFailing   = "failing"
	BuildScheduled = "scheduled"
)

// buildEndStates are the states a build does not leave: only passed is a success.
var buildEndStates = []string{buildPassed, "failed", "canceled", "skipped", "not_run"}

// defaultBuildWait bounds an invocation that waits for its build when the configuration sets no timeout.
const defaultBuildWait = time.Hour

// NewCreateBuildAction returns the buildkite_create_build action.
func NewCreateBuildAction() action.Action {
	return &createBuildAction{
		ActionBase: kit.NewActionBase("create_build"),
		poll:       pollSchedule{first: time.Second, max: 10 * time.Second},
	}
}

// createBuildAction starts a build of a pipeline, such as a first build when the pipeline is created, and
// can wait for it to start or finish.
type createBuildAction struct {
	kit.ActionBase
	poll pollSchedule
}

// pollSchedule is how often a wait asks for the build: first after the first interval, then twice as long
// each time, up to max, so a short build is seen soon and a long one costs few requests.
type pollSchedule struct {
	first, max time.Duration
}

type createBuildModel struct {
	Pipeline  types.String `tfsdk:"pipeline"`
	Branch    types.String `tfsdk:"branch"`
	Commit    types.String `tfsdk:"commit"`
	Message   types.String `tfsdk:"message"`
	Env       types.Map    `tfsdk:"env"`
	MetaData  types.Map    `tfsdk:"meta_data"`
	WaitUntil types.String `tfsdk:"wait_until"`
	Timeout   types.String `tfsdk:"timeout"`
}

// request is the build create the configuration asks for.
func (m *createBuildModel) request(ctx context.Context, diags *diag.Diagnostics) buildkite.BuildCreate {
	in := buildkite.BuildCreate{
		Branch:  m.Branch.ValueString(),
		Commit:  m.Commit.ValueString(),
		Message: m.Message.ValueString(),
	}
	if in.Commit == "" {
		in.Commit = "HEAD"
	}
	diags.Append(m.Env.ElementsAs(ctx, &in.Env, false)...)
	diags.Append(m.MetaData.ElementsAs(ctx, &in.MetaData, false)...)
	return in
}

// wait returns what the invocation waits for and how long it may take (0 for the provider's create
// timeout). A value ValidateKnown let through and this cannot read is an error, never a default.
func (m *createBuildModel) wait(diags *diag.Diagnostics) (until string, limit time.Duration) {
	until = m.WaitUntil.ValueString()
	if !slices.Contains([]string{waitCreated, waitStarted, waitFinished}, until) {
		diags.AddAttributeError(path.Root("wait_until"), "Invalid Wait",
			fmt.Sprintf("wait_until is %q: it must be unset, \"\", %q or %q. No build was created.", until, waitStarted, waitFinished))
	}
	if !m.Timeout.IsNull() {
		d, err := time.ParseDuration(m.Timeout.ValueString())
		if err != nil || d <= 0 {
			diags.AddAttributeError(path.Root("timeout"), "Invalid Duration",
				fmt.Sprintf("timeout must be a positive duration such as 90s or 5m, got %q. No build was created.", m.Timeout.ValueString()))
		}
		limit = d
	}
	if limit <= 0 && until != waitCreated {
		limit = defaultBuildWait
	}
	return until, limit
}

// Schema implements action.Action.
func (a *createBuildAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	notBlankString := []validator.String{kit.NotBlank()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts a build of a pipeline: after the pipeline is created or changed, from " +
			"`lifecycle { action_trigger { … } }`, or whenever you ask, with `terraform apply -invoke=action.buildkite_create_build.<name>`. " +
			"Terraform shows the build's number and URL as it is created and, while the action waits " +
			"(`wait_until`), each state the build moves through; a build that does not pass fails the action with its URL " +
			"and state. Each invocation starts at most one build: a create whose answer is lost is not sent again. " +
			"Needs Terraform 1.14 or later and the API token's `write_builds` scope (and `read_builds` to wait, " +
			"`read_pipelines` to name the pipeline by UUID or GraphQL ID).",
		Attributes: map[string]schema.Attribute{
			"pipeline": schema.StringAttribute{
				MarkdownDescription: "The pipeline to build: its slug (such as `buildkite_pipeline.app.slug`, which costs no lookup), " +
					"its UUID or its GraphQL ID.",
				Required:   true,
				Validators: notBlankString,
			},
			"branch": schema.StringAttribute{
				MarkdownDescription: "The branch to build.",
				Required:            true,
				Validators:          notBlankString,
			},
			"commit": schema.StringAttribute{
				MarkdownDescription: "The commit to build: a full SHA, or `HEAD` (the default) for the newest commit of `branch`.",
				Optional:            true,
				Validators:          notBlankString,
			},
			"message": schema.StringAttribute{
				MarkdownDescription: "The build's message, shown in the web interface.",
				Optional:            true,
			},
			"env": schema.MapAttribute{
				MarkdownDescription: "Environment variables of the build's jobs.",
				ElementType:         types.StringType,
				Optional:            true,
			},
			"meta_data": schema.MapAttribute{
				MarkdownDescription: "Meta-data of the build, which its steps read with `buildkite-agent meta-data get`.",
				ElementType:         types.StringType,
				Optional:            true,
			},
			"wait_until": schema.StringAttribute{
				MarkdownDescription: "What to wait for before the action succeeds: unset or `\"\"` returns as soon as the build is " +
					"created; `started` waits until it runs (an agent took a job); `finished` waits until it ends, and fails " +
					"unless it passed. A build that ends without passing while waited for fails the action. Any other value is " +
					"refused, also when it comes from a variable.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(waitCreated, waitStarted, waitFinished)},
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long the action may take, creating the build and waiting for it, as a Go duration such " +
					"as `90s` or `30m`. Defaults to the provider's create timeout (3 minutes unless set) when not waiting, " +
					"and to 1 hour when waiting. When it passes, the action fails and the build goes on. A value that is not a " +
					"positive duration is refused, also when it comes from a variable: it never stands for the default.",
				Optional:   true,
				Validators: []validator.String{kit.DurationValidator{}},
			},
		},
	}
}

// ValidateConfig implements action.ActionWithValidateConfig: a GraphQL ID of another kind is refused at
// plan time, naming the attribute.
func (a *createBuildAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var pipeline types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("pipeline"), &pipeline)...)
	if !kit.IsKnownValue(pipeline) {
		return
	}
	if _, _, err := kit.UuidOrGraphQLID(pipeline.ValueString(), "Pipeline"); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("pipeline"), "Invalid Pipeline",
			buildkite.Shorten(kit.Capitalize(err.Error()))+". Give the pipeline's slug, UUID or GraphQL ID.")
	}
}

// ModifyPlan implements action.ActionWithModifyPlan: values from variables, known now, are checked as
// literals were (ValidateKnown), and the scopes the invocation will need, before anything is applied.
func (a *createBuildAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var m createBuildModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !kit.ValidateKnown(ctx, a, req.Config, &resp.Diagnostics) {
		return
	}
	scopes := []string{"write_builds"}
	if !m.WaitUntil.IsUnknown() && m.WaitUntil.ValueString() != waitCreated {
		scopes = append(scopes, "read_builds")
	}
	if !m.Pipeline.IsUnknown() {
		if _, byID, _ := kit.UuidOrGraphQLID(m.Pipeline.ValueString(), "Pipeline"); byID {
			scopes = append(scopes, "read_pipelines")
		}
	}
	a.CheckScopes(ctx, &resp.Diagnostics, scopes...)
}

// Invoke implements action.Action: create the build, then wait for what wait_until asks.
func (a *createBuildAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m createBuildModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !kit.ValidateKnown(ctx, a, req.Config, &resp.Diagnostics) || !a.Configured(&resp.Diagnostics) {
		return
	}
	in := m.request(ctx, &resp.Diagnostics)
	until, limit := m.wait(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := a.Timeout(ctx, kit.OpCreate, limit)
	defer cancel()

	slug, err := a.pipelineSlug(ctx, m.Pipeline.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("pipeline"), "Unable to Find Pipeline",
			fmt.Sprintf("Finding the pipeline %q to build: %s. No build was created.", buildkite.Shorten(m.Pipeline.ValueString()), kit.DescribeError(err)))
		return
	}
	b, err := a.Client().Builds.Create(ctx, slug, in)
	if buildkite.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("pipeline"), "Unable to Create Build",
			fmt.Sprintf("Creating a build of pipeline %s: %s. No pipeline of organization %s has that slug: set pipeline to "+
				"the pipeline's slug, UUID or GraphQL ID.", buildkite.Shorten(slug), kit.DescribeError(err), a.Data.Org))
		return
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "create", "build", "of pipeline "+buildkite.Shorten(slug), err)
		return
	}
	kit.Progress(resp, "Created build #%d of %s (%s): %s", b.Number, slug, b.State, b.WebURL)
	if until == waitCreated {
		return
	}
	a.wait(ctx, resp, slug, b, until, limit)
}

// pipelineSlug returns the slug that names ref, a slug, UUID or GraphQL ID, in the REST API's paths. A
// slug is used as it is (a wrong one fails the create with the service's 404); a UUID or GraphQL ID is
// looked up, and a UUID that names no pipeline is tried as a slug, which may look like one.
func (a *createBuildAction) pipelineSlug(ctx context.Context, ref string) (string, error) {
	id, byID, err := kit.UuidOrGraphQLID(ref, "Pipeline")
	switch {
	case err != nil:
		return "", err
	case !byID:
		return ref, nil
	}
	p, err := kit.FindPipelineByID(ctx, a.Client(), id, ref)
	if err != nil {
		return "", err
	}
	return p.Slug, nil
}

// wait asks for build b until it reaches what until names, it ends without passing, or ctx ends; each
// change of state is sent as progress.
func (a *createBuildAction) wait(ctx context.Context, resp *action.InvokeResponse, slug string, b *buildkite.Build, until string, limit time.Duration) {
	seen := buildStatus(b)
	interval := a.poll.first
	for {
		if done, passed := buildOutcome(b, until); done {
			if !passed {
				resp.Diagnostics.AddError("Build Did Not Pass",
					fmt.Sprintf("Build #%d of pipeline %s %s: %s", b.Number, slug, describeBuildEnd(b), b.WebURL))
			}
			return
		}
		select {
		case <-ctx.Done():
			a.waitEnded(ctx, resp, slug, b, until, limit)
			return
		case <-time.After(interval):
		}
		interval = min(2*interval, a.poll.max)
		next, err := a.Client().Builds.Get(ctx, slug, b.Number, false)
		if err != nil {
			if ctx.Err() != nil {
				a.waitEnded(ctx, resp, slug, b, until, limit)
				return
			}
			resp.Diagnostics.AddError("Unable to Read Build",
				fmt.Sprintf("Reading build #%d of pipeline %s while waiting until it %s: %s. The build goes on: %s",
					b.Number, slug, until, kit.DescribeError(err), b.WebURL))
			return
		}
		b = next
		if status := buildStatus(b); status != seen {
			seen = status
			kit.Progress(resp, "Build #%d of %s is now %s: %s", b.Number, slug, status, b.WebURL)
		}
	}
}

// waitEnded reports a wait cut short by its timeout or by Terraform (an interrupt).
func (a *createBuildAction) waitEnded(ctx context.Context, resp *action.InvokeResponse, slug string, b *buildkite.Build, until string, limit time.Duration) {
	title, why := "Stopped Waiting for Build", "Terraform stopped the action"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		title, why = "Timed Out Waiting for Build", fmt.Sprintf("the action's timeout of %s passed", limit)
	}
	resp.Diagnostics.AddError(title,
		fmt.Sprintf("Build #%d of pipeline %s was still %s when %s, waiting until it %s. The build goes on: %s",
			b.Number, slug, buildStatus(b), why, until, b.WebURL))
}

// buildOutcome tells whether a wait until until is over for b, and if so whether it succeeded: a build that
// ends without passing ends every wait as a failure, and started is reached once the build runs.
func buildOutcome(b *buildkite.Build, until string) (done, passed bool) {
	switch {
	case slices.Contains(buildEndStates, b.State):
		return true, b.State == buildPassed
	case b.State == "canceling":
		return true, false
	case until == waitStarted && (b.State == buildRunning || b.State == buildFailing):
		return true, true
	}
	return false, false
}

// buildStatus is a build's state as progress shows it: a blocked build keeps its state and is flagged.
func buildStatus(b *buildkite.Build) string {
	if b.Blocked {
		return b.State + " (blocked)"
	}
	return b.State
}

// describeBuildEnd says how a build that did not pass ended.
func describeBuildEnd(b *buildkite.Build) string {
	if b.State == "canceling" {
		return "is being canceled"
	}
	return "ended in state " + buildStatus(b)
}

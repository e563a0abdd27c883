package pipelines

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*buildsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*buildsDataSource)(nil)
)

// defaultBuildsLimit bounds a builds listing that names no limit: an organization's history can hold
// millions of builds, and reading them would take hours of rate-limited calls.
const defaultBuildsLimit = 100

// buildFilterStates are the values of the state filter
// (https://buildkite.com/docs/apis/rest-api/builds); "finished" stands for passed, failed,
// blocked and canceled.
var BuildFilterStates = []string{
	"running", "scheduled", "passed", "failing", "failed", "blocked", "canceled", "canceling", "skipped", "not_run", "finished",
}

// NewBuildsDataSource returns the buildkite_builds data source.
func NewBuildsDataSource() datasource.DataSource {
	return &buildsDataSource{DataSourceBase: kit.NewDataSourceBase("builds")}
}

type buildsDataSource struct {
	kit.DataSourceBase
}

type buildsDataModel struct {
	PipelineSlug       types.String      `tfsdk:"pipeline_slug"`
	Branch             []string          `tfsdk:"branch"`
	Commit             []string          `tfsdk:"commit"`
	CreatedFrom        types.String      `tfsdk:"created_from"`
	CreatedTo          types.String      `tfsdk:"created_to"`
	FinishedFrom       types.String      `tfsdk:"finished_from"`
	Creator            types.String      `tfsdk:"creator"`
	State              []string          `tfsdk:"state"`
	MetaData           map[string]string `tfsdk:"meta_data"`
	IncludeRetriedJobs types.Bool        `tfsdk:"include_retried_jobs"`
	Limit              types.Int64       `tfsdk:"limit"`
	Builds             []buildDataModel  `tfsdk:"builds"`
}

type buildDataModel struct {
	ID           types.String       `tfsdk:"id"`
	GraphQLID    types.String       `tfsdk:"graphql_id"`
	Number       types.Int64        `tfsdk:"number"`
	State        types.String       `tfsdk:"state"`
	Blocked      types.Bool         `tfsdk:"blocked"`
	Message      types.String       `tfsdk:"message"`
	Commit       types.String       `tfsdk:"commit"`
	Branch       types.String       `tfsdk:"branch"`
	Source       types.String       `tfsdk:"source"`
	URL          types.String       `tfsdk:"url"`
	WebURL       types.String       `tfsdk:"web_url"`
	Creator      *buildCreatorModel `tfsdk:"creator"`
	CreatedAt    types.String       `tfsdk:"created_at"`
	ScheduledAt  types.String       `tfsdk:"scheduled_at"`
	StartedAt    types.String       `tfsdk:"started_at"`
	FinishedAt   types.String       `tfsdk:"finished_at"`
	MetaData     types.Map          `tfsdk:"meta_data"`
	PipelineSlug types.String       `tfsdk:"pipeline_slug"`
	Jobs         []buildJobModel    `tfsdk:"jobs"`
}

type buildCreatorModel struct {
	ID    types.String `tfsdk:"id"`
	Name  types.String `tfsdk:"name"`
	Email types.String `tfsdk:"email"`
}

type buildJobModel struct {
	ID              types.String `tfsdk:"id"`
	Name            types.String `tfsdk:"name"`
	Type            types.String `tfsdk:"type"`
	State           types.String `tfsdk:"state"`
	ExitStatus      types.Int64  `tfsdk:"exit_status"`
	WebURL          types.String `tfsdk:"web_url"`
	AgentQueryRules types.List   `tfsdk:"agent_query_rules"`
	CreatedAt       types.String `tfsdk:"created_at"`
	ScheduledAt     types.String `tfsdk:"scheduled_at"`
	StartedAt       types.String `tfsdk:"started_at"`
	FinishedAt      types.String `tfsdk:"finished_at"`
}

func (m *buildDataModel) fromAPI(b *buildkite.Build) {
	m.ID = types.StringValue(b.ID)
	m.GraphQLID = types.StringValue(b.GraphQLID)
	m.Number = types.Int64Value(b.Number)
	m.State = types.StringValue(b.State)
	m.Blocked = types.BoolValue(b.Blocked)
	m.Message = types.StringValue(b.Message)
	m.Commit = types.StringValue(b.Commit)
	m.Branch = types.StringValue(b.Branch)
	m.Source = types.StringValue(b.Source)
	m.URL = types.StringValue(b.URL)
	m.WebURL = types.StringValue(b.WebURL)
	if c := b.Creator; c != nil {
		m.Creator = &buildCreatorModel{ID: types.StringValue(c.ID), Name: types.StringValue(c.Name), Email: types.StringValue(c.Email)}
	}
	m.CreatedAt = kit.TimeValue(b.CreatedAt)
	m.ScheduledAt = kit.TimeValue(b.ScheduledAt)
	m.StartedAt = kit.TimeValue(b.StartedAt)
	m.FinishedAt = kit.TimeValue(b.FinishedAt)
	meta := make(map[string]attr.Value, len(b.MetaData))
	for k, v := range b.MetaData {
		meta[k] = types.StringValue(v)
	}
	m.MetaData = types.MapValueMust(types.StringType, meta)
	m.PipelineSlug = types.StringNull()
	if b.Pipeline != nil {
		m.PipelineSlug = types.StringValue(b.Pipeline.Slug)
	}
	m.Jobs = make([]buildJobModel, len(b.Jobs))
	for i := range b.Jobs {
		m.Jobs[i].fromAPI(&b.Jobs[i])
	}
}

func (m *buildJobModel) fromAPI(j *buildkite.Job) {
	m.ID = types.StringValue(j.ID)
	m.Name = kit.OptionalStringPtr(j.Name)
	m.Type = types.StringValue(j.Type)
	m.State = types.StringValue(j.State)
	m.ExitStatus = types.Int64PointerValue(j.ExitStatus)
	m.WebURL = types.StringValue(j.WebURL)
	m.AgentQueryRules = kit.StringList(j.AgentQueryRules)
	m.CreatedAt = kit.TimeValue(j.CreatedAt)
	m.ScheduledAt = kit.TimeValue(j.ScheduledAt)
	m.StartedAt = kit.TimeValue(j.StartedAt)
	m.FinishedAt = kit.TimeValue(j.FinishedAt)
}

// filter turns the configuration into the query; the timestamps were checked at plan time.
func (m *buildsDataModel) filter() buildkite.BuildFilter {
	f := buildkite.BuildFilter{
		Branches: m.Branch, Commits: m.Commit, Creator: m.Creator.ValueString(), MetaData: m.MetaData,
		IncludeRetriedJobs: m.IncludeRetriedJobs.ValueBool(),
	}
	for _, s := range m.State {
		f.States = append(f.States, strings.ToLower(s))
	}
	for _, t := range []struct {
		v   types.String
		dst **time.Time
	}{{m.CreatedFrom, &f.CreatedFrom}, {m.CreatedTo, &f.CreatedTo}, {m.FinishedFrom, &f.FinishedFrom}} {
		if parsed, err := time.Parse(time.RFC3339, t.v.ValueString()); err == nil {
			*t.dst = &parsed
		}
	}
	return f
}

func (d *buildsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	timestamps := map[string]string{
		"created_at":   "When it was created (RFC 3339).",
		"scheduled_at": "When it was scheduled (RFC 3339), null if not yet.",
		"started_at":   "When it started (RFC 3339), null if not yet.",
		"finished_at":  "When it finished (RFC 3339), null if not yet.",
	}
	job := kit.MergeAttrs(kit.ComputedStrings(map[string]string{
		"id":      "The job's ID.",
		"name":    "The job's label, null when its step has none.",
		"type":    "The job's type, such as `script`.",
		"state":   "The job's state, such as `scheduled`, `running` or `passed`.",
		"web_url": "The job's page in the web interface.",
	}), kit.ComputedStrings(timestamps))
	job["exit_status"] = dschema.Int64Attribute{MarkdownDescription: "The job's exit status, null until it has one.", Computed: true}
	job["agent_query_rules"] = dschema.ListAttribute{
		MarkdownDescription: "The agent query rules that pick the agents the job may run on, such as `queue=linux`.",
		ElementType:         types.StringType, Computed: true,
	}
	build := kit.MergeAttrs(kit.DataWithCommon("build", kit.ComputedStrings(map[string]string{
		"state":         "The build's state (a blocked build keeps its last state and has `blocked` set).",
		"message":       "The build's message.",
		"commit":        "The commit the build ran.",
		"branch":        "The branch the build ran.",
		"source":        "What created the build, such as `webhook`, `api` or `ui`.",
		"pipeline_slug": "The slug of the build's pipeline.",
	}), kit.AttrID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL), kit.ComputedStrings(timestamps))
	build["number"] = dschema.Int64Attribute{MarkdownDescription: "The build's number in its pipeline.", Computed: true}
	build["blocked"] = dschema.BoolAttribute{MarkdownDescription: "Whether the build waits at a block step.", Computed: true}
	build["meta_data"] = dschema.MapAttribute{MarkdownDescription: "The build's meta-data.", ElementType: types.StringType, Computed: true}
	build["creator"] = dschema.SingleNestedAttribute{
		MarkdownDescription: "The user who created the build, null for builds not created by a user.",
		Computed:            true,
		Attributes: kit.ComputedStrings(map[string]string{
			"id": "The user's ID.", "name": "The user's name.", "email": "The user's e-mail address.",
		}),
	}
	build["jobs"] = kit.ListOf("The build's jobs (only the latest execution of each step unless `include_retried_jobs` is set).", job)

	stateValues := kit.EnumOneOf{Values: BuildFilterStates}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Builds, newest first: of one pipeline (`pipeline_slug`), or of the whole organization. " +
			"Every filter is optional and they combine; at most `limit` builds are read (100 unless set), so the " +
			"data source never walks a whole build history.",
		Attributes: map[string]dschema.Attribute{
			"pipeline_slug": dschema.StringAttribute{
				MarkdownDescription: "The slug of the pipeline whose builds to list. Unset, the organization's builds are listed.",
				Optional:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"branch": dschema.ListAttribute{
				MarkdownDescription: "Keep builds of these branches.",
				ElementType:         types.StringType, Optional: true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(kit.NotBlank())},
			},
			"commit": dschema.ListAttribute{
				MarkdownDescription: "Keep builds of these commits (full SHAs: the service does not match abbreviations).",
				ElementType:         types.StringType, Optional: true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(kit.NotBlank())},
			},
			"created_from": dschema.StringAttribute{
				MarkdownDescription: "Keep builds created at or after this time (RFC 3339, such as `2024-05-01T00:00:00Z`).",
				Optional:            true, Validators: []validator.String{kit.Rfc3339Validator{}},
			},
			"created_to": dschema.StringAttribute{
				MarkdownDescription: "Keep builds created before this time (RFC 3339).",
				Optional:            true, Validators: []validator.String{kit.Rfc3339Validator{}},
			},
			"finished_from": dschema.StringAttribute{
				MarkdownDescription: "Keep builds finished at or after this time (RFC 3339).",
				Optional:            true, Validators: []validator.String{kit.Rfc3339Validator{}},
			},
			"creator": dschema.StringAttribute{
				MarkdownDescription: "Keep builds created by the user with this ID (UUID).",
				Optional:            true, Validators: []validator.String{kit.UuidValidator()},
			},
			"state": dschema.ListAttribute{
				MarkdownDescription: "Keep builds in these states: " + kit.Backquoted(BuildFilterStates) + " (`finished` stands " +
					"for passed, failed, blocked and canceled; `blocked` for builds with `blocked` set).",
				ElementType: types.StringType, Optional: true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stateValues)},
			},
			"meta_data": dschema.MapAttribute{
				MarkdownDescription: "Keep builds whose meta-data has all these keys with these values.",
				ElementType:         types.StringType, Optional: true,
			},
			"include_retried_jobs": dschema.BoolAttribute{
				MarkdownDescription: "Show every execution of retried jobs, not only the latest.",
				Optional:            true,
			},
			"limit": dschema.Int64Attribute{
				MarkdownDescription: "The most builds to read (default 100); pages are read only until this many are found.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(1, 10000)},
			},
			"builds": kit.ListOf("The builds, newest first.", build),
		},
	}
}

func (d *buildsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg buildsDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	limit := defaultBuildsLimit
	if !cfg.Limit.IsNull() {
		limit = int(cfg.Limit.ValueInt64())
	}
	var (
		builds []buildkite.Build
		err    error
		of     = "of the organization"
	)
	if slug := cfg.PipelineSlug.ValueString(); slug != "" {
		of = "of pipeline " + slug
		builds, err = d.Client().Builds.ListPipeline(ctx, slug, cfg.filter(), limit)
	} else {
		builds, err = d.Client().Builds.ListOrganization(ctx, cfg.filter(), limit)
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "list", "builds", of, err)
		return
	}
	cfg.Builds = make([]buildDataModel, len(builds))
	for i := range builds {
		cfg.Builds[i].fromAPI(&builds[i])
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

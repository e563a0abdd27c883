package suites

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*flakyTestsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*flakyTestsDataSource)(nil)
)

// NewFlakyTestsDataSource returns the buildkite_flaky_tests data source.
func NewFlakyTestsDataSource() datasource.DataSource {
	return &flakyTestsDataSource{DataSourceBase: kit.NewDataSourceBase("flaky_tests")}
}

type flakyTestsDataSource struct {
	kit.DataSourceBase
}

type flakyTestsDataModel struct {
	TestSuiteSlug types.String         `tfsdk:"test_suite_slug"`
	Search        types.String         `tfsdk:"search"`
	Branch        types.String         `tfsdk:"branch"`
	FlakyTests    []flakyTestDataModel `tfsdk:"flaky_tests"`
}

// flakyTestDataModel carries every field of a flaky test.
type flakyTestDataModel struct {
	ID                   types.String `tfsdk:"id"`
	WebURL               types.String `tfsdk:"web_url"`
	Scope                types.String `tfsdk:"scope"`
	Name                 types.String `tfsdk:"name"`
	Location             types.String `tfsdk:"location"`
	FileName             types.String `tfsdk:"file_name"`
	Instances            types.Int64  `tfsdk:"instances"`
	LatestOccurrenceAt   types.String `tfsdk:"latest_occurrence_at"`
	MostRecentInstanceAt types.String `tfsdk:"most_recent_instance_at"`
	LastResolvedAt       types.String `tfsdk:"last_resolved_at"`
}

func (m *flakyTestDataModel) fromAPI(f *buildkite.FlakyTest) {
	m.ID = types.StringValue(f.ID)
	m.WebURL = types.StringValue(f.WebURL)
	m.Scope = types.StringValue(f.Scope)
	m.Name = types.StringValue(f.Name)
	m.Location = types.StringValue(f.Location)
	m.FileName = types.StringValue(f.FileName)
	m.Instances = types.Int64Value(f.Instances)
	m.LatestOccurrenceAt = kit.TimeValue(f.LatestOccurrenceAt)
	m.MostRecentInstanceAt = kit.TimeValue(f.MostRecentInstanceAt)
	m.LastResolvedAt = kit.TimeValue(f.LastResolvedAt)
}

func (d *flakyTestsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	item := kit.ComputedStrings(map[string]string{
		"id":                      "The flaky test's ID.",
		"web_url":                 "The test's page in the web interface.",
		"scope":                   "The test's scope, such as its class or describe block.",
		"name":                    "The test's name.",
		"location":                "Where the test is defined, such as `./spec/models/user_spec.rb:12`.",
		"file_name":               "The file the test is in.",
		"latest_occurrence_at":    "When the test last flaked (RFC 3339).",
		"most_recent_instance_at": "When the most recent flaky instance was recorded (RFC 3339).",
		"last_resolved_at":        "When the test was last marked resolved (RFC 3339), null if never.",
	})
	item["instances"] = dschema.Int64Attribute{MarkdownDescription: "How many times the test flaked.", Computed: true}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "The flaky tests of one test suite: tests that both passed and failed on the same commit.",
		Attributes: map[string]dschema.Attribute{
			"test_suite_slug": dschema.StringAttribute{
				MarkdownDescription: "The slug of the suite whose flaky tests to list.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"search": dschema.StringAttribute{
				MarkdownDescription: "Keep only tests whose name or scope (and, for the Ruby collector, location) contains this text.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"branch": dschema.StringAttribute{
				MarkdownDescription: "Keep only tests that flaked on this branch.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"flaky_tests": kit.ListOf("The flaky tests.", item),
		},
	}
}

func (d *flakyTestsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg flakyTestsDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	slug := cfg.TestSuiteSlug.ValueString()
	filter := buildkite.FlakyTestFilter{Search: cfg.Search.ValueString(), Branch: cfg.Branch.ValueString()}
	list := func(ctx context.Context) ([]buildkite.FlakyTest, error) {
		return d.Client().FlakyTests.List(ctx, slug, filter)
	}
	var ok bool
	if cfg.FlakyTests, ok = kit.ListItems(ctx, &resp.Diagnostics, "flaky tests", "of test suite "+slug, list, (*flakyTestDataModel).fromAPI); !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

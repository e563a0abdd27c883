package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ datasource.DataSource                     = (*testSuiteDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*testSuiteDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*testSuiteDataSource)(nil)
)

// NewTestSuiteDataSource returns the buildkite_test_suite data source.
func NewTestSuiteDataSource() datasource.DataSource {
	return &testSuiteDataSource{dataSourceBase: newDataSourceBase("test_suite")}
}

type testSuiteDataSource struct {
	dataSourceBase
}

// testSuiteDataModel is a suite as the data sources show it, alone or as an item of buildkite_test_suites.
// It has no API token: the service shows it only when a suite is created.
type testSuiteDataModel struct {
	ID              types.String `tfsdk:"id"`
	UUID            types.String `tfsdk:"uuid"`
	GraphQLID       types.String `tfsdk:"graphql_id"`
	Slug            types.String `tfsdk:"slug"`
	Name            types.String `tfsdk:"name"`
	DefaultBranch   types.String `tfsdk:"default_branch"`
	Emoji           types.String `tfsdk:"emoji"`
	Color           types.String `tfsdk:"color"`
	ApplicationName types.String `tfsdk:"application_name"`
	URL             types.String `tfsdk:"url"`
	WebURL          types.String `tfsdk:"web_url"`
	// OIDCPolicy is the policy's text, null when there is none.
	OIDCPolicy types.String `tfsdk:"oidc_policy"`
}

func (m *testSuiteDataModel) fromAPI(s *buildkite.TestSuite) {
	m.ID = types.StringValue(s.ID)
	m.UUID = types.StringValue(s.ID)
	m.GraphQLID = types.StringValue(s.GraphQLID)
	m.Slug = types.StringValue(s.Slug)
	m.Name = types.StringValue(s.Name)
	m.DefaultBranch = types.StringValue(s.DefaultBranch)
	m.Emoji = optionalStringPtr(s.Emoji)
	m.Color = optionalStringPtr(s.Color)
	m.ApplicationName = optionalStringPtr(s.ApplicationName)
	m.URL = types.StringValue(s.URL)
	m.WebURL = types.StringValue(s.WebURL)
	m.OIDCPolicy = optionalStringPtr(s.OIDCPolicy)
}

func testSuiteDataAttributes() map[string]dschema.Attribute {
	return dataWithCommon("test suite", computedStrings(map[string]string{
		"slug":             "The suite's slug.",
		"name":             "The suite's name.",
		"default_branch":   "The branch whose results the suite shows by default.",
		"emoji":            "The suite's emoji, null when it has none.",
		"color":            "The suite's color, null when it has none.",
		"application_name": "The name of the application the suite tests, null when it has none.",
		"oidc_policy":      "The suite's OIDC policy (YAML or JSON text), null when it has none.",
	}), attrID, attrUUID, attrGraphQLID, attrURL, attrWebURL)
}

func (d *testSuiteDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One test suite, by `slug` or by `id` (exactly one of them). Its API token is not " +
			"available: the service shows it only when the suite is created.",
		Attributes: lookupByID(withLookup(testSuiteDataAttributes(), map[string]string{
			"id":   "The ID (or GraphQL ID) of the suite to read.",
			"slug": "The slug of the suite to read.",
		}), "Suite"),
	}
}

func (d *testSuiteDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("slug"))}
}

func (d *testSuiteDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg testSuiteDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	var (
		s     *buildkite.TestSuite
		err   error
		asked string
	)
	if id := cfg.ID.ValueString(); id != "" {
		asked = fmt.Sprintf("the ID %q", id)
		s, err = d.client().TestSuites.GetByID(ctx, canonicalID(id))
	} else {
		asked = fmt.Sprintf("the slug %q", cfg.Slug.ValueString())
		s, err = d.client().TestSuites.Get(ctx, cfg.Slug.ValueString())
	}
	if err != nil {
		notFoundOrAPIError(&resp.Diagnostics, err, "test suite", asked)
		return
	}
	var out testSuiteDataModel
	out.fromAPI(s)
	if !cfg.ID.IsNull() {
		out.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

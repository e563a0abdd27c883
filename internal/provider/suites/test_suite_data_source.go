package suites

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*testSuiteDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*testSuiteDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*testSuiteDataSource)(nil)
)

// NewTestSuiteDataSource returns the buildkite_test_suite data source.
func NewTestSuiteDataSource() datasource.DataSource {
	return &testSuiteDataSource{DataSourceBase: kit.NewDataSourceBase("test_suite")}
}

type testSuiteDataSource struct {
	kit.DataSourceBase
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
	m.Emoji = kit.OptionalStringPtr(s.Emoji)
	m.Color = kit.OptionalStringPtr(s.Color)
	m.ApplicationName = kit.OptionalStringPtr(s.ApplicationName)
	m.URL = types.StringValue(s.URL)
	m.WebURL = types.StringValue(s.WebURL)
	m.OIDCPolicy = kit.OptionalStringPtr(s.OIDCPolicy)
}

func testSuiteDataAttributes() map[string]dschema.Attribute {
	return kit.DataWithCommon("test suite", kit.ComputedStrings(map[string]string{
		"slug":             "The suite's slug.",
		"name":             "The suite's name.",
		"default_branch":   "The branch whose results the suite shows by default.",
		"emoji":            "The suite's emoji, null when it has none.",
		"color":            "The suite's color, null when it has none.",
		"application_name": "The name of the application the suite tests, null when it has none.",
		"oidc_policy":      "The suite's OIDC policy (YAML or JSON text), null when it has none.",
	}), kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL)
}

func (d *testSuiteDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One test suite, by `slug` or by `id` (exactly one of them). Its API token is not " +
			"available: the service shows it only when the suite is created.",
		Attributes: kit.LookupByID(kit.WithLookup(testSuiteDataAttributes(), map[string]string{
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
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var (
		s     *buildkite.TestSuite
		err   error
		asked string
	)
	if id := cfg.ID.ValueString(); id != "" {
		asked = fmt.Sprintf("the ID %q", id)
		s, err = d.Client().TestSuites.GetByID(ctx, kit.CanonicalID(id))
	} else {
		asked = fmt.Sprintf("the slug %q", cfg.Slug.ValueString())
		s, err = d.Client().TestSuites.Get(ctx, cfg.Slug.ValueString())
	}
	if err != nil {
		kit.NotFoundOrAPIError(&resp.Diagnostics, err, "test suite", asked)
		return
	}
	var out testSuiteDataModel
	out.fromAPI(s)
	if !cfg.ID.IsNull() {
		out.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

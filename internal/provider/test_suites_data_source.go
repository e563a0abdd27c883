package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var (
	_ datasource.DataSource              = (*testSuitesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*testSuitesDataSource)(nil)
)

// NewTestSuitesDataSource returns the buildkite_test_suites data source.
func NewTestSuitesDataSource() datasource.DataSource {
	return &testSuitesDataSource{dataSourceBase: newDataSourceBase("test_suites")}
}

type testSuitesDataSource struct {
	dataSourceBase
}

type testSuitesDataModel struct {
	TestSuites []testSuiteDataModel `tfsdk:"test_suites"`
}

func (d *testSuitesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Every test suite of the organization.",
		Attributes: map[string]dschema.Attribute{
			"test_suites": listOf("The suites, each with the attributes of the `buildkite_test_suite` data source.", testSuiteDataAttributes()),
		},
	}
}

func (d *testSuitesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	items, ok := listItems(ctx, &resp.Diagnostics, "test suites", "", d.client().TestSuites.List, (*testSuiteDataModel).fromAPI)
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &testSuitesDataModel{TestSuites: items})...)
	}
}

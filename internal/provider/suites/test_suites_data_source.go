package suites

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*testSuitesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*testSuitesDataSource)(nil)
)

// NewTestSuitesDataSource returns the buildkite_test_suites data source.
func NewTestSuitesDataSource() datasource.DataSource {
	return &testSuitesDataSource{DataSourceBase: kit.NewDataSourceBase("test_suites")}
}

type testSuitesDataSource struct {
	kit.DataSourceBase
}

type testSuitesDataModel struct {
	TestSuites []testSuiteDataModel `tfsdk:"test_suites"`
}

func (d *testSuitesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Every test suite of the organization.",
		Attributes: map[string]dschema.Attribute{
			"test_suites": kit.ListOf("The suites, each with the attributes of the `buildkite_test_suite` data source.", testSuiteDataAttributes()),
		},
	}
}

func (d *testSuitesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	items, ok := kit.ListItems(ctx, &resp.Diagnostics, "test suites", "", d.Client().TestSuites.List, (*testSuiteDataModel).fromAPI)
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &testSuitesDataModel{TestSuites: items})...)
	}
}

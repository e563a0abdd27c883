package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ datasource.DataSource              = (*organizationRulesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*organizationRulesDataSource)(nil)
)

// NewOrganizationRulesDataSource returns the buildkite_organization_rules data source.
func NewOrganizationRulesDataSource() datasource.DataSource {
	return &organizationRulesDataSource{dataSourceBase: newDataSourceBase("organization_rules")}
}

type organizationRulesDataSource struct {
	dataSourceBase
}

type organizationRulesModel struct {
	Rules []organizationRuleModel `tfsdk:"rules"`
}

func (d *organizationRulesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the organization's rules; each carries the attributes of the " +
			"`buildkite_organization_rule` data source.",
		Attributes: map[string]schema.Attribute{
			"rules": listOf("The rules, in the order the service lists them.", organizationRuleDataAttributes()),
		},
	}
}

func (d *organizationRulesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	items, ok := listItems(ctx, &resp.Diagnostics, "rules", "", d.client().Rules.List,
		func(m *organizationRuleModel, r *buildkite.Rule) { m.fromAPI(r, jsonNull()) })
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &organizationRulesModel{Rules: items})...)
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
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
			"rules": schema.ListNestedAttribute{
				MarkdownDescription: "The rules, in the order the service lists them.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: organizationRuleDataAttributes()},
			},
		},
	}
}

func (d *organizationRulesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	all, err := d.client().Rules.List(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "list", "rules", "", err)
		return
	}
	out := organizationRulesModel{Rules: make([]organizationRuleModel, len(all))}
	for i := range all {
		out.Rules[i].fromAPI(&all[i], jsonNull())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

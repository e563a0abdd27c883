package organization

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*organizationRulesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*organizationRulesDataSource)(nil)
)

// NewOrganizationRulesDataSource returns the buildkite_organization_rules data source.
func NewOrganizationRulesDataSource() datasource.DataSource {
	return &organizationRulesDataSource{DataSourceBase: kit.NewDataSourceBase("organization_rules")}
}

type organizationRulesDataSource struct {
	kit.DataSourceBase
}

type organizationRulesModel struct {
	Rules []organizationRuleModel `tfsdk:"rules"`
}

func (d *organizationRulesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the organization's rules; each carries the attributes of the " +
			"`buildkite_organization_rule` data source.",
		Attributes: map[string]schema.Attribute{
			"rules": kit.ListOf("The rules, in the order the service lists them.", organizationRuleDataAttributes()),
		},
	}
}

func (d *organizationRulesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	var details map[string]*buildkite.RuleDetails
	list := func(ctx context.Context) ([]buildkite.Rule, error) {
		rules, err := d.Client().Rules.List(ctx)
		if err != nil || !d.Data.GraphQLReachable() {
			return rules, err
		}
		// Descriptions and conditions only GraphQL tells: one request per page of rules, never one per rule.
		uuids := make([]string, len(rules))
		for i := range rules {
			uuids[i] = rules[i].UUID
		}
		details, err = d.Client().Rules.DetailsOf(ctx, uuids)
		return rules, err
	}
	var bad error
	items, ok := kit.ListItems(ctx, &resp.Diagnostics, "rules", "", list,
		func(m *organizationRuleModel, r *buildkite.Rule) {
			m.fromAPI(r, kit.JsonNull())
			if details != nil && details[r.UUID] == nil && bad == nil {
				// REST lists the rule: a GraphQL null for it is no answer, not a rule without a description.
				bad = fmt.Errorf("GraphQL answered null for rule %s, which the REST API lists, so its description and "+
					"value are unknown; read again (a rule deleted meanwhile is left out then)", r.UUID)
			}
			if err := m.fromDetails(details[r.UUID], organizationRuleModel{Value: kit.JsonNull()}); err != nil && bad == nil {
				bad = err
			}
		})
	if bad != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "rules", "", bad)
		return
	}
	if ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &organizationRulesModel{Rules: items})...)
	}
}

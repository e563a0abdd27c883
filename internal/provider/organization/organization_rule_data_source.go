package organization

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*organizationRuleDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*organizationRuleDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*organizationRuleDataSource)(nil)
)

// NewOrganizationRuleDataSource returns the buildkite_organization_rule data source.
func NewOrganizationRuleDataSource() datasource.DataSource {
	return &organizationRuleDataSource{DataSourceBase: kit.NewDataSourceBase("organization_rule")}
}

type organizationRuleDataSource struct {
	kit.DataSourceBase
}

// organizationRuleDataAttributes are the attributes of one rule in the data sources.
func organizationRuleDataAttributes() map[string]schema.Attribute {
	str := func(description string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	return kit.DataWithCommon("rule", map[string]schema.Attribute{
		"type": str("The rule type, such as `pipeline.trigger_build.pipeline`."),
		"value": schema.StringAttribute{
			CustomType: kit.JsonStringType, Computed: true,
			MarkdownDescription: "The rule's value as JSON, with the source and target by UUID and its `conditions`, if " +
				"any (read through Buildkite's GraphQL API; without it, the source and target alone).",
		},
		"source_type": str("The type of the source resource."),
		"source_uuid": str("The UUID of the source resource."),
		"target_type": str("The type of the target resource."),
		"target_uuid": str("The UUID of the target resource."),
		"effect":      str("What the rule does to the action (`allow`)."),
		"action":      str("The action the rule governs, such as `trigger_build`."),
		"description": str("The rule's description, read through Buildkite's GraphQL API (null where the provider " +
			"cannot reach it: no `graphql_url` with `rest_url`, or a token without the `graphql` scope)."),
	}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrCreatedAt)
}

func (d *organizationRuleDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := organizationRuleDataAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "The rule's UUID (or GraphQL ID). Give this or `uuid`.", Optional: true, Computed: true,
	}
	kit.LookupByID(attrs, "Rule")
	attrs["uuid"] = schema.StringAttribute{
		MarkdownDescription: "The rule's UUID, as the official provider's data source is asked. Give this or `id`.",
		Optional:            true, Computed: true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one organization rule by its UUID.",
		Attributes:          attrs,
	}
}

func (d *organizationRuleDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("uuid"))}
}

func (d *organizationRuleDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg organizationRuleModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	id := cfg.ID.ValueString()
	if id == "" {
		id = cfg.UUID.ValueString()
	}
	rule, err := d.Client().Rules.Get(ctx, kit.CanonicalID(id))
	if buildkite.IsNotFound(err) {
		resp.Diagnostics.AddError("Unable to find organization rule", fmt.Sprintf("Could not find an organization rule with ID %q.", id))
		return
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "rule", id, err)
		return
	}
	var out organizationRuleModel
	out.fromAPI(rule, kit.JsonNull())
	if d.Data.GraphQLReachable() {
		details, err := d.Client().Rules.Details(ctx, rule.UUID)
		if err == nil {
			err = out.fromDetails(details, organizationRuleModel{Value: kit.JsonNull()})
		}
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "read", "rule", id, err)
			return
		}
	}
	if !cfg.ID.IsNull() {
		out.ID = cfg.ID // as asked: a GraphQL ID stays one
	}
	if !cfg.UUID.IsNull() {
		out.UUID = cfg.UUID
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &out)...)
}

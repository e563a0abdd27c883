package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var (
	_ datasource.DataSource              = (*organizationMembersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*organizationMembersDataSource)(nil)
)

// NewOrganizationMembersDataSource returns the buildkite_organization_members data source.
func NewOrganizationMembersDataSource() datasource.DataSource {
	return &organizationMembersDataSource{dataSourceBase: newDataSourceBase("organization_members")}
}

type organizationMembersDataSource struct {
	dataSourceBase
}

type organizationMembersModel struct {
	Members []memberModel `tfsdk:"members"`
}

func (d *organizationMembersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every member of the organization.",
		Attributes: map[string]schema.Attribute{
			"members": listOf("The members, each with the attributes of `buildkite_organization_member`.", memberAttributes()),
		},
	}
}

func (d *organizationMembersDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, cancel := d.timeout(ctx)
	defer cancel()
	items, ok := listItems(ctx, &resp.Diagnostics, "organization members", "", d.client().Organizations.ListMembers, (*memberModel).fromAPI)
	if !ok {
		return
	}
	// As the official provider: an organization always has a member (the token's user), so none means the
	// token cannot see them.
	if len(items) == 0 {
		resp.Diagnostics.AddError("No organization members found",
			fmt.Sprintf("The API token sees no members of the organization %q.", d.client().Organization()))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &organizationMembersModel{Members: items})...)
}

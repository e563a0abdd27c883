package organization

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource                     = (*organizationMemberDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*organizationMemberDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*organizationMemberDataSource)(nil)
)

// NewOrganizationMemberDataSource returns the buildkite_organization_member data source.
func NewOrganizationMemberDataSource() datasource.DataSource {
	return &organizationMemberDataSource{DataSourceBase: kit.NewDataSourceBase("organization_member")}
}

type organizationMemberDataSource struct {
	kit.DataSourceBase
}

// memberModel is one member of the organization, alone or in buildkite_organization_members.
type memberModel struct {
	ID    types.String `tfsdk:"id"`
	UUID  types.String `tfsdk:"uuid"`
	Name  types.String `tfsdk:"name"`
	Email types.String `tfsdk:"email"`
}

func (m *memberModel) fromAPI(u *buildkite.Member) {
	m.ID = types.StringValue(u.ID)
	m.UUID = types.StringValue(u.ID)
	m.Name = types.StringValue(u.Name)
	m.Email = types.StringValue(u.Email)
}

// memberAttributes are a member's attributes, all computed; the singular data source makes id and email
// its arguments.
func memberAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":    schema.StringAttribute{MarkdownDescription: "The user's UUID.", Computed: true},
		"uuid":  schema.StringAttribute{MarkdownDescription: "The user's UUID, equal to `id`.", Computed: true},
		"name":  schema.StringAttribute{MarkdownDescription: "The user's name.", Computed: true},
		"email": schema.StringAttribute{MarkdownDescription: "The user's e-mail address.", Computed: true},
	}
}

func (d *organizationMemberDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := memberAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "The user's UUID. Give this or `email`.",
		Optional:            true, Computed: true,
		Validators: []validator.String{kit.UuidValidator()},
	}
	attrs["email"] = schema.StringAttribute{
		MarkdownDescription: "The user's e-mail address, compared without regard to case. Give this or `id`.",
		Optional:            true, Computed: true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A member of the organization, found by user UUID or by e-mail address; its `id` is what " +
			"`buildkite_team_member.user_id` takes.",
		Attributes: attrs,
	}
}

func (d *organizationMemberDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("email"))}
}

func (d *organizationMemberDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg memberModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	orgs := d.Client().Organizations
	var found *buildkite.Member
	if id := cfg.ID.ValueString(); id != "" {
		u, err := orgs.GetMember(ctx, id)
		switch {
		case buildkite.IsNotFound(err):
			resp.Diagnostics.AddError("No Organization Member Found",
				fmt.Sprintf("No member of the organization %q has the ID %q.", d.Client().Organization(), id))
			return
		case err != nil:
			kit.AddAPIError(&resp.Diagnostics, "read", "organization member", id, err)
			return
		}
		found = u
	} else {
		email := cfg.Email.ValueString()
		members, err := orgs.ListMembers(ctx)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "list", "organization members", "", err)
			return
		}
		match := func(m *buildkite.Member) bool { return strings.EqualFold(m.Email, email) }
		if !slices.ContainsFunc(members, func(m buildkite.Member) bool { return match(&m) }) {
			// The official provider's words, which its users' tests match on.
			resp.Diagnostics.AddError("No organization member found",
				fmt.Sprintf("Organization member not found: %s. No member of the organization %q has this e-mail address.",
					email, d.Client().Organization()))
			return
		}
		found = kit.PickOne(&resp.Diagnostics, "organization member", fmt.Sprintf("the e-mail address %q", email), members, match)
		if found == nil {
			return
		}
	}
	var m memberModel
	m.fromAPI(found)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

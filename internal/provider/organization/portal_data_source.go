package organization

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*portalDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*portalDataSource)(nil)
)

// NewPortalDataSource returns the buildkite_portal data source.
func NewPortalDataSource() datasource.DataSource {
	return &portalDataSource{DataSourceBase: kit.NewDataSourceBase("portal")}
}

type portalDataSource struct {
	kit.DataSourceBase
}

// portalDataModel is a portal as the data sources show it, alone or as an item of buildkite_portals: no
// token, which only the create answer holds, and, as in the official provider, no id.
type portalDataModel struct {
	Slug               types.String `tfsdk:"slug"`
	UUID               types.String `tfsdk:"uuid"`
	Name               types.String `tfsdk:"name"`
	Description        types.String `tfsdk:"description"`
	Query              types.String `tfsdk:"query"`
	AllowedIPAddresses types.String `tfsdk:"allowed_ip_addresses"`
	UserInvokable      types.Bool   `tfsdk:"user_invokable"`
	CreatedAt          types.String `tfsdk:"created_at"`
	CreatedBy          types.Object `tfsdk:"created_by"`
}

// portalCreatorTypes are the attribute types of created_by.
var portalCreatorTypes = map[string]attr.Type{"uuid": types.StringType, "name": types.StringType, "email": types.StringType}

// portalCreator is created_by: the user who created a portal, or null.
func portalCreator(u *buildkite.User) types.Object {
	if u == nil {
		return types.ObjectNull(portalCreatorTypes)
	}
	return types.ObjectValueMust(portalCreatorTypes, map[string]attr.Value{
		"uuid": types.StringValue(u.ID), "name": types.StringValue(u.Name), "email": types.StringValue(u.Email),
	})
}

func (m *portalDataModel) fromAPI(p *buildkite.Portal) {
	m.Slug = types.StringValue(p.Slug)
	m.UUID = types.StringValue(p.UUID)
	m.Name = types.StringValue(p.Name)
	m.Description = kit.OptionalStringPtr(p.Description)
	m.Query = types.StringValue(p.Query)
	m.AllowedIPAddresses = kit.OptionalStringPtr(p.AllowedIPAddresses)
	m.UserInvokable = types.BoolValue(p.UserInvokable)
	m.CreatedAt = kit.TimeValue(p.CreatedAt)
	m.CreatedBy = portalCreator(p.CreatedBy)
}

func portalDataAttributes() map[string]dschema.Attribute {
	attrs := kit.ComputedStrings(map[string]string{
		"slug":                 "The portal's slug.",
		"uuid":                 "The portal's UUID.",
		"name":                 "The portal's name.",
		"description":          "The portal's description, null when it has none.",
		"query":                "The GraphQL document the portal runs.",
		"allowed_ip_addresses": "The CIDR blocks, separated by spaces, the portal may be invoked from; null when unrestricted.",
		"created_at":           kit.CommonDescription(kit.AttrCreatedAt, "portal"),
	})
	attrs["user_invokable"] = dschema.BoolAttribute{MarkdownDescription: "Whether users may invoke the portal with their own API tokens.", Computed: true}
	attrs["created_by"] = dschema.SingleNestedAttribute{
		MarkdownDescription: "The user who created the portal, null when the service does not say.",
		Computed:            true,
		Attributes: kit.ComputedStrings(map[string]string{
			"uuid": "The user's UUID.", "name": "The user's name.", "email": "The user's email address.",
		}),
	}
	return attrs
}

func (d *portalDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := portalDataAttributes()
	attrs["slug"] = dschema.StringAttribute{
		MarkdownDescription: "The slug of the portal to read.",
		Required:            true,
		Validators:          []validator.String{kit.NotBlank()},
	}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One portal, by its slug (without its token, which the service returns only on creation).",
		Attributes:          attrs,
	}
}

func (d *portalDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg portalDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	slug := cfg.Slug.ValueString()
	p, err := d.Client().Portals.Get(ctx, slug)
	if buildkite.IsNotFound(err) {
		// The official provider's words, which its users' tests match.
		resp.Diagnostics.AddError("Portal not found", fmt.Sprintf("Could not find portal with slug %q (%s).", slug, kit.DescribeError(err)))
		return
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "read", "portal", fmt.Sprintf("the slug %q", slug), err)
		return
	}
	cfg.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

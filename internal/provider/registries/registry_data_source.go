package registries

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

var (
	_ datasource.DataSource              = (*registryDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*registryDataSource)(nil)
)

// NewRegistryDataSource returns the buildkite_registry data source.
func NewRegistryDataSource() datasource.DataSource {
	return &registryDataSource{DataSourceBase: kit.NewDataSourceBase("registry")}
}

type registryDataSource struct {
	kit.DataSourceBase
}

// registryDataModel is a registry as the data sources show it, alone or as an item of buildkite_registries.
type registryDataModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	Slug        types.String `tfsdk:"slug"`
	Name        types.String `tfsdk:"name"`
	Ecosystem   types.String `tfsdk:"ecosystem"`
	Description types.String `tfsdk:"description"`
	Emoji       types.String `tfsdk:"emoji"`
	Color       types.String `tfsdk:"color"`
	OIDCPolicy  types.String `tfsdk:"oidc_policy"`
	Public      types.Bool   `tfsdk:"public"`
	URL         types.String `tfsdk:"url"`
	WebURL      types.String `tfsdk:"web_url"`
	// RegistryType is the answer's type.
	RegistryType types.String `tfsdk:"registry_type"`
	// TeamIDs are the teams a registry was created for, from the answer (null when it has none); the resource
	// keeps its configuration's instead.
	TeamIDs types.List `tfsdk:"team_ids"`
}

func (m *registryDataModel) fromAPI(r *buildkite.Registry) {
	m.ID = types.StringValue(r.ID)
	m.UUID = types.StringValue(r.ID)
	m.GraphQLID = types.StringValue(r.GraphQLID)
	m.Slug = types.StringValue(r.Slug)
	m.Name = types.StringValue(r.Name)
	m.Ecosystem = types.StringValue(r.Ecosystem)
	m.Description = kit.OptionalStringPtr(r.Description)
	m.Emoji = kit.OptionalStringPtr(r.Emoji)
	m.Color = kit.OptionalStringPtr(r.Color)
	m.OIDCPolicy = kit.OptionalStringPtr(r.OIDCPolicy)
	m.Public = types.BoolValue(r.Public)
	m.URL = types.StringValue(r.URL)
	m.WebURL = types.StringValue(r.WebURL)
	m.RegistryType = kit.OptionalString(r.Type)
	m.TeamIDs = types.ListNull(types.StringType)
	if r.TeamIDs != nil {
		m.TeamIDs = kit.StringList(r.TeamIDs)
	}
}

func registryDataAttributes() map[string]dschema.Attribute {
	attrs := kit.DataWithCommon("registry", kit.ComputedStrings(map[string]string{
		"slug":          "The registry's slug.",
		"name":          "The registry's name.",
		"ecosystem":     "The kind of packages the registry holds, such as `ruby`.",
		"description":   "The registry's description, null when it has none.",
		"emoji":         "The registry's emoji, null when it has none.",
		"color":         "The registry's color, null when it has none.",
		"oidc_policy":   "The registry's OIDC policy text, null when it has none.",
		"registry_type": "The registry's type, as the service names it (such as `source`).",
	}), kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL)
	attrs["public"] = dschema.BoolAttribute{MarkdownDescription: "Whether the registry's packages can be read without a token.", Computed: true}
	attrs["team_ids"] = dschema.ListAttribute{
		MarkdownDescription: "The UUIDs of the teams the registry was created for.",
		ElementType:         types.StringType, Computed: true,
	}
	return attrs
}

func (d *registryDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := registryDataAttributes()
	attrs["slug"] = dschema.StringAttribute{
		MarkdownDescription: "The slug of the registry to read.",
		Required:            true,
		Validators:          []validator.String{kit.NotBlank()},
	}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "One package registry, by its slug.",
		Attributes:          attrs,
	}
}

func (d *registryDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg registryDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := d.Timeout(ctx)
	defer cancel()
	slug := cfg.Slug.ValueString()
	reg, err := d.Client().Registries.Get(ctx, slug)
	if err != nil {
		if buildkite.IsNotFound(err) {
			resp.Diagnostics.AddError("Registry not found", fmt.Sprintf("Could not find registry with slug %q.", slug))
			return
		}
		kit.AddAPIError(&resp.Diagnostics, "read", "registry", slug, err)
		return
	}
	cfg.fromAPI(reg)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

package registries

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// registryTokenIdentity names a registry token for import blocks and terraform query: the registry by its
// ID, which a rename keeps, and the token by its ID (a token has nothing else that is unique).
var registryTokenIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("registry_id", "The ID of the registry the token reads."),
	kit.IdentityAttr("id", "The token's ID."),
)

// NewRegistryTokenResource returns the buildkite_registry_token resource.
func NewRegistryTokenResource() resource.Resource { return kit.NewObject(registryTokenKind) }

// registryTokenKind declares buildkite_registry_token: kept under its registry by ID, while the service's
// paths name the registry by slug, which a rename changes, so every call looks the slug up first. The
// secret is only in the create answer.
var registryTokenKind = &kit.ObjectKind[buildkite.RegistryToken, registryTokenModel]{
	Name:     "registry_token",
	What:     "registry token",
	Scopes:   kit.WriteScopes("write_registries"),
	Identity: registryTokenIdentity,
	Schema:   registryTokenSchema,
	Parent:   "registry_id",
	Key:      kit.AttrID,
	FromAPI:  (*registryTokenModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, registryID string, plan *registryTokenModel) (*buildkite.RegistryToken, error) {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return nil, err
		}
		return c.RegistryTokens.Create(ctx, slug, buildkite.RegistryTokenWrite{Description: plan.Description.ValueString()})
	},
	Get: func(ctx context.Context, c *buildkite.Client, registryID, id string) (*buildkite.RegistryToken, error) {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return nil, err
		}
		return c.RegistryTokens.Get(ctx, slug, id)
	},
	Update: func(ctx context.Context, c *buildkite.Client, registryID, id string, plan, state *registryTokenModel) (*buildkite.RegistryToken, error) {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return nil, err
		}
		plan.Token = state.Token
		return c.RegistryTokens.Update(ctx, slug, id, buildkite.RegistryTokenWrite{Description: plan.Description.ValueString()})
	},
	Remove: func(ctx context.Context, c *buildkite.Client, registryID, id string) error {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return err
		}
		return c.RegistryTokens.Delete(ctx, slug, id)
	},
	// The import ID is "<registry slug or id>/<token id>", or the token's ID alone, whose registry is found.
	ImportParts: []kit.ImportPart{kit.KeyPart("<registry slug or id>", "Registry"), kit.UuidPart("<token id>")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		reg, err := kit.FindByIDOrKey(ctx, parts[0], c.Registries.GetByID, c.Registries.List,
			func(reg *buildkite.Registry) string { return reg.Slug })
		if err != nil {
			return "", "", err
		}
		return reg.ID, parts[1], nil
	},
	Parents: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		regs, err := c.Registries.List(ctx)
		ids := make([]string, 0, len(regs))
		for _, reg := range regs {
			ids = append(ids, reg.ID)
		}
		return ids, err
	},
	Named:  func(plan *registryTokenModel) string { return "in registry " + plan.RegistryID.UUID() },
	Secret: "token",
	// The URL names the registry by its slug, which a rename of the registry in the same apply changes: it
	// is unknown when the description changes, and the update reads it back.
	Planned: func(plan, state *registryTokenModel, _ *diag.Diagnostics) {
		if !plan.Description.Equal(state.Description) {
			plan.URL = types.StringUnknown()
		}
	},
}

type registryTokenModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	RegistryID  kit.RefValue `tfsdk:"registry_id"`
	Description types.String `tfsdk:"description"`
	Token       types.String `tfsdk:"token"`
	URL         types.String `tfsdk:"url"`
	CreatedAt   types.String `tfsdk:"created_at"`
}

// fromAPI copies the service's view. The secret is only in the create response, so it is kept from state
// otherwise.
func (m *registryTokenModel) fromAPI(registryID string, t *buildkite.RegistryToken) {
	m.ID = types.StringValue(t.ID)
	m.UUID = types.StringValue(t.ID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.RegistryID = kit.NewRef(registryID)
	m.Description = types.StringValue(t.Description)
	if t.Token != "" {
		m.Token = types.StringValue(t.Token)
	} else if m.Token.IsUnknown() {
		m.Token = types.StringNull()
	}
	m.URL = types.StringValue(t.URL)
	m.CreatedAt = types.StringNull()
	if t.CreatedAt != nil {
		m.CreatedAt = types.StringValue(t.CreatedAt.UTC().Format(time.RFC3339Nano))
	}
}

// registryTokenSchema is the schema of buildkite_registry_token.
func registryTokenSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "A token that reads the packages of one registry. The secret `token` is returned only " +
			"when the token is created and is kept in state from then on; an imported token therefore has no `token` " +
			"value. The registry is named by its ID, so renaming the registry keeps the token. " +
			"Import it as `<registry slug or id>/<token id>`.",
		Attributes: kit.WithCommon("registry token", map[string]schema.Attribute{
			"registry_id": kit.ParentIDAttribute("The ID (UUID) of the registry the token reads.", "Registry"),
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, such as who uses it.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The secret token. Known only to the Terraform that created it: null for an imported token.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrCreatedAt),
	}
}

// registrySlug finds the slug of the registry with id: token paths name the registry by slug, which a
// rename changes, while the resource keeps its ID.
func registrySlug(ctx context.Context, c *buildkite.Client, id string) (string, error) {
	reg, err := c.Registries.GetByID(ctx, id)
	if err != nil {
		return "", err
	}
	return reg.Slug, nil
}

package provider

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
)

// registryTokenIdentity names a registry token for import blocks and terraform query: the registry by its
// ID, which a rename keeps, and the token by its ID (a token has nothing else that is unique).
var registryTokenIdentity = identifiedBy(
	identityAttr("registry_id", "The ID of the registry the token reads."),
	identityAttr("id", "The token's ID."),
)

// NewRegistryTokenResource returns the buildkite_registry_token resource.
func NewRegistryTokenResource() resource.Resource { return newObject(registryTokenKind) }

// registryTokenKind declares buildkite_registry_token: kept under its registry by ID, while the service's
// paths name the registry by slug, which a rename changes, so every call looks the slug up first. The
// secret is only in the create answer.
var registryTokenKind = &objectKind[buildkite.RegistryToken, registryTokenModel]{
	name:     "registry_token",
	what:     "registry token",
	scopes:   writeScopes("write_registries"),
	identity: registryTokenIdentity,
	schema:   registryTokenSchema,
	parent:   "registry_id",
	key:      attrID,
	fromAPI:  (*registryTokenModel).fromAPI,
	create: func(ctx context.Context, c *buildkite.Client, registryID string, plan *registryTokenModel) (*buildkite.RegistryToken, error) {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return nil, err
		}
		return c.RegistryTokens.Create(ctx, slug, buildkite.RegistryTokenWrite{Description: plan.Description.ValueString()})
	},
	get: func(ctx context.Context, c *buildkite.Client, registryID, id string) (*buildkite.RegistryToken, error) {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return nil, err
		}
		return c.RegistryTokens.Get(ctx, slug, id)
	},
	update: func(ctx context.Context, c *buildkite.Client, registryID, id string, plan, state *registryTokenModel) (*buildkite.RegistryToken, error) {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return nil, err
		}
		plan.Token = state.Token
		return c.RegistryTokens.Update(ctx, slug, id, buildkite.RegistryTokenWrite{Description: plan.Description.ValueString()})
	},
	remove: func(ctx context.Context, c *buildkite.Client, registryID, id string) error {
		slug, err := registrySlug(ctx, c, registryID)
		if err != nil {
			return err
		}
		return c.RegistryTokens.Delete(ctx, slug, id)
	},
	// The import ID is "<registry slug or id>/<token id>", or the token's ID alone, whose registry is found.
	importParts: []importPart{keyPart("<registry slug or id>", "Registry"), uuidPart("<token id>")},
	resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		reg, err := findByIDOrKey(ctx, parts[0], c.Registries.GetByID, c.Registries.List,
			func(reg *buildkite.Registry) string { return reg.Slug })
		if err != nil {
			return "", "", err
		}
		return reg.ID, parts[1], nil
	},
	parents: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		regs, err := c.Registries.List(ctx)
		ids := make([]string, 0, len(regs))
		for _, reg := range regs {
			ids = append(ids, reg.ID)
		}
		return ids, err
	},
	named:  func(plan *registryTokenModel) string { return "in registry " + plan.RegistryID.UUID() },
	secret: "token",
	// The URL names the registry by its slug, which a rename of the registry in the same apply changes: it
	// is unknown when the description changes, and the update reads it back.
	planned: func(plan, state *registryTokenModel, _ *diag.Diagnostics) {
		if !plan.Description.Equal(state.Description) {
			plan.URL = types.StringUnknown()
		}
	},
}

type registryTokenModel struct {
	ID          types.String `tfsdk:"id"`
	UUID        types.String `tfsdk:"uuid"`
	GraphQLID   types.String `tfsdk:"graphql_id"`
	RegistryID  refValue     `tfsdk:"registry_id"`
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
	m.RegistryID = newRef(registryID)
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
		Attributes: withCommon("registry token", map[string]schema.Attribute{
			"registry_id": parentIDAttribute("The ID (UUID) of the registry the token reads.", "Registry"),
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the token, such as who uses it.",
				Required:            true,
				Validators:          []validator.String{notBlank()},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: "The secret token. Known only to the Terraform that created it: null for an imported token.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, attrID, attrUUID, attrGraphQLID, attrURL, attrCreatedAt),
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

package organization

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// organizationBannerIdentity names the banner by its UUID, for import blocks.
var organizationBannerIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The banner's UUID (or the organization's slug, when importing)."))

// NewOrganizationBannerResource returns the buildkite_organization_banner resource.
func NewOrganizationBannerResource() resource.Resource { return kit.NewObject(organizationBannerKind) }

// organizationBannerKind declares buildkite_organization_banner: the organization's banner, of which there
// is at most one; create and update put its message. The organization's one banner is this resource's,
// even when it was deleted and put again outside.
var organizationBannerKind = &kit.ObjectKind[buildkite.Banner, organizationBannerModel]{
	Name:      "organization_banner",
	What:      "organization banner",
	Scopes:    kit.WriteScopes("write_organization_settings"),
	Identity:  organizationBannerIdentity,
	Schema:    organizationBannerSchema,
	Singleton: true,
	Key:       kit.AttrID,
	FromAPI:   func(m *organizationBannerModel, _ string, b *buildkite.Banner) { m.fromAPI(b) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *organizationBannerModel) (*buildkite.Banner, error) {
		return c.OrgSettings.PutBanner(ctx, plan.Message.ValueString())
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, _ string) (*buildkite.Banner, error) {
		return c.OrgSettings.GetBanner(ctx)
	},
	Update: func(ctx context.Context, c *buildkite.Client, _, _ string, plan, _ *organizationBannerModel) (*buildkite.Banner, error) {
		return c.OrgSettings.PutBanner(ctx, plan.Message.ValueString())
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, _ string) error {
		return c.OrgSettings.DeleteBanner(ctx)
	},
	// The import ID is the organization's slug, or the banner's UUID or GraphQL ID (the official provider's
	// import ID); the organization must be the provider's and the banner its current one.
	ImportParts: []kit.ImportPart{kit.KeyPart("<organization slug or banner id>", "OrganizationBanner")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		b, err := c.OrgSettings.GetBanner(ctx)
		if err != nil {
			return "", "", err
		}
		if !strings.EqualFold(parts[0], b.UUID) && !strings.EqualFold(parts[0], c.Organization()) {
			return "", "", &kit.DiagnosedError{Summary: "Invalid Import ID", Detail: fmt.Sprintf(
				"%q names neither organization %s nor its banner: import the banner by the organization's slug (%s), or the "+
					"banner's UUID (%s) or GraphQL ID (%s).", parts[0], c.Organization(), c.Organization(), b.UUID, b.GraphQLID)}
		}
		return "", b.UUID, nil
	},
}

type organizationBannerModel struct {
	ID        types.String `tfsdk:"id"`
	UUID      types.String `tfsdk:"uuid"`
	GraphQLID types.String `tfsdk:"graphql_id"`
	Message   types.String `tfsdk:"message"`
}

func (m *organizationBannerModel) fromAPI(b *buildkite.Banner) {
	m.ID = types.StringValue(b.UUID)
	m.UUID = types.StringValue(b.UUID)
	m.GraphQLID = types.StringValue(b.GraphQLID)
	m.Message = types.StringValue(b.Message)
}

// organizationBannerSchema is the schema of buildkite_organization_banner (version 1: the official
// provider's states, whose id is the banner's GraphQL ID, are upgraded).
func organizationBannerSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "The banner shown to every member of the organization. An organization has at most one: " +
			"creating this resource replaces the message of a banner that already exists. The token's user must be an " +
			"administrator, with the `read_organization_settings` and `write_organization_settings` scopes, on a plan " +
			"that has banners. Import with the organization's slug, or the banner's UUID or GraphQL ID.",
		Attributes: kit.WithCommon("banner", map[string]schema.Attribute{
			"message": schema.StringAttribute{
				MarkdownDescription: "The banner's message, in Markdown (at most 2,000 characters).",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID),
	}
}

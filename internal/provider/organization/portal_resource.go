package organization

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// portalIdentity names a portal by its slug, as its URL and its import ID do. The slug cannot change
// without replacing the portal, as in the official provider.
var portalIdentity = kit.IdentifiedBy(kit.IdentityAttr("slug", "The portal's slug."))

// NewPortalResource returns the buildkite_portal resource.
func NewPortalResource() resource.Resource { return kit.NewObject(portalKind) }

// portalKind declares buildkite_portal: addressed by its slug (it has no id attribute), with a token that
// only the create answer carries. The token is not recoverable on import: it stays null.
var portalKind = &kit.ObjectKind[buildkite.Portal, portalModel]{
	Name:     "portal",
	What:     "portal",
	Scopes:   kit.WriteScopes("write_portals"),
	Identity: portalIdentity,
	Schema:   portalSchema,
	// The official provider's states (version 0) have a created_by.uuid the service never filled; the
	// next read fills created_by again.
	Moves: kit.StateMoves{Official: func(_ int64, a kit.StateAttrs) error {
		if by, ok := a["created_by"].(map[string]any); ok && by["uuid"] == "" {
			by["uuid"] = nil
		}
		return nil
	}},
	NoID:    true,
	Key:     "slug",
	FromAPI: func(m *portalModel, _ string, p *buildkite.Portal) { m.fromAPI(p) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *portalModel) (*buildkite.Portal, error) {
		return c.Portals.Create(ctx, plan.toWrite(nil))
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, slug string) (*buildkite.Portal, error) {
		return c.Portals.Get(ctx, slug)
	},
	Update: func(ctx context.Context, c *buildkite.Client, _, slug string, plan, state *portalModel) (*buildkite.Portal, error) {
		var current *bool
		if kit.IsKnownValue(state.UserInvokable) {
			v := state.UserInvokable.ValueBool()
			current = &v
		}
		plan.Token = state.Token
		return c.Portals.Update(ctx, slug, plan.toWrite(current))
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, slug string) error {
		return c.Portals.Delete(ctx, slug)
	},
	ImportParts: []kit.ImportPart{kit.KeyPart("<portal slug>")},
	Secret:      "token",
	Holder: func(c *buildkite.Client, plan *portalModel) kit.HolderLookup {
		slug := plan.Slug.ValueString()
		return portalSlugs.HolderOf(c, slug, slug)
	},
	Replaced: func(state *portalModel, p *buildkite.Portal) string {
		uuid := state.UUID.ValueString()
		if uuid == "" || strings.EqualFold(uuid, p.UUID) {
			return ""
		}
		// Deleted and made again under the same slug (outside Terraform): another portal, with another
		// token. The one in state is gone, and the plan says so.
		return fmt.Sprintf("Portal %s is now %s, not %s, the portal in state: it was deleted and another made under "+
			"the same slug outside Terraform. The one in state (and its token) is gone, so it leaves state and the plan "+
			"creates it; import the new portal instead to manage it (its token cannot be read).", state.Slug.ValueString(), p.UUID, uuid)
	},
}

// portalModel is the resource's state: as the data sources show a portal, plus the token, which only the
// create answer holds.
type portalModel struct {
	portalDataModel
	Token types.String `tfsdk:"token"`
}

// fromAPI copies the service's view. The token is kept unless the answer holds one (a create's); an
// optional field the configuration wrote as "" stays "", and CIDRs that differ from the configured
// string only in spacing keep the configured string.
func (m *portalModel) fromAPI(p *buildkite.Portal) {
	prior := m.portalDataModel
	m.portalDataModel.fromAPI(p)
	m.Description = kit.KeepEmpty(prior.Description, p.Description)
	m.AllowedIPAddresses = kit.KeepEmpty(prior.AllowedIPAddresses, p.AllowedIPAddresses)
	if kit.IsKnownValue(prior.AllowedIPAddresses) && p.AllowedIPAddresses != nil &&
		strings.Join(strings.Fields(prior.AllowedIPAddresses.ValueString()), " ") == strings.Join(strings.Fields(*p.AllowedIPAddresses), " ") {
		m.AllowedIPAddresses = prior.AllowedIPAddresses
	}
	if p.Token != "" {
		m.Token = types.StringValue(p.Token)
	} else if m.Token.IsUnknown() {
		m.Token = types.StringNull()
	}
}

// toWrite is the body of a create or an update. Every attribute is sent: a removed description or
// allowed_ip_addresses is sent as null, which clears it on the service (the official provider left it out,
// so the service kept it). An unset user_invokable keeps the service's value.
func (m *portalModel) toWrite(current *bool) buildkite.PortalWrite {
	in := buildkite.PortalWrite{
		Name: m.Name.ValueString(), Slug: m.Slug.ValueString(), Query: m.Query.ValueString(),
		Description: kit.StringPtrIfSet(m.Description), AllowedIPAddresses: kit.StringPtrIfSet(m.AllowedIPAddresses),
	}
	switch {
	case kit.IsKnownValue(m.UserInvokable):
		in.UserInvokable = m.UserInvokable.ValueBool()
	case current != nil:
		in.UserInvokable = *current
	}
	return in
}

// portalSchema is the schema of buildkite_portal.
func portalSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A portal: a saved GraphQL query that can be invoked with the portal's own token at " +
			"`https://portal.buildkite.com/organizations/<org>/portals/<slug>`. The token is returned only when the " +
			"portal is created: it is kept in state from then on, and is null after an import. Import a portal " +
			"by its slug.",
		Attributes: map[string]schema.Attribute{
			"slug": schema.StringAttribute{
				MarkdownDescription: "The portal's slug, part of its URL. Changing it replaces the portal (and its token).",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The portal's name.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"query": schema.StringAttribute{
				MarkdownDescription: "The GraphQL document the portal runs.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the portal. Removing it clears it on the service.",
				Optional:            true,
			},
			"allowed_ip_addresses": schema.StringAttribute{
				MarkdownDescription: "The networks the portal may be invoked from: CIDR blocks separated by spaces, such as " +
					"`10.0.0.0/8 192.168.1.0/24`. Unset, any address may invoke it; removing it clears the restriction.",
				Optional: true,
			},
			"user_invokable": schema.BoolAttribute{
				MarkdownDescription: "Whether users may invoke the portal with their own API tokens. Unset, a new portal is " +
					"not, and an existing one keeps what the service holds.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"uuid": kit.ComputedString("The portal's UUID."),
			"token": schema.StringAttribute{
				MarkdownDescription: "The portal's token, returned by the service only when the portal is created. Null after " +
					"an import, and never read again.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": kit.ComputedString(kit.CommonDescription(kit.AttrCreatedAt, "portal")),
			"created_by": schema.SingleNestedAttribute{
				MarkdownDescription: "The user who created the portal, null when the service does not say.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"uuid":  schema.StringAttribute{MarkdownDescription: "The user's UUID.", Computed: true},
					"name":  schema.StringAttribute{MarkdownDescription: "The user's name.", Computed: true},
					"email": schema.StringAttribute{MarkdownDescription: "The user's email address.", Computed: true},
				},
			},
		},
	}
}

// portalSlugs finds the portal that holds a slug, which is unique in the organization and is its import ID.
var portalSlugs = &kit.UniqueNames[buildkite.Portal]{
	What: "portal",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Portal, error) {
		return c.Portals.List(ctx)
	},
	// Portals are found by slug alone: another portal's name may derive the same slug.
	Name:     func(p *buildkite.Portal) string { return p.Slug },
	Slug:     func(p *buildkite.Portal) string { return p.Slug },
	Id:       func(p *buildkite.Portal) string { return p.UUID },
	ImportID: func(p *buildkite.Portal) string { return p.Slug },
}

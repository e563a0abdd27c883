package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*portalResource)(nil)
	_ resource.ResourceWithConfigure    = (*portalResource)(nil)
	_ resource.ResourceWithImportState  = (*portalResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*portalResource)(nil)
	_ resource.ResourceWithIdentity     = (*portalResource)(nil)
	_ resource.ResourceWithUpgradeState = (*portalResource)(nil)
)

// portalIdentity names a portal by its slug, as its URL and its import ID do. The slug cannot change
// without replacing the portal, as in the official provider.
var portalIdentity = identifiedBy(identityAttr("slug", "The portal's slug."))

// NewPortalResource returns the buildkite_portal resource.
func NewPortalResource() resource.Resource {
	return &portalResource{resourceBase: newResourceBase("portal", writeScopes("write_portals"), portalIdentity).withoutID()}
}

type portalResource struct {
	resourceBase
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
	m.Description = keepEmpty(prior.Description, p.Description)
	m.AllowedIPAddresses = keepEmpty(prior.AllowedIPAddresses, p.AllowedIPAddresses)
	if isKnownValue(prior.AllowedIPAddresses) && p.AllowedIPAddresses != nil &&
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
		Description: stringPtrIfSet(m.Description), AllowedIPAddresses: stringPtrIfSet(m.AllowedIPAddresses),
	}
	switch {
	case isKnownValue(m.UserInvokable):
		in.UserInvokable = m.UserInvokable.ValueBool()
	case current != nil:
		in.UserInvokable = *current
	}
	return in
}

func (r *portalResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "A portal: a saved GraphQL query that can be invoked with the portal's own token at " +
			"`https://portal.buildkite.com/organizations/<org>/portals/<slug>`. The token is returned only when the " +
			"portal is created: it is kept in state from then on, and is null after an import. Import a portal " +
			"by its slug.",
		Attributes: map[string]schema.Attribute{
			"slug": schema.StringAttribute{
				MarkdownDescription: "The portal's slug, part of its URL. Changing it replaces the portal (and its token).",
				Required:            true,
				Validators:          []validator.String{notBlank()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The portal's name.",
				Required:            true,
				Validators:          []validator.String{notBlank()},
			},
			"query": schema.StringAttribute{
				MarkdownDescription: "The GraphQL document the portal runs.",
				Required:            true,
				Validators:          []validator.String{notBlank()},
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
			"uuid": computedString("The portal's UUID."),
			"token": schema.StringAttribute{
				MarkdownDescription: "The portal's token, returned by the service only when the portal is created. Null after " +
					"an import, and never read again.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": computedString(commonDescription(attrCreatedAt, "portal")),
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

// UpgradeState moves the official provider's states (version 0), whose created_by.uuid the service never
// filled, to version 1; the next read fills created_by again.
func (r *portalResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{official: func(_ int64, a stateAttrs) error {
		if by, ok := a["created_by"].(map[string]any); ok && by["uuid"] == "" {
			by["uuid"] = nil
		}
		return nil
	}})
}

func (r *portalResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan portalModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	p, err := r.client().Portals.Create(ctx, plan.toWrite(nil))
	lost := p != nil && secretLost(ctx, &resp.Diagnostics, err, "portal", plan.Slug.ValueString(), "token")
	if err != nil && !lost {
		slug := plan.Slug.ValueString()
		r.createFailed(ctx, &resp.Diagnostics, err, "portal", slug, portalSlugs.holderOf(r.client(), slug, slug))
		return
	}
	plan.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *portalResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state portalModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	p, err := r.client().Portals.Get(ctx, state.Slug.ValueString())
	if err != nil {
		r.readFailed(ctx, resp, err, "portal", state.Slug.ValueString())
		return
	}
	if uuid := state.UUID.ValueString(); uuid != "" && !strings.EqualFold(uuid, p.UUID) {
		// Deleted and made again under the same slug (outside Terraform): another portal, with another
		// token. The one in state is gone, and the plan says so.
		resp.Diagnostics.AddWarning("Portal Replaced Outside Terraform", fmt.Sprintf(
			"Portal %s is now %s, not %s, the portal in state: it was deleted and another made under the same slug "+
				"outside Terraform. The one in state (and its token) is gone, so it leaves state and the plan creates "+
				"it; import the new portal instead to manage it (its token cannot be read).", state.Slug.ValueString(), p.UUID, uuid))
		r.removeGone(ctx, resp)
		return
	}
	state.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *portalResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan, state portalModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	var current *bool
	if isKnownValue(state.UserInvokable) {
		v := state.UserInvokable.ValueBool()
		current = &v
	}
	p, err := r.client().Portals.Update(ctx, state.Slug.ValueString(), plan.toWrite(current))
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "portal", state.Slug.ValueString(), err)
		return
	}
	plan.Token = state.Token
	plan.fromAPI(p)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *portalResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state portalModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	err := r.client().Portals.Delete(ctx, state.Slug.ValueString())
	r.deleteFailed(ctx, &resp.Diagnostics, err, "portal", state.Slug.ValueString())
}

// ImportState accepts the portal's slug, as the import ID (the official provider's) or as the identity.
// The token is not recoverable: it stays null.
func (r *portalResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, keyPart("<portal slug>"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("slug"), parts[0])...)
}

// portalSlugs finds the portal that holds a slug, which is unique in the organization and is its import ID.
var portalSlugs = &uniqueNames[buildkite.Portal]{
	what: "portal",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Portal, error) {
		return c.Portals.List(ctx)
	},
	// Portals are found by slug alone: another portal's name may derive the same slug.
	name:     func(p *buildkite.Portal) string { return p.Slug },
	slug:     func(p *buildkite.Portal) string { return p.Slug },
	id:       func(p *buildkite.Portal) string { return p.UUID },
	importID: func(p *buildkite.Portal) string { return p.Slug },
}

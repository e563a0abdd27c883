package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*organizationBannerResource)(nil)
	_ resource.ResourceWithConfigure    = (*organizationBannerResource)(nil)
	_ resource.ResourceWithImportState  = (*organizationBannerResource)(nil)
	_ resource.ResourceWithIdentity     = (*organizationBannerResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*organizationBannerResource)(nil)
	_ resource.ResourceWithUpgradeState = (*organizationBannerResource)(nil)
)

// organizationBannerIdentity names the banner by its UUID, for import blocks.
var organizationBannerIdentity = identifiedBy(identityAttr("id", "The banner's UUID (or the organization's slug, when importing)."))

// NewOrganizationBannerResource returns the buildkite_organization_banner resource.
func NewOrganizationBannerResource() resource.Resource {
	return &organizationBannerResource{
		resourceBase: newResourceBase("organization_banner", writeScopes("write_organization_settings"), organizationBannerIdentity),
	}
}

// organizationBannerResource is the organization's banner, of which there is at most one.
type organizationBannerResource struct {
	resourceBase
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

func (r *organizationBannerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "The banner shown to every member of the organization. An organization has at most one: " +
			"creating this resource replaces the message of a banner that already exists. The token's user must be an " +
			"administrator, with the `read_organization_settings` and `write_organization_settings` scopes, on a plan " +
			"that has banners. Import with the organization's slug, or the banner's UUID or GraphQL ID.",
		Attributes: withCommon("banner", map[string]schema.Attribute{
			"message": schema.StringAttribute{
				MarkdownDescription: "The banner's message, in Markdown (at most 2,000 characters).",
				Required:            true,
				Validators:          []validator.String{notBlank()},
			},
		}, attrID, attrUUID, attrGraphQLID),
	}
}

// UpgradeState moves the official provider's states (id the banner's GraphQL ID) to version 1.
func (r *organizationBannerResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{})
}

// put creates the banner or changes its message.
func (r *organizationBannerResource) put(ctx context.Context, plan *organizationBannerModel, action string, diags *diag.Diagnostics) bool {
	b, err := r.client().OrgSettings.PutBanner(ctx, plan.Message.ValueString())
	if err != nil {
		addAPIError(diags, action, "organization banner", r.client().Organization(), err)
		return false
	}
	plan.fromAPI(b)
	return true
}

func (r *organizationBannerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan organizationBannerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	if !r.put(ctx, &plan, "create", &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *organizationBannerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state organizationBannerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	b, err := r.client().OrgSettings.GetBanner(ctx)
	if err != nil {
		r.readFailed(ctx, resp, err, "organization banner", r.client().Organization())
		return
	}
	// The organization's one banner is this resource's, even when it was deleted and put again outside.
	state.fromAPI(b)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *organizationBannerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan organizationBannerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	if !r.put(ctx, &plan, "update", &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *organizationBannerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	r.deleteFailed(ctx, &resp.Diagnostics, r.client().OrgSettings.DeleteBanner(ctx), "organization banner", r.client().Organization())
}

// ImportState takes the organization's slug, or the banner's UUID or GraphQL ID (the official provider's
// import ID); the organization must be the provider's and the banner its current one.
func (r *organizationBannerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, keyPart("<organization slug or banner id>", "OrganizationBanner"))
	if !ok {
		return
	}
	b, err := r.client().OrgSettings.GetBanner(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", "organization banner", req.ID, err)
		return
	}
	if !strings.EqualFold(parts[0], b.UUID) && !strings.EqualFold(parts[0], r.client().Organization()) {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf(
			"%q names neither organization %s nor its banner: import the banner by the organization's slug (%s), or the "+
				"banner's UUID (%s) or GraphQL ID (%s).", req.ID, r.client().Organization(), r.client().Organization(), b.UUID, b.GraphQLID))
		return
	}
	var m organizationBannerModel
	m.fromAPI(b)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

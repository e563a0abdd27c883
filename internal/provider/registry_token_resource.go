package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                = (*registryTokenResource)(nil)
	_ resource.ResourceWithConfigure   = (*registryTokenResource)(nil)
	_ resource.ResourceWithImportState = (*registryTokenResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*registryTokenResource)(nil)
	_ resource.ResourceWithIdentity    = (*registryTokenResource)(nil)
)

// registryTokenIdentity names a registry token for import blocks and terraform query: the registry by its
// ID, which a rename keeps, and the token by its ID (a token has nothing else that is unique).
var registryTokenIdentity = identifiedBy(
	identityAttr("registry_id", "The ID of the registry the token reads."),
	identityAttr("id", "The token's ID."),
)

// NewRegistryTokenResource returns the buildkite_registry_token resource.
func NewRegistryTokenResource() resource.Resource {
	return &registryTokenResource{
		resourceBase: newResourceBase("registry_token", writeScopes("write_registries"), registryTokenIdentity),
	}
}

type registryTokenResource struct {
	resourceBase
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

func (m *registryTokenModel) ident() string {
	return m.RegistryID.UUID() + "/" + m.ID.ValueString()
}

func (r *registryTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
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

// ModifyPlan checks scopes (the base) and marks the URL unknown when the description changes: the URL names
// the registry by its slug, which a rename of the registry in the same apply changes, and the update reads it
// back.
func (r *registryTokenResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.resourceBase.ModifyPlan(ctx, req, resp)
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("description"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("description"), &prior)...)
	if resp.Diagnostics.HasError() || planned.Equal(prior) {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("url"), types.StringUnknown())...)
}

// registrySlug finds the slug of the registry with id: token paths name the registry by slug, which a
// rename changes, while the resource keeps its ID.
func (r *registryTokenResource) registrySlug(ctx context.Context, id string) (string, error) {
	reg, err := r.client().Registries.GetByID(ctx, id)
	if err != nil {
		return "", err
	}
	return reg.Slug, nil
}

func (r *registryTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan registryTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	registryID := plan.RegistryID.UUID()
	slug, err := r.registrySlug(ctx, registryID)
	if err != nil {
		addAPIError(&resp.Diagnostics, "create", "registry token", "in registry "+registryID, err)
		return
	}
	t, err := r.client().RegistryTokens.Create(ctx, slug, buildkite.RegistryTokenWrite{Description: plan.Description.ValueString()})
	lost := t != nil && secretLost(ctx, &resp.Diagnostics, err, "registry token", "in registry "+slug, "token")
	if err != nil && !lost {
		addAPIError(&resp.Diagnostics, "create", "registry token", "in registry "+slug, err)
		return
	}
	plan.fromAPI(registryID, t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *registryTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state registryTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	slug, err := r.registrySlug(ctx, state.RegistryID.UUID())
	var t *buildkite.RegistryToken
	if err == nil {
		t, err = r.client().RegistryTokens.Get(ctx, slug, state.ID.ValueString())
	}
	if err != nil {
		r.readFailed(ctx, resp, err, "registry token", state.ident())
		return
	}
	state.fromAPI(state.RegistryID.UUID(), t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *registryTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan, state registryTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	slug, err := r.registrySlug(ctx, state.RegistryID.UUID())
	var t *buildkite.RegistryToken
	if err == nil {
		t, err = r.client().RegistryTokens.Update(ctx, slug, state.ID.ValueString(),
			buildkite.RegistryTokenWrite{Description: plan.Description.ValueString()})
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "update", "registry token", state.ident(), err)
		return
	}
	plan.Token = state.Token
	plan.fromAPI(state.RegistryID.UUID(), t)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *registryTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state registryTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	slug, err := r.registrySlug(ctx, state.RegistryID.UUID())
	if err == nil {
		err = r.client().RegistryTokens.Delete(ctx, slug, state.ID.ValueString())
	}
	r.deleteFailed(ctx, &resp.Diagnostics, err, "registry token", state.ident())
}

// ImportState accepts "<registry slug or id>/<token id>", or the identity's registry_id (which may be the
// slug too) and id.
func (r *registryTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	registrySlugs := func(ctx context.Context) ([]string, error) {
		regs, err := r.client().Registries.List(ctx)
		slugs := make([]string, 0, len(regs))
		for _, reg := range regs {
			slugs = append(slugs, reg.Slug)
		}
		return slugs, err
	}
	if !qualifyImportID(ctx, &req, resp, "registry token", "<registry slug or id>/<token id>", registrySlugs, answers(r.client().RegistryTokens.Get)) {
		return
	}
	parts, ok := r.importParts(ctx, req, resp, keyPart("<registry slug or id>", "Registry"), uuidPart("<token id>"))
	if !ok {
		return
	}
	reg, err := r.findRegistry(ctx, parts[0])
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", "registry token", req.ID, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("registry_id"), reg.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), parts[1])...)
}

// findRegistry finds a registry by its ID or its slug.
func (r *registryTokenResource) findRegistry(ctx context.Context, key string) (*buildkite.Registry, error) {
	return findByIDOrKey(ctx, key, r.client().Registries.GetByID, r.client().Registries.List,
		func(reg *buildkite.Registry) string { return reg.Slug })
}

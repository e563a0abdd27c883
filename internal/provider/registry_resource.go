package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

var (
	_ resource.Resource                 = (*registryResource)(nil)
	_ resource.ResourceWithConfigure    = (*registryResource)(nil)
	_ resource.ResourceWithImportState  = (*registryResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*registryResource)(nil)
	_ resource.ResourceWithIdentity     = (*registryResource)(nil)
	_ resource.ResourceWithUpgradeState = (*registryResource)(nil)
)

// registryIdentity names a registry for import blocks and terraform query by its slug, as its URLs and
// package paths do. The slug follows the name, so the identity is mutable: Read and Update keep it current
// after a rename.
var registryIdentity = mutableIdentity(identityAttr("slug", "The registry's slug, derived from its name."))

// NewRegistryResource returns the buildkite_registry resource.
func NewRegistryResource() resource.Resource {
	return &registryResource{resourceBase: newResourceBase("registry", operationScopes{
		create: []string{"write_registries"},
		update: []string{"write_registries"},
		delete: []string{"delete_registries"},
	}, registryIdentity)}
}

type registryResource struct {
	resourceBase
}

// registryModel is what the data sources show of a registry; team_ids it keeps from its configuration.
type registryModel struct {
	registryDataModel
}

// fromAPI copies the service's view, registry_type included. team_ids stays as configured: the service
// cannot change them, and a registry created elsewhere may list teams the configuration leaves out.
func (m *registryModel) fromAPI(r *buildkite.Registry) {
	teams := m.TeamIDs
	if !isKnownValue(teams) { // a zero model (a list result) has no element type
		teams = types.ListNull(types.StringType)
	}
	was := []types.String{m.Description, m.Emoji, m.Color, m.OIDCPolicy}
	m.registryDataModel.fromAPI(r)
	m.TeamIDs = teams
	// A configured "" is sent and answered as null: it stays "", as the official provider keeps it.
	for i, dst := range []*types.String{&m.Description, &m.Emoji, &m.Color, &m.OIDCPolicy} {
		if dst.IsNull() && isKnownValue(was[i]) && was[i].ValueString() == "" {
			*dst = was[i]
		}
	}
}

func (m *registryModel) toCreate() (buildkite.RegistryCreate, bool) {
	in := buildkite.RegistryCreate{
		Name:        m.Name.ValueString(),
		Ecosystem:   m.Ecosystem.ValueString(),
		Description: stringPtrIfSet(m.Description),
		Emoji:       stringPtrIfSet(m.Emoji),
		Color:       stringPtrIfSet(m.Color),
		OIDCPolicy:  stringPtrIfSet(m.OIDCPolicy),
	}
	in.TeamIDs = listUUIDs(m.TeamIDs)
	return in, true
}

// toUpdate sends every attribute: a removed optional one is sent as "" to clear it on the service.
func (m *registryModel) toUpdate() buildkite.RegistryUpdate {
	name := m.Name.ValueString()
	return buildkite.RegistryUpdate{
		Name:        &name,
		Description: stringPtr(m.Description),
		Emoji:       stringPtr(m.Emoji),
		Color:       stringPtr(m.Color),
		OIDCPolicy:  stringPtr(m.OIDCPolicy),
	}
}

func (m *registryModel) ident() string {
	if s := m.Slug.ValueString(); s != "" {
		return s
	}
	return m.ID.ValueString()
}

func (r *registryResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "A package registry. Its slug is derived from its name, so renaming it changes `slug` and " +
			"`url`; a registry renamed outside Terraform is found again by its ID. Deleting it needs the " +
			"`delete_registries` scope. Import it by its slug.",
		Attributes: withCommon("registry", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The registry's name.",
				Required:            true,
				Validators:          []validator.String{notBlank()},
			},
			"ecosystem": schema.StringAttribute{
				MarkdownDescription: "The kind of packages the registry holds, such as `ruby`, `javascript`, `python`, " +
					"`container`, `java`, `debian`, `helm`, `terraform` or `files`. " +
					"It cannot change after creation: a change is refused at plan time, never planned as a replacement " +
					"that would delete the registry and its packages.",
				Required:   true,
				Validators: []validator.String{notBlank()},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the registry.",
				Optional:            true,
			},
			"emoji": schema.StringAttribute{
				MarkdownDescription: "An emoji shown with the registry, in emoji syntax such as `:gem:`.",
				Optional:            true,
			},
			"color": schema.StringAttribute{
				MarkdownDescription: "A color shown with the registry, as a hex code such as `#FFE0E0`.",
				Optional:            true,
			},
			"oidc_policy": schema.StringAttribute{
				MarkdownDescription: "The registry's OIDC policy, as YAML or JSON text: which OIDC tokens may publish to it.",
				Optional:            true,
			},
			"team_ids": refListAttribute(schema.ListAttribute{
				MarkdownDescription: "The IDs (UUIDs) of the teams given access when the registry is created (REST `team_ids`), " +
					"required by the service where the organization has teams enabled. They are kept from the configuration; " +
					"an import takes the ones the service reports. They cannot change after creation: a change is refused " +
					"at plan time (removing them changes nothing on the service).",
				Optional:   true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1)},
			}, "Team"),
			"registry_type": schema.StringAttribute{
				MarkdownDescription: "The registry's type, as the service names it (such as `source`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"slug": schema.StringAttribute{
				MarkdownDescription: "The registry's slug, derived from its name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"public": schema.BoolAttribute{
				MarkdownDescription: "Whether the registry's packages can be read without a token.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
		}, attrID, attrUUID, attrGraphQLID, attrURL, attrWebURL),
	}
}

// UpgradeState moves the official provider's states (team_ids held as UUIDs there) and ours of version 0
// to version 1.
func (r *registryResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return upgraders(ctx, r, stateMoves{refs: []string{"team_ids"}})
}

// ModifyPlan checks scopes (the base), refuses what the service cannot change, and marks the slug and the
// URLs unknown when the name changes.
func (r *registryResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.resourceBase.ModifyPlan(ctx, req, resp)
	refuseRegistryChanges(ctx, req, resp)
	unknownWhenRenamed(ctx, req, resp, "slug", "url", "web_url")
}

// refuseRegistryChanges refuses at plan time, with the official provider's words, a change of ecosystem or
// team_ids: the service cannot change either, and a replacement would delete the registry and every package
// in it. Teams are compared by UUID in order (a GraphQL ID for the same team is no change, a reordered list
// is, as there); teams set on an imported registry that reports none, or removed, change nothing and pass.
func refuseRegistryChanges(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var planEco, stateEco types.String
	var planTeams, stateTeams types.List
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("ecosystem"), &planEco)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("ecosystem"), &stateEco)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("team_ids"), &planTeams)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("team_ids"), &stateTeams)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !planEco.IsUnknown() && !stateEco.IsNull() && planEco.ValueString() != stateEco.ValueString() {
		resp.Diagnostics.AddAttributeError(path.Root("ecosystem"), "Ecosystem change detected",
			fmt.Sprintf("The ecosystem attribute cannot be changed after registry creation. This restriction is enforced "+
				"by the Buildkite API. The registry holds %q; to change it, create a new registry (replacing this one "+
				"deletes its packages).", stateEco.ValueString()))
	}
	if !isKnownValue(planTeams) || stateTeams.IsNull() {
		return
	}
	if !slices.Equal(listUUIDs(planTeams), listUUIDs(stateTeams)) {
		resp.Diagnostics.AddAttributeError(path.Root("team_ids"), "Team IDs change detected",
			"The team_ids attribute cannot be changed after registry creation. This restriction is enforced by the "+
				"Buildkite API. Give teams access to the registry in the web interface instead, and keep team_ids as "+
				"the registry was created.")
	}
}

func (r *registryResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.finishCreate(ctx, resp)
	var plan registryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in, ok := plan.toCreate()
	if !ok {
		return
	}
	ctx, cancel := r.timeout(ctx, opCreate)
	defer cancel()
	reg, err := r.client().Registries.Create(ctx, in)
	if err != nil {
		r.createFailed(ctx, &resp.Diagnostics, err, "registry", plan.Name.ValueString(),
			registryNames.holderOf(r.client(), plan.Name.ValueString()))
		return
	}
	plan.fromAPI(reg)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// find reads the registry by its slug, then by its ID: a registry renamed elsewhere has a new slug.
func (r *registryResource) find(ctx context.Context, m *registryModel) (*buildkite.Registry, error) {
	return bySlugThenID(ctx, m.Slug.ValueString(), restID(m.ID), r.client().Registries.Get, r.client().Registries.GetByID)
}

func (r *registryResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.finishRead(ctx, req, resp)
	var state registryModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opRead)
	defer cancel()
	reg, err := r.find(ctx, &state)
	if err != nil {
		r.readFailed(ctx, resp, err, "registry", state.ident())
		return
	}
	state.fromAPI(reg)
	// An import's first Read takes the teams from the answer, so that a configuration naming the teams the
	// registry was created for plans nothing after the import. Later Reads keep the state's (configured) teams.
	if imported, _ := req.Private.GetKey(ctx, registryImportKey); string(imported) == "true" {
		if state.TeamIDs.IsNull() && len(reg.TeamIDs) > 0 {
			state.TeamIDs = stringList(reg.TeamIDs)
		}
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, registryImportKey, nil)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *registryResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.finishUpdate(ctx, req, resp)
	var plan, state registryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opUpdate)
	defer cancel()
	cur, err := r.find(ctx, &state)
	if err == nil {
		var reg *buildkite.Registry
		if reg, err = r.client().Registries.Update(ctx, cur.Slug, plan.toUpdate()); err == nil {
			plan.fromAPI(reg)
			resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			return
		}
	}
	addAPIError(&resp.Diagnostics, "update", "registry", state.ident(), err)
}

func (r *registryResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state registryModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.timeout(ctx, opDelete)
	defer cancel()
	cur, err := r.find(ctx, &state)
	if err == nil {
		err = r.client().Registries.Delete(ctx, cur.Slug)
	}
	r.deleteFailed(ctx, &resp.Diagnostics, err, "registry", state.ident())
}

// ImportState accepts the registry's slug (or its ID), as the import ID or as the identity's slug.
func (r *registryResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts, ok := r.importParts(ctx, req, resp, keyPart("<registry slug>", "Registry"))
	if !ok {
		return
	}
	resp.Diagnostics.Append(setSlugOrID(ctx, resp, parts[0])...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, registryImportKey, []byte("true"))...)
}

// registryImportKey marks, in the private state an import hands to its Read, that team_ids come from the
// service's answer.
const registryImportKey = "buildkite_registry_imported"

// registryNames finds the registry that holds a name: registry names are unique through their slugs. A
// registry is adopted by its slug, its identity.
var registryNames = &uniqueNames[buildkite.Registry]{
	what: "registry",
	list: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
		return c.Registries.List(ctx)
	},
	name:     func(r *buildkite.Registry) string { return r.Name },
	slug:     func(r *buildkite.Registry) string { return r.Slug },
	id:       func(r *buildkite.Registry) string { return r.ID },
	importID: func(r *buildkite.Registry) string { return r.Slug },
}

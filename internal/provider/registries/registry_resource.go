package registries

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// registryIdentity names a registry for import blocks and terraform query by its slug, as its URLs and
// package paths do. The slug follows the name, so the identity is mutable: Read and Update keep it current
// after a rename.
var registryIdentity = kit.MutableIdentity(kit.IdentityAttr("slug", "The registry's slug, derived from its name."))

// NewRegistryResource returns the buildkite_registry resource.
func NewRegistryResource() resource.Resource { return kit.NewObject(registryKind) }

// registryKind declares buildkite_registry: addressed by its slug, found again by ID after a rename
// elsewhere. Its ecosystem and team_ids cannot change (refused at plan time); an import's first Read takes
// the teams from the answer.
var registryKind = &kit.ObjectKind[buildkite.Registry, registryModel]{
	Name: "registry",
	What: "registry",
	Scopes: kit.OperationScopes{
		Create: []string{"write_registries"},
		Update: []string{"write_registries"},
		Delete: []string{"delete_registries"},
	},
	Identity: registryIdentity,
	Schema:   registrySchema,
	Moves:    kit.StateMoves{Refs: []string{"team_ids"}},
	Key:      "slug",
	FromAPI:  func(m *registryModel, _ string, reg *buildkite.Registry) { m.fromAPI(reg) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *registryModel) (*buildkite.Registry, error) {
		return c.Registries.Create(ctx, plan.toCreate())
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, slug string) (*buildkite.Registry, error) {
		return c.Registries.Get(ctx, slug)
	},
	ByID: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.Registry, error) {
		return c.Registries.GetByID(ctx, id)
	},
	KeyOf: func(reg *buildkite.Registry) string { return reg.Slug },
	Update: func(ctx context.Context, c *buildkite.Client, _, slug string, plan, _ *registryModel) (*buildkite.Registry, error) {
		return c.Registries.Update(ctx, slug, plan.toUpdate())
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, slug string) error {
		return c.Registries.Delete(ctx, slug)
	},
	ImportParts: []kit.ImportPart{kit.KeyPart("<registry slug>", "Registry")},
	// An import's first Read takes the teams from the answer, so that a configuration naming the teams the
	// registry was created for plans nothing after the import. Later Reads keep the state's (configured) teams.
	AfterImport: func(_ context.Context, _ *buildkite.Client, state *registryModel, reg *buildkite.Registry) {
		if state.TeamIDs.IsNull() && len(reg.TeamIDs) > 0 {
			state.TeamIDs = kit.StringList(reg.TeamIDs)
		}
	},
	Named: func(plan *registryModel) string { return plan.Name.ValueString() },
	Holder: func(c *buildkite.Client, plan *registryModel) kit.HolderLookup {
		return registryNames.HolderOf(c, plan.Name.ValueString())
	},
	Planned: refuseRegistryChanges,
	Renamed: []string{"slug", "url", "web_url"},
}

// registryModel is what the data sources show of a registry; team_ids it keeps from its configuration.
type registryModel struct {
	registryDataModel
}

// fromAPI copies the service's view, registry_type included. team_ids stays as configured: the service
// cannot change them, and a registry created elsewhere may list teams the configuration leaves out.
func (m *registryModel) fromAPI(r *buildkite.Registry) {
	teams := m.TeamIDs
	if !kit.IsKnownValue(teams) { // a zero model (a list result) has no element type
		teams = types.ListNull(types.StringType)
	}
	was := []types.String{m.Description, m.Emoji, m.Color, m.OIDCPolicy}
	m.registryDataModel.fromAPI(r)
	m.TeamIDs = teams
	// A configured "" is sent and answered as null: it stays "", as the official provider keeps it.
	for i, dst := range []*types.String{&m.Description, &m.Emoji, &m.Color, &m.OIDCPolicy} {
		if dst.IsNull() && kit.IsKnownValue(was[i]) && was[i].ValueString() == "" {
			*dst = was[i]
		}
	}
}

func (m *registryModel) toCreate() buildkite.RegistryCreate {
	in := buildkite.RegistryCreate{
		Name:        m.Name.ValueString(),
		Ecosystem:   m.Ecosystem.ValueString(),
		Description: kit.StringPtrIfSet(m.Description),
		Emoji:       kit.StringPtrIfSet(m.Emoji),
		Color:       kit.StringPtrIfSet(m.Color),
		OIDCPolicy:  kit.StringPtrIfSet(m.OIDCPolicy),
	}
	in.TeamIDs = kit.ListUUIDs(m.TeamIDs)
	return in
}

// toUpdate sends every attribute: a removed optional one is sent as "" to clear it on the service.
func (m *registryModel) toUpdate() buildkite.RegistryUpdate {
	name := m.Name.ValueString()
	return buildkite.RegistryUpdate{
		Name:        &name,
		Description: kit.StringPtr(m.Description),
		Emoji:       kit.StringPtr(m.Emoji),
		Color:       kit.StringPtr(m.Color),
		OIDCPolicy:  kit.StringPtr(m.OIDCPolicy),
	}
}

// registrySchema is the schema of buildkite_registry.
func registrySchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A package registry. Its slug is derived from its name, so renaming it changes `slug` and " +
			"`url`; a registry renamed outside Terraform is found again by its ID. Deleting it needs the " +
			"`delete_registries` scope. Import it by its slug.",
		Attributes: kit.WithCommon("registry", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The registry's name.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"ecosystem": schema.StringAttribute{
				MarkdownDescription: "The kind of packages the registry holds, such as `ruby`, `javascript`, `python`, " +
					"`container`, `java`, `debian`, `helm`, `terraform` or `files`. " +
					"It cannot change after creation: a change is refused at plan time, never planned as a replacement " +
					"that would delete the registry and its packages.",
				Required:   true,
				Validators: []validator.String{kit.NotBlank()},
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
			"team_ids": kit.RefListAttribute(schema.ListAttribute{
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
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrURL, kit.AttrWebURL),
	}
}

// refuseRegistryChanges refuses at plan time, with the official provider's words, a change of ecosystem or
// team_ids: the service cannot change either, and a replacement would delete the registry and every package
// in it. Teams are compared by UUID in order (a GraphQL ID for the same team is no change, a reordered list
// is, as there); teams set on an imported registry that reports none, or removed, change nothing and pass.
func refuseRegistryChanges(plan, state *registryModel, diags *diag.Diagnostics) {
	if !plan.Ecosystem.IsUnknown() && !state.Ecosystem.IsNull() && plan.Ecosystem.ValueString() != state.Ecosystem.ValueString() {
		diags.AddAttributeError(path.Root("ecosystem"), "Ecosystem change detected",
			fmt.Sprintf("The ecosystem attribute cannot be changed after registry creation. This restriction is enforced "+
				"by the Buildkite API. The registry holds %q; to change it, create a new registry (replacing this one "+
				"deletes its packages).", state.Ecosystem.ValueString()))
	}
	if !kit.IsKnownValue(plan.TeamIDs) || state.TeamIDs.IsNull() {
		return
	}
	if !slices.Equal(kit.ListUUIDs(plan.TeamIDs), kit.ListUUIDs(state.TeamIDs)) {
		diags.AddAttributeError(path.Root("team_ids"), "Team IDs change detected",
			"The team_ids attribute cannot be changed after registry creation. This restriction is enforced by the "+
				"Buildkite API. Give teams access to the registry in the web interface instead, and keep team_ids as "+
				"the registry was created.")
	}
}

// registryNames finds the registry that holds a name: registry names are unique through their slugs. A
// registry is adopted by its slug, its identity.
var registryNames = &kit.UniqueNames[buildkite.Registry]{
	What: "registry",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Registry, error) {
		return c.Registries.List(ctx)
	},
	Name:     func(r *buildkite.Registry) string { return r.Name },
	Slug:     func(r *buildkite.Registry) string { return r.Slug },
	Id:       func(r *buildkite.Registry) string { return r.ID },
	ImportID: func(r *buildkite.Registry) string { return r.Slug },
}

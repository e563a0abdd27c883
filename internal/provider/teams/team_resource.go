package teams

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The enums of teams and their members, in the REST API's spelling.
var (
	teamPrivacies   = []string{"visible", "secret"}
	teamMemberRoles = []string{"member", "maintainer"}
)

// teamIdentity names a team for import blocks and terraform query by its UUID, which stays when the team
// is renamed (its slug does not).
var teamIdentity = kit.IdentifiedBy(kit.IdentityAttr("id", "The team's UUID."))

// NewTeamResource returns the buildkite_team resource.
func NewTeamResource() resource.Resource { return kit.NewObject(teamKind) }

// teamKind declares buildkite_team: imported by UUID, GraphQL ID or slug; a create refused for a taken name
// names the team that holds it.
var teamKind = &kit.ObjectKind[buildkite.Team, teamModel]{
	Name:     "team",
	What:     "team",
	Scopes:   kit.WriteScopes("write_teams"),
	Identity: teamIdentity,
	Schema:   teamSchema,
	Key:      kit.AttrID,
	FromAPI:  func(m *teamModel, _ string, t *buildkite.Team) { m.fromAPI(t) },
	Create: func(ctx context.Context, c *buildkite.Client, _ string, plan *teamModel) (*buildkite.Team, error) {
		return c.Teams.Create(ctx, plan.toWrite())
	},
	Get: func(ctx context.Context, c *buildkite.Client, _, id string) (*buildkite.Team, error) {
		return c.Teams.Get(ctx, id)
	},
	Update: func(ctx context.Context, c *buildkite.Client, _, id string, plan, _ *teamModel) (*buildkite.Team, error) {
		return c.Teams.Update(ctx, id, plan.toWrite())
	},
	Remove: func(ctx context.Context, c *buildkite.Client, _, id string) error {
		return c.Teams.Delete(ctx, id)
	},
	ImportParts: []kit.ImportPart{kit.KeyPart("<team id or slug>", "Team")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		t, err := kit.FindTeam(ctx, c, parts[0])
		if err != nil {
			return "", "", err
		}
		return "", t.ID, nil
	},
	Named: func(plan *teamModel) string { return fmt.Sprintf("%q", plan.Name.ValueString()) },
	Holder: func(c *buildkite.Client, plan *teamModel) kit.HolderLookup {
		return teamNames.HolderOf(c, plan.Name.ValueString())
	},
}

type teamModel struct {
	ID                        types.String  `tfsdk:"id"`
	UUID                      types.String  `tfsdk:"uuid"`
	GraphQLID                 types.String  `tfsdk:"graphql_id"`
	Name                      types.String  `tfsdk:"name"`
	Slug                      types.String  `tfsdk:"slug"`
	Description               types.String  `tfsdk:"description"`
	Privacy                   kit.EnumValue `tfsdk:"privacy"`
	DefaultTeam               types.Bool    `tfsdk:"default_team"`
	DefaultMemberRole         kit.EnumValue `tfsdk:"default_member_role"`
	MembersCanCreatePipelines types.Bool    `tfsdk:"members_can_create_pipelines"`
	teamPermissionsModel
	CreatedAt types.String `tfsdk:"created_at"`
}

// teamPermissionsModel holds the permissions beyond the documentation that the official provider manages;
// the resource and the data sources share it.
type teamPermissionsModel struct {
	MembersCanCreateSuites      types.Bool `tfsdk:"members_can_create_suites"`
	MembersCanCreateRegistries  types.Bool `tfsdk:"members_can_create_registries"`
	MembersCanDestroyRegistries types.Bool `tfsdk:"members_can_destroy_registries"`
	MembersCanDestroyPackages   types.Bool `tfsdk:"members_can_destroy_packages"`
}

// teamPermissionDescriptions describe the permissions, by attribute.
var teamPermissionDescriptions = map[string]string{
	"members_can_create_suites":      "Whether members of the team may create test suites.",
	"members_can_create_registries":  "Whether members of the team may create package registries.",
	"members_can_destroy_registries": "Whether members of the team may delete package registries.",
	"members_can_destroy_packages":   "Whether members of the team may delete packages.",
}

// fromAPI copies the permissions a response carries and leaves the others as they are.
func (m *teamPermissionsModel) fromAPI(t *buildkite.Team) {
	for _, p := range []struct {
		dst  *types.Bool
		sent *bool
	}{
		{&m.MembersCanCreateSuites, t.MembersCanCreateSuites},
		{&m.MembersCanCreateRegistries, t.MembersCanCreateRegistries},
		{&m.MembersCanDestroyRegistries, t.MembersCanDestroyRegistries},
		{&m.MembersCanDestroyPackages, t.MembersCanDestroyPackages},
	} {
		if p.sent != nil {
			*p.dst = types.BoolValue(*p.sent)
		}
	}
}

// toWrite sets the permissions of a create or update body, every one of them (false too, to turn one off).
func (m *teamPermissionsModel) toWrite(w *buildkite.TeamWrite) {
	w.MembersCanCreateSuites = ptrToBool(m.MembersCanCreateSuites)
	w.MembersCanCreateRegistries = ptrToBool(m.MembersCanCreateRegistries)
	w.MembersCanDestroyRegistries = ptrToBool(m.MembersCanDestroyRegistries)
	w.MembersCanDestroyPackages = ptrToBool(m.MembersCanDestroyPackages)
}

// ptrToBool is the value of a known bool, false for null or unknown, as a pointer that is always sent.
func ptrToBool(v types.Bool) *bool {
	b := v.ValueBool()
	return &b
}

// fromAPI copies a team. A response without default_member_role or members_can_create_pipelines (the
// documentation lists them only in create and update responses) leaves what the model holds.
func (m *teamModel) fromAPI(t *buildkite.Team) {
	m.ID = types.StringValue(t.ID)
	m.UUID = types.StringValue(t.ID)
	m.GraphQLID = types.StringValue(t.GraphQLID)
	m.Name = types.StringValue(t.Name)
	m.Slug = types.StringValue(t.Slug)
	m.Description = types.StringValue(t.Description)
	m.Privacy = kit.NewEnumValue(t.Privacy)
	m.DefaultTeam = types.BoolValue(t.IsDefault())
	if t.DefaultMemberRole != nil {
		m.DefaultMemberRole = kit.NewEnumValue(*t.DefaultMemberRole)
	}
	if t.MembersCanCreatePipelines != nil {
		m.MembersCanCreatePipelines = types.BoolValue(*t.MembersCanCreatePipelines)
	}
	m.teamPermissionsModel.fromAPI(t)
	m.CreatedAt = kit.TimeValue(t.CreatedAt)
}

// toWrite is the body of both create and update: the service takes every property every time.
func (m *teamModel) toWrite() buildkite.TeamWrite {
	w := buildkite.TeamWrite{
		Name:                      m.Name.ValueString(),
		Description:               m.Description.ValueString(),
		Privacy:                   m.Privacy.API(),
		IsDefaultTeam:             m.DefaultTeam.ValueBool(),
		DefaultMemberRole:         m.DefaultMemberRole.API(),
		MembersCanCreatePipelines: m.MembersCanCreatePipelines.ValueBool(),
	}
	m.teamPermissionsModel.toWrite(&w)
	return w
}

// teamSchema is the schema of buildkite_team (version 1: the official provider's 0 is upgraded; kit/upgrade.go).
func teamSchema() schema.Schema {
	s := schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A team: a group of the organization's users that is given access to pipelines " +
			"(`buildkite_pipeline_team`) and test suites (`buildkite_test_suite_team`). Import by UUID or by slug.",
		Attributes: kit.WithCommon("team", map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "The team's name; its slug is derived from it.",
				Required:            true,
				Validators:          []validator.String{kit.NotBlank()},
			},
			"slug": schema.StringAttribute{
				MarkdownDescription: "The team's URL slug, derived from its name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{slugFollowsName{}},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "A description of the team. Defaults to `\"\"`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(""),
			},
			"privacy": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "Who can see the team: `visible` to every member of the organization, `secret` to its members and administrators only.",
				Required:            true,
			}, teamPrivacies...),
			"default_team": schema.BoolAttribute{
				MarkdownDescription: "Whether users who join the organization join this team too (REST `is_default_team`).",
				Required:            true,
			},
			"default_member_role": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "The role of users added to the team without one.",
				Required:            true,
			}, teamMemberRoles...),
			"members_can_create_pipelines": schema.BoolAttribute{
				MarkdownDescription: "Whether members of the team may create pipelines. Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
		}, kit.AttrID, kit.AttrUUID, kit.AttrGraphQLID, kit.AttrCreatedAt),
	}
	for name, description := range teamPermissionDescriptions {
		s.Attributes[name] = schema.BoolAttribute{
			MarkdownDescription: description + " Defaults to `false`.",
			Optional:            true, Computed: true,
			Default: booldefault.StaticBool(false),
		}
	}
	return s
}

// teamNames finds the team that holds a name: team names are unique through their slugs. A team is
// adopted by its UUID, its identity.
var teamNames = &kit.UniqueNames[buildkite.Team]{
	What: "team",
	List: func(ctx context.Context, c *buildkite.Client) ([]buildkite.Team, error) {
		return c.Teams.List(ctx, buildkite.TeamListOptions{})
	},
	Name:     func(t *buildkite.Team) string { return t.Name },
	Slug:     func(t *buildkite.Team) string { return t.Slug },
	Id:       func(t *buildkite.Team) string { return t.ID },
	ImportID: func(t *buildkite.Team) string { return t.ID },
}

// slugFollowsName keeps the known slug while the name stays, and leaves it unknown when the name changes,
// since the service derives a new one.
type slugFollowsName struct{}

func (slugFollowsName) Description(context.Context) string {
	return "the slug stays unless the name changes"
}

func (m slugFollowsName) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (slugFollowsName) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || !req.PlanValue.IsUnknown() {
		return
	}
	var planName, stateName types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &planName)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &stateName)...)
	if planName.Equal(stateName) {
		resp.PlanValue = req.StateValue
	}
}

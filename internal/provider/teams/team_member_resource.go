package teams

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// teamMemberIdentity names a team membership by its two sides, for import blocks and terraform query.
var teamMemberIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("team_id", "The UUID of the team."),
	kit.IdentityAttr("user_id", "The UUID of the user."),
)

// NewTeamMemberResource returns the buildkite_team_member resource.
func NewTeamMemberResource() resource.Resource { return kit.NewAssociation(teamMemberKind) }

type teamMemberModel struct {
	ID        types.String  `tfsdk:"id"`
	UUID      types.String  `tfsdk:"uuid"`
	GraphQLID types.String  `tfsdk:"graphql_id"`
	TeamID    kit.RefValue  `tfsdk:"team_id"`
	UserID    kit.RefValue  `tfsdk:"user_id"`
	Role      kit.EnumValue `tfsdk:"role"`
	UserName  types.String  `tfsdk:"user_name"`
}

func (m *teamMemberModel) fromAPI(teamID string, tm *buildkite.TeamMember) {
	m.ID = kit.AssociationID(teamID, tm.UserID)
	m.UUID = m.ID
	m.GraphQLID = kit.OptionalString(tm.GraphQLID)
	m.TeamID = kit.NewRef(teamID)
	m.UserID = kit.NewRef(tm.UserID)
	m.Role = kit.NewEnumValue(tm.Role)
	m.UserName = types.StringValue(tm.UserName)
}

// teamMemberKind declares buildkite_team_member: a user's membership of a team, addressed by the team and
// the user, with the role changed in place. Adding a user who is in the team already takes the membership
// over.
var teamMemberKind = &kit.AssociationKind[buildkite.TeamMember, teamMemberModel]{
	Name:     "team_member",
	What:     "team member",
	Scopes:   kit.WriteScopes("write_teams"),
	Identity: teamMemberIdentity,
	Schema:   teamMemberSchema,
	Parent:   "team_id",
	Key:      "user_id",
	Moves:    kit.BySides("team_id", "user_id"),
	FromAPI:  (*teamMemberModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, teamID string, plan *teamMemberModel) (*buildkite.TeamMember, error) {
		return c.TeamMembers.Create(ctx, teamID, buildkite.TeamMemberCreate{UserID: plan.UserID.UUID(), Role: plan.Role.API()})
	},
	Get: func(ctx context.Context, c *buildkite.Client, teamID, userID string) (*buildkite.TeamMember, error) {
		return c.TeamMembers.Get(ctx, teamID, userID)
	},
	Update: func(ctx context.Context, c *buildkite.Client, teamID, userID string, plan, _ *teamMemberModel) (*buildkite.TeamMember, error) {
		return c.TeamMembers.Update(ctx, teamID, userID, plan.Role.API())
	},
	Remove: func(ctx context.Context, c *buildkite.Client, teamID, userID string) error {
		return c.TeamMembers.Delete(ctx, teamID, userID)
	},
	Current:     func(tm *buildkite.TeamMember, plan *teamMemberModel) bool { return tm.Role == plan.Role.API() },
	ImportParts: []kit.ImportPart{kit.KeyPart("<team id or slug>", "Team"), kit.UuidPart("<user id>", "User")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		return kit.TeamAndKey(ctx, c, parts, func(ctx context.Context, teamID, userID string) (string, error) {
			_, err := c.TeamMembers.Get(ctx, teamID, userID)
			return userID, err
		})
	},
}

func teamMemberSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A user's membership of a team, with the user's role in it. The user must be a member " +
			"of the organization (see the `buildkite_organization_member` data source). Import as `<team>/<user id>`, " +
			"the team by UUID or slug. Where the user is in the team already, creating this resource takes the " +
			"membership over and sets its role.",
		Attributes: kit.AssociationAttributes("team membership", "<team id>/<user id>", map[string]schema.Attribute{
			"team_id": kit.ParentIDAttribute("The UUID of the team.", "Team"),
			"user_id": kit.ParentIDAttribute("The UUID of the user (the `id` of a `buildkite_organization_member`).", "User"),
			"role": kit.CaseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "The user's role in the team; `maintainer`s manage the team's members.",
				Required:            true,
			}, teamMemberRoles...),
			"user_name": kit.ComputedString("The user's name."),
		}),
	}
}

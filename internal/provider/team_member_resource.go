package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// teamMemberIdentity names a team membership by its two sides, for import blocks and terraform query.
var teamMemberIdentity = identifiedBy(
	identityAttr("team_id", "The UUID of the team."),
	identityAttr("user_id", "The UUID of the user."),
)

// NewTeamMemberResource returns the buildkite_team_member resource.
func NewTeamMemberResource() resource.Resource { return newAssociation(teamMemberKind) }

type teamMemberModel struct {
	ID        types.String `tfsdk:"id"`
	UUID      types.String `tfsdk:"uuid"`
	GraphQLID types.String `tfsdk:"graphql_id"`
	TeamID    refValue     `tfsdk:"team_id"`
	UserID    refValue     `tfsdk:"user_id"`
	Role      enumValue    `tfsdk:"role"`
	UserName  types.String `tfsdk:"user_name"`
}

func (m *teamMemberModel) fromAPI(teamID string, tm *buildkite.TeamMember) {
	m.ID = associationID(teamID, tm.UserID)
	m.UUID = m.ID
	m.GraphQLID = optionalString(tm.GraphQLID)
	m.TeamID = newRef(teamID)
	m.UserID = newRef(tm.UserID)
	m.Role = newEnumValue(tm.Role)
	m.UserName = types.StringValue(tm.UserName)
}

// teamMemberKind declares buildkite_team_member: a user's membership of a team, addressed by the team and
// the user, with the role changed in place. Adding a user who is in the team already takes the membership
// over.
var teamMemberKind = &associationKind[buildkite.TeamMember, teamMemberModel]{
	name:     "team_member",
	what:     "team member",
	scopes:   writeScopes("write_teams"),
	identity: teamMemberIdentity,
	schema:   teamMemberSchema,
	parent:   "team_id",
	key:      "user_id",
	moves:    bySides("team_id", "user_id"),
	fromAPI:  (*teamMemberModel).fromAPI,
	create: func(ctx context.Context, c *buildkite.Client, teamID string, plan *teamMemberModel) (*buildkite.TeamMember, error) {
		return c.TeamMembers.Create(ctx, teamID, buildkite.TeamMemberCreate{UserID: plan.UserID.UUID(), Role: plan.Role.API()})
	},
	get: func(ctx context.Context, c *buildkite.Client, teamID, userID string) (*buildkite.TeamMember, error) {
		return c.TeamMembers.Get(ctx, teamID, userID)
	},
	update: func(ctx context.Context, c *buildkite.Client, teamID, userID string, plan, _ *teamMemberModel) (*buildkite.TeamMember, error) {
		return c.TeamMembers.Update(ctx, teamID, userID, plan.Role.API())
	},
	remove: func(ctx context.Context, c *buildkite.Client, teamID, userID string) error {
		return c.TeamMembers.Delete(ctx, teamID, userID)
	},
	current:     func(tm *buildkite.TeamMember, plan *teamMemberModel) bool { return tm.Role == plan.Role.API() },
	importParts: []importPart{keyPart("<team id or slug>", "Team"), uuidPart("<user id>", "User")},
	resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		return teamAndKey(ctx, c, parts, func(ctx context.Context, teamID, userID string) (string, error) {
			_, err := c.TeamMembers.Get(ctx, teamID, userID)
			return userID, err
		})
	},
}

func teamMemberSchema() schema.Schema {
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (upgrade.go)
		MarkdownDescription: "A user's membership of a team, with the user's role in it. The user must be a member " +
			"of the organization (see the `buildkite_organization_member` data source). Import as `<team>/<user id>`, " +
			"the team by UUID or slug. Where the user is in the team already, creating this resource takes the " +
			"membership over and sets its role.",
		Attributes: associationAttributes("team membership", "<team id>/<user id>", map[string]schema.Attribute{
			"team_id": parentIDAttribute("The UUID of the team.", "Team"),
			"user_id": parentIDAttribute("The UUID of the user (the `id` of a `buildkite_organization_member`).", "User"),
			"role": caseInsensitiveEnum(schema.StringAttribute{
				MarkdownDescription: "The user's role in the team; `maintainer`s manage the team's members.",
				Required:            true,
			}, teamMemberRoles...),
			"user_name": computedString("The user's name."),
		}),
	}
}

package teams

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// registryAccessLevels are a team's access levels to a package registry, lower-cased as the other access
// levels are here (GraphQL spells them in upper case, which is sent).
var registryAccessLevels = []string{"read_only", "read_and_write", "read_write_and_admin"}

// teamRegistryIdentity names a team's access to a registry by its two sides, for import blocks and
// terraform query.
var teamRegistryIdentity = kit.IdentifiedBy(
	kit.IdentityAttr("team_id", "The UUID of the team."),
	kit.IdentityAttr("registry_id", "The UUID of the registry."),
)

// NewTeamRegistryResource returns the buildkite_team_registry resource.
func NewTeamRegistryResource() resource.Resource { return kit.NewAssociation(teamRegistryKind) }

type teamRegistryModel struct {
	ID          types.String  `tfsdk:"id"`
	UUID        types.String  `tfsdk:"uuid"`
	GraphQLID   types.String  `tfsdk:"graphql_id"`
	TeamID      kit.RefValue  `tfsdk:"team_id"`
	RegistryID  kit.RefValue  `tfsdk:"registry_id"`
	AccessLevel kit.EnumValue `tfsdk:"access_level"`
}

func (m *teamRegistryModel) fromAPI(teamID string, g *buildkite.TeamRegistry) {
	m.ID = kit.AssociationID(teamID, g.RegistryID())
	m.UUID = types.StringValue(g.UUID)
	m.GraphQLID = types.StringValue(g.ID)
	m.TeamID = kit.NewRef(teamID)
	m.RegistryID = kit.NewRef(g.RegistryID())
	m.AccessLevel = kit.NewEnumValue(g.AccessLevel)
}

// teamRegistryKind declares buildkite_team_registry: a team's access to a package registry, which only
// GraphQL serves, addressed by the team and the registry's UUID, with the level changed in place. It takes
// over the access a registry created with the team in team_ids gave.
var teamRegistryKind = &kit.AssociationKind[buildkite.TeamRegistry, teamRegistryModel]{
	Name:     "team_registry",
	What:     "team registry",
	GraphQL:  &kit.GraphQLCalls{},
	Identity: teamRegistryIdentity,
	Schema:   teamRegistrySchema,
	Parent:   "team_id",
	Key:      "registry_id",
	Moves:    teamRegistryMoves,
	FromAPI:  (*teamRegistryModel).fromAPI,
	Create: func(ctx context.Context, c *buildkite.Client, teamID string, plan *teamRegistryModel) (*buildkite.TeamRegistry, error) {
		return c.TeamRegistries.Create(ctx, teamID, plan.RegistryID.UUID(), strings.ToUpper(plan.AccessLevel.ValueString()))
	},
	Get: func(ctx context.Context, c *buildkite.Client, teamID, registryID string) (*buildkite.TeamRegistry, error) {
		return c.TeamRegistries.Get(ctx, teamID, registryID)
	},
	// The mutations address the access by its GraphQL ID, which the registry's teams give.
	Update: func(ctx context.Context, c *buildkite.Client, teamID, registryID string, plan, _ *teamRegistryModel) (*buildkite.TeamRegistry, error) {
		g, err := c.TeamRegistries.Get(ctx, teamID, registryID)
		if err != nil {
			return nil, err
		}
		return c.TeamRegistries.Update(ctx, g.ID, strings.ToUpper(plan.AccessLevel.ValueString()))
	},
	Remove: func(ctx context.Context, c *buildkite.Client, teamID, registryID string) error {
		g, err := c.TeamRegistries.Get(ctx, teamID, registryID)
		if err != nil {
			return err
		}
		return c.TeamRegistries.Delete(ctx, g.ID)
	},
	Current: func(g *buildkite.TeamRegistry, plan *teamRegistryModel) bool {
		return strings.EqualFold(g.AccessLevel, plan.AccessLevel.ValueString())
	},
	// The registry is found by UUID among its teams' access, or by slug through the REST API first.
	ImportParts: []kit.ImportPart{kit.KeyPart("<team id or slug>", "Team"), kit.KeyPart("<registry id or slug>", "Registry")},
	Resolve: func(ctx context.Context, c *buildkite.Client, parts []string) (string, string, error) {
		return kit.TeamAndKey(ctx, c, parts, func(ctx context.Context, teamID, other string) (string, error) {
			registryID := kit.CanonicalID(other)
			if !kit.IsUUID(registryID) {
				reg, err := c.Registries.Get(ctx, other)
				if err != nil {
					return "", err
				}
				registryID = reg.ID
			}
			_, err := c.TeamRegistries.Get(ctx, teamID, registryID)
			return registryID, err
		})
	},
}

// teamRegistryMoves upgrade the official provider's states: its id is the access's GraphQL ID and its uuid
// the access's own UUID, which GraphQL shows here too; the id here is built from the two sides.
var teamRegistryMoves = kit.StateMoves{Refs: []string{"team_id", "registry_id"}, Official: func(_ int64, a kit.StateAttrs) error {
	team, _ := a["team_id"].(string)
	registry, _ := a["registry_id"].(string)
	if !kit.IsUUID(team) || !kit.IsUUID(registry) {
		return fmt.Errorf("team_id %q and registry_id %q do not name the access's two sides", team, registry)
	}
	// The official id, the access's GraphQL ID, encodes the uuid it keeps beside it.
	if uuid, _ := a[kit.AttrUUID].(string); kit.IsUUID(uuid) {
		a[kit.AttrGraphQLID] = kit.GraphQLID("TeamRegistry", uuid)
	}
	a[kit.AttrID] = kit.AssociationID(team, registry).ValueString()
	return nil
}}

func teamRegistrySchema() schema.Schema {
	attrs := kit.AssociationAttributes("registry access", "<team id>/<registry id>", map[string]schema.Attribute{
		"team_id":     kit.ParentIDAttribute("The UUID of the team.", "Team"),
		"registry_id": kit.ParentIDAttribute("The UUID of the package registry (its `id`).", "Registry"),
		"access_level": kit.CaseInsensitiveEnum(schema.StringAttribute{
			MarkdownDescription: "What the team's members may do with the registry: `read_only` install packages, " +
				"`read_and_write` also publish them, `read_write_and_admin` also delete packages and manage the registry.",
			Required: true,
		}, registryAccessLevels...),
	})
	attrs[kit.AttrUUID] = kit.ComputedString("The access's own UUID, as Buildkite's GraphQL API shows it.")
	attrs[kit.AttrGraphQLID] = kit.ComputedString("The access's GraphQL ID (a `TeamRegistry`), the official provider's `id` " +
		"of this resource, which import accepts.")
	return schema.Schema{
		Version: 1, // above the official provider's 0, so that its states are upgraded (kit/upgrade.go)
		MarkdownDescription: "A team's access to a package registry, through Buildkite's GraphQL API (the provider " +
			"needs `graphql_url` where `rest_url` is set, and an API token with the `graphql` scope). Import as " +
			"`<team>/<registry>`, the team by UUID or slug and the registry by UUID or slug, or by the access's " +
			"GraphQL ID, the official provider's form.\n\n" +
			"**Beside `buildkite_registry.team_ids`.** A registry created with `team_ids` gives those teams " +
			"`READ_WRITE_AND_ADMIN` access once, when it is created; `team_ids` is kept from the configuration " +
			"and never compared with the teams that have access, so a `buildkite_team_registry` for another team " +
			"shows in neither resource's plans. A `buildkite_team_registry` for a team that `team_ids` names owns " +
			"that access from then on: creating it takes over the existing access and sets its own " +
			"`access_level`, and destroying it removes the team's access while `team_ids` still names the team " +
			"(the service cannot change `team_ids` after creation, so no plan of the registry shows it). Two " +
			"`buildkite_team_registry` resources for one team and registry, created in one run, are refused, as " +
			"the service refuses a duplicate.",
		Attributes: attrs,
	}
}

package buildkite

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
)

// TeamRegistriesService manages teams' access to package registries, which only Buildkite's GraphQL API
// serves: teamRegistryCreate, teamRegistryUpdate and teamRegistryDelete change it, and a registry's teams
// connection reads it (https://buildkite.com/docs/apis/graphql/schemas/object/teamregistry). The REST
// registry's team_ids list the same teams: a registry created with team_ids gives them access.
type TeamRegistriesService struct{ client *Client }

// TeamRegistry is a team's access to a package registry.
type TeamRegistry struct {
	ID   string `json:"id"` // the GraphQL ID
	UUID string `json:"uuid"`
	// AccessLevel is READ_ONLY, READ_AND_WRITE or READ_WRITE_AND_ADMIN.
	AccessLevel string     `json:"accessLevel"`
	Team        *NamedNode `json:"team"`
	Registry    *NamedNode `json:"registry"`
}

// NamedNode is an object a GraphQL answer names: a grant's team or registry.
type NamedNode struct {
	ID   string `json:"id"` // the GraphQL ID
	UUID string `json:"uuid"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// TeamID is the team's UUID ("" when the answer named none).
func (g *TeamRegistry) TeamID() string { return nodeUUID(g.Team) }

// RegistryID is the registry's UUID ("" when the answer named none).
func (g *TeamRegistry) RegistryID() string { return nodeUUID(g.Registry) }

func nodeUUID(n *NamedNode) string {
	if n == nil {
		return ""
	}
	return strings.ToLower(n.UUID)
}

// registryTeamsPage is how many grants one page of a registry's teams holds.
const registryTeamsPage = 100

var (
	opCreateTeamRegistry = mutationFile("createTeamRegistry", false) // a second create is refused as a duplicate
	opUpdateTeamRegistry = mutationFile("updateTeamRegistry", true)  // setting a level twice sets it once
	opDeleteTeamRegistry = mutationFile("deleteTeamRegistry", true)  // a second delete finds nothing
	opListRegistryTeams  = queryFile("listRegistryTeams")
)

type teamRegistryAnswer struct {
	TeamRegistry *TeamRegistry `json:"teamRegistry"`
}

type createTeamRegistryAnswer struct {
	TeamRegistryCreate *teamRegistryAnswer `json:"teamRegistryCreate"`
}

type updateTeamRegistryAnswer struct {
	TeamRegistryUpdate *teamRegistryAnswer `json:"teamRegistryUpdate"`
}

type deleteTeamRegistryAnswer struct {
	TeamRegistryDelete *struct {
		DeletedTeamRegistryID string `json:"deletedTeamRegistryID"`
	} `json:"teamRegistryDelete"`
}

type listRegistryTeamsAnswer struct {
	Node *struct {
		Typename string `json:"__typename"`
		Teams    *struct {
			Edges []struct {
				Node *TeamRegistry `json:"node"`
			} `json:"edges"`
			PageInfo struct {
				HasNextPage bool   `json:"hasNextPage"`
				EndCursor   string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"teams"`
	} `json:"node"`
}

// nodeID is the GraphQL ID of the object of type typ whose UUID is uuid: base64 of "<typ>---<uuid>", the
// form Buildkite's IDs take (a REST answer's graphql_id is the same text).
func nodeID(typ, uuid string) string {
	return base64.StdEncoding.EncodeToString([]byte(typ + "---" + strings.ToLower(uuid)))
}

// checkIDs refuses an empty ID, or one that is more than one (with a "/"), before anything is sent.
func checkIDs(ids ...string) error {
	for _, id := range ids {
		if strings.TrimSpace(id) == "" || strings.Contains(id, "/") {
			return fmt.Errorf("%w %q", ErrInvalidID, id)
		}
	}
	return nil
}

// List returns every team's access to the registry whose UUID is registryID. A registry GraphQL does not
// know is a not-found error (IsNotFound).
func (s *TeamRegistriesService) List(ctx context.Context, registryID string) ([]TeamRegistry, error) {
	if err := checkIDs(registryID); err != nil {
		return nil, err
	}
	var all []TeamRegistry
	after := ""
	for pages := 0; ; pages++ {
		if pages == maxPages {
			return nil, fmt.Errorf("GraphQL %s: more than %d pages", opListRegistryTeams.name, maxPages)
		}
		vars := map[string]any{"id": nodeID("Registry", registryID), "first": registryTeamsPage}
		if after != "" {
			vars["after"] = after
		}
		out, err := gqlQuery[listRegistryTeamsAnswer](ctx, s.client, opListRegistryTeams, vars)
		if err != nil {
			return nil, err
		}
		if out.Node == nil || out.Node.Typename != "Registry" || out.Node.Teams == nil {
			return nil, s.client.graphQLNotFound(opListRegistryTeams.name, "registry "+registryID)
		}
		for _, e := range out.Node.Teams.Edges {
			if e.Node != nil {
				all = append(all, *e.Node)
			}
		}
		page := out.Node.Teams.PageInfo
		if !page.HasNextPage || page.EndCursor == "" || page.EndCursor == after {
			return all, nil
		}
		after = page.EndCursor
	}
}

// Get returns the access of the team whose UUID is teamID to the registry whose UUID is registryID; none
// is a not-found error (IsNotFound).
func (s *TeamRegistriesService) Get(ctx context.Context, teamID, registryID string) (*TeamRegistry, error) {
	if err := checkIDs(teamID); err != nil {
		return nil, err
	}
	all, err := s.List(ctx, registryID)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].TeamID() == strings.ToLower(teamID) {
			return &all[i], nil
		}
	}
	return nil, s.client.graphQLNotFound(opListRegistryTeams.name, "team "+teamID+"'s access to registry "+registryID)
}

// Create gives the team whose UUID is teamID access to the registry whose UUID is registryID. The pair
// identifies the access, so a create whose answer was lost adopts the access it made, if there was none
// before the create was sent (createOrAdoptWith); access the team had before is refused by the service.
func (s *TeamRegistriesService) Create(ctx context.Context, teamID, registryID, accessLevel string) (*TeamRegistry, error) {
	if err := checkIDs(teamID, registryID); err != nil {
		return nil, err
	}
	vars := map[string]any{"teamId": nodeID("Team", teamID), "registryId": nodeID("Registry", registryID), "accessLevel": accessLevel}
	send := func(ctx context.Context) (*TeamRegistry, error) {
		out, err := gqlMutate[createTeamRegistryAnswer](ctx, s.client, opCreateTeamRegistry, vars)
		var made *TeamRegistry
		if out != nil && out.TeamRegistryCreate != nil {
			made = out.TeamRegistryCreate.TeamRegistry
		}
		if err != nil {
			return actedWith(made, err)
		}
		if made == nil || made.ID == "" {
			return nil, &unknownOutcomeError{err: fmt.Errorf("GraphQL %s: the service answered without the access it made", opCreateTeamRegistry.name)}
		}
		return made, nil
	}
	what := "team " + teamID + "'s access to registry " + registryID
	return createOrAdoptWith(ctx, s.client, "team-registry "+teamID+"/"+registryID, send, lostCreate[TeamRegistry]{
		matching: func(ctx context.Context) ([]TeamRegistry, error) { return onlyIf(s.Get(ctx, teamID, registryID)) },
		id:       func(g *TeamRegistry) string { return g.TeamID() + "/" + g.RegistryID() },
		describe: func(*TeamRegistry) string { return what },
		reused:   true,
	})
}

// Update sets the access level of the access whose GraphQL ID is id.
func (s *TeamRegistriesService) Update(ctx context.Context, id, accessLevel string) (*TeamRegistry, error) {
	if err := checkIDs(id); err != nil {
		return nil, err
	}
	out, err := gqlMutate[updateTeamRegistryAnswer](ctx, s.client, opUpdateTeamRegistry, map[string]any{"id": id, "accessLevel": accessLevel})
	var changed *TeamRegistry
	if out != nil && out.TeamRegistryUpdate != nil {
		changed = out.TeamRegistryUpdate.TeamRegistry
	}
	if err != nil {
		return actedWith(changed, err)
	}
	if changed == nil {
		return nil, s.client.graphQLNotFound(opUpdateTeamRegistry.name, "team registry "+id)
	}
	return changed, nil
}

// Delete removes the access whose GraphQL ID is id.
func (s *TeamRegistriesService) Delete(ctx context.Context, id string) error {
	if err := checkIDs(id); err != nil {
		return err
	}
	_, err := gqlMutate[deleteTeamRegistryAnswer](ctx, s.client, opDeleteTeamRegistry, map[string]any{"id": id})
	return err
}

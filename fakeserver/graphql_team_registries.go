package fakeserver

import (
	"slices"
	"strings"
)

// Teams' access to package registries (TeamRegistry): served by GraphQL only, as Buildkite serves it
// (teamRegistryCreate, teamRegistryUpdate, teamRegistryDelete; Registry.teams, Team.registries and
// node(id:) read it). The grants are team links (team_links.go) in the teams' store, listed by team and by
// registry ("registry:<id>"): the REST registry's team_ids, which a create gives access to, are the same
// grants, so what one API writes the other reads. A registry's team_ids list its grants in the order they
// were made, whoever made them; deleting the registry or the team takes its grants along.
//
// Choices where the facts are silent (I): the teams a REST create names get READ_WRITE_AND_ADMIN (the
// official provider's example calls them the registry's owners), and a team ID that names no team of the
// organization is left out, as the team links of other areas are; a teamRegistryCreate without accessLevel
// gives READ_ONLY; a team that already has access is refused "Validation failed: Registry has already been
// added to the team", as the other team links are; Registry.teams' search matches the team's name.

// KindTeamRegistry is a team's access to a package registry, identified "<team id>/<registry id>".
const KindTeamRegistry Kind = "team_registry"

// registryCreatorAccess is what a team named in a REST create's team_ids is given.
const registryCreatorAccess = "read_write_and_admin"

// teamRegistries declares the grants. They have no REST routes (teamAssociations lists those that do).
var teamRegistries = &teamAssociation{
	kind: KindTeamRegistry, idField: "registry", noun: "team registry",
	otherNoun: "registry", exists: registryExists, linkable: registryExists,
	notLinkable: "must be a registry of the organization", taken: "has already been added to the team",
	links: func(st *Store) *table[*teamLinkRecord] { return st.teams.registries },
}

func registryExists(st *Store, org, id string) bool { return st.registryByID(org, id) != nil }

func init() {
	registerKind(KindTeamRegistry, nestedKey(func(st *Store, org, teamID, registryID string) *teamLinkRecord {
		return st.teamLink(teamRegistries, org, teamID, registryID)
	}), func(st *Store, l *teamLinkRecord) { st.teams.registries.remove(l) })
	gqlNodes["Registry"] = func(x *gqlExec, uuid string) any {
		if reg, ok := x.st.registries.registries.get(uuid); ok && x.tok.orgs[reg.org] {
			return x.registryObject(reg)
		}
		return nil
	}
}

// registryGrants lists the teams with access to reg, in the order the grants were made. A lock must be held.
func (st *Store) registryGrants(reg *registryRecord) []*teamLinkRecord {
	var out []*teamLinkRecord
	for _, l := range st.teams.registries.list("registry:" + reg.id) {
		if st.teamByID(reg.org, l.teamID) != nil {
			out = append(out, l)
		}
	}
	return out
}

// registryTeamIDs are the UUIDs of the teams with access to reg: its REST team_ids.
func (st *Store) registryTeamIDs(reg *registryRecord) []string {
	ids := []string{}
	for _, l := range st.registryGrants(reg) {
		ids = append(ids, l.teamID)
	}
	return ids
}

// grantRegistryTeams gives the teams a REST create names access to reg. The write lock must be held.
func (st *Store) grantRegistryTeams(reg *registryRecord, teamIDs []string) {
	for _, id := range teamIDs {
		if st.teamLink(teamRegistries, reg.org, id, reg.id) == nil {
			st.addTeamLink(teamRegistries, reg.org, id, reg.id, []string{registryCreatorAccess}, reg.createdAt)
		}
	}
}

// registryObject is a Registry, or nil for nil.
func (x *gqlExec) registryObject(reg *registryRecord) any {
	if reg == nil {
		return nil
	}
	return gqlObject{typ: "Registry", fields: map[string]any{
		"id": reg.graphqlID, "uuid": reg.id, "slug": reg.slug, "name": reg.name,
		"teams": gqlResolver(func(args map[string]any) (any, error) {
			type grant struct {
				t *teamRecord
				l *teamLinkRecord
			}
			var grants []grant
			search := strings.ToLower(argString(args, "search"))
			for _, l := range x.st.registryGrants(reg) {
				t := x.st.teamByID(reg.org, l.teamID)
				if search == "" || strings.Contains(strings.ToLower(t.name), search) {
					grants = append(grants, grant{t, l})
				}
			}
			if argString(args, "order") == "NAME" {
				slices.SortStableFunc(grants, func(a, b grant) int { return strings.Compare(strings.ToLower(a.t.name), strings.ToLower(b.t.name)) })
			}
			return gqlConnection("TeamRegistryConnection", args, grants, func(g grant) any { return x.teamLinkObject("TeamRegistry", g.t, g.l) })
		}),
	}}
}

// registryByID returns the registry of org with this UUID, or nil. A lock must be held.
func (st *Store) registryByID(org, id string) *registryRecord {
	if reg, ok := st.registries.registries.get(id); ok && reg.org == org {
		return reg
	}
	return nil
}

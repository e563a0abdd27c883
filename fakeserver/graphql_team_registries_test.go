package fakeserver

import (
	"net/http"
	"testing"
)

// TestGraphQLTeamRegistries: a grant made over GraphQL shows in the REST registry's team_ids beside the
// teams the registry was created with, which GraphQL lists with their access; a second grant for one team is
// refused; update and delete change what both APIs show; deleting the team or the registry takes the grants
// along.
func TestGraphQLTeamRegistries(t *testing.T) {
	k := newTeamsKit(t)
	owner, other := k.createTeam("Owner"), k.createTeam("Other")
	r := k.regAPI("POST", "", map[string]any{"name": "Gems", "ecosystem": "ruby", "team_ids": []string{owner}})
	expect(t, r, http.StatusOK)
	reg := r.object(t)["id"].(string)
	regID, otherID := graphQLID("Registry", reg), graphQLID("Team", other)
	const create = `mutation($t: ID!, $r: ID!, $level: RegistryAccessLevels) { teamRegistryCreate(input: {teamID: $t, registryID: $r, accessLevel: $level}) {
  teamRegistry { id uuid accessLevel team { uuid } registry { uuid } } registry { id } team { id } teamRegistryEdge { node { id } } } }`
	a := k.gql(create, map[string]any{"t": otherID, "r": regID, "level": "READ_AND_WRITE"}).ok(t)
	grant := a.str(t, "teamRegistryCreate", "teamRegistry", "id")
	if a.str(t, "teamRegistryCreate", "teamRegistry", "accessLevel") != "READ_AND_WRITE" ||
		a.str(t, "teamRegistryCreate", "teamRegistry", "registry", "uuid") != reg ||
		a.str(t, "teamRegistryCreate", "teamRegistryEdge", "node", "id") != grant ||
		grant != k.srv.Store().TeamLinkGraphQLID(KindTeamRegistry, "acme", other, reg) {
		t.Fatalf("created: %s", a.raw)
	}
	teamIDs := func() []any {
		r := k.regAPI("GET", "/gems", nil)
		expect(t, r, http.StatusOK)
		ids, _ := r.object(t)["team_ids"].([]any)
		return ids
	}
	if ids := teamIDs(); len(ids) != 2 || ids[0] != owner || ids[1] != other {
		t.Fatalf("REST team_ids after the grant: %v", ids)
	}
	if msg := k.gql(create, map[string]any{"t": graphQLID("Team", owner), "r": regID}).errorMessage(t); msg !=
		"Validation failed: Registry has already been added to the team" {
		t.Fatalf("second grant: %q", msg)
	}
	const list = `query($r: ID!) { node(id: $r) { ... on Registry { teams(first: 10) { count edges { node { accessLevel team { uuid } } } } } } }`
	a = k.gql(list, map[string]any{"r": regID}).ok(t)
	edges, _ := a.at(t, "node", "teams", "edges").([]any)
	if a.at(t, "node", "teams", "count") != float64(2) || len(edges) != 2 ||
		edges[0].(map[string]any)["node"].(map[string]any)["accessLevel"] != "READ_WRITE_AND_ADMIN" {
		t.Fatalf("listed: %s", a.raw)
	}
	a = k.gql(`mutation($id: ID!) { teamRegistryUpdate(input: {id: $id, accessLevel: READ_ONLY}) { teamRegistry { accessLevel } } }`,
		map[string]any{"id": grant}).ok(t)
	if a.str(t, "teamRegistryUpdate", "teamRegistry", "accessLevel") != "READ_ONLY" {
		t.Fatalf("updated: %s", a.raw)
	}
	const del = `mutation($id: ID!) { teamRegistryDelete(input: {id: $id}) { deletedTeamRegistryID } }`
	k.gql(del, map[string]any{"id": grant}).ok(t)
	if ids := teamIDs(); len(ids) != 1 || ids[0] != owner {
		t.Fatalf("REST team_ids after the delete: %v", ids)
	}
	if msg := k.gql(del, map[string]any{"id": grant}).errorMessage(t); msg != "No team registry found" {
		t.Fatalf("deleted twice: %q", msg)
	}
	// The owner's team deleted: its grant goes with it. The registry deleted: every grant goes.
	k.gql(create, map[string]any{"t": otherID, "r": regID}).ok(t)
	expect(t, k.api("DELETE", "/teams/"+owner, nil), http.StatusNoContent)
	if ids := teamIDs(); len(ids) != 1 || ids[0] != other {
		t.Fatalf("REST team_ids after the team's delete: %v", ids)
	}
	expect(t, k.regAPI("DELETE", "/gems", nil), http.StatusOK)
	if k.srv.Store().Exists(KindTeamRegistry, "acme", other+"/"+reg) {
		t.Fatal("a grant outlived its registry")
	}
}

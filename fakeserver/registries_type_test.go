package fakeserver

import (
	"net/http"
	"testing"
)

// TestRegistryTypeAndTeams: every answer carries type and the team_ids the registry was created with; an ID
// that names no team of the organization is left out.
func TestRegistryTypeAndTeams(t *testing.T) {
	e := newEnv(t, Options{})
	k := teamsKit{e}
	teams := []string{k.createTeam("A"), k.createTeam("B")}
	r := e.regAPI("POST", "", map[string]any{"name": "Gems", "ecosystem": "ruby",
		"team_ids": append(teams, teams[0], "0f3c9a52-1d2e-4b6a-9c8d-7e6f5a4b3c2d")})
	expect(t, r, http.StatusOK)
	reg := r.object(t)
	ids, _ := reg["team_ids"].([]any)
	if reg["type"] != "source" || len(ids) != 2 || ids[0] != teams[0] || ids[1] != teams[1] {
		t.Fatalf("created %v", reg)
	}
	// An update does not change them.
	r = e.regAPI("PATCH", "/gems", map[string]any{"description": "d", "team_ids": []string{}})
	expect(t, r, http.StatusOK)
	if ids, _ := r.object(t)["team_ids"].([]any); len(ids) != 2 {
		t.Fatalf("updated %v", r.object(t))
	}
	plain := e.regAPI("POST", "", map[string]any{"name": "Wheels", "ecosystem": "python"}).object(t)
	if ids, ok := plain["team_ids"].([]any); !ok || len(ids) != 0 || plain["type"] != "source" {
		t.Fatalf("without teams %v", plain)
	}
	expectError(t, e.regAPI("POST", "", map[string]any{"name": "Bad", "ecosystem": "ruby", "team_ids": "x"}), 422,
		"Validation failed: Team ids must be an array of strings")
}

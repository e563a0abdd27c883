package fakeserver

import (
	"net/http"
	"time"
)

// Teams (spec 2.7, 4.5) and their members, pipelines and suites (spec 2.8–2.10, 4.6).

// teamState is this area's part of the Store.
type teamState struct {
	teams map[string]*teamRecord // by id
}

func newTeamState() teamState { return teamState{teams: map[string]*teamRecord{}} }

// teamRecord is a team. Other areas rely on the fields below (pipelines and suites add themselves to teams).
type teamRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string
}

// teamByID returns the team of org with id, or nil. A lock must be held.
func (st *Store) teamByID(org, id string) *teamRecord {
	if t, ok := st.teams.teams[id]; ok && t.org == org {
		return t
	}
	return nil
}

// addTeamPipeline gives a team access to a pipeline (creating a pipeline with `teams` does this).
// accessLevel is read_only, build_and_read or manage_build_and_read. The write lock must be held.
func (st *Store) addTeamPipeline(org, teamID, pipelineID, accessLevel string, at time.Time) {}

// addTeamSuite gives a team access to a test suite (creating a suite with team_ids does this). access holds
// read and/or edit. The write lock must be held.
func (st *Store) addTeamSuite(org, teamID, suiteID string, access []string, at time.Time) {}

func (s *Server) routeTeams(mux *http.ServeMux) {}

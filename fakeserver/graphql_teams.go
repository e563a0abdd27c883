package fakeserver

import (
	"slices"
	"strings"
)

// GraphQL node(id:) for teams, suites, clusters and a team's links (graphql-subset.md §2.6): TeamMember
// (role), TeamPipeline and TeamSuite (accessLevel), each with its two sides, so an association's GraphQL ID
// (the official provider's import ID) turns into the team and the user, pipeline or suite. A link's UUID is
// its own, which REST never shows; Store.TeamLinkGraphQLID gives it to tests.
//
// Choices where the facts are silent (I): a suite link with "edit" is MANAGE_AND_READ, one with "read"
// only READ_ONLY; a link whose other end has gone answers null, as over REST.

// teamLinkNodes are the GraphQL types of the team associations (team_links.go).
var teamLinkNodes = []struct {
	typ   string
	assoc **teamAssociation
}{{"TeamMember", &teamMembers}, {"TeamPipeline", &teamPipelines}, {"TeamSuite", &teamSuites}}

func init() {
	gqlNodes["Team"] = func(x *gqlExec, uuid string) any {
		if t, ok := x.st.teams.teams.get(uuid); ok && x.tok.orgs[t.org] {
			return x.teamObject(t)
		}
		return nil
	}
	gqlNodes["Suite"] = func(x *gqlExec, uuid string) any {
		if s, ok := x.st.suites.suites.get(uuid); ok && x.tok.orgs[s.org] {
			return x.suiteObject(s)
		}
		return nil
	}
	for _, n := range teamLinkNodes {
		gqlNodes[n.typ] = func(x *gqlExec, uuid string) any {
			a := *n.assoc
			for slug := range x.tok.orgs {
				for _, t := range x.st.teamsOf(slug) {
					for _, l := range x.st.teamLinksOf(a, t) {
						if l.uuid == uuid {
							return x.teamLinkObject(n.typ, t, l)
						}
					}
				}
			}
			return nil
		}
	}
}

// teamObject is a Team.
func (x *gqlExec) teamObject(t *teamRecord) any {
	if t == nil {
		return nil
	}
	return gqlObject{typ: "Team", fields: map[string]any{"id": t.graphqlID, "uuid": t.id, "slug": t.slug, "name": t.name}}
}

// suiteObject is a Suite.
func (x *gqlExec) suiteObject(s *suiteRecord) any {
	if s == nil {
		return nil
	}
	return gqlObject{typ: "Suite", fields: map[string]any{"id": s.graphqlID, "uuid": s.id, "slug": s.slug, "name": s.name}}
}

// teamLinkObject is a TeamMember, TeamPipeline or TeamSuite.
func (x *gqlExec) teamLinkObject(typ string, t *teamRecord, l *teamLinkRecord) any {
	fields := map[string]any{"id": graphQLID(typ, l.uuid), "uuid": l.uuid, "team": x.teamObject(t)}
	switch typ {
	case "TeamMember":
		fields["role"], fields["user"] = strings.ToUpper(l.level()), x.userObject(l.otherID)
	case "TeamPipeline":
		fields["accessLevel"], fields["pipeline"] = strings.ToUpper(l.level()), x.pipelineObject(x.st.pipelineByID(l.org, l.otherID))
	case "TeamSuite":
		fields["accessLevel"], fields["suite"] = "READ_ONLY", x.suiteObject(x.st.suiteByID(l.org, l.otherID))
		if slices.Contains(l.access, "edit") {
			fields["accessLevel"] = "MANAGE_AND_READ"
		}
	}
	return gqlObject{typ: typ, fields: fields}
}

// TeamLinkGraphQLID returns the GraphQL ID of org's link of kind (KindTeamMember, KindTeamPipeline or
// KindTeamSuite) from team teamID to otherID (a user, pipeline or suite UUID), or "" when there is none.
// REST never shows it; tests use it as the official provider's import ID.
func (st *Store) TeamLinkGraphQLID(kind Kind, org, teamID, otherID string) string {
	st.mu.RLock()
	defer st.mu.RUnlock()
	for _, n := range teamLinkNodes {
		if (*n.assoc).kind != kind {
			continue
		}
		if l := st.teamLink(*n.assoc, org, teamID, otherID); l != nil && l.uuid != "" {
			return graphQLID(n.typ, l.uuid)
		}
	}
	return ""
}

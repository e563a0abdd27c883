package fakeserver

import (
	"net/http"
	"testing"
)

func TestGraphQLTeamLinkNodes(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("Platform")
	_, second := k.memberIDs()
	expect(t, k.api("POST", "/teams/"+team+"/members", map[string]any{"user_id": second, "role": "maintainer"}), http.StatusCreated)
	pipeline := k.createPipeline(map[string]any{"name": "App", "repository": githubRepo})["id"].(string)
	expect(t, k.api("POST", "/teams/"+team+"/pipelines", map[string]any{"pipeline_id": pipeline, "access_level": "build_and_read"}), http.StatusCreated)
	_, suite := k.createSuite("Suite", team)
	st := k.srv.Store()

	const q = `query($id: ID!) { node(id: $id) { __typename id
  ... on TeamMember { uuid role team { id } user { id } }
  ... on TeamPipeline { uuid accessLevel team { id } pipeline { id } }
  ... on TeamSuite { suiteUUID: uuid suiteAccess: accessLevel team { id } suite { id } } } }`
	teamID := graphQLID("Team", team)
	for _, c := range []struct {
		kind          Kind
		other, access string
		otherKey      string
		otherID       string
	}{
		{KindTeamMember, second, "MAINTAINER", "user", graphQLID("User", second)},
		{KindTeamPipeline, pipeline, "BUILD_AND_READ", "pipeline", graphQLID("Pipeline", pipeline)},
		{KindTeamSuite, suite, "", "suite", graphQLID("Suite", suite)},
	} {
		id := st.TeamLinkGraphQLID(c.kind, "acme", team, c.other)
		if id == "" {
			t.Fatalf("%s: no GraphQL ID", c.kind)
		}
		a := k.gql(q, map[string]any{"id": id}).ok(t)
		if a.str(t, "node", "id") != id || a.str(t, "node", "team", "id") != teamID || a.str(t, "node", c.otherKey, "id") != c.otherID {
			t.Fatalf("%s: %s", c.kind, a.raw)
		}
		access := a.at(t, "node", "role")
		switch c.kind {
		case KindTeamPipeline:
			access = a.at(t, "node", "accessLevel")
		case KindTeamSuite:
			access = a.at(t, "node", "suiteAccess")
		}
		if c.access != "" && access != c.access || access == nil {
			t.Fatalf("%s: access %v in %s", c.kind, access, a.raw)
		}
		// The link's REST view shows that same ID, so the graphql_id a REST client keeps resolves.
		path := "/teams/" + team + "/" + map[Kind]string{KindTeamMember: "members", KindTeamPipeline: "pipelines", KindTeamSuite: "suites"}[c.kind] + "/" + c.other
		r := k.api("GET", path, nil)
		expect(t, r, http.StatusOK)
		if got := r.object(t)["graphql_id"]; got != id {
			t.Fatalf("%s: REST graphql_id %v, GraphQL node ID %s", c.kind, got, id)
		}
	}
	// Changed over REST, read over GraphQL.
	expect(t, k.api("PATCH", "/teams/"+team+"/members/"+second, map[string]any{"role": "member"}), http.StatusOK)
	a := k.gql(q, map[string]any{"id": st.TeamLinkGraphQLID(KindTeamMember, "acme", team, second)}).ok(t)
	if a.str(t, "node", "role") != "MEMBER" {
		t.Fatalf("after PATCH: %s", a.raw)
	}
	// Gone over REST: null; another organization's token: null.
	memberID := st.TeamLinkGraphQLID(KindTeamMember, "acme", team, second)
	expect(t, k.api("DELETE", "/teams/"+team+"/members/"+second, nil), http.StatusNoContent)
	if a := k.gql(q, map[string]any{"id": memberID}).ok(t); a.Data["node"] != nil {
		t.Fatalf("deleted link: %s", a.raw)
	}
	st.AddOrg("other", "Other")
	st.AddToken("other-gql", []string{"other"}, []string{scopeGraphQL})
	pipelineLink := st.TeamLinkGraphQLID(KindTeamPipeline, "acme", team, pipeline)
	if a := k.gqlAs("other-gql", q, map[string]any{"id": pipelineLink}, ""); a.status != http.StatusOK || a.Data["node"] != nil {
		t.Fatalf("other organization: %s", a.raw)
	}
	// Team and Suite nodes.
	a = k.gql(`query($t: ID!, $s: ID!) { t: node(id: $t) { ... on Team { slug } } s: node(id: $s) { ... on Suite { slug } } }`,
		map[string]any{"t": teamID, "s": graphQLID("Suite", suite)}).ok(t)
	if a.str(t, "t", "slug") != "platform" || a.str(t, "s", "slug") != "suite" {
		t.Fatalf("team and suite: %s", a.raw)
	}
}

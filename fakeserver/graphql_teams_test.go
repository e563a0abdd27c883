package fakeserver

import (
	"fmt"
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

// teamFieldsQuery selects every Team field the official provider reads.
const teamFieldsQuery = `id uuid name description slug privacy isDefaultTeam defaultMemberRole membersCanCreatePipelines
  membersCanCreateSuites membersCanCreateRegistries membersCanDestroyRegistries membersCanDestroyPackages`

// TestGraphQLTeams: a team created over GraphQL is read over REST with the same ID and properties, one
// changed over REST is read over GraphQL (node, team(slug:), Organization.teams), the REST checks apply,
// and a team deleted over GraphQL is gone over REST.
func TestGraphQLTeams(t *testing.T) {
	k := newTeamsKit(t)
	create := `mutation($org: ID!, $name: String!) { teamCreate(input: {organizationID: $org, name: $name, description: "Builds",
  privacy: SECRET, isDefaultTeam: false, defaultMemberRole: MAINTAINER, membersCanCreateSuites: true}) {
  teamEdge { node { ` + teamFieldsQuery + ` } } } }`
	a := k.gql(create, map[string]any{"org": k.orgGraphQLID(), "name": "Platform Ops"}).ok(t)
	node := a.at(t, "teamCreate", "teamEdge", "node").(map[string]any)
	if node["slug"] != "platform-ops" || node["privacy"] != "SECRET" || node["defaultMemberRole"] != "MAINTAINER" ||
		node["membersCanCreateSuites"] != true || node["membersCanCreatePipelines"] != false || node["description"] != "Builds" {
		t.Fatalf("created: %s", a.raw)
	}
	id := node["uuid"].(string)
	r := k.api("GET", "/teams/"+id, nil)
	expect(t, r, http.StatusOK)
	if v := r.object(t); v["graphql_id"] != node["id"] || v["privacy"] != "secret" || v["default_member_role"] != "maintainer" ||
		v["members_can_create_suites"] != true {
		t.Fatalf("over REST: %v", v)
	}
	// The REST checks: the name is taken (case and punctuation aside), a blank name.
	if msg := k.gql(create, map[string]any{"org": k.orgGraphQLID(), "name": "platform ops!"}).errorMessage(t); msg != "Validation failed: Name has already been taken" {
		t.Fatalf("taken name: %q", msg)
	}
	if msg := k.gql(create, map[string]any{"org": k.orgGraphQLID(), "name": " "}).errorMessage(t); msg != "Validation failed: Name can't be blank" {
		t.Fatalf("blank name: %q", msg)
	}
	// Changed over REST, read over GraphQL.
	expect(t, k.api("PATCH", "/teams/"+id, map[string]any{"name": "Platform", "privacy": "visible", "members_can_destroy_packages": true}), http.StatusOK)
	read := `query($id: ID!, $slug: ID!) { node(id: $id) { ... on Team { ` + teamFieldsQuery + ` } } team(slug: $slug) { id }
  organization(slug: "acme") { teams(first: 10, order: NAME) { edges { node { slug } } } } }`
	a = k.gql(read, map[string]any{"id": node["id"], "slug": "acme/platform"}).ok(t)
	if a.str(t, "node", "slug") != "platform" || a.str(t, "node", "privacy") != "VISIBLE" || a.at(t, "node", "membersCanDestroyPackages") != true ||
		a.str(t, "team", "id") != node["id"] || a.str(t, "organization", "teams", "edges", 0, "node", "slug") != "platform" {
		t.Fatalf("read: %s", a.raw)
	}
	// teamUpdate, read back over REST.
	update := `mutation($id: ID!) { teamUpdate(input: {id: $id, name: "Platform", description: null, isDefaultTeam: true,
  defaultMemberRole: MEMBER}) { team { isDefaultTeam description } } }`
	a = k.gql(update, map[string]any{"id": node["id"]}).ok(t)
	if a.at(t, "teamUpdate", "team", "isDefaultTeam") != true {
		t.Fatalf("updated: %s", a.raw)
	}
	if v := k.api("GET", "/teams/"+id, nil).object(t); v["is_default_team"] != true || v["default_member_role"] != "member" || v["privacy"] != "visible" {
		t.Fatalf("updated over REST: %v", v)
	}
	// teamDelete: gone over REST; again, no team.
	del := `mutation($id: ID!) { teamDelete(input: {id: $id}) { deletedTeamID } }`
	if a = k.gql(del, map[string]any{"id": node["id"]}).ok(t); a.str(t, "teamDelete", "deletedTeamID") != node["id"] {
		t.Fatalf("deleted: %s", a.raw)
	}
	expect(t, k.api("GET", "/teams/"+id, nil), http.StatusNotFound)
	if msg := k.gql(del, map[string]any{"id": node["id"]}).errorMessage(t); msg != "No team found" {
		t.Fatalf("deleted again: %q", msg)
	}
}

// TestGraphQLTeamLinkMutations: members, pipelines and suites linked over GraphQL are read over REST and
// the other way round, with the REST checks (a member of the organization, a link made once) and the
// link's own ID for update and delete.
func TestGraphQLTeamLinkMutations(t *testing.T) {
	k := newTeamsKit(t)
	team := k.createTeam("Platform")
	teamID := graphQLID("Team", team)
	_, second := k.memberIDs()
	pipeline := k.createPipeline(map[string]any{"name": "App", "repository": githubRepo})["id"].(string)
	_, suite := k.createSuite("Suite", k.createTeam("Owners"))

	// Members: an outsider is refused; a member gets MEMBER by default.
	member := `mutation($team: ID!, $user: ID!) { teamMemberCreate(input: {teamID: $team, userID: $user}) {
  teamMemberEdge { node { id role user { id } team { id } } } } }`
	if msg := k.gql(member, map[string]any{"team": teamID, "user": graphQLID("User", k.outsider())}).errorMessage(t); msg != "Validation failed: User must be a member of the organization" {
		t.Fatalf("outsider: %q", msg)
	}
	a := k.gql(member, map[string]any{"team": teamID, "user": graphQLID("User", second)}).ok(t)
	memberID := a.str(t, "teamMemberCreate", "teamMemberEdge", "node", "id")
	if a.str(t, "teamMemberCreate", "teamMemberEdge", "node", "role") != "MEMBER" || memberID != k.srv.Store().TeamLinkGraphQLID(KindTeamMember, "acme", team, second) {
		t.Fatalf("member: %s", a.raw)
	}
	if v := k.api("GET", "/teams/"+team+"/members/"+second, nil).object(t); v["role"] != "member" {
		t.Fatalf("member over REST: %v", v)
	}
	a = k.gql(`mutation($id: ID!) { teamMemberUpdate(input: {id: $id, role: MAINTAINER}) { teamMember { role } } }`, map[string]any{"id": memberID}).ok(t)
	if v := k.api("GET", "/teams/"+team+"/members/"+second, nil).object(t); v["role"] != "maintainer" {
		t.Fatalf("member updated: %s, over REST %v", a.raw, v)
	}
	k.gql(`mutation($id: ID!) { teamMemberDelete(input: {id: $id}) { clientMutationId } }`, map[string]any{"id": memberID}).ok(t)
	expect(t, k.api("GET", "/teams/"+team+"/members/"+second, nil), http.StatusNotFound)
	if msg := k.gql(`mutation($id: ID!) { teamMemberDelete(input: {id: $id}) { clientMutationId } }`, map[string]any{"id": memberID}).errorMessage(t); msg != "No team member found" {
		t.Fatalf("member deleted again: %q", msg)
	}

	// Pipelines: a second link of the same pair is refused with the REST words.
	pl := `mutation($team: ID!, $p: ID!) { teamPipelineCreate(input: {teamID: $team, pipelineID: $p, accessLevel: READ_ONLY}) {
  teamPipelineEdge { node { id accessLevel pipeline { id } } } } }`
	vars := map[string]any{"team": teamID, "p": graphQLID("Pipeline", pipeline)}
	a = k.gql(pl, vars).ok(t)
	plID := a.str(t, "teamPipelineCreate", "teamPipelineEdge", "node", "id")
	if v := k.api("GET", "/teams/"+team+"/pipelines/"+pipeline, nil).object(t); v["access_level"] != "read_only" || v["graphql_id"] != plID {
		t.Fatalf("pipeline over REST: %v (%s)", v, a.raw)
	}
	if msg := k.gql(pl, vars).errorMessage(t); msg != "Validation failed: Pipeline has already been added to the team" {
		t.Fatalf("duplicate pipeline: %q", msg)
	}
	expect(t, k.api("PATCH", "/teams/"+team+"/pipelines/"+pipeline, map[string]any{"access_level": "build_and_read"}), http.StatusOK)
	a = k.gql(`mutation($id: ID!) { teamPipelineUpdate(input: {id: $id, accessLevel: MANAGE_BUILD_AND_READ}) { teamPipeline { accessLevel } } }`, map[string]any{"id": plID}).ok(t)
	if a.str(t, "teamPipelineUpdate", "teamPipeline", "accessLevel") != "MANAGE_BUILD_AND_READ" {
		t.Fatalf("pipeline updated: %s", a.raw)
	}
	a = k.gql(`mutation($id: ID!) { teamPipelineDelete(input: {id: $id}) { deletedTeamPipelineID } }`, map[string]any{"id": plID}).ok(t)
	if a.str(t, "teamPipelineDelete", "deletedTeamPipelineID") != plID {
		t.Fatalf("pipeline deleted: %s", a.raw)
	}
	expect(t, k.api("GET", "/teams/"+team+"/pipelines/"+pipeline, nil), http.StatusNotFound)

	// Suites: READ_ONLY is read; Suite.teams lists both teams by name.
	sc := `mutation($team: ID!, $s: ID!) { teamSuiteCreate(input: {teamID: $team, suiteID: $s, accessLevel: READ_ONLY}) {
  suite { teams(first: 50, order: NAME) { edges { node { accessLevel team { id } } } } } teamSuite { id accessLevel } } }`
	a = k.gql(sc, map[string]any{"team": teamID, "s": graphQLID("Suite", suite)}).ok(t)
	suiteLink := a.str(t, "teamSuiteCreate", "teamSuite", "id")
	if a.str(t, "teamSuiteCreate", "suite", "teams", "edges", 1, "node", "team", "id") != teamID ||
		a.str(t, "teamSuiteCreate", "suite", "teams", "edges", 1, "node", "accessLevel") != "READ_ONLY" {
		t.Fatalf("suite: %s", a.raw)
	}
	if v := k.api("GET", "/teams/"+team+"/suites/"+suite, nil).object(t); fmt.Sprint(v["access_level"]) != "[read]" {
		t.Fatalf("suite over REST: %v", v)
	}
	k.gql(`mutation($id: ID!) { teamSuiteUpdate(input: {id: $id, accessLevel: MANAGE_AND_READ}) { teamSuite { accessLevel } } }`, map[string]any{"id": suiteLink}).ok(t)
	if v := k.api("GET", "/teams/"+team+"/suites/"+suite, nil).object(t); fmt.Sprint(v["access_level"]) != "[read edit]" {
		t.Fatalf("suite updated over REST: %v", v)
	}
	k.gql(`mutation($id: ID!) { teamSuiteDelete(input: {id: $id, force: true}) { deletedTeamSuiteID } }`, map[string]any{"id": suiteLink}).ok(t)
	expect(t, k.api("GET", "/teams/"+team+"/suites/"+suite, nil), http.StatusNotFound)
	a = k.gql(`query($id: ID!) { node(id: $id) { ... on Suite { defaultBranch teams(first: 5) { count } } } }`, map[string]any{"id": graphQLID("Suite", suite)}).ok(t)
	if a.str(t, "node", "defaultBranch") != "main" || a.at(t, "node", "teams", "count") != float64(1) {
		t.Fatalf("suite after delete: %s", a.raw)
	}
}

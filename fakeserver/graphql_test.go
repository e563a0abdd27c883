package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// gqlAnswer is a decoded GraphQL answer.
type gqlAnswer struct {
	status int
	Data   map[string]any   `json:"data"`
	Errors []map[string]any `json:"errors"`
	raw    []byte
}

// gql posts a GraphQL request with token.
func (e *testEnv) gqlAs(token, query string, vars map[string]any, opName string) gqlAnswer {
	e.t.Helper()
	body := map[string]any{"query": query}
	if vars != nil {
		body["variables"] = vars
	}
	if opName != "" {
		body["operationName"] = opName
	}
	r := e.do("POST", "/v1", token, body)
	a := gqlAnswer{status: r.status, raw: r.raw}
	if err := json.Unmarshal(r.raw, &a); err != nil {
		e.t.Fatalf("answer %s is not JSON: %v", r.raw, err)
	}
	return a
}

// gql posts a GraphQL request with the default token and fails on a non-200.
func (e *testEnv) gql(query string, vars map[string]any) gqlAnswer {
	e.t.Helper()
	a := e.gqlAs("test-token", query, vars, "")
	if a.status != http.StatusOK {
		e.t.Fatalf("status %d, want 200: %s", a.status, a.raw)
	}
	return a
}

// ok fails unless the answer has no errors.
func (a gqlAnswer) ok(t *testing.T) gqlAnswer {
	t.Helper()
	if len(a.Errors) > 0 {
		t.Fatalf("errors: %s", a.raw)
	}
	return a
}

// errorMessage returns the one error's message, failing unless there is exactly one.
func (a gqlAnswer) errorMessage(t *testing.T) string {
	t.Helper()
	if len(a.Errors) != 1 {
		t.Fatalf("want one error, got %s", a.raw)
	}
	msg, _ := a.Errors[0]["message"].(string)
	return msg
}

// at walks the answer's data by keys and list indexes.
func (a gqlAnswer) at(t *testing.T, path ...any) any {
	t.Helper()
	var cur any = a.Data
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q in %s", path, k, a.raw)
			}
			cur = m[k]
		case int:
			l, ok := cur.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("%v: no item %d in %s", path, k, a.raw)
			}
			cur = l[k]
		}
	}
	return cur
}

// str is at as a string.
func (a gqlAnswer) str(t *testing.T, path ...any) string {
	t.Helper()
	s, ok := a.at(t, path...).(string)
	if !ok {
		t.Fatalf("%v: not a string in %s", path, a.raw)
	}
	return s
}

// orgGraphQLID returns acme's GraphQL ID over REST.
func (e *testEnv) orgGraphQLID() string {
	e.t.Helper()
	r := e.do("GET", "/v2/organizations/acme", "test-token", nil)
	expect(e.t, r, http.StatusOK)
	return r.object(e.t)["graphql_id"].(string)
}

func TestGraphQLSchemaLoads(t *testing.T) {
	s := graphqlSchema()
	for _, typ := range []string{"Query", "Mutation", "AgentToken", "Rule", "ClusterQueue", "TeamMember", "Pipeline"} {
		if s.Types[typ] == nil {
			t.Errorf("schema lacks %s", typ)
		}
	}
	if GraphQLSchema() == "" {
		t.Fatal("GraphQLSchema is empty")
	}
	// Every root field the SDL declares has a resolver, and the other way round.
	for _, c := range []struct {
		typ   string
		roots map[string]gqlRoot
	}{{"Query", gqlQueries}, {"Mutation", gqlMutations}} {
		for _, f := range s.Types[c.typ].Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			if c.roots[f.Name] == nil && !gqlPendingRoots[f.Name] {
				t.Errorf("%s.%s has no resolver", c.typ, f.Name)
			}
		}
		for name := range c.roots {
			if s.Types[c.typ].Fields.ForName(name) == nil {
				t.Errorf("resolver %s.%s is not in the SDL", c.typ, name)
			}
		}
	}
}

// gqlPendingRoots are root fields the SDL declares that the emulator does not resolve yet (they answer an
// error saying so); this list only shrinks.
var gqlPendingRoots = map[string]bool{}

func TestGraphQLAuthentication(t *testing.T) {
	e := newEnv(t, Options{})
	const q = `{ organization(slug: "acme") { id } }`
	want := "Authentication required. Please supply a valid API Access Token: " + graphqlAuthDocsURL
	for _, token := range []string{"", "no-such-token"} {
		r := e.do("POST", "/v1", token, map[string]any{"query": q})
		expectError(t, r, http.StatusUnauthorized, want)
	}
	// Every REST scope but graphql: still refused, as the service refuses a token without GraphQL access.
	var scopes []string
	for _, sc := range AllScopes() {
		if sc != scopeGraphQL {
			scopes = append(scopes, sc)
		}
	}
	e.srv.Store().AddToken("rest-only", []string{"acme"}, scopes)
	expectError(t, e.do("POST", "/v1", "rest-only", map[string]any{"query": q}), http.StatusUnauthorized, want)
	// graphql alone is enough: it is unscoped: REST scopes do not narrow it.
	e.srv.Store().AddToken("graphql-only", []string{"acme"}, []string{scopeGraphQL})
	a := e.gqlAs("graphql-only", q, nil, "")
	if a.status != http.StatusOK || a.str(t, "organization", "id") != e.orgGraphQLID() {
		t.Fatalf("graphql-only token: %d %s", a.status, a.raw)
	}
	// Other methods are 405.
	expect(t, e.do("GET", "/v1", "test-token", nil), http.StatusMethodNotAllowed)
}

func TestGraphQLRequestErrors(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		name, query string
		vars        map[string]any
		opName      string
		want        string
	}{
		{"syntax", `{ organization(slug: "acme") { id }`, nil, "", "Expected Name, found <EOF>"},
		{"unknown field", `{ organization(slug: "acme") { pipelineTemplateId } }`, nil, "",
			"Field 'pipelineTemplateId' doesn't exist on type 'Organization'"},
		{"unknown argument", `{ organization(login: "acme") { id } }`, nil, "", "Field 'organization' doesn't accept argument 'login'"},
		{"missing argument", `{ agentToken { id } }`, nil, "", "Field 'agentToken' is missing required arguments: slug"},
		{"wrong argument type", `{ organization(slug: "acme") { agentTokens(first: "ten") { count } } }`, nil, "",
			`Int cannot represent non-integer value: "ten"`},
		{"undeclared variable", `query q { organization(slug: $slug) { id } }`, nil, "", "Variable $slug is used by q but not declared"},
		{"missing variable", `query q($slug: ID!) { organization(slug: $slug) { id } }`, nil, "",
			"Variable $slug of type ID! was provided invalid value"},
		{"variable of wrong type", `query q($n: Int) { organization(slug: "acme") { agentTokens(first: $n) { count } } }`,
			map[string]any{"n": "many"}, "", "Variable $n of type Int was provided invalid value"},
		{"unknown operation", `query a { organization(slug: "acme") { id } }`, nil, "b", `No operation named "b"`},
		{"operation name needed", `query a { organization(slug: "acme") { id } } query b { organization(slug: "acme") { slug } }`,
			nil, "", "An operation name is required"},
		{"no query", ``, nil, "", "No query string was present"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.gqlAs("test-token", c.query, c.vars, c.opName)
			if a.status != http.StatusOK {
				t.Fatalf("status %d, want 200: %s", a.status, a.raw)
			}
			if got := a.errorMessage(t); got != c.want {
				t.Fatalf("message %q, want %q", got, c.want)
			}
			if a.Data != nil {
				t.Fatalf("an invalid request has no data: %s", a.raw)
			}
		})
	}
	// Validation errors keep their locations.
	a := e.gqlAs("test-token", `{ organization(slug: "acme") { nope } }`, nil, "")
	if locs, _ := a.Errors[0]["locations"].([]any); len(locs) != 1 {
		t.Fatalf("want a location: %s", a.raw)
	}
	// A body that is not JSON is a 400 with errors.
	r := e.do("POST", "/v1", "test-token", "{not json")
	expect(t, r, http.StatusBadRequest)
	if errs, _ := r.object(t)["errors"].([]any); len(errs) != 1 {
		t.Fatalf("want errors: %s", r.raw)
	}
}

func TestGraphQLOperationNameAliasesAndFragments(t *testing.T) {
	e := newEnv(t, Options{})
	doc := `
query one($slug: ID!) { org: organization(slug: $slug) { ...Org } }
query two { organization(slug: "acme") { __typename slug } }
fragment Org on Organization { id name n2: name ... on Node { id } }`
	a := e.gqlAs("test-token", doc, map[string]any{"slug": "acme"}, "one").ok(t)
	if a.str(t, "org", "name") != "Acme" || a.str(t, "org", "n2") != "Acme" || a.str(t, "org", "id") != e.orgGraphQLID() {
		t.Fatalf("one: %s", a.raw)
	}
	// The answer keeps the document's order.
	if !strings.Contains(string(a.raw), `"org":{"id":`) {
		t.Fatalf("order: %s", a.raw)
	}
	a = e.gqlAs("test-token", doc, nil, "two").ok(t)
	if a.str(t, "organization", "__typename") != "Organization" || a.str(t, "organization", "slug") != "acme" {
		t.Fatalf("two: %s", a.raw)
	}
	// @skip and @include.
	a = e.gql(`query($s: Boolean!) { organization(slug: "acme") { slug @skip(if: $s) name @include(if: $s) } }`,
		map[string]any{"s": true}).ok(t)
	if m := a.at(t, "organization").(map[string]any); len(m) != 1 || m["name"] != "Acme" {
		t.Fatalf("directives: %s", a.raw)
	}
}

func TestGraphQLOrganizationAndNode(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.orgGraphQLID()
	a := e.gql(`{ organization(slug: "acme") { id uuid slug membersRequireTwoFactorAuthentication } }`, nil).ok(t)
	if a.str(t, "organization", "id") != id || a.at(t, "organization", "membersRequireTwoFactorAuthentication") != false {
		t.Fatalf("organization: %s", a.raw)
	}
	uuid := a.str(t, "organization", "uuid")
	a = e.gql(`query($id: ID!) { node(id: $id) { id ... on Organization { slug } } }`, map[string]any{"id": id}).ok(t)
	if a.str(t, "node", "slug") != "acme" {
		t.Fatalf("node: %s", a.raw)
	}
	a = e.gql(`query($u: ID) { organization(uuid: $u) { slug } }`, map[string]any{"u": uuid}).ok(t)
	if a.str(t, "organization", "slug") != "acme" {
		t.Fatalf("by uuid: %s", a.raw)
	}
	// Unknown, another organization's, malformed: null without an error, as the service answers.
	e.srv.Store().AddOrg("other", "Other")
	for _, q := range []string{
		`{ organization(slug: "nope") { id } }`,
		`{ organization(slug: "other") { id } }`,
		`{ node(id: "bm90IGFuIGlk") { id } }`,
		`{ node(id: "%%%") { id } }`,
		`{ node(id: "` + graphQLID("Organization", newID()) + `") { id } }`,
		`{ node(id: "` + graphQLID("Spaceship", newID()) + `") { id } }`,
	} {
		a := e.gql(q, nil).ok(t)
		for _, v := range a.Data {
			if v != nil {
				t.Errorf("%s: want null, got %s", q, a.raw)
			}
		}
	}
}

func TestGraphQLTwoFactorEnforcement(t *testing.T) {
	e := newEnv(t, Options{})
	const m = `mutation setOrganization2FA($organizationID: ID!, $value: Boolean!) {
  organizationEnforceTwoFactorAuthenticationForMembersUpdate(input: {organizationId: $organizationID, membersRequireTwoFactorAuthentication: $value, clientMutationId: "c1"}) {
    clientMutationId organization { membersRequireTwoFactorAuthentication } } }`
	id := e.orgGraphQLID()
	a := e.gql(m, map[string]any{"organizationID": id, "value": true}).ok(t)
	p := "organizationEnforceTwoFactorAuthenticationForMembersUpdate"
	if a.at(t, p, "organization", "membersRequireTwoFactorAuthentication") != true || a.str(t, p, "clientMutationId") != "c1" {
		t.Fatalf("set: %s", a.raw)
	}
	a = e.gql(`{ organization(slug: "acme") { membersRequireTwoFactorAuthentication } }`, nil).ok(t)
	if a.at(t, "organization", "membersRequireTwoFactorAuthentication") != true {
		t.Fatalf("read: %s", a.raw)
	}
	// Another organization's ID, and a non-admin.
	e.srv.Store().AddOrg("other", "Other")
	otherID := graphQLID("Organization", e.srv.Store().orgs["other"].id)
	a = e.gql(m, map[string]any{"organizationID": otherID, "value": false})
	if a.errorMessage(t) != "No organization found" || a.at(t, p) != nil {
		t.Fatalf("other org: %s", a.raw)
	}
	st := e.srv.Store()
	st.mu.Lock()
	u := st.addUser("Plain", "plain@example.com")
	st.addMember("acme", u.id, false)
	st.mu.Unlock()
	if err := st.AddTokenForUser("plain", u.id, []string{"acme"}, []string{scopeGraphQL}); err != nil {
		t.Fatal(err)
	}
	a = e.gqlAs("plain", m, map[string]any{"organizationID": id, "value": false}, "")
	if !strings.HasPrefix(a.errorMessage(t), "Forbidden") {
		t.Fatalf("non-admin: %s", a.raw)
	}
	// The variable of the wrong type never reaches the resolver.
	a = e.gql(m, map[string]any{"organizationID": id, "value": "yes"})
	if a.errorMessage(t) != "Variable $value of type Boolean! was provided invalid value" {
		t.Fatalf("bad value: %s", a.raw)
	}
}

const (
	gqlCreateAgentToken = `mutation createAgentToken($organizationId: ID!, $description: String) {
  agentTokenCreate(input: {organizationID: $organizationId, description: $description}) {
    tokenValue agentTokenEdge { cursor node { id description uuid public revokedAt } } } }`
	gqlRevokeAgentToken = `mutation revokeAgentToken($id: ID!, $reason: String!) {
  agentTokenRevoke(input: {id: $id, reason: $reason}) { agentToken { id description uuid revokedAt revokedReason revokedBy { id } } } }`
	gqlGetAgentToken = `query getAgentToken($slug: ID!) { agentToken(slug: $slug) { id description uuid revokedAt } }`
)

func TestGraphQLAgentTokens(t *testing.T) {
	e := newEnv(t, Options{})
	orgID := e.orgGraphQLID()
	a := e.gql(gqlCreateAgentToken, map[string]any{"organizationId": orgID, "description": "ci"}).ok(t)
	const p = "agentTokenCreate"
	secret := a.str(t, p, "tokenValue")
	uuid := a.str(t, p, "agentTokenEdge", "node", "uuid")
	id := a.str(t, p, "agentTokenEdge", "node", "id")
	if secret == "" || id != graphQLID("AgentToken", uuid) || a.str(t, p, "agentTokenEdge", "node", "description") != "ci" ||
		a.at(t, p, "agentTokenEdge", "node", "public") != false || a.at(t, p, "agentTokenEdge", "node", "revokedAt") != nil {
		t.Fatalf("create: %s", a.raw)
	}
	// The secret is the agent API's too.
	expect(t, e.do("GET", "/v3/metrics", "", nil), http.StatusUnauthorized)
	if r := e.doAgent(secret); r.status != http.StatusOK {
		t.Fatalf("metrics with the new token: %d %s", r.status, r.raw)
	}

	// Read by slug and by node; the secret is never shown again.
	a = e.gql(gqlGetAgentToken, map[string]any{"slug": "acme/" + uuid}).ok(t)
	if a.str(t, "agentToken", "id") != id || strings.Contains(string(a.raw), secret) {
		t.Fatalf("read: %s", a.raw)
	}
	a = e.gql(`query($id: ID!) { node(id: $id) { ... on AgentToken { uuid createdBy { email } } } }`, map[string]any{"id": id}).ok(t)
	if a.str(t, "node", "uuid") != uuid || a.str(t, "node", "createdBy", "email") != "test-user@example.com" {
		t.Fatalf("node: %s", a.raw)
	}
	// Unknown UUID, another organization's slug, no slash: null.
	for _, slug := range []string{"acme/" + newID(), "other/" + uuid, uuid} {
		if a := e.gql(gqlGetAgentToken, map[string]any{"slug": slug}).ok(t); a.Data["agentToken"] != nil {
			t.Fatalf("%s: want null: %s", slug, a.raw)
		}
	}

	// A second token without a description; the connection pages.
	a = e.gql(gqlCreateAgentToken, map[string]any{"organizationId": orgID}).ok(t)
	second := a.str(t, p, "agentTokenEdge", "node", "uuid")
	if a.at(t, p, "agentTokenEdge", "node", "description") != nil {
		t.Fatalf("no description: %s", a.raw)
	}
	const list = `query($n: Int, $r: Boolean) { organization(slug: "acme") { agentTokens(first: $n, revoked: $r) {
  count edges { node { uuid revokedAt } } pageInfo { hasNextPage } } } }`
	a = e.gql(list, map[string]any{"n": 1}).ok(t)
	if a.at(t, "organization", "agentTokens", "count") != 2.0 || a.str(t, "organization", "agentTokens", "edges", 0, "node", "uuid") != uuid ||
		a.at(t, "organization", "agentTokens", "pageInfo", "hasNextPage") != true {
		t.Fatalf("list: %s", a.raw)
	}

	// Revoke: kept, with revokedAt; the agent API no longer accepts it.
	a = e.gql(gqlRevokeAgentToken, map[string]any{"id": id, "reason": "Revoked by Terraform"}).ok(t)
	if a.at(t, "agentTokenRevoke", "agentToken", "revokedAt") == nil || a.str(t, "agentTokenRevoke", "agentToken", "revokedReason") != "Revoked by Terraform" ||
		a.str(t, "agentTokenRevoke", "agentToken", "revokedBy", "id") == "" {
		t.Fatalf("revoke: %s", a.raw)
	}
	if r := e.doAgent(secret); r.status != http.StatusUnauthorized {
		t.Fatalf("metrics with the revoked token: %d", r.status)
	}
	if a := e.gql(gqlGetAgentToken, map[string]any{"slug": "acme/" + uuid}).ok(t); a.at(t, "agentToken", "revokedAt") == nil {
		t.Fatalf("revoked token read: %s", a.raw)
	}
	found, description, revokedAt := e.srv.Store().UnclusteredAgentToken("acme", uuid)
	if !found || description != "ci" || revokedAt.IsZero() {
		t.Fatalf("store: %v %q %v", found, description, revokedAt)
	}
	a = e.gql(list, map[string]any{"r": false}).ok(t)
	if a.at(t, "organization", "agentTokens", "count") != 1.0 || a.str(t, "organization", "agentTokens", "edges", 0, "node", "uuid") != second {
		t.Fatalf("live tokens: %s", a.raw)
	}

	// Bad inputs.
	for _, c := range []struct {
		query string
		vars  map[string]any
		want  string
	}{
		{gqlRevokeAgentToken, map[string]any{"id": graphQLID("AgentToken", newID()), "reason": "x"}, "No agent token found"},
		{gqlRevokeAgentToken, map[string]any{"id": graphQLID("AgentToken", second), "reason": " "}, "Reason can't be blank"},
		{gqlCreateAgentToken, map[string]any{"organizationId": "bm9wZQ=="}, "No organization found"},
		{gqlCreateAgentToken, map[string]any{"organizationId": orgID, "description": strings.Repeat("x", 4097)},
			"Description is too long (maximum is 4096 characters)"},
	} {
		a := e.gql(c.query, c.vars)
		if got := a.errorMessage(t); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
		for _, v := range a.Data {
			if v != nil {
				t.Errorf("%v: want a null payload: %s", c.vars, a.raw)
			}
		}
	}
}

// doAgent calls GET /v3/metrics with an agent registration token.
func (e *testEnv) doAgent(token string) response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.ts.URL+"/v3/metrics", nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+token)
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	_ = resp.Body.Close()
	return response{status: resp.StatusCode}
}

func TestGraphQLStateFileKeepsAgentTokens(t *testing.T) {
	path := t.TempDir() + "/state.json"
	e := newEnv(t, Options{StateFile: path})
	a := e.gql(gqlCreateAgentToken, map[string]any{"organizationId": e.orgGraphQLID(), "description": "kept"}).ok(t)
	uuid := a.str(t, "agentTokenCreate", "agentTokenEdge", "node", "uuid")
	e.gql(`mutation($id: ID!) { organizationEnforceTwoFactorAuthenticationForMembersUpdate(input: {organizationId: $id, membersRequireTwoFactorAuthentication: true}) { clientMutationId } }`,
		map[string]any{"id": e.orgGraphQLID()}).ok(t)
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := newEnv(t, Options{StateFile: path})
	a = e2.gql(`query($s: ID!) { agentToken(slug: $s) { description } organization(slug: "acme") { membersRequireTwoFactorAuthentication } }`,
		map[string]any{"s": "acme/" + uuid}).ok(t)
	if a.str(t, "agentToken", "description") != "kept" || a.at(t, "organization", "membersRequireTwoFactorAuthentication") != true {
		t.Fatalf("after restart: %s", a.raw)
	}
}

// TestGraphQLArgumentsOmittedAndNull: an input field left out is absent, one sent as null is present and
// nil, and declared defaults apply (public = false).
func TestGraphQLArgumentsOmittedAndNull(t *testing.T) {
	schema := graphqlSchema()
	doc, errs := gqlparser.LoadQueryWithRules(schema, `mutation($d: String) { agentTokenCreate(input: {organizationID: "x", description: $d}) { tokenValue } }`, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	field := doc.Operations[0].SelectionSet[0].(*ast.Field)
	for _, c := range []struct {
		vars map[string]any
		want map[string]any
	}{
		{map[string]any{}, map[string]any{"organizationID": "x", "public": false}},
		{map[string]any{"d": nil}, map[string]any{"organizationID": "x", "public": false, "description": nil}},
		{map[string]any{"d": "y"}, map[string]any{"organizationID": "x", "public": false, "description": "y"}},
	} {
		x := &gqlExec{schema: schema, vars: c.vars}
		if got := x.args(field)["input"]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("vars %v: %v, want %v", c.vars, got, c.want)
		}
	}
}

func TestGraphQLComplexity(t *testing.T) {
	e := newEnv(t, Options{})
	// organization 1 + agentTokens 1 + 50 × (edges 1 + node 1 + createdBy 1) = 152.
	const q = `{ organization(slug: "acme") { id agentTokens(first: 50) { edges { node { uuid createdBy { id } } } } } }`
	body := map[string]any{"query": q}
	r := e.do("POST", "/v1", "test-token", body)
	expect(t, r, http.StatusOK)
	if r.header.Get("RateLimit-Complexity-Requested") != "152" || r.header.Get("RateLimit-Complexity-Actual") != "152" {
		t.Fatalf("headers: %v", r.header)
	}
	if _, has := r.object(t)["stats"]; has {
		t.Fatalf("stats without the header: %s", r.raw)
	}
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/v1", strings.NewReader(`{"query": `+strconv.Quote(q)+`}`))
	req.Header.Set("Authorization", "Bearer test-token")
	req.Header.Set("Buildkite-Include-Query-Stats", "true")
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var withStats struct {
		Stats map[string]int `json:"stats"`
	}
	err = json.NewDecoder(resp.Body).Decode(&withStats)
	_ = resp.Body.Close()
	if err != nil || withStats.Stats["requestedComplexity"] != 152 || withStats.Stats["actualComplexity"] != 152 {
		t.Fatalf("stats: %v %v", withStats, err)
	}
	// Without first: the default page of 500 items; nested, past the limit.
	const big = `{ organization(slug: "acme") { pipelines { edges { node { organization { agentTokens { edges { node { id } } } } } } } } }`
	a := e.gql(big, nil)
	if msg := a.errorMessage(t); !strings.HasPrefix(msg, "Query has complexity of ") || !strings.HasSuffix(msg, ", which exceeds max complexity of 50000") || a.Data != nil {
		t.Fatalf("too complex: %s", a.raw)
	}
}

func TestGraphQLAgentTokenSeededAndRevokedOutside(t *testing.T) {
	e := newEnv(t, Options{})
	st := e.srv.Store()
	id, secret, err := st.AddUnclusteredAgentToken("acme", "seeded")
	if err != nil || secret == "" {
		t.Fatal(err)
	}
	if _, _, err := st.AddUnclusteredAgentToken("nope", ""); err == nil {
		t.Fatal("unknown organization accepted")
	}
	if !st.Exists(KindUnclusteredAgentToken, "acme", id) || !st.RevokeUnclusteredAgentToken("acme", id, "web") {
		t.Fatal("seeded token missing")
	}
	a := e.gql(gqlGetAgentToken, map[string]any{"slug": "acme/" + id}).ok(t)
	if a.str(t, "agentToken", "description") != "seeded" || a.at(t, "agentToken", "revokedAt") == nil {
		t.Fatalf("revoked outside: %s", a.raw)
	}
	// Revoking again over GraphQL answers the token unchanged.
	a = e.gql(gqlRevokeAgentToken, map[string]any{"id": graphQLID("AgentToken", id), "reason": "again"}).ok(t)
	if a.str(t, "agentTokenRevoke", "agentToken", "revokedReason") != "web" {
		t.Fatalf("second revoke: %s", a.raw)
	}
	// Store.Remove deletes it outright: null.
	if !st.Remove(KindUnclusteredAgentToken, "acme", id) {
		t.Fatal("remove")
	}
	if a := e.gql(gqlGetAgentToken, map[string]any{"slug": "acme/" + id}).ok(t); a.Data["agentToken"] != nil {
		t.Fatalf("removed: %s", a.raw)
	}
}

// TestGraphQLEveryFieldServed builds one object of each type the SDL declares and checks that it has every
// field the SDL gives the type, and no other, so a document valid against the SDL never meets "not served".
func TestGraphQLEveryFieldServed(t *testing.T) {
	e := newEnv(t, Options{})
	k := teamsKit{e}
	team := k.createTeam("T")
	_, second := k.memberIDs()
	expect(t, k.api("POST", "/teams/"+team+"/members", map[string]any{"user_id": second, "role": "member"}), http.StatusCreated)
	tpl := e.api("POST", "/pipeline-templates", map[string]any{"name": "Tpl", "configuration": "steps: []\n"})
	expect(t, tpl, http.StatusCreated)
	pipeline := e.createPipeline(map[string]any{"name": "P", "repository": githubRepo, "tags": []string{"t"},
		"pipeline_template_uuid": tpl.object(t)["uuid"]})["id"].(string)
	expect(t, e.api("POST", "/pipelines/p/webhook", nil), http.StatusCreated)
	expect(t, e.api("POST", "/pipelines/p/schedules", map[string]any{"cronline": "@daily", "env": map[string]string{"A": "1"}}), http.StatusCreated)
	expect(t, k.api("POST", "/teams/"+team+"/pipelines", map[string]any{"pipeline_id": pipeline, "access_level": "read_only"}), http.StatusCreated)
	_, suite := k.createSuite("S", team)
	registry := e.regAPI("POST", "", map[string]any{"name": "R", "ecosystem": "ruby", "team_ids": []string{team}})
	expect(t, registry, http.StatusOK)
	var others []string
	for _, repo := range []string{"https://gitlab.com/acme/g.git", "https://bitbucket.org/acme/b.git", "https://git.example.com/acme/x.git"} {
		others = append(others, e.createPipeline(map[string]any{"name": "Other " + repo[8:12], "repository": repo})["id"].(string))
	}
	cluster := e.createCluster("C")
	mac := e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": "m", "hostedAgents": map[string]any{"instanceShape": "MACOS_ARM64_M4_6X28"}})
	expect(t, mac, http.StatusCreated)
	linux := e.api("POST", "/clusters/"+cluster+"/queues", map[string]any{"key": "l", "hostedAgents": map[string]any{"instanceShape": "LINUX_AMD64_2X4"}})
	expect(t, linux, http.StatusCreated)
	expect(t, e.api("POST", "/clusters/"+cluster+"/tokens", map[string]any{"description": "d", "expires_at": "2100-01-01T00:00:00Z"}), http.StatusCreated)
	rule := e.api("POST", "/rules", map[string]any{"type": "pipeline.trigger_build.pipeline", "value": map[string]any{"source_pipeline": pipeline, "target_pipeline": pipeline}})
	expect(t, rule, http.StatusCreated)
	jobID := e.createBuild("p", nil)["jobs"].([]any)[0].(map[string]any)["id"].(string)
	expect(t, e.buildAdmin("p", 1, "/jobs/"+jobID, map[string]any{"state": "running"}), http.StatusOK) // with an Agent
	invited := e.api("POST", "/invitations", map[string]any{"emails": []string{"invited@example.com"}})
	expect(t, invited, http.StatusCreated)
	expect(t, e.api("PUT", "/banner", map[string]any{"message": "Maintenance tonight"}), http.StatusCreated)
	st := e.srv.Store()
	token, _, err := st.AddUnclusteredAgentToken("acme", "d")
	if err != nil {
		t.Fatal(err)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	x := &gqlExec{schema: graphqlSchema(), st: st, tok: *st.tokens["test-token"], user: *st.users[st.defaultUserID]}
	roots := func(typ string, m map[string]gqlRoot) any {
		fields := map[string]any{}
		for name := range m {
			fields[name] = nil
		}
		return gqlObject{typ: typ, fields: fields}
	}
	objects := []any{
		roots("Query", gqlQueries), roots("Mutation", gqlMutations),
		x.orgObject(st.orgs["acme"]), x.userObject(second), x.agentTokenObject(st.unclusteredToken("acme", token)),
		x.ruleObject(st.ruleByID("acme", rule.object(t)["uuid"].(string))), x.pipelineObject(st.pipelineByID("acme", pipeline)),
		x.teamObject(st.teamByID("acme", team)), x.suiteObject(st.suiteByID("acme", suite)),
		x.clusterObject(st.cluster("acme", cluster)),
		x.invitationEdge(st.orgs["acme"], st.invitation("acme", invited.list(t)[0]["id"].(string)), 0),
		x.jobObject(st.jobByID("acme", jobID)),
		x.queueObject(st.queue("acme", cluster, mac.object(t)["id"].(string))),
		x.queueObject(st.queue("acme", cluster, linux.object(t)["id"].(string))),
	}
	for _, id := range others {
		objects = append(objects, x.pipelineObject(st.pipelineByID("acme", id)))
	}
	for _, n := range teamLinkNodes {
		objects = append(objects, gqlNodes[n.typ](x, uuidOf(st.TeamLinkGraphQLID((*n.assoc).kind, "acme", team, map[string]string{
			"TeamMember": second, "TeamPipeline": pipeline, "TeamSuite": suite, "TeamRegistry": registry.object(t)["id"].(string)}[n.typ]), n.typ)))
	}
	// Walk the objects reachable through fields (resolvers are run with no arguments), entering each node
	// once: the graph has cycles (a pipeline's organization lists the pipeline).
	seen, entered := map[string]int{}, map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case gqlObject:
			key := fmt.Sprintf("%p", v.fields) // objects without an ID are reached only through ones with one
			if id, ok := v.fields["id"].(string); ok {
				key = id
			}
			if entered[key] {
				return
			}
			entered[key] = true
			seen[v.typ]++
			if seen[v.typ] == 1 {
				def := x.schema.Types[v.typ]
				if def == nil {
					t.Errorf("object of type %s, which the SDL lacks", v.typ)
					return
				}
				for _, f := range def.Fields {
					if _, ok := v.fields[f.Name]; !ok && !strings.HasPrefix(f.Name, "__") {
						t.Errorf("%s.%s is not served", v.typ, f.Name)
					}
				}
				for name := range v.fields {
					if def.Fields.ForName(name) == nil {
						t.Errorf("%s.%s is served but not in the SDL", v.typ, name)
					}
				}
			}
			for _, fv := range v.fields {
				if fn, ok := fv.(gqlResolver); ok {
					fv, _ = fn(map[string]any{})
				}
				walk(fv)
			}
		case []any:
			for _, item := range v {
				walk(item)
			}
		}
	}
	// Every provider type's settings, from a GitHub pipeline's (a field a provider's settings lack is null
	// or GitHub's default).
	unmadeProviders := []string{"RepositoryProviderBitbucketServer", "RepositoryProviderGitlabCommunity", "RepositoryProviderGitlabEnterprise",
		"RepositoryProviderBeanstalk", "RepositoryProviderCodebase", "RepositoryProviderCursorOrigin"}
	for _, typ := range append(unmadeProviders, "RepositoryProviderGithubEnterprise") {
		objects = append(objects, x.providerSettingsObject(typ, st.pipelineByID("acme", pipeline)))
	}
	for _, o := range objects {
		if o == nil {
			t.Fatal("a seeded object was not found")
		}
		walk(o)
	}
	for name, def := range x.schema.Types {
		// The store makes no GitHub Enterprise pipelines, nor those of the providers below; the SDL keeps
		// the types for the official's documents (their settings are checked above).
		if def.Kind == ast.Object && !def.BuiltIn && seen[name] == 0 && !strings.HasSuffix(name, "Payload") &&
			!strings.HasPrefix(name, "RepositoryProviderGithubEnterprise") && !slices.Contains(unmadeProviders, name) {
			t.Errorf("no object of type %s was checked", name)
		}
	}
}

package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The conformance test runs every endpoint of the emulator through the same cases: success, no token (401),
// unknown token (401), a token holding every scope but the endpoint's (403), a token of another
// organization asking for acme's path (404), an unknown id in the path (404), an invalid body (422), a
// malformed body (400), and a malformed body without a token (401: the token is checked first). Each row
// says what the endpoint needs; the cases that apply to it follow from the row (no 403 without a scope, no
// 404 for another organization without {org} in the path, no 422/400 without a body).
//
// Run one area with, for example, go test -run 'TestConformance/registries/' ./fakeserver/.

// confRow is one endpoint.
type confRow struct {
	area    string                           // names the subtests, so an area can be run alone
	method  string                           // HTTP method
	path    string                           // path template; {org} and the names setup puts in confEnv.vars
	scope   string                           // the scope the endpoint needs; "" for none (metrics)
	setup   func(c *confEnv)                 // creates, through the API, the objects the path and bodies name
	body    string                           // a valid body (a template like path); "" when the endpoint takes none
	invalid string                           // a body answered 422; "" when there is none
	status  int                              // the success status
	agent   bool                             // authenticates with "Token <agent token>" (metrics) instead of a bearer token
	check   func(*testing.T, map[string]any) // optional: more checks of a successful object response
	// bare: the response is not one of the API's objects, so it carries no id and graphql_id (every object of
	// the REST API carries both)
	bare bool
}

// Tokens every case's server holds besides the default "test-token".
const (
	confOtherToken   = "conformance-other-org" // every scope, organization "other" only
	confPartialToken = "conformance-partial"   // every scope but the row's, organization acme
)

// unknownID replaces the last path variable in the unknown-id case: a well-formed UUID nothing has, or a
// build number no build has.
const (
	unknownUUID  = "00000000-0000-4000-8000-000000000000"
	unknownBuild = "999999"
)

// confEnv is one case's emulator, called in-process through its handler, and the values setup made.
type confEnv struct {
	t    *testing.T
	srv  *Server
	vars map[string]string
}

func newConfEnv(t *testing.T) *confEnv {
	srv := New(Options{})
	srv.Store().AddToken(confOtherToken, []string{"other"}, AllScopes())
	return &confEnv{t: t, srv: srv, vars: map[string]string{"org": "acme"}}
}

// send issues one request to the handler; auth is the whole Authorization header ("" for none).
func (c *confEnv) send(method, path, auth, body string) (int, []byte) {
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	c.srv.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

var confVar = regexp.MustCompile(`\{([a-z0-9_]+)\}`)

// notFoundMessage is the body of an endpoint's 404: "No <resource> found".
var notFoundMessage = regexp.MustCompile(`^No [a-z ]+ found$`)

// fill replaces each {name} of tmpl with its value; an unset name fails the test (a setup bug).
func (c *confEnv) fill(tmpl string) string {
	c.t.Helper()
	return confVar.ReplaceAllStringFunc(tmpl, func(m string) string {
		v, ok := c.vars[m[1:len(m)-1]]
		if !ok {
			c.t.Fatalf("setup did not provide %s for %q", m, tmpl)
		}
		return v
	})
}

// post sends an authenticated setup request and fails unless it answers a 2xx; it returns the decoded
// body (nil for none).
func (c *confEnv) post(path, body string) map[string]any {
	c.t.Helper()
	status, raw := c.send("POST", c.fill(path), "Bearer test-token", c.fill(body))
	if status < 200 || status > 299 {
		c.t.Fatalf("setup POST %s: status %d, body %s", path, status, raw)
	}
	if len(raw) == 0 {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		c.t.Fatalf("setup POST %s: body %s: %v", path, raw, err)
	}
	return m
}

// keep records under name the first of keys present in m.
func (c *confEnv) keep(name string, m map[string]any, keys ...string) {
	c.t.Helper()
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				c.vars[name] = v
				return
			}
		case float64:
			c.vars[name] = strconv.FormatFloat(v, 'f', -1, 64)
			return
		}
	}
	c.t.Fatalf("setup: none of %v in %v", keys, m)
}

// once runs create unless name is already set, so helpers can depend on each other freely.
func (c *confEnv) once(name string, create func()) {
	if _, ok := c.vars[name]; !ok {
		create()
	}
}

const (
	orgPath       = "/v2/organizations/{org}"
	analyticsPath = "/v2/analytics/organizations/{org}"
	packagesPath  = "/v2/packages/organizations/{org}"
	// confCommit is a full commit identifier (builds match full ones only).
	confCommit = "0123456789abcdef0123456789abcdef01234567"
	confYAML   = `steps:\n  - label: test\n    command: echo hello\n`
)

// ---- setup helpers: each creates its object through the API (once) and records its path values ----

func (c *confEnv) cluster() {
	c.once("cluster", func() { c.keep("cluster", c.post(orgPath+"/clusters", `{"name":"Conformance"}`), "id") })
}

func (c *confEnv) queue() {
	c.once("queue", func() {
		c.cluster()
		c.keep("queue", c.post(orgPath+"/clusters/{cluster}/queues", `{"key":"conformance"}`), "id")
	})
}

func (c *confEnv) pausedQueue() {
	c.queue()
	c.post(orgPath+"/clusters/{cluster}/queues/{queue}/pause_dispatch", `{"dispatch_paused_note":"setup"}`)
}

// clusterToken creates a cluster agent token; its secret ({agent_token}) is also what the metrics endpoint
// is given as an agent registration token.
func (c *confEnv) clusterToken() {
	c.once("ctoken", func() {
		c.cluster()
		m := c.post(orgPath+"/clusters/{cluster}/tokens", `{"description":"agents"}`)
		c.keep("agent_token", m, "token")
		c.keep("ctoken", m, "id")
	})
}

// user is the seeded non-admin member "Second Member": users are not created through the API.
func (c *confEnv) user() {
	c.once("user", func() {
		c.srv.store.mu.RLock()
		defer c.srv.store.mu.RUnlock()
		for _, u := range c.srv.store.users {
			if u.name == "Second Member" {
				c.vars["user"] = u.id
				return
			}
		}
		c.t.Fatal("no Second Member")
	})
}

const confTeamBody = `{"name":"%s","description":"d","privacy":"visible","is_default_team":false,` +
	`"default_member_role":"member","members_can_create_pipelines":true}`

func (c *confEnv) team() {
	c.once("team", func() {
		c.keep("team", c.post(orgPath+"/teams", fmt.Sprintf(confTeamBody, "Conformance Team")), "id")
	})
}

// team2 owns the suite, so that adding the suite to team is not a duplicate.
func (c *confEnv) team2() {
	c.once("team2", func() {
		c.keep("team2", c.post(orgPath+"/teams", fmt.Sprintf(confTeamBody, "Suite Owners")), "id")
	})
}

func (c *confEnv) teamMember() {
	c.team()
	c.user()
	c.post(orgPath+"/teams/{team}/members/", `{"user_id":"{user}","role":"member"}`)
}

const confPipelineBody = `{"name":"%s","cluster_id":"{cluster}","repository":"https://github.com/acme/app.git",` +
	`"configuration":"` + confYAML + `"}`

func (c *confEnv) pipeline() {
	c.once("pipeline", func() {
		c.cluster()
		m := c.post(orgPath+"/pipelines", fmt.Sprintf(confPipelineBody, "Conformance Pipeline"))
		c.keep("pipeline_id", m, "id")
		c.keep("pipeline", m, "slug")
	})
}

func (c *confEnv) pipeline2() {
	c.once("pipeline2", func() {
		c.cluster()
		m := c.post(orgPath+"/pipelines", fmt.Sprintf(confPipelineBody, "Triggered Pipeline"))
		c.keep("pipeline2_id", m, "id")
		c.keep("pipeline2", m, "slug")
	})
}

func (c *confEnv) archivedPipeline() {
	c.pipeline()
	c.post(orgPath+"/pipelines/{pipeline}/archive", "")
}

func (c *confEnv) teamPipeline() {
	c.team()
	c.pipeline()
	c.post(orgPath+"/teams/{team}/pipelines/", `{"pipeline_id":"{pipeline_id}","access_level":"read_only"}`)
}

func (c *confEnv) suite() {
	c.once("suite", func() {
		c.team2()
		m := c.post(analyticsPath+"/suites", `{"name":"Conformance Suite","default_branch":"main","team_ids":["{team2}"]}`)
		c.keep("suite_id", m, "id")
		c.keep("suite", m, "slug")
	})
}

func (c *confEnv) teamSuite() {
	c.team()
	c.suite()
	c.post(orgPath+"/teams/{team}/suite/", `{"suite_id":"{suite_id}","access_level":["read"]}`)
}

func (c *confEnv) template() {
	c.once("template", func() {
		m := c.post(orgPath+"/pipeline-templates", `{"name":"Conformance Template","configuration":"`+confYAML+`"}`)
		c.keep("template", m, "uuid", "id")
	})
}

func (c *confEnv) build() {
	c.once("build", func() {
		c.pipeline()
		m := c.post(orgPath+"/pipelines/{pipeline}/builds", `{"commit":"`+confCommit+`","branch":"main","message":"Conformance"}`)
		c.keep("build", m, "number")
	})
}

func (c *confEnv) registry() {
	c.once("registry", func() {
		c.keep("registry", c.post(packagesPath+"/registries", `{"name":"Conformance","ecosystem":"ruby"}`), "slug")
	})
}

func (c *confEnv) registryToken() {
	c.once("rtoken", func() {
		c.registry()
		c.keep("rtoken", c.post(packagesPath+"/registries/{registry}/tokens", `{"description":"CI"}`), "id")
	})
}

const confRuleBody = `{"type":"pipeline.trigger_build.pipeline",` +
	`"value":{"source_pipeline":"{pipeline_id}","target_pipeline":"{pipeline2_id}"}}`

func (c *confEnv) rule() {
	c.once("rule", func() {
		c.pipeline()
		c.pipeline2()
		c.keep("rule", c.post(orgPath+"/rules", confRuleBody), "uuid", "id")
	})
}

// ---- the table ----

func none(*confEnv) {}

// confRows lists every endpoint, area by area, in the order of the REST API's areas.
func confRows() []confRow {
	const (
		teamBody       = `{"name":"Created Team","description":"d","privacy":"secret","is_default_team":false,"default_member_role":"maintainer","members_can_create_pipelines":false}`
		teamUpdate     = `{"name":"Updated Team","description":"e","privacy":"visible","is_default_team":false,"default_member_role":"member","members_can_create_pipelines":true}`
		pipelineBody   = `{"name":"Created Pipeline","cluster_id":"{cluster}","repository":"https://github.com/acme/new.git","configuration":"` + confYAML + `"}`
		buildBody      = `{"commit":"` + confCommit + `","branch":"main","message":"Created"}`
		registryBody   = `{"name":"Created Registry","ecosystem":"python","description":"d"}`
		queuePath      = orgPath + "/clusters/{cluster}/queues/{queue}"
		ctokenPath     = orgPath + "/clusters/{cluster}/tokens/{ctoken}"
		registryPath   = packagesPath + "/registries/{registry}"
		rtokenPath     = registryPath + "/tokens/{rtoken}"
		teamPath       = orgPath + "/teams/{team}"
		pipelinePath   = orgPath + "/pipelines/{pipeline}"
		buildPath      = pipelinePath + "/builds/{build}"
		suitePath      = analyticsPath + "/suites/{suite}"
		templatePath   = orgPath + "/pipeline-templates/{template}"
		badType        = `{"description":5}`
		badAccess      = `{"access_level":"everything"}`
		badSuiteAccess = `{"access_level":["admin"]}`
	)
	cluster := func(c *confEnv) { c.cluster() }
	queue := func(c *confEnv) { c.queue() }
	ctoken := func(c *confEnv) { c.clusterToken() }
	team := func(c *confEnv) { c.team() }
	pipeline := func(c *confEnv) { c.pipeline() }
	build := func(c *confEnv) { c.build() }
	suite := func(c *confEnv) { c.suite() }
	registry := func(c *confEnv) { c.registry() }
	rtoken := func(c *confEnv) { c.registryToken() }

	rows := []confRow{
		// Organizations and members.
		{area: "organizations", method: "GET", path: "/v2/organizations", scope: scopeReadOrganizations, setup: none, status: 200},
		{area: "organizations", method: "GET", path: orgPath, scope: scopeReadOrganizations, setup: none, status: 200},
		{area: "organizations", method: "GET", path: orgPath + "/members", scope: scopeReadOrganizations, setup: none, status: 200},
		{area: "organizations", method: "GET", path: orgPath + "/members/{user}", scope: scopeReadOrganizations,
			setup: func(c *confEnv) { c.user() }, status: 200},

		// The calling access token (https://buildkite.com/docs/apis/rest-api/access-token): no scope, no
		// organization.
		{area: "access-token", method: "GET", path: "/v2/access-token", setup: none, status: 200, bare: true,
			check: fieldIs("uuid", accessTokenUUID("test-token"))},
		{area: "access-token", method: "DELETE", path: "/v2/access-token", setup: none, status: 204},

		// Metrics, with an agent token: the cluster token's secret.
		{area: "metrics", method: "GET", path: "/v3/metrics", setup: ctoken, status: 200, agent: true},
		{area: "metrics", method: "GET", path: "/v3/metrics/queue?name=conformance", status: 200, agent: true,
			setup: func(c *confEnv) { c.clusterToken(); c.queue() }},

		// Clusters.
		{area: "clusters", method: "GET", path: orgPath + "/clusters", scope: scopeReadClusters, setup: none, status: 200},
		{area: "clusters", method: "POST", path: orgPath + "/clusters", scope: scopeWriteClusters, setup: none,
			body: `{"name":"Created","description":"d","emoji":":rocket:","color":"#ff0000"}`, invalid: `{"name":""}`, status: 201},
		{area: "clusters", method: "GET", path: orgPath + "/clusters/{cluster}", scope: scopeReadClusters, setup: cluster, status: 200},
		{area: "clusters", method: "PUT", path: orgPath + "/clusters/{cluster}", scope: scopeWriteClusters, setup: cluster,
			body: `{"name":"Renamed"}`, invalid: `{"name":""}`, status: 200},
		{area: "clusters", method: "PATCH", path: orgPath + "/clusters/{cluster}", scope: scopeWriteClusters, setup: cluster,
			body: `{"description":"changed"}`, invalid: `{"color":1}`, status: 200},
		{area: "clusters", method: "DELETE", path: orgPath + "/clusters/{cluster}", scope: scopeWriteClusters, setup: cluster, status: 204},

		// Queues.
		{area: "clusters", method: "GET", path: orgPath + "/clusters/{cluster}/queues", scope: scopeReadClusters, setup: cluster, status: 200},
		{area: "clusters", method: "POST", path: orgPath + "/clusters/{cluster}/queues", scope: scopeWriteClusters, setup: cluster,
			body: `{"key":"created","description":"d"}`, invalid: `{"key":""}`, status: 201},
		{area: "clusters", method: "GET", path: queuePath, scope: scopeReadClusters, setup: queue, status: 200},
		{area: "clusters", method: "PUT", path: queuePath, scope: scopeWriteClusters, setup: queue,
			body: `{"description":"changed"}`, invalid: badType, status: 200},
		{area: "clusters", method: "PATCH", path: queuePath, scope: scopeWriteClusters, setup: queue,
			body: `{"description":"changed"}`, invalid: badType, status: 200},
		{area: "clusters", method: "DELETE", path: queuePath, scope: scopeWriteClusters, setup: queue, status: 204},
		{area: "clusters", method: "POST", path: queuePath + "/pause_dispatch", scope: scopeWriteClusters, setup: queue,
			body: `{"dispatch_paused_note":"maintenance"}`, invalid: `{"dispatch_paused_note":5}`, status: 200},
		{area: "clusters", method: "POST", path: queuePath + "/resume_dispatch", scope: scopeWriteClusters,
			setup: func(c *confEnv) { c.pausedQueue() }, status: 200},

		// Cluster agent tokens (4.4; update and delete as go-buildkite does them).
		{area: "clusters", method: "GET", path: orgPath + "/clusters/{cluster}/tokens", scope: scopeReadClusters, setup: cluster, status: 200},
		{area: "clusters", method: "POST", path: orgPath + "/clusters/{cluster}/tokens", scope: scopeWriteClusters, setup: cluster,
			body: `{"description":"agents","allowed_ip_addresses":"10.0.0.0/8"}`, invalid: `{"description":""}`, status: 201,
			check: secretPresent("token")},
		{area: "clusters", method: "GET", path: ctokenPath, scope: scopeReadClusters, setup: ctoken, status: 200, check: secretAbsent("token")},
		{area: "clusters", method: "PUT", path: ctokenPath, scope: scopeWriteClusters, setup: ctoken,
			body: `{"description":"changed"}`, invalid: `{"description":""}`, status: 200, check: secretAbsent("token")},
		{area: "clusters", method: "PATCH", path: ctokenPath, scope: scopeWriteClusters, setup: ctoken,
			body: `{"description":"changed"}`, invalid: `{"allowed_ip_addresses":"nope"}`, status: 200},
		{area: "clusters", method: "DELETE", path: ctokenPath, scope: scopeWriteClusters, setup: ctoken, status: 204},

		// Teams.
		{area: "teams", method: "GET", path: orgPath + "/teams", scope: scopeReadTeams, setup: none, status: 200},
		{area: "teams", method: "GET", path: teamPath, scope: scopeViewTeams, setup: team, status: 200},
		{area: "teams", method: "POST", path: orgPath + "/teams", scope: scopeWriteTeams, setup: none,
			body: teamBody, invalid: `{"name":"","privacy":"invisible"}`, status: 201},
		{area: "teams", method: "PATCH", path: teamPath, scope: scopeWriteTeams, setup: team,
			body: teamUpdate, invalid: `{"privacy":"invisible"}`, status: 200},
		{area: "teams", method: "DELETE", path: teamPath, scope: scopeWriteTeams, setup: team, status: 204},

		// Team members: create by the documented path (trailing slash) and go-buildkite's.
		{area: "teams", method: "GET", path: teamPath + "/members", scope: scopeViewTeams, setup: team, status: 200},
		{area: "teams", method: "GET", path: teamPath + "/members/{user}", scope: scopeViewTeams,
			setup: func(c *confEnv) { c.teamMember() }, status: 200},
		{area: "teams", method: "POST", path: teamPath + "/members/", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.team(); c.user() },
			body:  `{"user_id":"{user}","role":"member"}`, invalid: `{"user_id":"{user}","role":"owner"}`, status: 201},
		{area: "teams", method: "POST", path: teamPath + "/members", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.team(); c.user() },
			body:  `{"user_id":"{user}","role":"maintainer"}`, invalid: `{"role":"member"}`, status: 201},
		{area: "teams", method: "PATCH", path: teamPath + "/members/{user}", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamMember() }, body: `{"role":"maintainer"}`, invalid: `{"role":"owner"}`, status: 200},
		{area: "teams", method: "DELETE", path: teamPath + "/members/{user}", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamMember() }, status: 204},

		// Team pipelines: removal by pipeline id, as go-buildkite does it (the documented path shows none).
		{area: "teams", method: "GET", path: teamPath + "/pipelines", scope: scopeViewTeams, setup: team, status: 200},
		{area: "teams", method: "GET", path: teamPath + "/pipelines/{pipeline_id}", scope: scopeViewTeams,
			setup: func(c *confEnv) { c.teamPipeline() }, status: 200},
		{area: "teams", method: "POST", path: teamPath + "/pipelines/", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.team(); c.pipeline() },
			body:  `{"pipeline_id":"{pipeline_id}","access_level":"read_only"}`, invalid: `{"pipeline_id":"{pipeline_id}","access_level":"everything"}`, status: 201},
		{area: "teams", method: "POST", path: teamPath + "/pipelines", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.team(); c.pipeline() },
			body:  `{"pipeline_id":"{pipeline_id}","access_level":"build_and_read"}`, invalid: `{"access_level":"read_only"}`, status: 201},
		{area: "teams", method: "PATCH", path: teamPath + "/pipelines/{pipeline_id}", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamPipeline() }, body: `{"access_level":"manage_build_and_read"}`, invalid: badAccess, status: 200},
		{area: "teams", method: "DELETE", path: teamPath + "/pipelines/{pipeline_id}", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamPipeline() }, status: 204},

		// Team suites: create by /suite/ (the documentation) and /suite (go-buildkite); delete with and without the
		// trailing slash.
		{area: "teams", method: "GET", path: teamPath + "/suites", scope: scopeViewTeams, setup: team, status: 200},
		{area: "teams", method: "GET", path: teamPath + "/suites/{suite_id}", scope: scopeViewTeams,
			setup: func(c *confEnv) { c.teamSuite() }, status: 200},
		{area: "teams", method: "POST", path: teamPath + "/suite/", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.team(); c.suite() },
			body:  `{"suite_id":"{suite_id}","access_level":["read"]}`, invalid: `{"suite_id":"{suite_id}","access_level":["admin"]}`, status: 201},
		{area: "teams", method: "POST", path: teamPath + "/suite", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.team(); c.suite() },
			body:  `{"suite_id":"{suite_id}","access_level":["read","edit"]}`, invalid: `{"access_level":["read"]}`, status: 201},
		{area: "teams", method: "PATCH", path: teamPath + "/suites/{suite_id}", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamSuite() }, body: `{"access_level":["read","edit"]}`, invalid: badSuiteAccess, status: 200},
		{area: "teams", method: "DELETE", path: teamPath + "/suites/{suite_id}/", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamSuite() }, status: 204},
		{area: "teams", method: "DELETE", path: teamPath + "/suites/{suite_id}", scope: scopeWriteTeams,
			setup: func(c *confEnv) { c.teamSuite() }, status: 204},

		// Pipeline templates.
		{area: "templates", method: "GET", path: orgPath + "/pipeline-templates", scope: scopeReadPipelineTemplates, setup: none, status: 200},
		{area: "templates", method: "GET", path: templatePath, scope: scopeReadPipelineTemplates,
			setup: func(c *confEnv) { c.template() }, status: 200},
		{area: "templates", method: "POST", path: orgPath + "/pipeline-templates", scope: scopeWritePipelineTemplates, setup: none,
			body:    `{"name":"Created Template","configuration":"` + confYAML + `","description":"d","available":true}`,
			invalid: `{"name":"","configuration":""}`, status: 201},
		{area: "templates", method: "PATCH", path: templatePath, scope: scopeWritePipelineTemplates,
			setup: func(c *confEnv) { c.template() }, body: `{"description":"changed","available":true}`, invalid: `{"available":"yes"}`, status: 200},
		{area: "templates", method: "DELETE", path: templatePath, scope: scopeWritePipelineTemplates,
			setup: func(c *confEnv) { c.template() }, status: 204},

		// Pipelines, with delete, archive and unarchive.
		{area: "pipelines", method: "GET", path: orgPath + "/pipelines", scope: scopeReadPipelines, setup: none, status: 200},
		{area: "pipelines", method: "GET", path: pipelinePath, scope: scopeReadPipelines, setup: pipeline, status: 200},
		{area: "pipelines", method: "POST", path: orgPath + "/pipelines", scope: scopeWritePipelines, setup: cluster,
			body: pipelineBody, invalid: `{"name":"Missing Everything"}`, status: 201},
		{area: "pipelines", method: "PATCH", path: pipelinePath, scope: scopeWritePipelines, setup: pipeline,
			body: `{"description":"changed"}`, invalid: badType, status: 200},
		{area: "pipelines", method: "DELETE", path: pipelinePath, scope: scopeWritePipelines, setup: pipeline, status: 204},
		{area: "pipelines", method: "POST", path: pipelinePath + "/archive", scope: scopeWritePipelines, setup: pipeline, status: 200,
			check: fieldNotNull("archived_at")},
		{area: "pipelines", method: "POST", path: pipelinePath + "/unarchive", scope: scopeWritePipelines,
			setup: func(c *confEnv) { c.archivedPipeline() }, status: 200, check: fieldNull("archived_at")},

		// Builds, with cancel and rebuild. Creating, cancelling and rebuilding need write_builds,
		// the emulator's choice where the documentation shows no scope.
		{area: "builds", method: "GET", path: "/v2/builds", scope: scopeReadBuilds, setup: build, status: 200},
		{area: "builds", method: "GET", path: orgPath + "/builds", scope: scopeReadBuilds, setup: build, status: 200},
		{area: "builds", method: "GET", path: pipelinePath + "/builds", scope: scopeReadBuilds, setup: build, status: 200},
		{area: "builds", method: "GET", path: buildPath, scope: scopeReadBuilds, setup: build, status: 200},
		{area: "builds", method: "POST", path: pipelinePath + "/builds", scope: scopeWriteBuilds, setup: pipeline,
			body: buildBody, invalid: `{"message":"no commit or branch"}`, status: 201, check: fieldIs("state", "scheduled")},
		{area: "builds", method: "PUT", path: buildPath + "/cancel", scope: scopeWriteBuilds, setup: build, status: 200},
		{area: "builds", method: "PUT", path: buildPath + "/rebuild", scope: scopeWriteBuilds, setup: build, status: 200,
			check: fieldNotNull("rebuilt_from")},

		// Analytics test suites and flaky tests.
		{area: "suites", method: "GET", path: analyticsPath + "/suites", scope: scopeReadSuites, setup: none, status: 200},
		{area: "suites", method: "GET", path: suitePath, scope: scopeReadSuites, setup: suite, status: 200},
		{area: "suites", method: "POST", path: analyticsPath + "/suites", scope: scopeWriteSuites, setup: team,
			body:    `{"name":"Created Suite","default_branch":"main","team_ids":["{team}"],"show_api_token":true}`,
			invalid: `{"name":"","default_branch":"main","team_ids":["{team}"]}`, status: 201, check: secretPresent("api_token")},
		{area: "suites", method: "PATCH", path: suitePath, scope: scopeWriteSuites, setup: suite,
			body: `{"default_branch":"develop"}`, invalid: `{"default_branch":5}`, status: 200, check: secretAbsent("api_token")},
		{area: "suites", method: "DELETE", path: suitePath, scope: scopeWriteSuites, setup: suite, status: 204},
		{area: "suites", method: "GET", path: suitePath + "/flaky-tests", scope: scopeReadSuites, setup: suite, status: 200},

		// Registries and registry tokens: creates and deletes answer 200.
		{area: "registries", method: "GET", path: packagesPath + "/registries", scope: scopeReadRegistries, setup: none, status: 200},
		{area: "registries", method: "POST", path: packagesPath + "/registries", scope: scopeWriteRegistries, setup: none,
			body: registryBody, invalid: `{"name":"Bad","ecosystem":"cobol"}`, status: 200},
		{area: "registries", method: "GET", path: registryPath, scope: scopeReadRegistries, setup: registry, status: 200},
		{area: "registries", method: "DELETE", path: registryPath, scope: scopeDeleteRegistries, setup: registry, status: 200},
		{area: "registries", method: "GET", path: registryPath + "/tokens", scope: scopeReadRegistries, setup: registry, status: 200},
		{area: "registries", method: "POST", path: registryPath + "/tokens", scope: scopeWriteRegistries, setup: registry,
			body: `{"description":"CI"}`, invalid: `{"description":""}`, status: 200, check: secretPresent("token")},
		{area: "registries", method: "GET", path: rtokenPath, scope: scopeReadRegistries, setup: rtoken, status: 200, check: secretAbsent("token")},
		{area: "registries", method: "DELETE", path: rtokenPath, scope: scopeWriteRegistries, setup: rtoken, status: 200},

		// Rules.
		{area: "rules", method: "GET", path: orgPath + "/rules", scope: scopeReadRules, setup: none, status: 200},
		{area: "rules", method: "GET", path: orgPath + "/rules/{rule}", scope: scopeReadRules,
			setup: func(c *confEnv) { c.rule() }, status: 200},
		{area: "rules", method: "POST", path: orgPath + "/rules", scope: scopeWriteRules,
			setup: func(c *confEnv) { c.pipeline(); c.pipeline2() },
			body:  confRuleBody, invalid: `{"type":"pipeline.nothing.pipeline","value":{}}`, status: 201},
		{area: "rules", method: "DELETE", path: orgPath + "/rules/{rule}", scope: scopeWriteRules,
			setup: func(c *confEnv) { c.rule() }, status: 204},
	}

	// Registry and registry token updates: POST (the documentation), PATCH (go-buildkite), PUT (official
	// provider).
	for _, method := range []string{"POST", "PATCH", "PUT"} {
		rows = append(rows,
			confRow{area: "registries", method: method, path: registryPath, scope: scopeWriteRegistries, setup: registry,
				body: `{"description":"changed","emoji":":gem:"}`, invalid: `{"ecosystem":"python"}`, status: 200},
			confRow{area: "registries", method: method, path: rtokenPath, scope: scopeWriteRegistries, setup: rtoken,
				body: `{"description":"changed"}`, invalid: `{}`, status: 200, check: secretAbsent("token")},
		)
	}
	rows = append(rows, beyondSpecConfRows()...)
	return rows
}

// ---- checks of successful responses ----

func secretPresent(field string) func(*testing.T, map[string]any) {
	return func(t *testing.T, m map[string]any) {
		if s, _ := m[field].(string); s == "" {
			t.Errorf("%s absent from the create response: %v", field, m)
		}
	}
}

func secretAbsent(field string) func(*testing.T, map[string]any) {
	return func(t *testing.T, m map[string]any) {
		if _, ok := m[field]; ok {
			t.Errorf("%s revealed after creation: %v", field, m)
		}
	}
}

func fieldNull(field string) func(*testing.T, map[string]any) {
	return func(t *testing.T, m map[string]any) {
		if v, ok := m[field]; !ok || v != nil {
			t.Errorf("%s = %v, want null", field, v)
		}
	}
}

func fieldNotNull(field string) func(*testing.T, map[string]any) {
	return func(t *testing.T, m map[string]any) {
		if m[field] == nil {
			t.Errorf("%s is null or absent: %v", field, m)
		}
	}
}

func fieldIs(field string, want any) func(*testing.T, map[string]any) {
	return func(t *testing.T, m map[string]any) {
		if m[field] != want {
			t.Errorf("%s = %v, want %v", field, m[field], want)
		}
	}
}

// ---- the cases ----

// confCase is one request built from a row.
type confCase struct {
	name   string
	status int
	// prepare adjusts the environment and returns the path template, Authorization header and body
	// template to send.
	prepare func(c *confEnv, row confRow) (path, auth, body string)
}

func bearer(token string) string { return "Bearer " + token }

// casesFor returns the cases that apply to row.
func casesFor(row confRow) []confCase {
	auth := func(c *confEnv) string {
		if row.agent {
			return "Token " + c.vars["agent_token"]
		}
		return bearer("test-token")
	}
	cases := []confCase{
		{"success", row.status, func(c *confEnv, row confRow) (string, string, string) { return row.path, auth(c), row.body }},
		{"no_token", http.StatusUnauthorized, func(c *confEnv, row confRow) (string, string, string) { return row.path, "", row.body }},
		{"unknown_token", http.StatusUnauthorized, func(c *confEnv, row confRow) (string, string, string) {
			if row.agent {
				return row.path, "Token no-such-agent-token", row.body
			}
			return row.path, bearer("no-such-token"), row.body
		}},
	}
	if row.scope != "" {
		cases = append(cases, confCase{"missing_scope", http.StatusForbidden, func(c *confEnv, row confRow) (string, string, string) {
			var scopes []string
			for _, sc := range AllScopes() {
				if sc != row.scope {
					scopes = append(scopes, sc)
				}
			}
			c.srv.Store().AddToken(confPartialToken, []string{"acme"}, scopes)
			return row.path, bearer(confPartialToken), row.body
		}})
	}
	if strings.Contains(row.path, "{org}") {
		cases = append(cases, confCase{"other_org", http.StatusNotFound, func(c *confEnv, row confRow) (string, string, string) {
			return row.path, bearer(confOtherToken), row.body
		}})
	}
	if last := lastPathVar(row.path); last != "" {
		cases = append(cases, confCase{"unknown_id", http.StatusNotFound, func(c *confEnv, row confRow) (string, string, string) {
			value := unknownUUID
			if last == "build" {
				value = unknownBuild
			}
			i := strings.LastIndex(row.path, "{"+last+"}")
			return row.path[:i] + value + row.path[i+len(last)+2:], auth(c), row.body
		}})
	}
	if row.invalid != "" {
		cases = append(cases, confCase{"invalid_body", http.StatusUnprocessableEntity, func(c *confEnv, row confRow) (string, string, string) {
			return row.path, auth(c), row.invalid
		}})
	}
	if row.body != "" || row.invalid != "" {
		cases = append(cases, confCase{"malformed_json", http.StatusBadRequest, func(c *confEnv, row confRow) (string, string, string) {
			return row.path, auth(c), `{"name": "unterminated`
		}})
		// The token is checked before the body is read: a caller without one learns nothing of the body.
		cases = append(cases, confCase{"no_token_malformed_json", http.StatusUnauthorized, func(c *confEnv, row confRow) (string, string, string) {
			return row.path, "", `{"name": "unterminated`
		}})
	}
	return cases
}

// lastPathVar returns the name of the last path variable other than {org}, or "".
func lastPathVar(path string) string {
	path, _, _ = strings.Cut(path, "?")
	names := confVar.FindAllStringSubmatch(path, -1)
	for i := len(names) - 1; i >= 0; i-- {
		if names[i][1] != "org" {
			return names[i][1]
		}
	}
	return ""
}

// confName is a row's subtest name: area/METHOD_path, the path's slashes as colons so that -run
// patterns address an area with "TestConformance/<area>/".
func confName(row confRow) string {
	p := row.path
	for _, prefix := range []string{orgPath, analyticsPath, packagesPath} {
		if strings.HasPrefix(p, prefix) {
			p = strings.TrimPrefix(p, prefix)
			if p == "" {
				p = "org"
			}
			break
		}
	}
	p = strings.Trim(strings.NewReplacer("/", ":", "?", ":", "=", "-").Replace(p), ":")
	return row.area + "/" + row.method + "_" + p
}

func TestConformance(t *testing.T) {
	var ran, failed int
	for _, row := range confRows() {
		t.Run(confName(row), func(t *testing.T) {
			for _, cc := range casesFor(row) {
				ran++
				if !t.Run(cc.name, func(t *testing.T) { runConfCase(t, row, cc) }) {
					failed++
				}
			}
		})
	}
	t.Logf("conformance: %d cases, %d failed", ran, failed)
	fmt.Printf("conformance: %d cases (%d failed)\n", ran, failed)
}

// runConfCase runs one case against a fresh emulator.
func runConfCase(t *testing.T, row confRow, cc confCase) {
	c := newConfEnv(t)
	row.setup(c)
	pathTmpl, auth, bodyTmpl := cc.prepare(c, row)
	path, body := c.fill(pathTmpl), c.fill(bodyTmpl)
	status, raw := c.send(row.method, path, auth, body)
	if status != cc.status {
		t.Fatalf("%s %s: status %d, want %d; body %s", row.method, path, status, cc.status, raw)
	}
	if status == http.StatusNoContent {
		if len(raw) != 0 {
			t.Fatalf("204 with a body: %s", raw)
		}
		return
	}
	var decoded any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatalf("body is not JSON: %q", raw)
	}
	if status >= 400 {
		m, _ := decoded.(map[string]any)
		msg, _ := m["message"].(string)
		switch {
		case msg == "":
			t.Fatalf("error without a message: %s", raw)
		case status == http.StatusNotFound && !notFoundMessage.MatchString(msg):
			// "Not Found" is the router's answer for a path no endpoint has, not the endpoint's 404.
			t.Fatalf("404 message %q, want \"No <resource> found\"", msg)
		case status == http.StatusForbidden && msg != errMissingScope(row.scope).body.(messageBody).Message:
			t.Fatalf("403 message %q", msg)
		case status == http.StatusUnauthorized && msg != unauthorizedMessage(row.path):
			t.Fatalf("401 message %q", msg)
		}
		return
	}
	if !strings.HasPrefix(row.path, "/v3/") && !row.bare {
		checkIdentified(t, decoded)
	}
	if m, ok := decoded.(map[string]any); ok && row.check != nil {
		row.check(t, m)
	}
}

// checkIdentified fails unless every object of a successful answer carries id (or uuid) and graphql_id
// (as every object of the REST API does), lists included.
func checkIdentified(t *testing.T, decoded any) {
	t.Helper()
	objects := []any{decoded}
	if list, ok := decoded.([]any); ok {
		objects = list
	}
	for _, o := range objects {
		m, ok := o.(map[string]any)
		if !ok || len(m) == 0 {
			continue
		}
		_, hasID := m["id"]
		_, hasUUID := m["uuid"]
		if _, hasGraphQL := m["graphql_id"]; (!hasID && !hasUUID) || !hasGraphQL {
			t.Fatalf("object without id/uuid and graphql_id: %v", m)
		}
	}
}

// unauthorizedMessage is the 401 message of an endpoint: the metrics endpoint authenticates agent
// registration tokens, not access tokens, and says so.
func unauthorizedMessage(path string) string {
	if strings.HasPrefix(path, "/v3/") {
		return errAgentUnauthorized().body.(messageBody).Message
	}
	return errUnauthorized().body.(messageBody).Message
}

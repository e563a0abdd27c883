package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseFaults(t *testing.T) {
	got, err := ParseFaults(" 5xx=0.2, 429=0.1 ,latency=20ms,drop=0.5,seed=42,reset=3s")
	want := Faults{ServerErrors: 0.2, RateLimited: 0.1, Latency: 20 * time.Millisecond, DropCreates: 0.5, Seed: 42,
		RateLimitReset: 3 * time.Second}
	if err != nil || got.ServerErrors != want.ServerErrors || got.RateLimited != want.RateLimited || got.Latency != want.Latency ||
		got.DropCreates != want.DropCreates || got.Seed != want.Seed || got.RateLimitReset != want.RateLimitReset {
		t.Fatalf("ParseFaults = %+v, %v", got, err)
	}
	if f, err := ParseFaults(""); err != nil || f.enabled() {
		t.Fatalf("empty spec: %+v %v", f, err)
	}
	// aim= may repeat; its value is space-separated, so it takes no comma.
	got, err = ParseFaults("aim=POST /v2/organizations/{org}/clusters/{cluster}/tokens drop_after skip=1 times=1, 5xx=0.1," +
		"aim= agentTokenCreate  errors_with_data ,aim=POST /v1 null_data times=2")
	wantAimed := []AimedFault{
		{Route: "POST /v2/organizations/{org}/clusters/{cluster}/tokens", Kind: FaultDropAfter, Skip: 1, Times: 1},
		{Operation: "agentTokenCreate", Kind: FaultErrorsWithData},
		{Route: "POST /v1", Kind: FaultNullData, Times: 2},
	}
	if err != nil || got.ServerErrors != 0.1 || !slices.Equal(got.Aimed, wantAimed) || !got.enabled() || got.shares() != true {
		t.Fatalf("ParseFaults with aim = %+v, %v", got, err)
	}
	for _, a := range wantAimed { // String is the form aim= takes
		if back, err := parseAimed(a.String()); err != nil || back != a {
			t.Errorf("parseAimed(%q) = %+v, %v", a.String(), back, err)
		}
	}
	if f, _ := ParseFaults("aim=op drop_before"); f.shares() || !f.enabled() {
		t.Fatalf("aimed only: shares %v enabled %v", f.shares(), f.enabled())
	}
	if _, err := Open(Options{Faults: Faults{Aimed: []AimedFault{{Route: "POST /v2/x", Operation: "y", Kind: FaultDropAfter}}}}); err == nil ||
		!strings.Contains(err.Error(), "Options.Faults.Aimed: [0] aimed fault") || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("Open with an invalid aimed fault: %v", err)
	}
	for spec, wantErr := range map[string]string{
		"5xx=2":                                 "5xx=2: want a share between 0 and 1",
		"429=-0.1":                              "429=-0.1: want a share between 0 and 1",
		"drop=x":                                "drop=x: want a share",
		"latency=fast":                          "latency=fast: want a duration",
		"latency=-1s":                           "latency=-1s: want a duration",
		"seed=1.5":                              "seed=1.5: want an integer",
		"5xx":                                   `"5xx" is not key=value`,
		"=1":                                    `"=1" is not key=value`,
		"boom=1":                                `unknown key "boom"`,
		"5xx=0.1,5xx=0.2":                       "5xx given twice",
		"5xx=0.7,429=0.5":                       "5xx and 429 together exceed 1",
		"5xx=2,latency=fast,":                   "5xx=2: want a share between 0 and 1; latency=fast: want a duration",
		"aim=":                                  `aim=: want "<METHOD> <path> <kind>" or "<operation> <kind>"`,
		"aim=POST /v2/x":                        `aim=POST /v2/x: want "<METHOD> <path> <kind>"`,
		"aim=post /v2/x drop_before":            `route "post /v2/x" is not "METHOD /path"`,
		"aim=POST /v2/{org drop_before":         `route "POST /v2/{org": a wildcard is a whole segment in braces`,
		"aim=POST /v2/x boom":                   `unknown kind "boom" (known: drop_before, drop_after, server_error`,
		"aim=POST /v2/x null_data":              `null_data is a GraphQL fault: aim it at an operation (or at "POST /v1")`,
		"aim=agent-token drop_after":            `operation "agent-token" is not a GraphQL name`,
		"aim=op drop_after skip=-1":             "skip=-1: want a whole number",
		"aim=op drop_after times=x":             "times=x: want a whole number",
		"aim=op drop_after skip=1 skip=2":       "skip given twice",
		"aim=op drop_after every=2":             `"every=2" is not skip=N or times=N`,
		"aim=op drop_after,aim=POST /v2/x boom": `aimed fault "POST /v2/x boom": unknown kind`,
	} {
		if _, err := ParseFaults(spec); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("ParseFaults(%q) = %v, want %q", spec, err, wantErr)
		}
	}
}

// faultStatuses sends n GETs of the cluster list to a fresh server with f and returns the statuses.
func faultStatuses(t *testing.T, f Faults, n int) []int {
	e := newEnv(t, Options{Faults: f})
	out := make([]int, n)
	for i := range out {
		out[i] = e.api("GET", "/clusters", nil).status
	}
	return out
}

func TestFaultsAreRepeatable(t *testing.T) {
	f := Faults{ServerErrors: 0.3, RateLimited: 0.3, Seed: 42}
	first, again := faultStatuses(t, f, 60), faultStatuses(t, f, 60)
	if !slices.Equal(first, again) {
		t.Fatalf("same seed, different faults:\n%v\n%v", first, again)
	}
	f.Seed = 43
	if slices.Equal(first, faultStatuses(t, f, 60)) {
		t.Fatal("another seed gave the same faults")
	}
	seen := map[int]bool{}
	for _, s := range first {
		seen[s] = true
	}
	for _, s := range []int{200, 429, 500, 502, 503} {
		if !seen[s] {
			t.Errorf("status %d never answered in %v", s, first)
		}
	}
}

func TestFaultServerErrorsAndRateLimits(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{ServerErrors: 1, Seed: 1,
		Except: func(r *http.Request) bool { return r.URL.Path == "/v2/access-token" }}})
	r := e.api("POST", "/clusters", map[string]any{"name": "never"})
	if r.status < 500 || r.message(t) != http.StatusText(r.status) {
		t.Fatalf("status %d body %s", r.status, r.raw)
	}
	if e.srv.store.clusters.clusters.len() != 0 {
		t.Fatal("a refused create acted")
	}
	expect(t, e.do("GET", "/v2/access-token", "test-token", nil), 200) // spared by Except
	// The test-only routes and unknown paths outside the API are never touched.
	expectError(t, e.do("PUT", "/_fake/organizations/acme/pipelines/nope/builds/1", "", map[string]any{}), 404, "No pipeline found")
	expectError(t, e.do("GET", "/elsewhere", "", nil), 404, "Not Found")
	if c := e.srv.FaultCounts(); c.ServerErrors != 1 || c.ActedCreates() != 0 {
		t.Fatalf("counts %+v", c)
	}
	if log := e.srv.Requests(); log[0].Fault != FaultServerError || log[1].Fault != "" {
		t.Fatalf("log %+v", log)
	}

	e = newEnv(t, Options{Faults: Faults{RateLimited: 1, Latency: time.Millisecond}})
	r = e.api("GET", "/clusters", nil)
	expect(t, r, 429)
	body := r.object(t)
	if r.header.Get("RateLimit-Reset") != "1" || r.header.Get("RateLimit-Remaining") != "0" || body["reset"] != 1.0 ||
		body["scope"] != "rest_user" || body["message"] != rateLimitMessage(1) {
		t.Fatalf("429 headers %v body %v", r.header, body)
	}
	if c := e.srv.FaultCounts(); c.RateLimited != 1 {
		t.Fatalf("counts %+v", c)
	}
	if c := newEnv(t, Options{}).srv.FaultCounts(); c != (FaultCounts{}) {
		t.Fatalf("no faults configured, counts %+v", c)
	}
}

func TestFaultDroppedCreatesAct(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{DropCreates: 1, Seed: 7}})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	var dropped, badGateway int
	for i := range 12 {
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/v2/organizations/acme/clusters",
			strings.NewReader(fmt.Sprintf(`{"name":"c%d"}`, i)))
		req.Header.Set("Authorization", "Bearer test-token")
		resp, err := client.Do(req)
		switch {
		case err != nil:
			dropped++
		case resp.StatusCode == http.StatusBadGateway:
			badGateway++
			_ = resp.Body.Close()
		default:
			_ = resp.Body.Close()
			t.Fatalf("create answered %d", resp.StatusCode)
		}
	}
	if dropped == 0 || badGateway == 0 {
		t.Fatalf("dropped %d, 502 %d: want both", dropped, badGateway)
	}
	// Every create acted.
	if n := len(e.api("GET", "/clusters", nil).list(t)); n != 12 {
		t.Fatalf("%d clusters exist, want 12", n)
	}
	c := e.srv.FaultCounts()
	if c.Dropped != int64(dropped) || c.BadGateway != int64(badGateway) || c.ActedCreates() != 12 {
		t.Fatalf("counts %+v", c)
	}
	var logged int
	for _, req := range e.srv.Requests() {
		if req.Fault == FaultDropped {
			logged++
			if req.Status != 0 {
				t.Fatalf("dropped request logged with status %d", req.Status)
			}
		}
	}
	if logged != dropped || e.srv.RequestCounts()[0] != int64(dropped) {
		t.Fatalf("log: %d dropped, counts %v", logged, e.srv.RequestCounts())
	}

	// POSTs that do not create pass through; without a connection to take over, a dropped create is a 502.
	expectError(t, e.api("POST", "/clusters", map[string]any{"name": ""}), 422, "Validation failed: Name can't be blank")
	if status, made := createThroughRecorder(Faults{DropCreates: 1}); status != http.StatusBadGateway || made != 1 {
		t.Fatalf("recorder: %d, %d clusters", status, made)
	}
}

// createThroughRecorder creates a cluster through a new server with f, answered into an
// httptest.ResponseRecorder (no connection to take over), and returns the status and how many clusters
// exist.
func createThroughRecorder(f Faults) (status, clusters int) {
	srv := New(Options{Faults: f})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v2/organizations/acme/clusters", strings.NewReader(`{"name":"r"}`))
	req.Header.Set("Authorization", "Bearer test-token")
	srv.ServeHTTP(rec, req)
	return rec.Code, srv.store.clusters.clusters.len()
}

// postRaw posts body to path with the default token on a connection of its own and returns the status, or
// 0 when the connection closed without an answer.
func (e *testEnv) postRaw(path, body string) int {
	e.t.Helper()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequest(http.MethodPost, e.ts.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer test-token")
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// clusterTokenCount returns how many agent tokens cluster has.
func (e *testEnv) clusterTokenCount(cluster string) int {
	e.t.Helper()
	r := e.api("GET", "/clusters/"+cluster+"/tokens", nil)
	expect(e.t, r, http.StatusOK)
	return len(r.list(e.t))
}

func TestAimedRESTDrops(t *testing.T) {
	const route = "POST /v2/organizations/{org}/clusters/{cluster}/tokens"
	e := newEnv(t, Options{Faults: Faults{Aimed: []AimedFault{{Route: route, Kind: FaultDropBefore, Times: 1}}}})
	cluster := e.createCluster("aimed") // another route: spared
	path := "/v2/organizations/acme/clusters/" + cluster + "/tokens"
	if got := e.postRaw(path, `{"description":"one"}`); got != 0 {
		t.Fatalf("drop_before: answered %d, want no answer", got)
	}
	if n := e.clusterTokenCount(cluster); n != 0 {
		t.Fatalf("drop_before acted: %d tokens", n)
	}
	if got := e.postRaw(path, `{"description":"one"}`); got != http.StatusCreated { // Times: 1
		t.Fatalf("after the aimed fault: %d", got)
	}

	// Armed at run time, after one matching request let through: the second meets it, the third not.
	e.srv.AimFault(AimedFault{Route: route, Kind: FaultDropAfter, Skip: 1, Times: 1})
	var got []int
	for range 3 {
		got = append(got, e.postRaw(path, `{"description":"two"}`))
	}
	if !slices.Equal(got, []int{201, 0, 201}) {
		t.Fatalf("statuses %v, want [201 0 201]", got)
	}
	if n := e.clusterTokenCount(cluster); n != 4 { // drop_after acted
		t.Fatalf("%d tokens, want 4", n)
	}
	if c := e.srv.FaultCounts(); c.DropBefore != 1 || c.DropAfter != 1 || c.ActedCreates() != 0 {
		t.Fatalf("counts %+v", c)
	}
	var faults []string
	for _, req := range e.srv.Requests() {
		if req.Fault != "" {
			faults = append(faults, fmt.Sprintf("%s %s %d", req.Fault, req.Method, req.Status))
		}
	}
	if !slices.Equal(faults, []string{"drop_before POST 0", "drop_after POST 0"}) {
		t.Fatalf("logged faults %v", faults)
	}

	// Cleared: no fault any more; a route with another segment count or method never matched.
	e.srv.ClearAimedFaults()
	e.srv.AimFault(AimedFault{Route: "GET /v2/organizations/{org}/clusters/{cluster}", Kind: FaultServerError})
	expect(t, e.api("GET", "/clusters/"+cluster+"/tokens", nil), 200)
	expect(t, e.api("POST", "/clusters/"+cluster+"/tokens", map[string]any{"description": "three"}), 201)
	expectError(t, e.api("GET", "/clusters/"+cluster, nil), 500, "Internal Server Error")
	e.srv.ClearAimedFaults()
	e.srv.AimFault(AimedFault{Route: "GET /v2/organizations/{org}/clusters/{cluster}", Kind: FaultRateLimited, Times: 1})
	if r := e.api("GET", "/clusters/"+cluster, nil); r.status != 429 || r.header.Get("RateLimit-Reset") != "1" {
		t.Fatalf("rate_limited: %d %v", r.status, r.header)
	}
	expect(t, e.api("GET", "/clusters/"+cluster, nil), 200)
	if c := e.srv.FaultCounts(); c.ServerErrors != 1 || c.RateLimited != 1 {
		t.Fatalf("counts %+v", c)
	}

	// Without a connection to take over, a drop is a 502; drop_before still does not act, drop_after does.
	for kind, want := range map[string]int{FaultDropBefore: 0, FaultDropAfter: 1} {
		aimed := []AimedFault{{Route: "POST /v2/organizations/acme/clusters", Kind: kind}}
		if status, made := createThroughRecorder(Faults{Aimed: aimed}); status != http.StatusBadGateway || made != want {
			t.Errorf("%s through a recorder: %d, %d clusters (want 502, %d)", kind, status, made, want)
		}
	}
}

func TestAimFaultRefusesInvalid(t *testing.T) {
	srv := New(Options{})
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `unknown kind "boom"`) {
			t.Fatalf("recovered %v", r)
		}
	}()
	srv.AimFault(AimedFault{Operation: "x", Kind: "boom"})
}

// createAgentTokenRaw posts the agent token create on a connection of its own and returns the status (0 when the
// connection closed without an answer).
func (e *testEnv) createAgentTokenRaw(vars map[string]any) int {
	e.t.Helper()
	body, err := json.Marshal(map[string]any{"query": gqlCreateAgentToken, "variables": vars})
	if err != nil {
		e.t.Fatal(err)
	}
	return e.postRaw("/v1", string(body))
}

// agentTokenCount returns how many agent tokens (unclustered) acme has, revoked or not.
func (e *testEnv) agentTokenCount() int {
	e.t.Helper()
	a := e.gql(`{ organization(slug: "acme") { agentTokens(first: 100) { count } } }`, nil).ok(e.t)
	return int(a.at(e.t, "organization", "agentTokens", "count").(float64))
}

func TestFaultSharesReachGraphQL(t *testing.T) {
	var spareAll atomic.Bool
	e := newEnv(t, Options{Faults: Faults{ServerErrors: 1,
		Except: func(r *http.Request) bool { return spareAll.Load() || r.URL.Path != "/v1" }}})
	vars := map[string]any{"organizationId": e.orgGraphQLID(), "description": "refused"}
	if got := e.createAgentTokenRaw(vars); got < 500 {
		t.Fatalf("5xx=1: GraphQL answered %d", got)
	}
	if c := e.srv.FaultCounts(); c.ServerErrors != 1 {
		t.Fatalf("counts %+v", c)
	}
	log := e.srv.Requests()
	if last := log[len(log)-1]; last.Fault != FaultServerError || last.Operation != "createAgentToken" || last.Path != "/v1" {
		t.Fatalf("log entry %+v", last)
	}
	spareAll.Store(true)
	if n := e.agentTokenCount(); n != 0 {
		t.Fatalf("a refused mutation acted: %d tokens", n)
	}

	// DropCreates: a mutation that acted is dropped or answered 502; a query, and a mutation that was
	// refused, pass as answered.
	e = newEnv(t, Options{Faults: Faults{DropCreates: 1, Seed: 3}})
	vars = map[string]any{"organizationId": e.orgGraphQLID(), "description": "lost"}
	seen := map[int]int{}
	for range 8 {
		seen[e.createAgentTokenRaw(vars)]++
	}
	if seen[0] == 0 || seen[http.StatusBadGateway] == 0 || seen[0]+seen[http.StatusBadGateway] != 8 {
		t.Fatalf("statuses %v: want drops and 502s only", seen)
	}
	if n := e.agentTokenCount(); n != 8 {
		t.Fatalf("%d tokens, want 8: every dropped mutation acted", n)
	}
	if c := e.srv.FaultCounts(); c.ActedCreates() != 8 {
		t.Fatalf("counts %+v", c)
	}
	a := e.gql(gqlCreateAgentToken, map[string]any{"organizationId": "bm9wZQ=="})
	if a.errorMessage(t) != "No organization found" {
		t.Fatalf("refused mutation: %s", a.raw)
	}
}

func TestAimedGraphQLFaults(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{Aimed: []AimedFault{
		{Operation: "agentTokenCreate", Kind: FaultErrorsWithData, Times: 1}, // matched by first root field
	}}})
	orgID := e.orgGraphQLID()
	a := e.gql(gqlCreateAgentToken, map[string]any{"organizationId": orgID, "description": "made"})
	uuid := a.str(t, "agentTokenCreate", "agentTokenEdge", "node", "uuid")
	if a.errorMessage(t) != injectedAfterMessage || a.str(t, "agentTokenCreate", "tokenValue") == "" {
		t.Fatalf("errors_with_data: %s", a.raw)
	}
	if found, _, _ := e.srv.Store().UnclusteredAgentToken("acme", uuid); !found {
		t.Fatal("errors_with_data did not act")
	}
	e.gql(gqlCreateAgentToken, map[string]any{"organizationId": orgID, "description": "clean"}).ok(t) // Times: 1

	// null_data, aimed by operation name: every root field null, no errors, nothing done.
	e.srv.AimFault(AimedFault{Operation: "getAgentToken", Kind: FaultNullData, Times: 1})
	vars := map[string]any{"slug": "acme/" + uuid}
	a = e.gqlAs("test-token", gqlGetAgentToken, vars, "")
	if string(a.raw) != `{"data":{"agentToken":null}}`+"\n" {
		t.Fatalf("null_data: %s", a.raw)
	}
	e.gql(gqlGetAgentToken, vars).ok(t)

	// not_found: null and a NOT_FOUND error per root field, aliases kept.
	e.srv.AimFault(AimedFault{Operation: "agentToken", Kind: FaultNotFound})
	a = e.gql(`query { mine: agentToken(slug: "acme/x") { uuid } organization(slug: "acme") { name } }`, nil)
	want := `{"data":{"mine":null,"organization":null},"errors":[` +
		`{"message":"No agent token found","path":["mine"],"type":"NOT_FOUND"},` +
		`{"message":"No organization found","path":["organization"],"type":"NOT_FOUND"}]}` + "\n"
	if string(a.raw) != want {
		t.Fatalf("not_found:\n%s\nwant\n%s", a.raw, want)
	}
	// Another operation is spared; a mutation under null_data does not act.
	e.srv.ClearAimedFaults()
	e.srv.AimFault(AimedFault{Operation: "createAgentToken", Kind: FaultNullData})
	before := e.agentTokenCount()
	a = e.gql(gqlCreateAgentToken, map[string]any{"organizationId": orgID, "description": "never"}).ok(t)
	if a.Data["agentTokenCreate"] != nil || e.agentTokenCount() != before {
		t.Fatalf("null_data mutation: %s, %d tokens (was %d)", a.raw, e.agentTokenCount(), before)
	}

	// drop_before and drop_after reach GraphQL too.
	e.srv.ClearAimedFaults()
	e.srv.AimFault(AimedFault{Operation: "createAgentToken", Kind: FaultDropBefore, Times: 1})
	e.srv.AimFault(AimedFault{Operation: "createAgentToken", Kind: FaultDropAfter, Skip: 1, Times: 1})
	vars = map[string]any{"organizationId": orgID, "description": "dropped"}
	if s1, s2 := e.createAgentTokenRaw(vars), e.createAgentTokenRaw(vars); s1 != 0 || s2 != 0 {
		t.Fatalf("statuses %d %d, want two drops", s1, s2)
	}
	if n := e.agentTokenCount(); n != before+1 {
		t.Fatalf("%d tokens, want %d: only drop_after acts", n, before+1)
	}
	c := e.srv.FaultCounts()
	if c.ErrorsWithData != 1 || c.NullData != 2 || c.NotFound != 1 || c.DropBefore != 1 || c.DropAfter != 1 {
		t.Fatalf("counts %+v", c)
	}
	var ops []string
	for _, req := range e.srv.Requests() {
		if req.Fault != "" {
			ops = append(ops, req.Fault+" "+req.Operation)
		}
	}
	if !slices.Equal(ops, []string{"errors_with_data createAgentToken", "null_data getAgentToken", "not_found agentToken",
		"null_data createAgentToken", "drop_before createAgentToken", "drop_after createAgentToken"}) {
		t.Fatalf("logged %v", ops)
	}
}

// TestFaultControls: the controls arm, list and clear aimed faults, with the admin token only.
func TestFaultControls(t *testing.T) {
	e := newEnv(t, Options{AdminToken: testAdminToken})
	aim := map[string]any{"route": "GET /v2/organizations/{org}/clusters", "kind": "server_error", "times": 1}
	expect(t, e.do("POST", "/_emulator/faults/aimed", "test-token", aim), http.StatusUnauthorized)
	r := e.do("POST", "/_emulator/faults/aimed", testAdminToken, aim)
	expect(t, r, http.StatusCreated)
	if got := r.object(t); got["route"] != aim["route"] || got["kind"] != "server_error" || got["times"] != 1.0 {
		t.Fatalf("armed %s", r.raw)
	}
	expect(t, e.api("GET", "/clusters", nil), http.StatusInternalServerError)
	expect(t, e.api("GET", "/clusters", nil), http.StatusOK)
	r = e.do("GET", "/_emulator/faults", testAdminToken, nil)
	expect(t, r, http.StatusOK)
	want := `{"aimed":[{"route":"GET /v2/organizations/{org}/clusters","kind":"server_error","skip":0,"times":1,"seen":2}],` +
		`"counts":{"server_error":1,"rate_limited":0,"dropped":0,"bad_gateway":0,"drop_before":0,"drop_after":0,` +
		`"errors_with_data":0,"null_data":0,"not_found":0}}` + "\n"
	if string(r.raw) != want {
		t.Fatalf("GET faults:\n%s\nwant\n%s", r.raw, want)
	}
	for body, message := range map[string]string{
		`{"operation":"x","kind":"boom"}`: `aimed fault "x boom": unknown kind "boom"`,
		`[1]`:                             "The body is not a JSON aimed fault",
	} {
		r := e.do("POST", "/_emulator/faults/aimed", testAdminToken, body)
		if r.status != http.StatusUnprocessableEntity && r.status != http.StatusBadRequest || !strings.HasPrefix(r.message(t), message) {
			t.Errorf("POST %s: %d %s", body, r.status, r.raw)
		}
	}
	expect(t, e.do("POST", "/_emulator/faults/aimed", testAdminToken, map[string]any{"operation": "rule", "kind": "null_data"}), http.StatusCreated)
	expect(t, e.do("DELETE", "/_emulator/faults/aimed", testAdminToken, nil), http.StatusNoContent)
	r = e.do("GET", "/_emulator/faults", testAdminToken, nil)
	if !strings.HasPrefix(string(r.raw), `{"aimed":[],"counts":{"server_error":1,`) {
		t.Fatalf("after DELETE: %s", r.raw)
	}
	expectError(t, newEnv(t, Options{}).do("GET", "/_emulator/faults", testAdminToken, nil), http.StatusNotFound, "Not Found")
}

// TestAimFaultWhileServing: arming and clearing while requests are served is safe (run with -race).
func TestAimFaultWhileServing(t *testing.T) {
	e := newEnv(t, Options{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if s := e.do("GET", "/v2/organizations/acme/clusters", "test-token", nil).status; s != 200 && s != 500 {
					t.Errorf("status %d", s)
				}
			}
		}()
	}
	for range 20 {
		e.srv.AimFault(AimedFault{Route: "GET /v2/organizations/{org}/clusters", Kind: FaultServerError, Times: 1})
		_ = e.srv.FaultCounts()
		e.srv.ClearAimedFaults()
	}
	wg.Wait()
}

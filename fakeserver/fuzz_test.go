package fakeserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// Fuzz targets of the emulator's request handling. Their seeds run with every `go test`; `make fuzz` runs
// each for a bounded time. A failing input is written under testdata/fuzz/<target> and stays as a seed.

// fuzzMethods are the methods FuzzServeHTTP picks from (a fuzzed method is mostly not one: httptest
// refuses those before the server sees them).
var fuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// fuzzAuths are the Authorization headers FuzzServeHTTP picks from; {agent_token} is filled in.
var fuzzAuths = []string{"Bearer test-token", "", "Bearer " + confPartialToken, "Bearer " + confOtherToken,
	"Token {agent_token}", "bearer  test-token ", "Bearer nope"}

// newFuzzEnv is a conformance environment holding one object of every kind, so that fuzzed paths name
// objects that exist.
func newFuzzEnv(t *testing.T) *confEnv {
	c := newConfEnv(t)
	c.srv.Store().AddToken(confPartialToken, []string{"acme"}, AllScopes()[:3])
	for _, setup := range []func(){c.queue, c.clusterToken, c.teamMember, c.teamPipeline, c.teamSuite, c.template,
		c.build, c.registryToken, c.rule, c.schedule, c.secret, c.maintainer} {
		setup()
	}
	return c
}

// fillLoosely replaces each {name} of tmpl that c knows; unknown names stay as written.
func (c *confEnv) fillLoosely(tmpl string) string {
	return confVar.ReplaceAllStringFunc(tmpl, func(m string) string {
		if v, ok := c.vars[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// checkAnswer fails unless an answer keeps the emulator's promises: no 5xx (nothing is injected here), an
// error is a JSON object with a message, and a success with a body is JSON.
func checkAnswer(t *testing.T, method, path string, rec *httptest.ResponseRecorder) {
	t.Helper()
	status, body := rec.Code, rec.Body.Bytes()
	switch {
	case status >= 500:
		t.Fatalf("%s %s: %d %s", method, path, status, body)
	case status >= 400:
		var e struct {
			Message string `json:"message"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Message == "" {
			t.Fatalf("%s %s: %d with body %q: not a JSON object with a message (%v)", method, path, status, body, err)
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("%s %s: %d with Content-Type %q", method, path, status, ct)
		}
	case status >= 200 && status < 300 && len(body) > 0 && method != "HEAD":
		if !json.Valid(body) {
			t.Fatalf("%s %s: %d with a body that is not JSON: %q", method, path, status, body)
		}
	}
}

// FuzzServeHTTP sends fuzzed requests (method, path and body, each path and body template filled with
// the IDs of existing objects) to an emulator holding one object of every kind.
func FuzzServeHTTP(f *testing.F) {
	for _, row := range confRows() {
		method := slices.Index(fuzzMethods, row.method)
		auth := uint8(0)
		if row.agent {
			auth = 4
		}
		f.Add(uint8(method), auth, row.path, row.body)
		if row.invalid != "" {
			f.Add(uint8(method), auth, row.path, row.invalid)
		}
	}
	f.Add(uint8(1), uint8(0), "/v2/organizations/{org}/pipelines", `{"name":"x","repository":"r","steps":[{"type":"trigger"}]}`)
	f.Add(uint8(0), uint8(0), "/v2/organizations/{org}/builds?state[]=passed&branch=main&page=2&per_page=1000", "")
	f.Add(uint8(0), uint8(0), "/v2/organizations/{org}//clusters/../teams", "")
	f.Add(uint8(2), uint8(0), "/_fake/organizations/{org}/pipelines/{pipeline}/builds/{build}", `{"state":"blocked"}`)
	f.Add(uint8(1), uint8(0), "/v2/organizations/{org}/pipelines", `{"name":"y","repository":"r","configuration":"steps:\n  - group: g\n    steps: [{command: [a, 1]}]\n"}`)
	f.Fuzz(func(t *testing.T, method, auth uint8, path, body string) {
		c := newFuzzEnv(t)
		m := fuzzMethods[int(method)%len(fuzzMethods)]
		target := c.fillLoosely(path)
		if u, err := url.ParseRequestURI(target); err != nil || !strings.HasPrefix(target, "/") || u.Host != "" {
			t.Skip("not a request target")
		}
		req := httptest.NewRequest(m, target, strings.NewReader(c.fillLoosely(body)))
		if a := c.fillLoosely(fuzzAuths[int(auth)%len(fuzzAuths)]); a != "" {
			req.Header.Set("Authorization", a)
		}
		rec := httptest.NewRecorder()
		c.srv.ServeHTTP(rec, req)
		checkAnswer(t, m, target, rec)
	})
}

// FuzzPipelineConfiguration creates a pipeline and a template from a fuzzed configuration, then a build
// of the pipeline (whose jobs come from the YAML's steps), and reads them back: the emulator stores what
// it accepts normalised and no more, and never fails.
func FuzzPipelineConfiguration(f *testing.F) {
	for _, seed := range []string{
		confYAML, "steps: []\n", "- command: make\n- wait\n", "\ufeffsteps:\r\n  - command: |\r\n      a  \r\n",
		"steps:\n  - group: g\n    steps:\n      - commands: [a, b]\n        agents: [queue=x]\n",
		"agents: {queue: linux}\nenv: {A: 1}\nsteps:\n  - command: x\n    env: {B: [1]}\n    timeout_in_minutes: 5\n",
		"steps:\n  - command: |+\n      make\n\n\n", "steps: [.nan, ~, {command: ~}, {commands: {a: b}}]\n", "&a [*a]",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, config string) {
		// What a JSON body can carry: invalid UTF-8 reaches the server as U+FFFD.
		data, _ := json.Marshal(config)
		_ = json.Unmarshal(data, &config)
		c := newConfEnv(t)
		send := func(method, path string, body any) *httptest.ResponseRecorder {
			data, _ := json.Marshal(body)
			req := httptest.NewRequest(method, c.fillLoosely(path), strings.NewReader(string(data)))
			req.Header.Set("Authorization", "Bearer test-token")
			rec := httptest.NewRecorder()
			c.srv.ServeHTTP(rec, req)
			checkAnswer(t, method, path, rec)
			return rec
		}
		created := send("POST", orgPath+"/pipelines", map[string]any{"name": "p", "repository": githubRepo, "configuration": config})
		tpl := send("POST", orgPath+"/pipeline-templates", map[string]any{"name": "t", "configuration": config})
		for _, rec := range []*httptest.ResponseRecorder{created, tpl} {
			if rec.Code >= 300 {
				continue
			}
			var got struct{ Configuration string }
			_ = json.Unmarshal(rec.Body.Bytes(), &got)
			if want := normalizeConfiguration(config); got.Configuration != want {
				t.Fatalf("stored %q, want %q (sent %q)", got.Configuration, want, config)
			}
		}
		if created.Code == http.StatusCreated {
			build := send("POST", orgPath+"/pipelines/p/builds", map[string]any{"commit": "HEAD", "branch": "main"})
			if build.Code != http.StatusCreated {
				t.Fatalf("a build of an accepted configuration: %d %s", build.Code, build.Body)
			}
			send("GET", orgPath+"/pipelines/p", nil)
			send("GET", orgPath+"/pipelines/p/builds/1", nil)
		}
	})
}

// TestFuzzEnvHasEveryKind: the fuzzed requests meet one object of every kind the seeds' paths name.
func TestFuzzEnvHasEveryKind(t *testing.T) {
	c := newFuzzEnv(t)
	for _, row := range confRows() {
		if filled := c.fillLoosely(row.path); strings.Contains(filled, "{") {
			t.Errorf("%s %s: unfilled %s", row.method, row.path, filled)
		}
	}
}

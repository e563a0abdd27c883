package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestLengthLimits: every create or update that stores a name, description, note, configuration or
// policy refuses one beyond its limit (limits.go) with a 422 in the endpoint's validation form, and
// accepts one at the limit.
func TestLengthLimits(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.createCluster("c")
	queue := e.createQueue(cluster, "q")
	team := e.api("POST", "/teams", map[string]any{"name": "T"}).object(t)["id"].(string)
	reg := e.regAPI("POST", "", map[string]any{"name": "gems", "ecosystem": "ruby"})
	expect(t, reg, http.StatusOK)
	const yaml = "steps:\n  - command: make\n"
	pipeline := map[string]any{"name": "p", "repository": "git@github.com:a/b.git", "configuration": yaml}
	expect(t, e.api("POST", "/pipelines", pipeline), http.StatusCreated)
	name, desc := strings.Repeat("n", maxNameLen), strings.Repeat("d", maxDescriptionLen)
	// A YAML comment pads a configuration to its limit; the visual steps' JSON likewise pads a command.
	padYAML := func(n int) string { return yaml + "#" + strings.Repeat("x", n-len(yaml)-1) }
	padSteps := func(n int) []map[string]any {
		return []map[string]any{{"type": "script", "command": strings.Repeat("x", n-len(`[{"command":"","type":"script"}]`))}}
	}
	suites := "/v2/analytics/organizations/acme/suites"

	for _, tc := range []struct {
		method, path string
		body         func(long bool) map[string]any // the body, with the value at its limit or one beyond
		unit         string
		limit        int
	}{
		{"POST", "/clusters", func(l bool) map[string]any { return map[string]any{"name": over(name, l)} }, "characters", maxNameLen},
		{"POST", "/clusters", func(l bool) map[string]any { return map[string]any{"name": "d", "description": over(desc, l)} }, "characters", maxDescriptionLen},
		{"POST", "/clusters", func(l bool) map[string]any { return map[string]any{"name": "e", "emoji": over(name, l)} }, "characters", maxNameLen},
		{"PUT", "/clusters/" + cluster, func(l bool) map[string]any { return map[string]any{"color": over(name, l)} }, "characters", maxNameLen},
		{"PATCH", "/clusters/" + cluster + "/queues/" + queue, func(l bool) map[string]any { return map[string]any{"description": over(desc, l)} }, "characters", maxDescriptionLen},
		{"POST", "/clusters/" + cluster + "/tokens", func(l bool) map[string]any { return map[string]any{"description": over(desc, l)} }, "characters", maxDescriptionLen},
		{"POST", "/teams", func(l bool) map[string]any { return map[string]any{"name": over(name, l)} }, "characters", maxNameLen},
		{"PATCH", "/teams/" + team, func(l bool) map[string]any { return map[string]any{"description": over(desc, l)} }, "characters", maxDescriptionLen},
		{"PATCH", "/pipelines/p", func(l bool) map[string]any { return map[string]any{"name": over(name, l), "slug": "p"} }, "characters", maxNameLen},
		{"PATCH", "/pipelines/p", func(l bool) map[string]any { return map[string]any{"description": over(desc, l)} }, "characters", maxDescriptionLen},
		{"PATCH", "/pipelines/p", func(l bool) map[string]any {
			return map[string]any{"configuration": padYAML(maxConfigurationBytes + b2i(l))}
		}, "bytes", maxConfigurationBytes},
		{"PATCH", "/pipelines/p", func(l bool) map[string]any { return map[string]any{"steps": padSteps(maxConfigurationBytes + b2i(l))} }, "bytes", maxConfigurationBytes},
		{"POST", "/pipeline-templates", func(l bool) map[string]any {
			return map[string]any{"name": over(name, l), "configuration": yaml}
		}, "characters", maxNameLen},
		{"POST", "/pipeline-templates", func(l bool) map[string]any {
			return map[string]any{"name": fmt.Sprint("t", l), "configuration": padYAML(maxConfigurationBytes + b2i(l))}
		}, "bytes", maxConfigurationBytes},
		{"POST", "/clusters/" + cluster + "/queues/" + queue + "/pause_dispatch", func(l bool) map[string]any {
			return map[string]any{"dispatch_paused_note": over(desc, l)}
		}, "characters", maxDescriptionLen},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := e.api(tc.method, tc.path, tc.body(true))
			expect(t, r, http.StatusUnprocessableEntity)
			if want := tooLong(tc.limit, tc.unit); !strings.Contains(string(r.raw), want) {
				t.Fatalf("body %.300s does not say %q", r.raw, want)
			}
			if r := e.api(tc.method, tc.path, tc.body(false)); r.status >= 300 {
				t.Fatalf("at the limit: %d %.300s", r.status, r.raw)
			}
		})
	}

	// Areas under other prefixes: suites and registries.
	r := e.do("POST", suites, "test-token", map[string]any{"name": name + "x", "default_branch": "main", "team_ids": []string{team}})
	expectError(t, r, http.StatusUnprocessableEntity, "Validation failed: Name is too long (maximum is 255 characters)")
	r = e.regAPI("POST", "", map[string]any{"name": "r", "ecosystem": "ruby", "description": desc + "x"})
	expectError(t, r, http.StatusUnprocessableEntity, "Validation failed: Description is too long (maximum is 4096 characters)")
	r = e.regAPI("PATCH", "/gems", map[string]any{"oidc_policy": padYAML(maxConfigurationBytes + 1)})
	expectError(t, r, http.StatusUnprocessableEntity, "Validation failed: Oidc policy is too long (maximum is 131072 bytes)")
	r = e.regAPI("POST", "/gems/tokens", map[string]any{"description": desc + "x"})
	expectError(t, r, http.StatusUnprocessableEntity, "Validation failed: Description is too long (maximum is 4096 characters)")

	// Characters are counted, not bytes: 255 two-byte letters are a name at the limit.
	expect(t, e.api("POST", "/clusters", map[string]any{"name": strings.Repeat("é", maxNameLen)}), http.StatusCreated)
}

// TestMegabyteDescription: a 1 MB description, which fits the body limit, is refused for its length, so no
// list page can grow past what the provider reads (issue 16: one page of 100 such clusters was 100 MB).
func TestMegabyteDescription(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.api("POST", "/clusters", map[string]any{"name": "big", "description": strings.Repeat("d", 1_000_000)})
	expectError(t, r, http.StatusUnprocessableEntity, "Validation failed: Description is too long (maximum is 4096 characters)")
	if l := e.api("GET", "/clusters", nil).list(t); len(l) != 0 {
		t.Fatalf("the refused cluster was stored: %v", l)
	}
}

// over returns s at its limit, or one character beyond it when long.
func over(s string, long bool) string {
	if long {
		return s + "x"
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

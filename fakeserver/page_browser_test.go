package fakeserver

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestPageInBrowser loads the emulator's page in a real headless Chromium, after examples/demo was applied
// to that emulator, and finds every demo object the page lists by its ID, the demo's requests, and none of
// the demo's secrets. `make test-page` (scripts/page-browser.sh, which make test runs) starts the emulator,
// applies the demo and sets BUILDKITE_EMULATOR_PAGE_URL, _PAGE_ADMIN_TOKEN, _PAGE_STATE (terraform show
// -json) and BUILDKITE_EMULATOR_CHROMIUM; go test ./... alone does not run it. Once the URL is set, a
// missing browser or state fails the test.
func TestPageInBrowser(t *testing.T) {
	base := os.Getenv("BUILDKITE_EMULATOR_PAGE_URL")
	if base == "" {
		t.Skip("SKIPPED LOUDLY: needs the emulator after the demo and a browser; make test-page (part of make test) runs it")
	}
	browser := os.Getenv("BUILDKITE_EMULATOR_CHROMIUM")
	if browser == "" {
		browser = "chromium"
	}
	if _, err := exec.LookPath(browser); err != nil {
		t.Fatalf("no browser: %v (install Debian's chromium package, or name one in BUILDKITE_EMULATOR_CHROMIUM)", err)
	}
	stateJSON, err := os.ReadFile(os.Getenv("BUILDKITE_EMULATOR_PAGE_STATE"))
	if err != nil {
		t.Fatalf("the demo's state (BUILDKITE_EMULATOR_PAGE_STATE): %v", err)
	}
	admin := os.Getenv("BUILDKITE_EMULATOR_PAGE_ADMIN_TOKEN")
	page := base + "/_emulator/?token=" + url.QueryEscape(admin)

	// Without the token, the emulator refuses the page; the browser then shows no object.
	refused := dumpDOM(t, browser, base+"/_emulator/")
	if strings.Contains(refused, "Cluster queues") {
		t.Fatal("the page was served without the admin token")
	}

	dom := dumpDOM(t, browser, page)
	objects, secrets := demoObjects(t, stateJSON)
	if len(objects) < 15 {
		t.Fatalf("the demo's state holds %d objects the page lists; did the demo apply?", len(objects))
	}
	for _, o := range objects {
		found := false
		for _, id := range o.ids {
			found = found || (id != "" && strings.Contains(dom, id))
		}
		if !found {
			t.Errorf("%s: none of its IDs %q is on the page", o.address, o.ids)
		}
	}
	for _, want := range []string{"Organization Demo", "/v2/organizations/demo/clusters", "POST", "201", "Settings in force"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	// The write-only secret is in no state; the configuration gives it.
	secrets = append(secrets, "demo-npm-token", admin, "demo-token")
	for _, s := range secrets {
		if strings.Contains(dom, s) {
			t.Errorf("the page shows a secret: %q", s)
		}
	}
	t.Logf("the page listed %d demo objects by ID and none of %d secrets", len(objects), len(secrets))
	if shot := os.Getenv("BUILDKITE_EMULATOR_PAGE_SCREENSHOT"); shot != "" {
		runBrowser(t, browser, "--screenshot="+shot, "--window-size=1280,4000", page)
		t.Logf("screenshot: %s", shot)
	}
}

// pageListed are the demo's resource types the page lists, each an object of its own; the others are
// settings of an object (default queue, pipeline settings) or read-only data sources.
var pageListed = map[string]bool{
	"buildkite_cluster": true, "buildkite_cluster_queue": true, "buildkite_cluster_agent_token": true,
	"buildkite_organization_banner": true, "buildkite_cluster_cache_registry": true, "buildkite_pipeline": true,
	"buildkite_pipeline_template": true, "buildkite_organization_rule": true, "buildkite_pipeline_team": true,
	"buildkite_portal": true, "buildkite_notification_service": true, "buildkite_pipeline_schedule": true,
	"buildkite_cluster_secret": true, "buildkite_cluster_maintainer": true, "buildkite_test_suite": true,
	"buildkite_registry": true, "buildkite_registry_token": true, "buildkite_team": true, "buildkite_team_member": true,
}

type demoObject struct {
	address string
	ids     []string
}

// demoObjects reads terraform show -json: the managed resources the page lists with their IDs (id and
// uuid), and every sensitive string value of any resource.
func demoObjects(t *testing.T, data []byte) ([]demoObject, []string) {
	t.Helper()
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address, Mode, Type string
					Values              map[string]any `json:"values"`
					Sensitive           map[string]any `json:"sensitive_values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		t.Fatalf("the demo's state: %v", err)
	}
	var objects []demoObject
	var secrets []string
	for _, r := range state.Values.RootModule.Resources {
		secrets = append(secrets, sensitiveStrings(r.Values, r.Sensitive)...)
		if r.Mode != "managed" || !pageListed[r.Type] {
			continue
		}
		o := demoObject{address: r.Address}
		for _, k := range []string{"id", "uuid"} {
			if s, ok := r.Values[k].(string); ok {
				o.ids = append(o.ids, s)
			}
		}
		objects = append(objects, o)
	}
	sort.Strings(secrets)
	return objects, secrets
}

// sensitiveStrings returns the strings of values that sensitive (terraform's sensitive_values) marks.
func sensitiveStrings(values any, sensitive any) []string {
	var out []string
	switch s := sensitive.(type) {
	case bool:
		if s {
			out = append(out, allStrings(values)...)
		}
	case map[string]any:
		m, _ := values.(map[string]any)
		for k, sub := range s {
			out = append(out, sensitiveStrings(m[k], sub)...)
		}
	case []any:
		l, _ := values.([]any)
		for i, sub := range s {
			if i < len(l) {
				out = append(out, sensitiveStrings(l[i], sub)...)
			}
		}
	}
	return out
}

// allStrings returns every string of v of four characters or more (shorter ones would match by chance).
func allStrings(v any) []string {
	switch v := v.(type) {
	case string:
		if len(v) >= 4 {
			return []string{v}
		}
	case map[string]any:
		var out []string
		for _, sub := range v {
			out = append(out, allStrings(sub)...)
		}
		return out
	case []any:
		var out []string
		for _, sub := range v {
			out = append(out, allStrings(sub)...)
		}
		return out
	}
	return nil
}

// dumpDOM loads target in headless Chromium and returns the document as the browser built it.
func dumpDOM(t *testing.T, browser, target string) string {
	t.Helper()
	return runBrowser(t, browser, "--dump-dom", target)
}

// runBrowser runs headless Chromium with a fresh profile and no network of its own beyond the page.
func runBrowser(t *testing.T, browser string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, append([]string{"--headless", "--no-sandbox", "--disable-gpu",
		"--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--user-data-dir=" + t.TempDir()}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", browser, args, err, stderr.String())
	}
	return string(out)
}

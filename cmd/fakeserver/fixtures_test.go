package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// exampleFixtures is the documented example fixture file.
const exampleFixtures = "../../examples/fakeserver/fixtures.yaml"

// startRun runs the command with args and returns its base URL; the server stops when the test ends.
func startRun(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--quiet"}, args...), outW)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("run did not stop")
		}
	})
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listening line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	return strings.TrimSpace(strings.TrimPrefix(line, "fakeserver listening on "))
}

// get sends GET base+path with the Authorization header auth and decodes the JSON answer into out.
func get(t *testing.T, base, path, auth string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode
}

func TestRunWithFixtures(t *testing.T) {
	base := startRun(t, "--fixtures", exampleFixtures)

	var orgs []map[string]any
	if status := get(t, base, "/v2/organizations", "Bearer demo-token", &orgs); status != 200 ||
		len(orgs) != 1 || orgs[0]["slug"] != "demo" || orgs[0]["name"] != "Demo Inc" {
		t.Fatalf("organizations: %d %v", status, orgs)
	}
	var body map[string]any
	if status := get(t, base, "/v2/organizations/demo", "Bearer side-token", &body); status != 404 {
		t.Fatalf("side-token on demo: %d %v", status, body)
	}
	var metrics map[string]any
	if status := get(t, base, "/v3/metrics", "Token demo-agent-token", &metrics); status != 200 ||
		metrics["organization"].(map[string]any)["slug"] != "demo" {
		t.Fatalf("metrics: %d %v", status, metrics)
	}
}

func TestRunWithoutFixturesKeepsDefaults(t *testing.T) {
	base := startRun(t)
	var orgs []map[string]any
	if status := get(t, base, "/v2/organizations", "Bearer demo-token", &orgs); status != 200 ||
		len(orgs) != 1 || orgs[0]["slug"] != "demo" || orgs[0]["name"] != "Demo" {
		t.Fatalf("organizations: %d %v", status, orgs)
	}
}

func TestRunRejectsBadFixtures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("organizations:\n  - slug: a\nagents:\n  - org: nope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--fixtures", bad}, `agents[0]: name is required`},
		{[]string{"--fixtures", bad}, `organization "nope" is not declared`},
		{[]string{"--fixtures", filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{[]string{"--fixtures", exampleFixtures, "--org", "x"}, "drop --org and --token"},
		{[]string{"--fixtures", exampleFixtures, "--token", "x"}, "drop --org and --token"},
	} {
		err := run(context.Background(), append([]string{"--listen", "127.0.0.1:0", "--quiet"}, tt.args...), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", tt.args, err, tt.want)
		}
	}
}

func TestExitCodeOfBadFixtures(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"organizations": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	args := os.Args
	t.Cleanup(func() { os.Args = args })
	os.Args = []string{"fakeserver", "--listen", "127.0.0.1:0", "--quiet", "--fixtures", bad}
	if code := exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildCommand builds this command into a temporary directory and returns the binary's path.
func buildCommand(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test builds the command and needs the go tool on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "fakeserver")
	out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// emulatorProcess is a running fakeserver binary.
type emulatorProcess struct {
	cmd    *exec.Cmd
	base   string
	stderr *lockedBuffer
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startCommand starts bin with args and waits for its listening line.
func startCommand(t *testing.T, bin string, args ...string) *emulatorProcess {
	t.Helper()
	p := &emulatorProcess{cmd: exec.Command(bin, append([]string{"--listen", "127.0.0.1:0", "--quiet"}, args...)...),
		stderr: &lockedBuffer{}}
	p.cmd.Stderr = p.stderr
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line (%v); stderr: %s", err, p.stderr)
	}
	p.base = strings.TrimSpace(strings.TrimPrefix(line, "fakeserver listening on "))
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return p
}

// call sends one request with the demo token and decodes the answer's object.
func (p *emulatorProcess) call(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, p.base+"/v2/organizations/demo"+path, rd)
	req.Header.Set("Authorization", "Bearer demo-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %v, want %d", method, path, resp.StatusCode, out, want)
	}
	return out
}

// TestStateFileSurvivesSIGKILL: objects created through the API of a command started with --state-file
// are there, with the same IDs, after the process is killed with SIGKILL right after its last answer and
// started again (issue 17: the emulator forgot everything on restart).
func TestStateFileSurvivesSIGKILL(t *testing.T) {
	bin := buildCommand(t)
	state := filepath.Join(t.TempDir(), "state.json")
	first := startCommand(t, bin, "--state-file", state)
	cluster := first.call(t, "POST", "/clusters", map[string]any{"name": "kept"}, http.StatusCreated)["id"].(string)
	queue := first.call(t, "POST", "/clusters/"+cluster+"/queues", map[string]any{"key": "linux"}, http.StatusCreated)["id"].(string)
	team := first.call(t, "POST", "/teams", map[string]any{"name": "Core"}, http.StatusCreated)["id"].(string)
	pipeline := first.call(t, "POST", "/pipelines", map[string]any{"name": "App", "repository": "git@github.com:a/b.git",
		"cluster_id": cluster, "configuration": "steps:\n  - command: make\n"}, http.StatusCreated)["id"].(string)
	// Killed the moment the last write is answered: no chance to flush anything afterwards.
	last := first.call(t, "PATCH", "/pipelines/app", map[string]any{"description": "the last write"}, http.StatusOK)
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startCommand(t, bin, "--state-file", state)
	if got := second.call(t, "GET", "/clusters/"+cluster, nil, http.StatusOK); got["name"] != "kept" {
		t.Fatalf("cluster after the restart %v", got)
	}
	second.call(t, "GET", "/clusters/"+cluster+"/queues/"+queue, nil, http.StatusOK)
	second.call(t, "GET", "/teams/"+team, nil, http.StatusOK)
	got := second.call(t, "GET", "/pipelines/app", nil, http.StatusOK)
	if got["id"] != pipeline || got["description"] != last["description"] || got["cluster_id"] != cluster {
		t.Fatalf("pipeline after the restart %v", got)
	}
	if !strings.Contains(second.stderr.String(), "state resumed from "+state) {
		t.Errorf("the restart does not say the state was resumed; stderr: %s", second.stderr)
	}
}

// TestStateFileWinsOverFixtures: with a state file that holds a state, --fixtures does not change it;
// a file that is not a state stops the command with an error naming it.
func TestStateFileWinsOverFixtures(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	done := make(chan error, 1)
	startAndStop := func(args ...string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		go func() { done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--quiet"}, args...), io.Discard) }()
		cancel()
		return <-done
	}
	if err := startAndStop("--state-file", state, "--fixtures", exampleFixtures); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(state)
	if err != nil || !bytes.Contains(before, []byte("demo-agent-token")) {
		t.Fatalf("the fixtures did not seed the new state file (%v)", err)
	}
	if err := startAndStop("--state-file", state, "--org", "other", "--token", "other-token"); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(state)
	if bytes.Contains(after, []byte("other-token")) || !bytes.Contains(after, []byte("demo-agent-token")) {
		t.Fatal("--org and --token changed a saved state")
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := startAndStop("--state-file", bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a file that is not a state: %v", err)
	}
}

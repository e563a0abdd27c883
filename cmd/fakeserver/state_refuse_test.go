package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateFileOneEmulator: a second command started on the state file a running one holds exits at
// once with an error naming the file, and the first goes on answering and saving; after the first is
// killed (kill -9 releases the lock as well), the file is taken again, and the temporary files a killed
// save leaves are gone.
func TestStateFileOneEmulator(t *testing.T) {
	bin := buildCommand(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	first := startCommand(t, bin, "--state-file", state)
	kept := first.call(t, "POST", "/clusters", map[string]any{"name": "first"}, http.StatusCreated)["id"].(string)

	out, err := exec.Command(bin, "--listen", "127.0.0.1:0", "--quiet", "--state-file", state).CombinedOutput()
	if err == nil {
		t.Fatalf("a second emulator started on the same state file:\n%s", out)
	}
	if !strings.Contains(string(out), state+" is in use by another emulator") {
		t.Errorf("the second emulator's error does not say the file is in use:\n%s", out)
	}
	after := first.call(t, "POST", "/clusters", map[string]any{"name": "after"}, http.StatusCreated)["id"].(string)

	stale := filepath.Join(dir, ".state.json.42.tmp")
	if err := os.WriteFile(stale, []byte(`{"format":1,"sto`), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Process.Kill()
	_ = first.cmd.Wait()
	second := startCommand(t, bin, "--state-file", state)
	for _, id := range []string{kept, after} {
		second.call(t, "GET", "/clusters/"+id, nil, http.StatusOK)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
}

// TestStateFileEmptyRefused: a state file cut to nothing stops the command with an error that names it
// and says how to start over, and the file is left as it is.
func TestStateFileEmptyRefused(t *testing.T) {
	bin := buildCommand(t)
	state := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(state, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--listen", "127.0.0.1:0", "--quiet", "--state-file", state)
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the emulator served an empty state file:\n%s", out)
	}
	if err == nil || !strings.Contains(string(out), state+" is empty") || !strings.Contains(string(out), "to start over") {
		t.Errorf("exit %v, output:\n%s", err, out)
	}
	if info, _ := os.Stat(state); info == nil || info.Size() != 0 {
		t.Error("the empty state file was overwritten")
	}
}

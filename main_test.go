package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// terraformMagicCookie is what Terraform sets so that a provider binary serves rather than explaining that
// it is a plugin.
const terraformMagicCookie = "TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"

// TestMain_exitsWhenParentDies starts the provider binary as Terraform would, from a parent process that is
// then killed with SIGKILL (as a killed Terraform never stops its providers): the provider must notice and
// exit within a few seconds rather than linger.
func TestMain_exitsWhenParentDies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the provider binary")
	}
	bin := filepath.Join(t.TempDir(), "terraform-provider-buildkite")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The parent starts the provider, says its process ID and waits; the provider's handshake line goes to
	// the same stdout.
	parent := exec.Command("sh", "-c", `"$0" & echo $!; wait`, bin)
	parent.Env = append(os.Environ(), terraformMagicCookie)
	stdout, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	pid := readPID(t, lines)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if !lines.Scan() || !strings.Contains(lines.Text(), "|grpc|") {
		t.Fatalf("the provider did not serve: %q (%v)", lines.Text(), lines.Err())
	}

	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	killed := time.Now()
	for alive(pid) {
		if time.Since(killed) > 5*time.Second {
			t.Fatalf("the provider (pid %d) still runs 5 s after its parent was killed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the provider exited %s after its parent was killed", time.Since(killed).Round(10*time.Millisecond))
}

func readPID(t *testing.T, lines *bufio.Scanner) int {
	t.Helper()
	if !lines.Scan() {
		t.Fatalf("the parent printed no process ID: %v", lines.Err())
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines.Text()))
	if err != nil {
		t.Fatalf("the parent printed %q, not a process ID", lines.Text())
	}
	return pid
}

// alive reports whether the process runs: it exists and is not a zombie waiting to be reaped by whichever
// process adopted it.
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: a zombie counts as alive
	}
	// The state follows the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

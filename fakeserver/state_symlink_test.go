package fakeserver

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestStateFileSymlink: a --state-file that is a symbolic link (relative, and through a second link) stays
// a link: every save goes to the file it points to, and a restart through the link resumes that state.
func TestStateFileSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "volume", "state.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(dir, "mid.json")
	link := filepath.Join(dir, "state.json")
	if err := os.Symlink(filepath.Join("volume", "state.json"), mid); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
	if err := os.Symlink("mid.json", link); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{StateFile: link})
	id := e.createCluster("behind a link")
	for _, l := range []string{link, mid} {
		fi, err := os.Lstat(l)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symbolic link after a save (%v)", l, err)
		}
	}
	data, err := os.ReadFile(real)
	if err != nil || !bytes.Contains(data, []byte(id)) {
		t.Fatalf("the link's target does not hold the saved state (%v)", err)
	}
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	again := newEnv(t, Options{StateFile: link})
	if !again.srv.Resumed() {
		t.Fatal("a restart through the link did not resume the state")
	}
	if l := again.api("GET", "/clusters", nil).list(t); len(l) != 1 || l[0]["id"] != id {
		t.Fatalf("clusters after the restart through the link: %v", l)
	}
	// A loop of links is refused at start.
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	_ = os.Symlink(b, a)
	_ = os.Symlink(a, b)
	if _, err := Open(Options{StateFile: a}); err == nil {
		t.Fatal("a loop of symbolic links was taken as a state file")
	}
}

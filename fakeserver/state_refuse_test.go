package fakeserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateRefusesUntrustedFile: a state file that is empty, white space only, or whose store is null,
// missing or not an object, or null where the emulator keeps a table, is refused with an error naming
// the file and saying how to start over; it is not overwritten, and nothing panics.
func TestStateRefusesUntrustedFile(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"empty.json":       "",
		"blank.json":       " \n\t\n",
		"null-store.json":  `{"format":1,"store":null}`,
		"no-store.json":    `{"format":1}`,
		"list-store.json":  `{"format":1,"store":[]}`,
		"null-orgs.json":   `{"format":1,"store":{"orgs":null}}`,
		"null-area.json":   `{"format":1,"store":{"clusters":null}}`,
		"null-org.json":    `{"format":1,"store":{"orgs":{"acme":null}}}`,
		"null-record.json": `{"format":1,"store":{"clusters":{"clusters":[null]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("opening %s panicked: %v", name, p)
					}
				}()
				var s *Server
				if s, err = Open(Options{StateFile: path}); err == nil {
					defer func() { _ = s.Close() }()
					// Had it opened, the first change shows whether the store can take one.
					req := httptest.NewRequest(http.MethodPost, "/v2/organizations/acme/clusters", strings.NewReader(`{"name":"x"}`))
					req.Header.Set("Authorization", "Bearer test-token")
					rec := httptest.NewRecorder()
					s.ServeHTTP(rec, req)
					t.Fatalf("%s opened (a cluster create then answered %d)", name, rec.Code)
				}
			}()
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "to start over") {
				t.Errorf("the error does not name the file and how to start over: %v", err)
			}
			if data, _ := os.ReadFile(path); string(data) != content {
				t.Errorf("%s was overwritten with %q", name, data)
			}
		})
	}
}

// TestStateFileLocked: a second server on the state file a running one holds refuses to start, saying
// which file is in use; once the first is closed, the file can be taken again.
func TestStateFileLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first, err := Open(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	second, err := Open(Options{StateFile: path})
	if err == nil {
		_ = second.Close()
		t.Fatal("a second server started on a state file the first holds")
	}
	if !strings.Contains(err.Error(), path+" is in use by another emulator") {
		t.Errorf("the error does not say the file is in use: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the refused server wrote the state file")
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(Options{StateFile: path})
	if err != nil {
		t.Fatalf("the file could not be taken after the first server closed: %v", err)
	}
	if !again.Resumed() {
		t.Error("the state was not resumed")
	}
	_ = again.Close()
}

// TestStateRemovesStaleTemps: the temporary files of saves a killed emulator left are removed at start;
// other files beside the state are left alone.
func TestStateRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	stale := []string{".state.json.123456.tmp", ".state.json.987.tmp"}
	kept := []string{".other.json.1.tmp", "state.json.bak"}
	for _, name := range append(append([]string{}, stale...), kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("the stale %s is still there (%v)", name, err)
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s, not a temporary file of this state, was removed: %v", name, err)
		}
	}
}

// TestStateNotSavedAnswers500: every change the state file could not take answers 500 saying so, the
// cluster create and the access token's revoke among them, not 201 or 204.
func TestStateNotSavedAnswers500(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := newEnv(t, Options{StateFile: path})
	t.Cleanup(func() { _ = e.srv.Close() })
	cluster := e.createCluster("saved")
	// A directory where the file was: every save's rename over it fails.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(path, "blocked"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, path string
		body               any
	}{
		{"cluster create", "POST", "/v2/organizations/acme/clusters", map[string]any{"name": "lost"}},
		{"cluster token create", "POST", "/v2/organizations/acme/clusters/" + cluster + "/tokens", map[string]any{"description": "lost"}},
		{"queue create", "POST", "/v2/organizations/acme/clusters/" + cluster + "/queues", map[string]any{"key": "lost"}},
		{"access token revoke", "DELETE", "/v2/access-token", nil},
	} {
		r := e.do(c.method, c.path, "test-token", c.body)
		if r.status != http.StatusInternalServerError || !strings.Contains(string(r.raw), "could not be saved to the state file "+path) {
			t.Errorf("%s: status %d, body %s; want 500 saying the change could not be saved", c.name, r.status, r.raw)
		}
	}
}

package fakeserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideTest is the test a module outside this repository runs against the emulator, through the public
// surface only.
const outsideTest = `package outside

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func TestEmulatorFromAnotherModule(t *testing.T) {
	emu := fakeserver.StartTest(t, fakeserver.Options{Org: "outside", Token: "outside-token", AdminToken: "admin"})
	req, _ := http.NewRequest(http.MethodPost, emu.URL()+"/v2/organizations/outside/clusters", strings.NewReader("{\"name\":\"from outside\"}"))
	req.Header.Set("Authorization", "Bearer outside-token")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create cluster: %d", resp.StatusCode)
	}
	state, err := emu.State()
	if err != nil || !strings.Contains(string(state), "from outside") {
		t.Fatalf("the state does not hold the cluster: %v", err)
	}
	if err := emu.Reset(); err != nil {
		t.Fatal(err)
	}
	if state, _ := emu.State(); strings.Contains(string(state), "from outside") {
		t.Fatal("reset kept the cluster")
	}
}
`

// TestImportedFromAnotherModule builds a Go module in a temporary folder that requires this one (replaced
// by this checkout) and runs its test against the emulator: the package is importable from outside and
// its public surface is enough for a test. It runs offline from the module cache: the outside module takes
// this module's go.sum, and GOFLAGS gets -mod=mod.
func TestImportedFromAnotherModule(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const self = "github.com/ci-rest/terraform-provider-buildkite"
	files := map[string]string{
		"go.mod": "module example.com/outside\n\ngo " + string(goVersion[1]) + "\n\nrequire " + self + " v0.0.0\n\nreplace " +
			self + " => " + filepath.ToSlash(root) + "\n",
		"go.sum":          string(sum),
		"outside_test.go": outsideTest,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the outside module: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestEmulatorFromAnotherModule") {
		t.Fatalf("the outside module's test did not pass:\n%s", out)
	}
}

package provider

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccAgentTokenResource_refused: a configuration that holds an unclustered agent token fails at plan
// time, saying why and what to do, and nothing is sent.
func TestAccAgentTokenResource_refused(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cfg := e.config(`
resource "buildkite_agent_token" "old" {
  description = "Unclustered agents"
}
`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: cfg, PlanOnly: true, ExpectError: wrapped("Unclustered Agent Tokens Are Not Supported")},
			{Config: cfg, ExpectError: wrapped("give them a buildkite_cluster_agent_token")},
			{Config: cfg, ExpectError: wrapped("`terraform state rm <address>`")},
			{
				Config: cfg, ResourceName: "buildkite_agent_token.old", ImportState: true, ImportStateId: "QWdlbnRUb2tlbi0tLTE=",
				ExpectError: wrapped("Unclustered Agent Tokens Are Not Supported"),
			},
		},
	})
	if !e.live {
		for _, r := range e.server.Requests() {
			if r.Method != http.MethodGet {
				t.Errorf("a refused agent token sent %s %s", r.Method, r.Path)
			}
		}
	}
}

// TestAccAgentTokenResource_officialState: a state moved from the official provider that holds one gets
// the same answer, whether the configuration keeps it or drops it, and `terraform state rm` frees the
// workspace.
func TestAccAgentTokenResource_officialState(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	state := officialState(t, officialInstance{address: "buildkite_agent_token.old", attrs: map[string]any{
		"id": graphQLID("AgentToken", "0b6c2b8e-6a4f-4a8e-9a43-5d0d1c1c2f11"), "uuid": "0b6c2b8e-6a4f-4a8e-9a43-5d0d1c1c2f11",
		"description": "Unclustered agents", "token": "old-secret",
	}})
	dir := t.TempDir()
	config := e.officialProviderBlock() + "\nresource \"buildkite_agent_token\" \"old\" {\n  description = \"Unclustered agents\"\n}\n"
	for name, content := range map[string][]byte{"main.tf": []byte(config), "terraform.tfstate": state} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	reattach, err := json.Marshal(e.serveInProcessAt(t, ourProviderAddress))
	if err != nil {
		t.Fatal(err)
	}
	w := &cliWorkdir{t: t, cli: terraformCLI(t), dir: dir, env: append(os.Environ(),
		"TF_REATTACH_PROVIDERS="+string(reattach), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
	w.mustRun("state", "replace-provider", "-auto-approve", "-no-color", officialProviderAddress, ourProviderAddress)
	w.mustRun("init", "-no-color", "-input=false")
	expectRefusal := func(args ...string) {
		t.Helper()
		out, err := w.run(append([]string{"plan", "-no-color", "-input=false"}, args...)...)
		if err == nil || !strings.Contains(out, "Unclustered Agent Tokens Are Not Supported") || !strings.Contains(out, "terraform state rm") {
			t.Errorf("terraform plan %v: want the refusal, got (err %v):\n%s", args, err, out)
		}
	}
	expectRefusal()
	expectRefusal("-refresh=false")
	// Dropped from the configuration, its destroy is refused too: the token cannot be revoked here.
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(e.officialProviderBlock()), 0o600); err != nil {
		t.Fatal(err)
	}
	expectRefusal()
	w.mustRun("state", "rm", "-no-color", "buildkite_agent_token.old")
	w.expectNoChanges()
}

package clusters_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestTraceLogHoldsNoClusterSecret runs a cluster secret through Terraform with the provider logging at
// TRACE (TF_LOG=TRACE, TF_LOG_PATH): a create with value, an update of value, a move to value_wo and a new
// value_wo_version, and a create the service refuses. The provider's log holds the request bodies and the
// refusal's diagnostic, and not one of the values. It sets environment variables, so it runs alone.
func TestTraceLogHoldsNoClusterSecret(t *testing.T) {
	acctest.RequireAcc(t)
	logFile := filepath.Join(t.TempDir(), "provider.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH", logFile)
	e := acctest.NewTestEnv(t)
	values := []string{"v4lue-0ne-in-state", "v4lue-tw0-in-state", "v4lue-thr33-write-only", "v4lue-f0ur-write-only", "v4lue-f1ve-refused"}
	cluster := e.Name("secrets-logged")
	config := func(body string) string { return e.Config(testAccClusterSecretConfig(cluster, "LOGGED", body)) }
	writeOnly := func(value, version string) string {
		return fmt.Sprintf("  value_wo         = %q\n  value_wo_version = %q", value, version)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: config(fmt.Sprintf("  value = %q", values[0]))},
			{Config: config(fmt.Sprintf("  value = %q", values[1]))},
			{Config: config(writeOnly(values[2], "1"))},
			{Config: config(writeOnly(values[3], "2")), Check: e.CheckSecretValue(values[3])},
			{
				// A second secret of the key: the service refuses it, and the error names the key, not the value.
				Config: config(writeOnly(values[3], "2")) + fmt.Sprintf(`
resource "buildkite_cluster_secret" "again" {
  cluster_id = buildkite_cluster.test.id
  key        = "LOGGED"
  value      = %q
}
`, values[4]),
				ExpectError: acctest.Wrapped("Key has already been taken"),
			},
		},
	})

	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	text := withoutHarness(string(data))
	for i, v := range values {
		if strings.Contains(text, v) {
			t.Errorf("the provider's TRACE log holds value %d", i)
		}
	}
	for _, want := range []string{"buildkite API request body", `\"value\":\"***\"`, "/secrets", "Key has already been taken", e.Token} {
		if want == e.Token {
			if strings.Contains(text, want) {
				t.Error("the provider's TRACE log holds the API token")
			}
			continue
		}
		if !strings.Contains(text, want) {
			t.Errorf("the provider's log lacks %s: the test would pass without logging anything", want)
		}
	}
}

// withoutHarness drops from a log the entries terraform-plugin-testing writes itself (module
// sdk.helper_resource), which quote each step's configuration, values and all; what is left is the
// provider's, the framework's and the protocol's.
func withoutHarness(log string) string {
	var b strings.Builder
	harness := false
	for _, line := range strings.SplitAfter(log, "\n") {
		if !strings.HasPrefix(line, " ") { // an entry starts; its continuation lines are indented
			harness = strings.Contains(line, "] sdk.helper_resource:")
		}
		if !harness {
			b.WriteString(line)
		}
	}
	return b.String()
}

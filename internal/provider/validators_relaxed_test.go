package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// relaxedValues are the values the official provider accepts (it has no validator on these attributes) and
// the service takes, which this provider refused at plan time before: each row's attribute is set to its
// value, planned, applied, and then plans empty with the value kept in state.
var relaxedValues = []struct {
	address, attribute, value string
}{
	// A workspace written after importing its cluster holds description = "".
	{"buildkite_cluster.test", "description", ""},
	{"buildkite_cluster.test", "emoji", ""},
	{"buildkite_cluster.test", "color", ""},
	{"buildkite_cluster.other", "color", "blue"},
	{"buildkite_cluster_queue.test", "description", ""},
	{"buildkite_registry.test", "description", ""},
	{"buildkite_registry.test", "emoji", ""},
	{"buildkite_registry.test", "color", ""},
	{"buildkite_registry.test", "oidc_policy", ""},
	{"buildkite_registry.other", "color", "red"},
	{"buildkite_test_suite.test", "emoji", ""},
	{"buildkite_test_suite.test", "color", "teal"},
}

// TestAccValidators_officialValuesApply applies every row of relaxedValues at once.
func TestAccValidators_officialValuesApply(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("relaxed")
	team := e.Team("relaxed")
	config := e.Config(fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name        = "%[1]s"
  description = ""
  emoji       = ""
  color       = ""
}

resource "buildkite_cluster" "other" {
  name  = "%[1]s-other"
  color = "blue"
}

resource "buildkite_cluster_queue" "test" {
  cluster_id  = buildkite_cluster.test.id
  key         = "relaxed"
  description = ""
}

resource "buildkite_registry" "test" {
  name        = "%[1]s"
  ecosystem   = "ruby"
  description = ""
  emoji       = ""
  color       = ""
  oidc_policy = ""
}

resource "buildkite_registry" "other" {
  name      = "%[1]s-other"
  ecosystem = "python"
  color     = "red"
}

resource "buildkite_test_suite" "test" {
  name           = "%[1]s"
  default_branch = "main"
  team_owner_id  = %[2]q
  emoji          = ""
  color          = "teal"
}
`, name, team))
	var checks []statecheck.StateCheck
	for _, row := range relaxedValues {
		checks = append(checks, statecheck.ExpectKnownValue(row.address, tfjsonpath.New(row.attribute), knownvalue.StringExact(row.value)))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: checks, ConfigPlanChecks: acctest.ExpectEmpty()},
		},
	})
}

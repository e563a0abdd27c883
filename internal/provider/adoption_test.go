package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// An apply killed before it wrote its state (SIGKILL) leaves objects on the service that no state records.
// The next apply's create of such an object is refused because its name or key is taken; the error must
// name the object that holds it and give the import block that adopts it, and that block must work. The
// killed apply is simulated: the object is created through the API first, then a configuration creates it.

// takenCase is one kind whose names or keys are unique.
type takenCase struct {
	resourceType string
	// setup makes the object a killed apply left behind and returns the configuration that creates it
	// again (as <type>.test) and the import ID that adopts it.
	setup func(t *testing.T, e *testEnv) (config, importID string)
}

var takenCases = []takenCase{
	{resourceType: "buildkite_cluster_queue", setup: func(t *testing.T, e *testEnv) (string, string) {
		c, err := e.client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.name("taken")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.client.Queues.Create(context.Background(), c.ID, buildkite.QueueCreate{Key: "linux"}); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf(`
resource "buildkite_cluster_queue" "test" {
  cluster_id = %q
  key        = "linux"
}
`, c.ID), c.ID + "/linux"
	}},
	{resourceType: "buildkite_pipeline", setup: func(t *testing.T, e *testEnv) (string, string) {
		p := e.pipelineNamed(e.name("taken"))
		return fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name       = %q
  repository = %q
  steps      = %q
}
`, p.Name, p.Repository, *p.Configuration), p.Slug
	}},
	{resourceType: "buildkite_team", setup: func(t *testing.T, e *testEnv) (string, string) {
		team := e.seedTeam(e.name("taken"))
		return testAccTeamConfig(team.Name, "visible", "member", false, ""), team.ID
	}},
	{resourceType: "buildkite_test_suite", setup: func(t *testing.T, e *testEnv) (string, string) {
		owner := e.team("taken-owner")
		suite := e.seedSuite(e.name("taken"), owner)
		return testAccTestSuiteConfig(suite.Name, owner, ""), suite.Slug
	}},
	{resourceType: "buildkite_registry", setup: func(t *testing.T, e *testEnv) (string, string) {
		reg, err := e.client.Registries.Create(context.Background(), buildkite.RegistryCreate{Name: e.name("taken"), Ecosystem: "ruby"})
		if err != nil {
			t.Fatal(err)
		}
		return testAccRegistryConfig(reg.Name, "ruby", ""), reg.Slug
	}},
	{resourceType: "buildkite_organization_rule", setup: func(t *testing.T, e *testEnv) (string, string) {
		source, target := e.pipelineNamed(e.name("taken-source")), e.pipelineNamed(e.name("taken-target"))
		value, _ := json.Marshal(map[string]string{"source_pipeline": source.ID, "target_pipeline": target.ID})
		rule, err := e.client.Rules.Create(context.Background(), buildkite.RuleCreate{Type: "pipeline.trigger_build.pipeline", Value: value})
		if err != nil {
			t.Fatal(err)
		}
		// The configuration names the source by slug, as people write it.
		return fmt.Sprintf(`
resource "buildkite_organization_rule" "test" {
  type  = "pipeline.trigger_build.pipeline"
  value = jsonencode({ source_pipeline = %q, target_pipeline = %q })
}
`, source.Slug, target.ID), rule.UUID
	}},
	{resourceType: "buildkite_portal", setup: func(t *testing.T, e *testEnv) (string, string) {
		p, err := e.client.Portals.Create(context.Background(), buildkite.PortalWrite{
			Name: "Taken", Slug: e.name("taken"), Query: "{ viewer { user { name } } }",
		})
		if err != nil {
			t.Fatal(err)
		}
		return testAccPortalConfig(p.Slug, "Taken", ""), p.Slug
	}},
}

// TestAccResources_createTakenNamesHolder applies each row's configuration, which the service refuses: the
// error names the holder and the import block, and applying that block adopts the object with nothing left
// to change.
func TestAccResources_createTakenNamesHolder(t *testing.T) {
	t.Parallel()
	for _, tc := range takenCases {
		t.Run(tc.resourceType, func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			config, importID := tc.setup(t, e)
			adopt := fmt.Sprintf("\nimport {\n  to = %s.test\n  id = %q\n}\n", tc.resourceType, importID)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.factories(),
				CheckDestroy:             e.checkDestroyed(tc.resourceType),
				Steps: []resource.TestStep{
					{
						Config: e.config(config),
						ExpectError: wrapped(fmt.Sprintf(`which Terraform does not track here: most likely an earlier apply created it and was stopped before it could record it. To manage that object with this configuration, adopt it: add this block, with `+"`to`"+` set to the address in the "with" line above, and apply again: import { to = %s.<name> id = %q }`,
							tc.resourceType, importID)),
					},
					{Config: e.config(config + adopt), ConfigPlanChecks: expectEmpty()},
				},
			})
		})
	}
}

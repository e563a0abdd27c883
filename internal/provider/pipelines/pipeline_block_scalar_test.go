package pipelines_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"gopkg.in/yaml.v3"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestAccPipelineResource_blockScalarBlanks: blanks that belong to a block scalar's value (spaces ending
// the last line of a `|` block, blank lines kept by `|+`) survive the round trip, so the pipeline applies
// without "inconsistent result after apply" and re-plans empty (issue 16). Before the emulator stopped
// trimming the end of the whole text, both steps below failed.
func TestAccPipelineResource_blockScalarBlanks(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("blocks")
	for _, tc := range []struct {
		steps   string
		command string // the value of the first step's command, as the YAML means it
	}{
		{"steps:\n  - label: build\n    command: |\n      echo one   \n      echo two  \n", "echo one   \necho two  \n"},
		{"steps:\n  - label: build\n    command: |+\n      make\n\n\n", "make\n\n\n"},
	} {
		t.Run(fmt.Sprintf("%q", tc.command), func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: e.Factories(),
				CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
				Steps: []resource.TestStep{{
					Config:            e.Config(testAccPipelineConfig(name, fmt.Sprintf("  steps = %q", tc.steps))),
					Check:             e.CheckPipeline(commandIs(tc.command)),
					ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("steps", knownvalue.StringExact(tc.steps))},
					ConfigPlanChecks:  acctest.ExpectEmpty(),
				}},
			})
		})
	}
}

// commandIs checks that the service's configuration means command for its first step.
func commandIs(command string) func(p *buildkite.Pipeline) error {
	return func(p *buildkite.Pipeline) error {
		if p.Configuration == nil {
			return fmt.Errorf("the service has no configuration")
		}
		var doc struct {
			Steps []struct {
				Command string `yaml:"command"`
			} `yaml:"steps"`
		}
		if err := yaml.Unmarshal([]byte(*p.Configuration), &doc); err != nil {
			return fmt.Errorf("the service's configuration %q does not decode: %w", *p.Configuration, err)
		}
		if len(doc.Steps) == 0 {
			return fmt.Errorf("the service's configuration %q has no steps", *p.Configuration)
		}
		if got := doc.Steps[0].Command; got != command {
			return fmt.Errorf("the service stores the command %q, the configuration says %q", got, command)
		}
		return nil
	}
}

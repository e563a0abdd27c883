package pipelines_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// createBeforeDestroy is the lifecycle setting the template example carries: with it, Terraform updates the
// pipelines that stop using a template before it deletes the template.
const createBeforeDestroy = `
  lifecycle {
    create_before_destroy = true
  }`

// testAccTemplateInUseConfig is a template (with extra in its block) and a pipeline that uses it.
func testAccTemplateInUseConfig(name, extra string) string {
	return testAccPipelineTemplateConfig(name, "steps:\n  - command: make\n", extra) + testAccTemplatedPipelineConfig(name, "buildkite_pipeline_template.test.id")
}

// testAccTemplatedPipelineConfig is the pipeline of testAccTemplateInUseConfig, with templateID as its
// pipeline_template_id ("" for none).
func testAccTemplatedPipelineConfig(name, templateID string) string {
	use := ""
	if templateID != "" {
		use = "  pipeline_template_id = " + templateID
	}
	return fmt.Sprintf(`
resource "buildkite_pipeline" "test" {
  name       = %q
  repository = "https://github.com/acme/app.git"
%s
}
`, name, use)
}

// TestAccPipelineTemplateResource_removeWithUse: the template's example, which carries
// create_before_destroy, applied and then removed with its use on the pipeline in one apply: the pipeline
// is updated before the template is deleted.
func TestAccPipelineTemplateResource_removeWithUse(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "resources", "buildkite_pipeline_template", "resource.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// Names of this test's own, so that live runs never meet another object.
	example := strings.NewReplacer(`"Standard build"`, fmt.Sprintf("%q", e.Name("cbd")), `"Deploy"`, fmt.Sprintf("%q", e.Name("cbd"))).Replace(string(b))
	const template, pipeline = "buildkite_pipeline_template.standard", "buildkite_pipeline.deploy"
	withoutTemplate := regexp.MustCompile(`(?ms)^resource "buildkite_pipeline_template".*?^}\n`).ReplaceAllString(example, "")
	withoutTemplate = regexp.MustCompile(`(?m)^\s*pipeline_template_id\s*=.*\n`).ReplaceAllString(withoutTemplate, "")
	if !strings.Contains(example, "create_before_destroy = true") || strings.Contains(withoutTemplate, "buildkite_pipeline_template.") ||
		!strings.Contains(example, "buildkite_pipeline_template.standard.id") {
		t.Fatalf("the example is not a template with create_before_destroy and a pipeline using it:\n%s", example)
	}
	var templateAttrs map[string]string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(example),
				Check:  keepAttrs(template, &templateAttrs),
			},
			{
				Config: e.Config(withoutTemplate),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(pipeline, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(template, plancheck.ResourceActionDestroy),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipeline, tfjsonpath.New("pipeline_template_id"), knownvalue.Null()),
				},
				Check: func(*terraform.State) error { return checkGone(e, "buildkite_pipeline_template", templateAttrs) },
			},
		},
	})
}

// TestAccPipelineTemplateResource_removeWithUseRefused: without create_before_destroy the same change
// deletes the template first; the refusal names the pipeline and both ways out. Putting the template back
// with the lifecycle setting then lets the removal apply in one go.
func TestAccPipelineTemplateResource_removeWithUseRefused(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("refused")
	var templateAttrs map[string]string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccTemplateInUseConfig(name, "")),
				Check:  keepAttrs(acctest.TemplateAddr, &templateAttrs),
			},
			{
				Config: e.Config(testAccTemplatedPipelineConfig(name, "")),
				ExpectError: acctest.RegexpMust(`(?s)Unable to Delete Pipeline Template.*assigned to pipeline\s+"` + name +
					`".*create_before_destroy.*-target`),
			},
			{
				Config:           e.Config(testAccTemplateInUseConfig(name, createBeforeDestroy)),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config: e.Config(testAccTemplatedPipelineConfig(name, "")),
				Check:  func(*terraform.State) error { return checkGone(e, "buildkite_pipeline_template", templateAttrs) },
			},
		},
	})
}

// keepAttrs saves the state attributes of the resource at address, for a later step's checkGone.
func keepAttrs(address string, into *map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		*into = rs.Primary.Attributes
		return nil
	}
}

// checkGone fails when the object behind a resource's last state attributes still exists.
func checkGone(e *acctest.TestEnv, resourceType string, attrs map[string]string) error {
	found, err := e.Exists(resourceType, attrs)
	if err != nil {
		return err
	}
	if found {
		return fmt.Errorf("%s %s still exists", resourceType, attrs["id"])
	}
	return nil
}

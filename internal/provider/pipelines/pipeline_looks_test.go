package pipelines_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// TestAccPipelineResource_looksReadBack: emoji and color are read back through GraphQL, so an import has
// them, and a change made outside Terraform is drift that the next apply puts back.
func TestAccPipelineResource_looksReadBack(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cfg := e.Config(testAccPipelineConfig(e.Name("looks-read"), `  emoji = ":rocket:"
  color = "#FF5733"`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: acctest.ExpectEmpty()},
			// Read through GraphQL, an import holds both.
			{ResourceName: acctest.PipelineAddr, ImportState: true, ImportStateVerify: true},
			{
				Config: cfg, ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.Client.Pipelines.Update(context.Background(), acctest.PipelineAttr(s, "slug"),
						buildkite.PipelineUpdate{Emoji: buildkite.Value(":snail:"), Color: buildkite.Value("#000000")})
					return err
				},
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(s *terraform.State) error {
					looks, err := e.Client.Pipelines.Looks(context.Background(), acctest.PipelineAttr(s, "id"), acctest.PipelineAttr(s, "graphql_id"))
					if err != nil {
						return err
					}
					if kit.Deref(looks.Emoji) != ":rocket:" || kit.Deref(looks.Color) != "#FF5733" {
						return fmt.Errorf("the service shows emoji %q and color %q after the apply", kit.Deref(looks.Emoji), kit.Deref(looks.Color))
					}
					return nil
				},
			},
		},
	})
}

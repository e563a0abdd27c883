package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// TestAccPipelineResource_looksReadBack: emoji and color are read back through GraphQL, so an import has
// them, and a change made outside Terraform is drift that the next apply puts back.
func TestAccPipelineResource_looksReadBack(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cfg := e.config(testAccPipelineConfig(e.name("looks-read"), `  emoji = ":rocket:"
  color = "#FF5733"`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: expectEmpty()},
			// Read through GraphQL, an import holds both.
			{ResourceName: pipelineAddr, ImportState: true, ImportStateVerify: true},
			{
				Config: cfg, ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.client.Pipelines.Update(context.Background(), pipelineAttr(s, "slug"),
						buildkite.PipelineUpdate{Emoji: buildkite.Value(":snail:"), Color: buildkite.Value("#000000")})
					return err
				},
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(s *terraform.State) error {
					looks, err := e.client.Pipelines.Looks(context.Background(), pipelineAttr(s, "id"), pipelineAttr(s, "graphql_id"))
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

package pipelines_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkPipelineLooks asks the emulator's store for the pipeline's emoji and color ("" for none), which no
// REST answer shows; against the live service there is nothing to ask, so it checks only that the pipeline
// exists.
func checkPipelineLooks(e *acctest.TestEnv, emoji, color string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if e.Live {
			_, err := e.LivePipeline(s)
			return err
		}
		gotEmoji, gotColor, ok := e.Server.Store().PipelineLooks(e.Org, acctest.PipelineAttr(s, "slug"))
		if !ok {
			return fmt.Errorf("pipeline %s is not in the emulator", acctest.PipelineAttr(s, "slug"))
		}
		if kit.Deref(gotEmoji) != emoji || kit.Deref(gotColor) != color {
			return fmt.Errorf("the service holds emoji %q and color %q, want %q and %q", kit.Deref(gotEmoji), kit.Deref(gotColor), emoji, color)
		}
		return nil
	}
}

// checkCloneMirror asks the service for the pipeline's clone_mirror_url ("" for none).
func checkCloneMirror(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return e.CheckPipeline(func(p *buildkite.Pipeline) error {
		if got := kit.Deref(p.CloneMirrorURL); got != want {
			return fmt.Errorf("the service holds clone_mirror_url %q, want %q", got, want)
		}
		return nil
	})
}

// TestAccPipelineResource_looks sends emoji, color and clone_mirror_url on create and update, reads
// clone_mirror_url back (a change made outside Terraform is drift), imports, and clears all three when they
// are removed from the configuration.
func TestAccPipelineResource_looks(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("looks")
	looks := func(emoji, color, mirror string) string {
		return e.Config(testAccPipelineConfig(name, fmt.Sprintf(`  emoji            = %q
  color            = %q
  clone_mirror_url = %q`, emoji, color, mirror)) + `
data "buildkite_pipeline" "read" {
  slug = buildkite_pipeline.test.slug
}
`)
	}
	first := looks(":rocket:", "#FF5733", "https://mirror.example/acme/app.git")
	second := looks(":buildkite:", "#000000", "git@mirror.example:acme/app.git")
	update := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.PipelineAddr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: first,
				Check: resource.ComposeTestCheckFunc(
					checkPipelineLooks(e, ":rocket:", "#FF5733"), checkCloneMirror(e, "https://mirror.example/acme/app.git"),
					resource.TestCheckResourceAttr("data.buildkite_pipeline.read", "clone_mirror_url", "https://mirror.example/acme/app.git"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config: second, ConfigPlanChecks: update,
				Check: resource.ComposeTestCheckFunc(
					checkPipelineLooks(e, ":buildkite:", "#000000"), checkCloneMirror(e, "git@mirror.example:acme/app.git"),
				),
			},
			{
				// REST does not show emoji and color: an import has neither.
				ResourceName: acctest.PipelineAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"emoji", "color"},
			},
			{
				// A mirror changed outside Terraform is drift, and the next apply puts it back.
				Config: second, ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.Client.Pipelines.Update(context.Background(), acctest.PipelineAttr(s, "slug"),
						buildkite.PipelineUpdate{CloneMirrorURL: buildkite.Value("https://elsewhere.example/app.git")})
					return err
				},
			},
			{Config: second, ConfigPlanChecks: update, Check: checkCloneMirror(e, "git@mirror.example:acme/app.git")},
			{
				// Removed from the configuration, all three are cleared (sent as null).
				Config: e.Config(testAccPipelineConfig(name, "")), ConfigPlanChecks: update,
				Check: resource.ComposeTestCheckFunc(checkPipelineLooks(e, "", ""), checkCloneMirror(e, "")),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.StateIs("emoji", knownvalue.Null()), acctest.StateIs("color", knownvalue.Null()), acctest.StateIs("clone_mirror_url", knownvalue.Null()),
				},
			},
		},
	})
}

// TestAccPipelineResource_cloneMirrorFeatureOff: without the organization's clone-mirror feature the service
// refuses a mirror, and the error says so; a pipeline without one is unaffected.
func TestAccPipelineResource_cloneMirrorFeatureOff(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{NoCloneMirror: true})
	if e.Live {
		t.Skip("live mode: the organization's clone-mirror feature cannot be turned off from a test")
	}
	name := e.Name("no-mirror")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccPipelineConfig(name, "")), ConfigPlanChecks: acctest.ExpectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.PipelineAddr, tfjsonpath.New("clone_mirror_url"), knownvalue.Null()),
				},
			},
			{
				Config:      e.Config(testAccPipelineConfig(name, `  clone_mirror_url = "https://mirror.example/app.git"`)),
				ExpectError: acctest.Wrapped("does not have the clone mirror feature"),
			},
			{
				// An empty mirror removes none and is accepted.
				Config: e.Config(testAccPipelineConfig(name, `  clone_mirror_url = ""`)), ConfigPlanChecks: acctest.ExpectEmpty(),
			},
		},
	})
}

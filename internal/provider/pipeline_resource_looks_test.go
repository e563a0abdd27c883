package provider

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkPipelineLooks asks the emulator's store for the pipeline's emoji and color ("" for none), which no
// REST answer shows; against the live service there is nothing to ask, so it checks only that the pipeline
// exists.
func (e *testEnv) checkPipelineLooks(emoji, color string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if e.live {
			_, err := e.livePipeline(s)
			return err
		}
		gotEmoji, gotColor, ok := e.server.Store().PipelineLooks(e.org, pipelineAttr(s, "slug"))
		if !ok {
			return fmt.Errorf("pipeline %s is not in the emulator", pipelineAttr(s, "slug"))
		}
		if kit.Deref(gotEmoji) != emoji || kit.Deref(gotColor) != color {
			return fmt.Errorf("the service holds emoji %q and color %q, want %q and %q", kit.Deref(gotEmoji), kit.Deref(gotColor), emoji, color)
		}
		return nil
	}
}

// checkCloneMirror asks the service for the pipeline's clone_mirror_url ("" for none).
func (e *testEnv) checkCloneMirror(want string) resource.TestCheckFunc {
	return e.checkPipeline(func(p *buildkite.Pipeline) error {
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
	e := newTestEnv(t)
	name := e.name("looks")
	looks := func(emoji, color, mirror string) string {
		return e.config(testAccPipelineConfig(name, fmt.Sprintf(`  emoji            = %q
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
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: first,
				Check: resource.ComposeTestCheckFunc(
					e.checkPipelineLooks(":rocket:", "#FF5733"), e.checkCloneMirror("https://mirror.example/acme/app.git"),
					resource.TestCheckResourceAttr("data.buildkite_pipeline.read", "clone_mirror_url", "https://mirror.example/acme/app.git"),
				),
				ConfigPlanChecks: expectEmpty(),
			},
			{
				Config: second, ConfigPlanChecks: update,
				Check: resource.ComposeTestCheckFunc(
					e.checkPipelineLooks(":buildkite:", "#000000"), e.checkCloneMirror("git@mirror.example:acme/app.git"),
				),
			},
			{
				// REST does not show emoji and color: an import has neither.
				ResourceName: pipelineAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"emoji", "color"},
			},
			{
				// A mirror changed outside Terraform is drift, and the next apply puts it back.
				Config: second, ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.client.Pipelines.Update(context.Background(), pipelineAttr(s, "slug"),
						buildkite.PipelineUpdate{CloneMirrorURL: buildkite.Value("https://elsewhere.example/app.git")})
					return err
				},
			},
			{Config: second, ConfigPlanChecks: update, Check: e.checkCloneMirror("git@mirror.example:acme/app.git")},
			{
				// Removed from the configuration, all three are cleared (sent as null).
				Config: e.config(testAccPipelineConfig(name, "")), ConfigPlanChecks: update,
				Check: resource.ComposeTestCheckFunc(e.checkPipelineLooks("", ""), e.checkCloneMirror("")),
				ConfigStateChecks: []statecheck.StateCheck{
					stateIs("emoji", knownvalue.Null()), stateIs("color", knownvalue.Null()), stateIs("clone_mirror_url", knownvalue.Null()),
				},
			},
		},
	})
}

// TestAccPipelineResource_cloneMirrorFeatureOff: without the organization's clone-mirror feature the service
// refuses a mirror, and the error says so; a pipeline without one is unaffected.
func TestAccPipelineResource_cloneMirrorFeatureOff(t *testing.T) {
	t.Parallel()
	e := newTestEnvWith(t, fakeserver.Options{NoCloneMirror: true})
	if e.live {
		t.Skip("live mode: the organization's clone-mirror feature cannot be turned off from a test")
	}
	name := e.name("no-mirror")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config: e.config(testAccPipelineConfig(name, "")), ConfigPlanChecks: expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("clone_mirror_url"), knownvalue.Null()),
				},
			},
			{
				Config:      e.config(testAccPipelineConfig(name, `  clone_mirror_url = "https://mirror.example/app.git"`)),
				ExpectError: wrapped("does not have the clone mirror feature"),
			},
			{
				// An empty mirror removes none and is accepted.
				Config: e.config(testAccPipelineConfig(name, `  clone_mirror_url = ""`)), ConfigPlanChecks: expectEmpty(),
			},
		},
	})
}

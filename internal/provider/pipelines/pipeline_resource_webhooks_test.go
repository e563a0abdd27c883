package pipelines_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// checkGitHubWebhooks asks the service whether the pipeline processes GitHub webhooks.
func checkGitHubWebhooks(e *acctest.TestEnv, want bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		w, err := e.Client.Pipelines.GitHubWebhooks(context.Background(), acctest.PipelineAttr(s, "slug"))
		if err != nil {
			return err
		}
		if w.Enabled != want {
			return fmt.Errorf("GitHub webhook processing is %t on the service, want %t", w.Enabled, want)
		}
		return nil
	}
}

// TestAccPipelineResource_githubWebhooks sets the switch on create (read, then changed), changes it in
// place, repairs a change made outside Terraform, imports without it, and leaves it on the service when
// it is removed from the configuration.
func TestAccPipelineResource_githubWebhooks(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("webhooks")
	with := func(v string) string { return e.Config(testAccPipelineConfig(name, "  github_webhooks_enabled = "+v)) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: with("false"), Check: checkGitHubWebhooks(e, false), ConfigPlanChecks: acctest.ExpectEmpty()},
			{Config: with("true"), Check: checkGitHubWebhooks(e, true), ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr)},
			{
				// Turned off outside Terraform: drift, put back by the next apply.
				Config: with("true"), ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					_, err := e.Client.Pipelines.SetGitHubWebhooks(context.Background(), acctest.PipelineAttr(s, "slug"), false)
					return err
				},
			},
			{Config: with("true"), Check: checkGitHubWebhooks(e, true), ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr)},
			{
				// An import leaves it null, as the official provider's does.
				ResourceName: acctest.PipelineAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"github_webhooks_enabled"},
			},
			{
				// Archived and changed: unarchived, switched, archived again.
				Config: e.Config(testAccPipelineConfig(name, "  github_webhooks_enabled = false\n  archived = true")),
				Check:  resource.ComposeTestCheckFunc(checkGitHubWebhooks(e, false), e.CheckPipeline(archivedIs(true))),
			},
			{
				// Removed: state null, the service keeps its value.
				Config: e.Config(testAccPipelineConfig(name, "")), Check: checkGitHubWebhooks(e, false),
				ConfigStateChecks: []statecheck.StateCheck{acctest.StateIs("github_webhooks_enabled", knownvalue.Null())},
			},
		},
	})
}

func archivedIs(want bool) func(p *buildkite.Pipeline) error {
	return func(p *buildkite.Pipeline) error {
		if p.Archived() != want {
			return fmt.Errorf("archived is %t on the service, want %t", p.Archived(), want)
		}
		return nil
	}
}

// TestAccPipelineResource_githubWebhooksNotEnrolled: an organization outside expanded webhook triggers answers
// 404, which is an error that says so; the pipeline created before it stays tracked.
func TestAccPipelineResource_githubWebhooksNotEnrolled(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{NoExpandedWebhookTriggers: true})
	if e.Live {
		t.Skip("live mode: the organization's enrolment cannot be changed from a test")
	}
	name := e.Name("not-enrolled")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(testAccPipelineConfig(name, "  github_webhooks_enabled = true")),
				ExpectError: acctest.Wrapped("Unable to read pipeline GitHub webhooks"),
			},
			{
				Config:      e.Config(testAccPipelineConfig(name, "  github_webhooks_enabled = true")),
				ExpectError: acctest.Wrapped("expanded webhook triggers"),
			},
			{Config: e.Config(testAccPipelineConfig(name, "")), Check: e.CheckExists(acctest.PipelineAddr), ConfigPlanChecks: acctest.ExpectEmpty()},
		},
	})
}

// addedSettingKeys are the provider_settings keys added after the official snapshot.
var addedSettingKeys = []string{"build_pull_request_edited", "build_issues", "build_pull_request_stacks",
	"github_workflow_access_tokens_enabled", "skip_builds_for_closed_pull_requests",
	"prevent_custom_statuses_from_using_buildkite_prefix"}

// TestAccPipelineResource_addedSettingKeys sets the six keys on create, flips them on update, and reads
// them through the data source.
func TestAccPipelineResource_addedSettingKeys(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("keys")
	settings := func(v bool) string {
		var b strings.Builder
		b.WriteString("  provider_settings = {\n    build_pull_requests = true\n")
		for _, k := range addedSettingKeys {
			fmt.Fprintf(&b, "    %s = %t\n", k, v)
		}
		b.WriteString("  }")
		return e.Config(testAccPipelineConfig(name, b.String()) + `
data "buildkite_pipeline" "read" {
  slug = buildkite_pipeline.test.slug
}
`)
	}
	check := func(v bool) resource.TestCheckFunc {
		checks := []resource.TestCheckFunc{e.CheckPipeline(func(p *buildkite.Pipeline) error {
			for _, k := range addedSettingKeys {
				if p.Provider.Settings[k] != v {
					return fmt.Errorf("provider setting %s is %v on the service, want %t", k, p.Provider.Settings[k], v)
				}
			}
			return nil
		})}
		for _, k := range addedSettingKeys {
			checks = append(checks, resource.TestCheckResourceAttr("data.buildkite_pipeline.read", "provider_settings."+k, fmt.Sprint(v)))
		}
		return resource.ComposeAggregateTestCheckFunc(checks...)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: settings(true), Check: check(true), ConfigPlanChecks: acctest.ExpectEmpty()},
			{Config: settings(false), Check: check(false), ConfigPlanChecks: acctest.InPlace(acctest.PipelineAddr)},
			{ResourceName: acctest.PipelineAddr, ImportState: true, ImportStateVerify: true},
		},
	})
}

package pipelines_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// testAccPipelineWebhookConfig is a pipeline on repo with a webhook (when withHook) whose pipeline_id is
// ref (an attribute of the pipeline) and whose repository is hookRepo.
func testAccPipelineWebhookConfig(name, repo string, withHook bool, ref, hookRepo string) string {
	cfg := fmt.Sprintf(`
resource "buildkite_pipeline" "app" {
  name       = %q
  repository = %q
}
`, name, repo)
	if withHook {
		cfg += fmt.Sprintf(`
resource "buildkite_pipeline_webhook" "app" {
  pipeline_id = buildkite_pipeline.app.%s
  repository  = %s
}
`, ref, hookRepo)
	}
	return cfg
}

// checkRepoWebhook fails unless buildkite_pipeline.app's repository has (or, with want false, has not) a webhook from
// Buildkite: in the emulator's store, and as GraphQL reads it (on the real service too).
func checkRepoWebhook(e *acctest.TestEnv, want bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_pipeline.app"].Primary.Attributes
		if !e.Live {
			if got := e.Server.Store().Exists(fakeserver.KindPipelineWebhook, e.Org, a["id"]); got != want {
				return fmt.Errorf("repository webhook of pipeline %s exists = %v, want %v", a["id"], got, want)
			}
		}
		hook, err := e.Client.Pipelines.Webhook(context.Background(), a["graphql_id"])
		if err != nil {
			return err
		}
		if got := hook != nil; got != want {
			return fmt.Errorf("GraphQL: repository webhook of pipeline %s exists = %v, want %v", a["id"], got, want)
		}
		return nil
	}
}

// deleteRepoWebhook deletes the pipeline's repository webhook behind Terraform's back, as someone would on
// the repository's host.
func deleteRepoWebhook(e *acctest.TestEnv, pipelineAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[pipelineAddr].Primary.Attributes
		_, err := e.Client.Pipelines.DeleteWebhook(context.Background(), a["graphql_id"], "")
		return err
	}
}

func TestAccPipelineWebhookResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_pipeline_webhook.app"
	name := e.Name("hooked")
	repo := "https://github.com/acme/" + name + ".git"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineWebhookConfig(name, repo, true, "id", "buildkite_pipeline.app.repository")),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkRepoWebhook(e, true),
					resource.TestCheckResourceAttrPair(addr, "id", "buildkite_pipeline.app", "id"),
					resource.TestCheckResourceAttrPair(addr, "pipeline_id", "buildkite_pipeline.app", "id"),
					resource.TestCheckResourceAttr(addr, "repository", repo),
					resource.TestCheckResourceAttrPair(addr, "webhook_url", "buildkite_pipeline.app", "webhook_url"),
					resource.TestCheckResourceAttrSet(addr, "webhook_url"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			// The pipeline's UUID, slug and GraphQL ID (the official provider's import ID) all import it.
			acctest.ImportSteps(addr, acctest.ImportID(addr, "pipeline_id")),
			acctest.Step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID("buildkite_pipeline.app", "slug")}),
			acctest.Step(resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: acctest.ImportID("buildkite_pipeline.app", "graphql_id")}),
			// Naming the pipeline by its GraphQL ID is no change.
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccPipelineWebhookConfig(name, repo, true, "graphql_id", "buildkite_pipeline.app.repository")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			}),
			// Removed on the repository's host: read through GraphQL, it is gone, and planned again.
			acctest.Step(resource.TestStep{
				Config:             e.Config(testAccPipelineWebhookConfig(name, repo, true, "graphql_id", "buildkite_pipeline.app.repository")),
				Check:              resource.ComposeTestCheckFunc(deleteRepoWebhook(e, "buildkite_pipeline.app"), checkRepoWebhook(e, false)),
				ExpectNonEmptyPlan: true,
			}),
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineWebhookConfig(name, repo, true, "graphql_id", "buildkite_pipeline.app.repository")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkRepoWebhook(e, true),
			}),
			// Destroy deletes the webhook (pipelineDeleteWebhook).
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineWebhookConfig(name, repo, false, "", "")),
				Check:  checkRepoWebhook(e, false),
			}),
			// A pipeline without a webhook cannot be imported, as with the official provider.
			acctest.Step(resource.TestStep{
				Config:            e.Config(testAccPipelineWebhookConfig(name, repo, true, "id", "buildkite_pipeline.app.repository")),
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     "",
				ImportStateIdFunc: acctest.ImportID("buildkite_pipeline.app", "slug"),
				ExpectError:       regexp.MustCompile(`Pipeline webhook not found(?s:.*)Cannot import non-existent remote object`),
			}),
			// Created again, with a webhook made anew.
			acctest.Step(resource.TestStep{
				Config:           e.Config(testAccPipelineWebhookConfig(name, repo, true, "id", "buildkite_pipeline.app.repository")),
				Check:            resource.ComposeTestCheckFunc(resource.TestCheckResourceAttrSet(addr, "webhook_url"), checkRepoWebhook(e, true)),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
		),
	})
}

// TestAccPipelineWebhookResource_disappears: the pipeline deleted outside Terraform takes the webhook
// resource with it, and both are planned again.
func TestAccPipelineWebhookResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("gone")
	cfg := e.Config(testAccPipelineWebhookConfig(name, "https://github.com/acme/"+name+".git", true, "id", "buildkite_pipeline.app.repository"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: e.RemoveOutside("buildkite_pipeline.app"), ExpectNonEmptyPlan: true},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("buildkite_pipeline_webhook.app", plancheck.ResourceActionCreate),
				}},
				Check: checkRepoWebhook(e, true),
			},
		},
	})
}

func TestAccPipelineWebhookResource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("refused")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(testAccPipelineWebhookConfig(name, "https://github.com/acme/app.git", true, "id", `"https://github.com/acme/other.git"`)),
				ExpectError: regexp.MustCompile(`Repository URL mismatch`),
			},
			{
				Config:      e.Config(testAccPipelineWebhookConfig(name, "https://gitlab.com/acme/app.git", true, "id", "buildkite_pipeline.app.repository")),
				ExpectError: regexp.MustCompile(`Auto-creating webhooks is only\s+supported for GitHub and GitHub Enterprise repositories`),
			},
			{
				Config: e.Config(testAccPipelineWebhookConfig(name, "https://github.com/acme/app.git", false, "", "") + `
resource "buildkite_pipeline_webhook" "app" {
  pipeline_id    = buildkite_pipeline.app.id
  repository     = buildkite_pipeline.app.repository
  repository_url = "https://github.com/acme/other.git"
}
`),
				ExpectError: regexp.MustCompile(`Conflicting Repository URLs`),
			},
			{
				Config:      e.Config(testAccPipelineWebhookConfig(name, "https://github.com/acme/app.git", true, "name", "buildkite_pipeline.app.repository")),
				ExpectError: regexp.MustCompile(`Invalid Reference`),
			},
		},
	})
}

// TestAccPipelineWebhookResource_repositoryURL: repository_url, the later official name, works alike and
// holds the same URL as repository; the official provider's checks pass with either.
func TestAccPipelineWebhookResource_repositoryURL(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_pipeline_webhook.app"
	name := e.Name("url")
	repo := "https://github.com/acme/" + name + ".git"
	cfg := func(attr string) string {
		return e.Config(testAccPipelineWebhookConfig(name, repo, false, "", "") + fmt.Sprintf(`
resource "buildkite_pipeline_webhook" "app" {
  pipeline_id = buildkite_pipeline.app.id
  %s = buildkite_pipeline.app.repository
}
`, attr))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_pipeline"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: cfg("repository_url"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "repository_url", repo),
					resource.TestCheckResourceAttr(addr, "repository", repo),
					resource.TestCheckResourceAttrPair(addr, "pipeline_id", "buildkite_pipeline.app", "id"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(addr, acctest.ImportID("buildkite_pipeline.app", "id")),
			// Switching the name of the attribute is no change.
			acctest.Step(resource.TestStep{
				Config:           cfg("repository"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			}),
			// The pipeline moved to GitLab: the webhook resource leaves state, with a warning.
			acctest.Step(resource.TestStep{
				Config: e.Config(testAccPipelineWebhookConfig(name, "https://gitlab.com/acme/"+name+".git", false, "", "")),
				Check: func(s *terraform.State) error {
					if _, ok := s.RootModule().Resources[addr]; ok {
						return fmt.Errorf("%s is still in state", addr)
					}
					return nil
				},
			}),
		),
	})
}

// TestAccPipelineWebhookResource_graphQLPartKept: the webhook of a pipeline REST serves, read through the
// pipeline's GraphQL node, which answers null, then "not found", on refresh: the refresh fails and the
// webhook stays in state; with the fault cleared the plan is empty. Its delete at destroy answered with
// errors and the deleted webhook's ID is done.
func TestAccPipelineWebhookResource_graphQLPartKept(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	name := e.Name("hook-part")
	cfg := e.Config(testAccPipelineWebhookConfig(name, "https://github.com/acme/"+name+".git", true, "id", "buildkite_pipeline.app.repository"))
	webhookGone := func(s *terraform.State) error {
		id := s.RootModule().Resources["buildkite_pipeline.app"].Primary.Attributes["id"]
		if e.Server.Store().Exists(fakeserver.KindPipelineWebhook, e.Org, id) {
			return fmt.Errorf("the repository webhook of pipeline %s is still there after destroy", id)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultErrorsWithData, 1), webhookGone),
		Steps: []resource.TestStep{
			{Config: cfg, Check: checkRepoWebhook(e, true), ConfigPlanChecks: acctest.ExpectEmpty()},
			e.PartKept("getPipelineWebhook", fakeserver.FaultNullData, "Unable to Read Pipeline Webhook"),
			e.PartKept("getPipelineWebhook", fakeserver.FaultNotFound, "Unable to Read Pipeline Webhook"),
			{
				PreConfig: e.Aim(fakeserver.AimedFault{Operation: "deletePipelineWebhook", Kind: fakeserver.FaultErrorsWithData, Times: 1}),
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(e.CheckFaultsMet(fakeserver.FaultNullData, 1),
					e.CheckFaultsMet(fakeserver.FaultNotFound, 1), checkRepoWebhook(e, true)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// The rows of buildkite_pipeline_webhook in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_pipeline_webhook", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_pipeline_webhook", Attrs: []string{"pipeline_id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			name := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccPipelineWebhookConfig(name, "https://github.com/acme/"+name+".git", false, "", "") + `
resource "buildkite_pipeline_webhook" "test" {
  pipeline_id = buildkite_pipeline.app.id
  repository  = buildkite_pipeline.app.repository
}
`,
				// Destroy cannot delete a repository's webhook; the pipeline goes.
				Destroyed: e.CheckDestroyed("buildkite_pipeline"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "pipeline_webhook", Add: (*acctest.OfficialWorkspace).AddPipelineWebhook, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			a := w.StateAttributes("buildkite_pipeline_webhook.app")
			if a["id"] != a["pipeline_id"] || !kit.IsUUID(fmt.Sprint(a["id"])) {
				t.Errorf("after the move id = %v, pipeline_id = %v: want both the pipeline's UUID", a["id"], a["pipeline_id"])
			}
		}},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A pipeline's webhook goes with its pipeline, which the pipeline sweeper removes.",
	},
})

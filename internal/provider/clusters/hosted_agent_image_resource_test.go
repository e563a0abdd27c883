package clusters_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

const imageAddr = "buildkite_hosted_agent_image.test"

// testAccHostedAgentImageConfig declares cluster "<cluster>" with a hosted queue, which images need, and
// its image "<name>" built from dockerfile, with extra lines in the image's block.
func testAccHostedAgentImageConfig(cluster, name, dockerfile, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_queue" "hosted" {
  cluster_id = buildkite_cluster.test.id
  key        = "hosted"
  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
  }
}

resource "buildkite_hosted_agent_image" "test" {
  cluster_id = buildkite_cluster.test.id
  name       = %q
  dockerfile = %q
%s
  depends_on = [buildkite_cluster_queue.hosted]
}
`, cluster, name, dockerfile, extra)
}

// imageStatusIs checks the image's status on the service.
func imageStatusIs(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[imageAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", imageAddr)
		}
		img, err := e.Client.AgentImages.Poll(context.Background(), rs.Primary.Attributes["cluster_id"], rs.Primary.ID)
		if err != nil || img.Status != want {
			return fmt.Errorf("image %s on the service: %+v, %w; want status %q", rs.Primary.ID, img, err, want)
		}
		return nil
	}
}

// TestAccHostedAgentImageResource_basic: a create waits through BUILDING to READY; import by
// "<cluster id>/<image id>" and by a generated configuration plan empty; each argument replaces; a hosted
// queue runs on the image through its image_ref.
func TestAccHostedAgentImageResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{AgentImageBuildTime: 2 * time.Second})
	cluster := e.Name("images")
	config := func(name, dockerfile string) string {
		return e.Config(testAccHostedAgentImageConfig(cluster, name, dockerfile, ""))
	}
	ready := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(imageAddr, tfjsonpath.New("status"), knownvalue.StringExact("READY")),
		statecheck.ExpectKnownValue(imageAddr, tfjsonpath.New("image_ref"), knownvalue.StringRegexp(regexp.MustCompile(`^packages\.buildkite\.com/`))),
		statecheck.ExpectKnownValue(imageAddr, tfjsonpath.New("version"), knownvalue.StringExact("1")),
		statecheck.ExpectKnownValue(imageAddr, tfjsonpath.New("last_build_error"), knownvalue.Null()),
	}
	replaced := func() resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(imageAddr, plancheck.ResourceActionDestroyBeforeCreate)},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}
	}
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_hosted_agent_image"),
		Steps: acctest.Steps(
			acctest.Step(resource.TestStep{
				Config: config("ruby", "RUN apt-get install -y ruby\n"),
				Check: resource.ComposeTestCheckFunc(e.CheckExists(imageAddr), imageStatusIs(e, "READY"),
					func(*terraform.State) error {
						// The two seconds are this emulator's (Options); in live mode the service, or an emulator
						// of its own process, sets how long a build takes.
						if waited := time.Since(start); !e.Live && waited < 2*time.Second {
							return fmt.Errorf("the apply ended after %s, before the two-second build could", waited)
						}
						return nil
					}),
				ConfigStateChecks: ready,
				ConfigPlanChecks:  acctest.ExpectEmpty(),
			}),
			acctest.ImportSteps(imageAddr, acctest.ImportID(imageAddr, "cluster_id", "id")),
			acctest.Step(resource.TestStep{
				Config: config("ruby", "RUN apt-get install -y ruby-full\n"), ConfigPlanChecks: replaced(),
				ConfigStateChecks: ready,
			}),
			acctest.Step(resource.TestStep{Config: config("ruby-2", "RUN apt-get install -y ruby-full\n"), ConfigPlanChecks: replaced()}),
			acctest.Step(resource.TestStep{
				// A hosted queue runs on the image.
				Config: e.Config(testAccHostedAgentImageConfig(cluster, "ruby-2", "RUN apt-get install -y ruby-full\n", "") + `
resource "buildkite_cluster_queue" "ruby" {
  cluster_id = buildkite_cluster.test.id
  key        = "ruby"
  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
    linux = {
      agent_image_ref = buildkite_hosted_agent_image.test.image_ref
    }
  }
}
`),
				ConfigPlanChecks: acctest.ExpectEmpty(),
				Check:            resource.TestCheckResourceAttrPair("buildkite_cluster_queue.ruby", "hosted_agents.linux.agent_image_ref", imageAddr, "image_ref"),
			}),
		),
	})
}

// TestAccHostedAgentImageResource_buildFails: a build that fails fails the apply with the service's build
// error, and the image stays in state, tainted, so the next apply replaces it.
func TestAccHostedAgentImageResource_buildFails(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{})
	cluster := e.Name("images-fail")
	broken := e.Config(testAccHostedAgentImageConfig(cluster, "broken", "RUN echo building\nRUN false\n", ""))
	var firstID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_hosted_agent_image"),
		Steps: []resource.TestStep{
			{
				Config:      broken,
				ExpectError: regexp.MustCompile(`Hosted Agent Image Not Built[\s\S]*the\s+build\s+failed:\s+process\s+"/bin/sh\s+-c\s+false"\s+did\s+not\s+complete\s+successfully:\s+exit\s+code:\s+1[\s\S]*stays\s+in\s+state,\s+tainted`),
			},
			{
				// The failed image is in state, tainted, with its error; the plan replaces it.
				RefreshState: true, ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(imageAddr, "status", "FAILED"),
					resource.TestMatchResourceAttr(imageAddr, "last_build_error", regexp.MustCompile(`exit code: 1`)),
					resource.TestCheckNoResourceAttr(imageAddr, "image_ref"),
					imageStatusIs(e, "FAILED"),
					func(s *terraform.State) error {
						rs := s.RootModule().Resources[imageAddr]
						if !rs.Primary.Tainted {
							return fmt.Errorf("the failed image is not tainted")
						}
						firstID = rs.Primary.ID
						return nil
					}),
			},
			{
				// Fixed, the next apply deletes the failed image and builds a new one.
				Config: e.Config(testAccHostedAgentImageConfig(cluster, "broken", "RUN echo building\n", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(imageAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(imageStatusIs(e, "READY"), func(s *terraform.State) error {
					cluster := s.RootModule().Resources[imageAddr].Primary.Attributes["cluster_id"]
					if _, err := e.Client.AgentImages.Poll(context.Background(), cluster, firstID); !buildkite.IsNotFound(err) {
						return fmt.Errorf("the failed image %s: %w, want it deleted from the service", firstID, err)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccHostedAgentImageResource_timeout: a build that outlasts timeouts.create fails the apply, naming
// the wait, and the image stays in state (BUILDING, tainted) rather than being lost track of.
func TestAccHostedAgentImageResource_timeout(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{AgentImageBuildTime: time.Hour})
	cluster := e.Name("images-slow")
	cfg := e.Config(testAccHostedAgentImageConfig(cluster, "slow", "RUN make\n", "  timeouts {\n    create = \"2s\"\n  }"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_hosted_agent_image"),
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: regexp.MustCompile(`Hosted Agent Image Not Built[\s\S]*the\s+build\s+was\s+still\s+BUILDING\s+when\s+timeouts.create\s+\(2s\)\s+ran\s+out`),
			},
			{
				RefreshState: true, ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(imageAddr, "status", "BUILDING"),
					resource.TestCheckResourceAttr(imageAddr, "timeouts.create", "2s"),
					imageStatusIs(e, "BUILDING"), e.CheckExists(imageAddr)),
			},
		},
	})
}

// TestAccHostedAgentImageResource_disappears: an image deleted outside Terraform is created again.
func TestAccHostedAgentImageResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{AgentImageBuildTime: -1})
	e.Disappears(imageAddr, testAccHostedAgentImageConfig(e.Name("images-gone"), "gone", "RUN true\n", ""))
}

// TestAccHostedAgentImageResource_validation: a Dockerfile with FROM is refused at plan time, before
// anything is sent; a cluster without a hosted queue is refused by the service with its words.
func TestAccHostedAgentImageResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{AgentImageBuildTime: -1})
	cluster := e.Name("images-invalid")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(testAccHostedAgentImageConfig(cluster, "from", "FROM ubuntu:24.04\nRUN true\n", "")),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Invalid Dockerfile[\s\S]*must\s+not\s+contain\s+a\s+FROM\s+instruction`),
			},
			{
				Config: e.Config(fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_hosted_agent_image" "test" {
  cluster_id = buildkite_cluster.test.id
  name       = "no-hosted-queue"
  dockerfile = "RUN true"
}
`, cluster)),
				ExpectError: regexp.MustCompile(`Unable to Create Hosted Agent Image[\s\S]*Cluster\s+does\s+not\s+have\s+hosted\s+agents`),
			},
		},
	})
}

// TestAccHostedAgentImageResource_failedFoundIsReplaced: an image whose build failed, imported (or
// untainted), is planned for replacement even though the configuration matches it.
func TestAccHostedAgentImageResource_failedFoundIsReplaced(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnvWith(t, fakeserver.Options{AgentImageBuildTime: -1})
	ctx := t.Context()
	c, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: e.Name("images-found")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Client.Clusters.Delete(context.Background(), c.ID) })
	if _, err := e.Client.Queues.Create(ctx, c.ID, buildkite.QueueCreate{Key: "hosted",
		HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: "LINUX_AMD64_2X4"}}); err != nil {
		t.Fatal(err)
	}
	img, err := e.Client.AgentImages.Create(ctx, c.ID, buildkite.AgentImageCreate{Name: "broken", Dockerfile: "RUN false\n"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.Config(fmt.Sprintf(`
resource "buildkite_hosted_agent_image" "test" {
  cluster_id = %q
  name       = "broken"
  dockerfile = "RUN false\n"
}
`, c.ID))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, ResourceName: imageAddr, ImportState: true, ImportStateId: c.ID + "/" + img.ID, ImportStatePersist: true},
			{
				// The replacement builds the same Dockerfile, which fails again; the failed image is gone.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(imageAddr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ExpectError: regexp.MustCompile(`Hosted Agent Image Not Built`),
			},
			{
				RefreshState: true, ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources[imageAddr].Primary.ID; id == img.ID {
						return fmt.Errorf("the failed image %s is still the one in state", id)
					}
					if _, err := e.Client.AgentImages.Poll(context.Background(), c.ID, img.ID); !buildkite.IsNotFound(err) {
						return fmt.Errorf("the failed image %s: %w, want it replaced", img.ID, err)
					}
					return nil
				},
			},
		},
	})
}

var _ = acctest.RegisterTypeTests("buildkite_hosted_agent_image", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		// Every argument replaces; only the timeouts block changes in place.
		ResourceType: "buildkite_hosted_agent_image", Attrs: []string{"cluster_id", "id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			cluster := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: testAccHostedAgentImageConfig(cluster, "ruby", "RUN true\n", ""),
				Update: testAccHostedAgentImageConfig(cluster, "ruby", "RUN true\n", "  timeouts {\n    create = \"45m\"\n  }"),
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "hosted_agent_image", Add: (*acctest.OfficialWorkspace).AddHostedAgentImage, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			// Its id is the service's image ID, not a UUID, so expectMoved does not apply; cluster_id stays a UUID.
			a := w.StateAttributes("buildkite_hosted_agent_image.ruby")
			if !kit.IsUUID(fmt.Sprint(a["cluster_id"])) || a["status"] != "READY" || a["version"] != "1" || a["last_build_error"] != nil || a["image_ref"] == "" {
				t.Errorf("after the move and a refresh: %v", a)
			}
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_hosted_agent_image", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		ctx := t.Context()
		a, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-a"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Client.Queues.Create(ctx, a.ID, buildkite.QueueCreate{Key: "hosted",
			HostedAgents: &buildkite.HostedAgentsWrite{InstanceShape: "LINUX_AMD64_2X4"}}); err != nil {
			t.Fatal(err)
		}
		// A second cluster, without hosted agents, which lists no images.
		if _, err := e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"}); err != nil {
			t.Fatal(err)
		}
		var ruby *buildkite.AgentImage
		for _, name := range []string{"ruby", "node"} {
			img, err := e.Client.AgentImages.Create(ctx, a.ID, buildkite.AgentImageCreate{Name: name, Dockerfile: "RUN install " + name + "\n"})
			if err != nil {
				t.Fatal(err)
			}
			if name == "ruby" {
				ruby = img
			}
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_hosted_agent_image", "a", fmt.Sprintf("    cluster_id = %q", a.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_hosted_agent_image.all", 2),
				querycheck.ExpectLength("buildkite_hosted_agent_image.a", 2),
				querycheck.ExpectIdentity("buildkite_hosted_agent_image.a", acctest.IdentityOf("cluster_id", a.ID, "id", ruby.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_hosted_agent_image.all",
					acctest.ByIdentity("cluster_id", a.ID, "id", ruby.ID), knownvalue.StringExact(base+"-a / ruby")),
				querycheck.ExpectResourceKnownValues("buildkite_hosted_agent_image.a", acctest.ByIdentity("cluster_id", a.ID, "id", ruby.ID), []querycheck.KnownValueCheck{
					acctest.Known("name", knownvalue.StringExact("ruby")),
					acctest.Known("dockerfile", knownvalue.StringExact("RUN install ruby\n")),
				}),
			},
			Refused: []acctest.QueryRefusal{{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "cluster_id"), Message: acctest.Wrapped(`No cluster matches the ID "` + acctest.UnknownUUID + `"`)}},
			Imports: 2,
		}
	}},
})

package clusters_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// checkQueuePaused asks the service whether buildkite_cluster_queue.test is paused, and with which note.
func checkQueuePaused(e *acctest.TestEnv, paused bool, note string) resource.TestCheckFunc {
	const address = "buildkite_cluster_queue.test"
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		q, err := e.Client.Queues.Get(context.Background(), rs.Primary.Attributes["cluster_uuid"], rs.Primary.ID)
		if err != nil {
			return err
		}
		if q.DispatchPaused != paused {
			return fmt.Errorf("queue %s: dispatch_paused is %t on the service, want %t", q.Key, q.DispatchPaused, paused)
		}
		got := kit.Deref(q.DispatchPausedNote)
		if got != note {
			return fmt.Errorf("queue %s: dispatch_paused_note is %q on the service, want %q", q.Key, got, note)
		}
		return nil
	}
}

func TestAccClusterQueueResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("queues")
	const addr = "buildkite_cluster_queue.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config: e.Config(acctest.ClusterQueueConfig(cluster, "linux", `  description = "Linux agents"`)),
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(addr),
					checkQueuePaused(e, false, ""),
					checkQueueAffinity(e, "prefer-warmest"),
					resource.TestCheckResourceAttrPair(addr, "cluster_id", "buildkite_cluster.test", "id"),
					resource.TestCheckResourceAttrPair(addr, "cluster_uuid", "buildkite_cluster.test", "id"),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("key"), knownvalue.StringExact("linux")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retry_agent_affinity"), knownvalue.StringExact("prefer-warmest")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hosted_agents"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.StringExact("Linux agents")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused_note"), knownvalue.Null()),
				},
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr, "cluster_id", "id"),
				ImportStateVerify: true,
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr, "cluster_id", "key"),
				ImportStateVerify: true,
			},
			acctest.GenerateConfigStep(addr, acctest.ImportID(addr, "cluster_id", "key")),
			{
				// Pause with a note and change the description and the retry affinity, in place.
				Config: e.Config(acctest.ClusterQueueConfig(cluster, "linux", `  description          = "Linux agents, maintenance"
  dispatch_paused      = true
  dispatch_paused_note = "Patching hosts"
  retry_agent_affinity = "prefer-different"`)),
				ConfigPlanChecks: acctest.InPlace(addr),
				Check:            resource.ComposeTestCheckFunc(checkQueuePaused(e, true, "Patching hosts"), checkQueueAffinity(e, "prefer-different")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retry_agent_affinity"), knownvalue.StringExact("prefer-different")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused_note"), knownvalue.StringExact("Patching hosts")),
				},
			},
			{
				// A new note on a paused queue re-pauses it.
				Config: e.Config(acctest.ClusterQueueConfig(cluster, "linux", `  description          = "Linux agents, maintenance"
  dispatch_paused      = true
  dispatch_paused_note = "Upgrading the kernel"
  retry_agent_affinity = "prefer-different"`)),
				Check: checkQueuePaused(e, true, "Upgrading the kernel"),
			},
			{
				// Resume: the pause note goes away with the pause; the affinity goes back to its default.
				Config:           e.Config(acctest.ClusterQueueConfig(cluster, "linux", "")),
				ConfigPlanChecks: acctest.InPlace(addr),
				Check:            resource.ComposeTestCheckFunc(checkQueuePaused(e, false, ""), checkQueueAffinity(e, "prefer-warmest")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
				},
			},
			{
				// A new key replaces the queue.
				Config: e.Config(acctest.ClusterQueueConfig(cluster, "linux-arm", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: e.CheckExists(addr),
			},
		},
	})
}

// checkQueueAffinity asks the service for the retry_agent_affinity of buildkite_cluster_queue.test.
func checkQueueAffinity(e *acctest.TestEnv, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_cluster_queue.test"].Primary.Attributes
		q, err := e.Client.Queues.Get(context.Background(), a["cluster_uuid"], a["id"])
		if err != nil {
			return err
		}
		if q.RetryAgentAffinity != want {
			return fmt.Errorf("retry_agent_affinity on the service = %q, want %q", q.RetryAgentAffinity, want)
		}
		return nil
	}
}

// TestAccClusterQueueResource_graphQLReferences names the cluster by its GraphQL ID, as configurations written
// for the official provider do: the queue is created, switching to the UUID and back plans nothing, and the
// queue imports by GraphQL IDs, in our form and in the official provider's. Adding hosted_agents replaces the
// queue.
func TestAccClusterQueueResource_graphQLReferences(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	cluster := e.Name("graphql")
	const addr = "buildkite_cluster_queue.test"
	byGraphQL := e.Config(acctest.ClusterQueueConfig(cluster, "linux", "") + `
resource "buildkite_cluster_queue" "graphql" {
  cluster_id = buildkite_cluster.test.graphql_id
  key        = "by-graphql"
}
`)
	graphQLAddr := "buildkite_cluster_queue.graphql"
	byUUID := strings.Replace(byGraphQL, "buildkite_cluster.test.graphql_id", "buildkite_cluster.test.uuid", 1)
	hosted := strings.Replace(byGraphQL, `key        = "by-graphql"`, `key        = "by-graphql"
  hosted_agents = {
    instance_shape = "LINUX_AMD64_2X4"
    linux          = { agent_image_ref = "ubuntu:24.04" }
  }`, 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config: byGraphQL,
				Check: resource.ComposeTestCheckFunc(
					e.CheckExists(graphQLAddr),
					resource.TestCheckResourceAttrPair(graphQLAddr, "cluster_id", "buildkite_cluster.test", "graphql_id"),
					resource.TestCheckResourceAttrPair(graphQLAddr, "cluster_uuid", "buildkite_cluster.test", "id"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{
				Config:           byUUID,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				ResourceName: graphQLAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					a := s.RootModule().Resources[graphQLAddr].Primary.Attributes
					return kit.GraphQLID("Cluster", a["cluster_uuid"]) + "/" + a["graphql_id"], nil
				},
				ImportStateVerifyIgnore: []string{"cluster_id"},
			},
			{
				// The official provider's import ID: "<queue GraphQL ID>,<cluster UUID>".
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					a := s.RootModule().Resources[addr].Primary.Attributes
					return a["graphql_id"] + "," + a["cluster_uuid"], nil
				},
			},
			{
				Config:           byGraphQL,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Adding hosted agents replaces the queue: the service makes no self-hosted queue hosted.
				Config: hosted,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(graphQLAddr, plancheck.ResourceActionReplace)},
				},
				SkipFunc: func() (bool, error) { return e.Live, nil }, // a hosted queue runs billed agents
			},
		},
	})
}

func TestAccClusterQueueResource_createPaused(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{{
			Config: e.Config(acctest.ClusterQueueConfig(e.Name("paused"), "held", `  dispatch_paused = true`)),
			Check:  resource.ComposeTestCheckFunc(e.CheckExists(addr), checkQueuePaused(e, true, "")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// TestAccClusterQueueResource_createPauseFails: the create of a paused queue whose pause fails reports the
// pause, naming the queue by its import ID, and records the queue made, tainted as Terraform records a failed
// create: the next apply replaces it rather than leaving it orphaned beside a new one.
func TestAccClusterQueueResource_createPauseFails(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: the fault is the emulator's")
	}
	const addr = "buildkite_cluster_queue.test"
	cfg := e.Config(acctest.ClusterQueueConfig(e.Name("pause-fails"), "held", `  dispatch_paused      = true
  dispatch_paused_note = "Maintenance"`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.Aim(fakeserver.AimedFault{
					Route: "POST /v2/organizations/{org}/clusters/{cluster}/queues/{queue}/pause_dispatch", Kind: fakeserver.FaultServerError,
				}),
				Config:      cfg,
				ExpectError: acctest.RegexpMust(`(?s)Unable to Pause Cluster Queue.*Pausing\s+cluster\s+queue\s+` + uuidPattern + `/` + uuidPattern + `:`),
			},
			{
				PreConfig:        e.Server.ClearAimedFaults,
				Config:           cfg,
				ConfigPlanChecks: replaced(addr),
				Check:            resource.ComposeTestCheckFunc(checkQueuePaused(e, true, "Maintenance"), checkQueueCount(e, addr, 1)),
			},
		},
	})
}

// replaced checks that the step replaces the resource at address, and that the plan after the apply is empty.
func replaced(address string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionReplace)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}

// checkQueueCount asks the service how many queues the cluster of the queue at address holds: the queue a
// failed create made is replaced, never left beside the new one.
func checkQueueCount(e *acctest.TestEnv, address string, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		queues, err := e.Client.Queues.List(context.Background(), rs.Primary.Attributes["cluster_uuid"])
		if err != nil {
			return err
		}
		if len(queues) != want {
			return fmt.Errorf("the cluster holds %d queues, want %d", len(queues), want)
		}
		return nil
	}
}

// uuidPattern matches a UUID in lower case, as the service gives them.
const uuidPattern = `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`

func TestAccClusterQueueResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	cfg := e.Config(acctest.ClusterQueueConfig(e.Name("gone"), "gone", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.RemoveOutside(addr),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: e.CheckExists(addr),
			},
		},
	})
}

// TestAccClusterQueueResource_importKeyLikeUUID imports a queue whose key looks like a UUID: no queue has it
// as its ID, so the import finds it by key.
func TestAccClusterQueueResource_importKeyLikeUUID(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	key := "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{Config: e.Config(acctest.ClusterQueueConfig(e.Name("uuid-key"), key, ""))},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr, "cluster_id", "key"),
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccClusterQueueResource_validation(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	hosted := func(body string) string {
		return e.Config(acctest.ClusterQueueConfig("c", "ok", "  hosted_agents = {\n"+body+"\n  }"))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(acctest.ClusterQueueConfig("c", "bad key!", "")),
				ExpectError: acctest.RegexpMust(`Attribute key must start with a letter or digit`),
				PlanOnly:    true,
			},
			{
				Config:      e.Config(acctest.ClusterQueueConfig("c", "ok", `  dispatch_paused_note = "why"`)),
				ExpectError: acctest.RegexpMust(`dispatch_paused_note can only be set while dispatch_paused is true`),
				PlanOnly:    true,
			},
			{
				Config: hosted(`    instance_shape = "MACOS_ARM64_M4_6X28"
    mac   = { xcode_version = "16.2" }
    linux = { agent_image_ref = "ubuntu:24.04" }`),
				ExpectError: regexp.MustCompile(`Invalid platform configuration`),
				PlanOnly:    true,
			},
			{
				Config: hosted(`    instance_shape = "LINUX_ARM64_2X4"
    mac = { xcode_version = "16.2" }`),
				ExpectError: regexp.MustCompile(`Invalid instance shape for Mac platform`),
				PlanOnly:    true,
			},
			{
				Config: hosted(`    instance_shape = "MACOS_ARM64_M4_12X56"
    linux = { agent_image_ref = "ubuntu:24.04" }`),
				ExpectError: regexp.MustCompile(`Invalid instance shape for Linux platform`),
				PlanOnly:    true,
			},
			{
				Config:      hosted(`    instance_shape = "LINUX_AMD64_3X5"`),
				ExpectError: acctest.Wrapped(`value must be one of:`),
				PlanOnly:    true,
			},
			{
				Config:        e.Config(acctest.ClusterQueueConfig("c", "ok", "")),
				ResourceName:  "buildkite_cluster_queue.test",
				ImportState:   true,
				ImportStateId: "no-slash",
				ExpectError:   acctest.RegexpMust(`Expected an import ID of the form "<cluster id>/<queue id or key>"`),
			},
		},
	})
}

// The rows of buildkite_cluster_queue in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster_queue", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_cluster_queue", Attrs: []string{"cluster_id", "key"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			cluster := e.Name("identity")
			return acctest.IdentityConfigs{
				Create: acctest.ClusterQueueConfig(cluster, "linux", `  description = "Linux agents"`),
				Checks: []statecheck.StateCheck{acctest.IdentityValue("buildkite_cluster_queue.test", "key", "linux")},
				Update: acctest.ClusterQueueConfig(cluster, "linux", `  dispatch_paused = true`),
			}
		},
	},
	InvalidIdentity: &acctest.InvalidIdentityCase{
		ResourceType: "buildkite_cluster_queue",
		Setup: func(e *acctest.TestEnv) []acctest.InvalidIdentity {
			queue := func(clusterID string) string {
				return acctest.ImportByIdentity("buildkite_cluster_queue", `  cluster_id = "`+acctest.UnknownUUID+`"
  key        = "linux"`, "cluster_id", clusterID, "key", "linux")
			}
			return []acctest.InvalidIdentity{
				{Config: queue("Q2x1c3Rlci0tLWFiYw=="), Message: `cluster_id (<cluster id>) "Q2x1c3Rlci0tLWFiYw==" is not a UUID`},
				{Config: queue(acctest.UnknownUUID), Message: `Unable to Import Cluster Queue`},
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "cluster_queue", Add: (*acctest.OfficialWorkspace).AddQueue, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_cluster_queue.linux", map[string]any{"retry_agent_affinity": "prefer-different"})
			// The hosted agents are read over REST now: the moved state's block matches the service's, with no warning.
			hosted, _ := w.StateAttributes("buildkite_cluster_queue.linux")["hosted_agents"].(map[string]any)
			linux, _ := hosted["linux"].(map[string]any)
			if hosted["instance_shape"] != "LINUX_AMD64_2X4" || linux["agent_image_ref"] != "ubuntu:24.04" {
				t.Errorf("hosted_agents after the move = %v", hosted)
			}
			acctest.ExpectQuietPlan(t, w)
		}},
		{Name: "cluster_queue_mac", Add: (*acctest.OfficialWorkspace).AddMacQueue, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			// The macOS settings are applied and read through GraphQL now: the moved state's match the service's.
			hosted, _ := w.StateAttributes("buildkite_cluster_queue.mac")["hosted_agents"].(map[string]any)
			mac, _ := hosted["mac"].(map[string]any)
			if hosted["instance_shape"] != "MACOS_ARM64_M4_6X28" || mac["xcode_version"] != "16.2" || mac["macos_version"] != "SEQUOIA" {
				t.Errorf("hosted_agents after the move = %v", hosted)
			}
			acctest.ExpectQuietPlan(t, w)
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster_queue", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedClusters(t, base)
		queue := func(c *buildkite.Cluster, q *buildkite.Queue) queryfilter.QueryFilter {
			return acctest.ByIdentity("cluster_id", c.ID, "key", q.Key)
		}
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster_queue", "a", fmt.Sprintf("    cluster_id = %q", s.A.ID)},
			Checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_queue.all", 3),
				querycheck.ExpectLength("buildkite_cluster_queue.a", 2),
				querycheck.ExpectIdentity("buildkite_cluster_queue.a", acctest.IdentityOf("cluster_id", s.A.ID, "key", "mac")),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_queue.all", queue(s.B, s.Other), knownvalue.StringExact(base+"-b / other")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_queue.a", queue(s.A, s.Mac), []querycheck.KnownValueCheck{
					acctest.Known("id", knownvalue.StringExact(s.Mac.ID)),
					acctest.Known("dispatch_paused", knownvalue.Bool(true)),
					acctest.Known("dispatch_paused_note", knownvalue.StringExact("Patching hosts")),
				}),
			},
			Refused: []acctest.QueryRefusal{{Body: fmt.Sprintf(acctest.UnknownUUIDFilter, "cluster_id"), Message: acctest.Wrapped(`No cluster matches the ID "` + acctest.UnknownUUID + `"`)}},
			Imports: 3,
		}
	}},
	Taken: &acctest.TakenCase{ResourceType: "buildkite_cluster_queue", Setup: func(t *testing.T, e *acctest.TestEnv) (string, string) {
		c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name("taken")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Client.Queues.Create(context.Background(), c.ID, buildkite.QueueCreate{Key: "linux"}); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf(`
resource "buildkite_cluster_queue" "test" {
  cluster_id = %q
  key        = "linux"
}
`, c.ID), c.ID + "/linux"
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "queue, ours at version 0", TypeName: "buildkite_cluster_queue", Version: 0,
			State: map[string]any{"id": acctest.OtherUUID, "uuid": acctest.OtherUUID, "graphql_id": "Q", "cluster_id": acctest.TestUUID, "key": "linux",
				"description": nil, "dispatch_paused": false, "dispatch_paused_note": nil, "url": "u", "web_url": "w"},
			Want: map[string]any{"cluster_id": acctest.TestUUID, "cluster_uuid": acctest.TestUUID, "retry_agent_affinity": "prefer-warmest",
				"hosted_agents": nil, "dispatch_paused": false},
		},
		{
			Name: "queue, the official provider's", TypeName: "buildkite_cluster_queue", Version: 0,
			State: map[string]any{"id": kit.GraphQLID("ClusterQueue", acctest.OtherUUID), "uuid": acctest.OtherUUID, "cluster_id": acctest.ClusterGraphQLID,
				"cluster_uuid": acctest.TestUUID, "key": "linux", "description": nil, "dispatch_paused": true, "retry_agent_affinity": "prefer-different",
				"hosted_agents": map[string]any{"instance_shape": "MACOS_M2_4X7", "mac": map[string]any{"xcode_version": "16", "macos_version": "15"}, "linux": nil}},
			Want: map[string]any{"id": acctest.OtherUUID, "cluster_id": acctest.TestUUID, "cluster_uuid": acctest.TestUUID, "retry_agent_affinity": "prefer-different",
				"dispatch_paused": true, "graphql_id": kit.GraphQLID("ClusterQueue", acctest.OtherUUID),
				"hosted_agents": map[string]any{"instance_shape": "MACOS_M2_4X7", "mac": map[string]any{"xcode_version": "16", "macos_version": "15"}, "linux": nil}},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A cluster's queues go with their cluster, which the cluster sweeper removes.",
	},
})

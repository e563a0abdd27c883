package provider

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccClusterQueueConfig(cluster, key, extra string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

resource "buildkite_cluster_queue" "test" {
  cluster_id = buildkite_cluster.test.id
  key        = %q
%s
}
`, cluster, key, extra)
}

// checkQueuePaused asks the service whether buildkite_cluster_queue.test is paused, and with which note.
func (e *testEnv) checkQueuePaused(paused bool, note string) resource.TestCheckFunc {
	const address = "buildkite_cluster_queue.test"
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		q, err := e.client.Queues.Get(context.Background(), rs.Primary.Attributes["cluster_uuid"], rs.Primary.ID)
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
	e := newTestEnv(t)
	cluster := e.name("queues")
	const addr = "buildkite_cluster_queue.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  description = "Linux agents"`)),
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(addr),
					e.checkQueuePaused(false, ""),
					e.checkQueueAffinity("prefer-warmest"),
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
				ConfigPlanChecks: expectEmpty(),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: importID(addr, "cluster_id", "id"),
				ImportStateVerify: true,
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: importID(addr, "cluster_id", "key"),
				ImportStateVerify: true,
			},
			generateConfigStep(addr, importID(addr, "cluster_id", "key")),
			{
				// Pause with a note and change the description and the retry affinity, in place.
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  description          = "Linux agents, maintenance"
  dispatch_paused      = true
  dispatch_paused_note = "Patching hosts"
  retry_agent_affinity = "prefer-different"`)),
				ConfigPlanChecks: inPlace(addr),
				Check:            resource.ComposeTestCheckFunc(e.checkQueuePaused(true, "Patching hosts"), e.checkQueueAffinity("prefer-different")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retry_agent_affinity"), knownvalue.StringExact("prefer-different")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused_note"), knownvalue.StringExact("Patching hosts")),
				},
			},
			{
				// A new note on a paused queue re-pauses it.
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  description          = "Linux agents, maintenance"
  dispatch_paused      = true
  dispatch_paused_note = "Upgrading the kernel"
  retry_agent_affinity = "prefer-different"`)),
				Check: e.checkQueuePaused(true, "Upgrading the kernel"),
			},
			{
				// Resume: the pause note goes away with the pause; the affinity goes back to its default.
				Config:           e.config(testAccClusterQueueConfig(cluster, "linux", "")),
				ConfigPlanChecks: inPlace(addr),
				Check:            resource.ComposeTestCheckFunc(e.checkQueuePaused(false, ""), e.checkQueueAffinity("prefer-warmest")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
				},
			},
			{
				// A new key replaces the queue.
				Config: e.config(testAccClusterQueueConfig(cluster, "linux-arm", "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: e.checkExists(addr),
			},
		},
	})
}

// checkQueueAffinity asks the service for the retry_agent_affinity of buildkite_cluster_queue.test.
func (e *testEnv) checkQueueAffinity(want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources["buildkite_cluster_queue.test"].Primary.Attributes
		q, err := e.client.Queues.Get(context.Background(), a["cluster_uuid"], a["id"])
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
	e := newTestEnv(t)
	cluster := e.name("graphql")
	const addr = "buildkite_cluster_queue.test"
	byGraphQL := e.config(testAccClusterQueueConfig(cluster, "linux", "") + `
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
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config: byGraphQL,
				Check: resource.ComposeTestCheckFunc(
					e.checkExists(graphQLAddr),
					resource.TestCheckResourceAttrPair(graphQLAddr, "cluster_id", "buildkite_cluster.test", "graphql_id"),
					resource.TestCheckResourceAttrPair(graphQLAddr, "cluster_uuid", "buildkite_cluster.test", "id"),
				),
				ConfigPlanChecks: expectEmpty(),
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
				SkipFunc: func() (bool, error) { return e.live, nil }, // a hosted queue runs billed agents
			},
		},
	})
}

func TestAccClusterQueueResource_createPaused(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{{
			Config: e.config(testAccClusterQueueConfig(e.name("paused"), "held", `  dispatch_paused = true`)),
			Check:  resource.ComposeTestCheckFunc(e.checkExists(addr), e.checkQueuePaused(true, "")),
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
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: the fault is the emulator's")
	}
	const addr = "buildkite_cluster_queue.test"
	cfg := e.config(testAccClusterQueueConfig(e.name("pause-fails"), "held", `  dispatch_paused      = true
  dispatch_paused_note = "Maintenance"`))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				PreConfig: e.aim(fakeserver.AimedFault{
					Route: "POST /v2/organizations/{org}/clusters/{cluster}/queues/{queue}/pause_dispatch", Kind: fakeserver.FaultServerError,
				}),
				Config:      cfg,
				ExpectError: regexpMust(`(?s)Unable to Pause Cluster Queue.*Pausing\s+cluster\s+queue\s+` + uuidPattern + `/` + uuidPattern + `:`),
			},
			{
				PreConfig:        e.server.ClearAimedFaults,
				Config:           cfg,
				ConfigPlanChecks: replaced(addr),
				Check:            resource.ComposeTestCheckFunc(e.checkQueuePaused(true, "Maintenance"), e.checkQueueCount(addr, 1)),
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
func (e *testEnv) checkQueueCount(address string, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok {
			return fmt.Errorf("%s is not in state", address)
		}
		queues, err := e.client.Queues.List(context.Background(), rs.Primary.Attributes["cluster_uuid"])
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
	e := newTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	cfg := e.config(testAccClusterQueueConfig(e.name("gone"), "gone", ""))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.removeOutside(addr),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: e.checkExists(addr),
			},
		},
	})
}

// TestAccClusterQueueResource_importKeyLikeUUID imports a queue whose key looks like a UUID: no queue has it
// as its ID, so the import finds it by key.
func TestAccClusterQueueResource_importKeyLikeUUID(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_queue.test"
	key := "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDestroyed("buildkite_cluster_queue"),
		Steps: []resource.TestStep{
			{Config: e.config(testAccClusterQueueConfig(e.name("uuid-key"), key, ""))},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: importID(addr, "cluster_id", "key"),
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccClusterQueueResource_validation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	hosted := func(body string) string {
		return e.config(testAccClusterQueueConfig("c", "ok", "  hosted_agents = {\n"+body+"\n  }"))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.config(testAccClusterQueueConfig("c", "bad key!", "")),
				ExpectError: regexpMust(`Attribute key must start with a letter or digit`),
				PlanOnly:    true,
			},
			{
				Config:      e.config(testAccClusterQueueConfig("c", "ok", `  dispatch_paused_note = "why"`)),
				ExpectError: regexpMust(`dispatch_paused_note can only be set while dispatch_paused is true`),
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
				ExpectError: wrapped(`value must be one of:`),
				PlanOnly:    true,
			},
			{
				Config:        e.config(testAccClusterQueueConfig("c", "ok", "")),
				ResourceName:  "buildkite_cluster_queue.test",
				ImportState:   true,
				ImportStateId: "no-slash",
				ExpectError:   regexpMust(`Expected an import ID of the form "<cluster id>/<queue id or key>"`),
			},
		},
	})
}

func init() {
	registerTestKind("buildkite_cluster_queue", testKind{
		fake:     fakeserver.KindQueue,
		storeKey: byParent("cluster_id"),
		get: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			_, err := c.Queues.Get(ctx, a["cluster_uuid"], a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Queues.Delete(ctx, a["cluster_uuid"], a["id"])
		},
	})
}

// The rows of buildkite_cluster_queue in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster_queue", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_cluster_queue", attrs: []string{"cluster_id", "key"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			cluster := e.name("identity")
			return identityConfigs{
				create: testAccClusterQueueConfig(cluster, "linux", `  description = "Linux agents"`),
				checks: []statecheck.StateCheck{identityValue("buildkite_cluster_queue.test", "key", "linux")},
				update: testAccClusterQueueConfig(cluster, "linux", `  dispatch_paused = true`),
			}
		},
	},
	invalidIdentity: &invalidIdentityCase{
		resourceType: "buildkite_cluster_queue",
		setup: func(e *testEnv) []invalidIdentity {
			queue := func(clusterID string) string {
				return importByIdentity("buildkite_cluster_queue", `  cluster_id = "`+unknownUUID+`"
  key        = "linux"`, "cluster_id", clusterID, "key", "linux")
			}
			return []invalidIdentity{
				{queue("Q2x1c3Rlci0tLWFiYw=="), `cluster_id (<cluster id>) "Q2x1c3Rlci0tLWFiYw==" is not a UUID`},
				{queue(unknownUUID), `Unable to Import Cluster Queue`},
			}
		},
	},
	migration: []migrationCase{
		{name: "cluster_queue", add: (*officialWorkspace).addQueue, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_cluster_queue.linux", map[string]any{"retry_agent_affinity": "prefer-different"})
			// The hosted agents are read over REST now: the moved state's block matches the service's, with no warning.
			hosted, _ := w.stateAttributes("buildkite_cluster_queue.linux")["hosted_agents"].(map[string]any)
			linux, _ := hosted["linux"].(map[string]any)
			if hosted["instance_shape"] != "LINUX_AMD64_2X4" || linux["agent_image_ref"] != "ubuntu:24.04" {
				t.Errorf("hosted_agents after the move = %v", hosted)
			}
			expectQuietPlan(t, w)
		}},
		{name: "cluster_queue_mac", add: (*officialWorkspace).addMacQueue, check: func(t *testing.T, w *cliWorkdir) {
			// The macOS settings are applied and read through GraphQL now: the moved state's match the service's.
			hosted, _ := w.stateAttributes("buildkite_cluster_queue.mac")["hosted_agents"].(map[string]any)
			mac, _ := hosted["mac"].(map[string]any)
			if hosted["instance_shape"] != "MACOS_ARM64_M4_6X28" || mac["xcode_version"] != "16.2" || mac["macos_version"] != "SEQUOIA" {
				t.Errorf("hosted_agents after the move = %v", hosted)
			}
			expectQuietPlan(t, w)
		}},
	},
	query: &queryCase{resourceType: "buildkite_cluster_queue", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		queue := func(c *buildkite.Cluster, q *buildkite.Queue) queryfilter.QueryFilter {
			return byIdentity("cluster_id", c.ID, "key", q.Key)
		}
		return queryRow{
			blocks: []string{"buildkite_cluster_queue", "a", fmt.Sprintf("    cluster_id = %q", s.a.ID)},
			checks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_queue.all", 3),
				querycheck.ExpectLength("buildkite_cluster_queue.a", 2),
				querycheck.ExpectIdentity("buildkite_cluster_queue.a", identityOf("cluster_id", s.a.ID, "key", "mac")),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_queue.all", queue(s.b, s.other), knownvalue.StringExact(base+"-b / other")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_queue.a", queue(s.a, s.mac), []querycheck.KnownValueCheck{
					known("id", knownvalue.StringExact(s.mac.ID)),
					known("dispatch_paused", knownvalue.Bool(true)),
					known("dispatch_paused_note", knownvalue.StringExact("Patching hosts")),
				}),
			},
			refused: []queryRefusal{{fmt.Sprintf(unknownUUIDFilter, "cluster_id"), wrapped(`No cluster matches the ID "` + unknownUUID + `"`)}},
			imports: 3,
		}
	}},
	taken: &takenCase{resourceType: "buildkite_cluster_queue", setup: func(t *testing.T, e *testEnv) (string, string) {
		c, err := e.client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.name("taken")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.client.Queues.Create(context.Background(), c.ID, buildkite.QueueCreate{Key: "linux"}); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf(`
resource "buildkite_cluster_queue" "test" {
  cluster_id = %q
  key        = "linux"
}
`, c.ID), c.ID + "/linux"
	}},
	upgrade: []upgradeCase{
		{
			name: "queue, ours at version 0", typeName: "buildkite_cluster_queue", version: 0,
			state: map[string]any{"id": otherUUID, "uuid": otherUUID, "graphql_id": "Q", "cluster_id": testUUID, "key": "linux",
				"description": nil, "dispatch_paused": false, "dispatch_paused_note": nil, "url": "u", "web_url": "w"},
			want: map[string]any{"cluster_id": testUUID, "cluster_uuid": testUUID, "retry_agent_affinity": "prefer-warmest",
				"hosted_agents": nil, "dispatch_paused": false},
		},
		{
			name: "queue, the official provider's", typeName: "buildkite_cluster_queue", version: 0,
			state: map[string]any{"id": kit.GraphQLID("ClusterQueue", otherUUID), "uuid": otherUUID, "cluster_id": clusterGraphQLID,
				"cluster_uuid": testUUID, "key": "linux", "description": nil, "dispatch_paused": true, "retry_agent_affinity": "prefer-different",
				"hosted_agents": map[string]any{"instance_shape": "MACOS_M2_4X7", "mac": map[string]any{"xcode_version": "16", "macos_version": "15"}, "linux": nil}},
			want: map[string]any{"id": otherUUID, "cluster_id": testUUID, "cluster_uuid": testUUID, "retry_agent_affinity": "prefer-different",
				"dispatch_paused": true, "graphql_id": kit.GraphQLID("ClusterQueue", otherUUID),
				"hosted_agents": map[string]any{"instance_shape": "MACOS_M2_4X7", "mac": map[string]any{"xcode_version": "16", "macos_version": "15"}, "linux": nil}},
		},
	},
	serviceState: func(ctx context.Context, c *buildkite.Client) ([]string, error) {
		clusters, err := c.Clusters.List(ctx)
		return childIDs(clusters, err, func(cl buildkite.Cluster) ([]buildkite.Queue, error) { return c.Queues.List(ctx, cl.ID) },
			func(q buildkite.Queue) string { return q.ID })
	},
	exempt: map[string]string{
		tableSweeper: "A cluster's queues go with their cluster, which the cluster sweeper removes.",
	},
})

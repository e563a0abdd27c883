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

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/fakeserver"
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
		q, err := e.client.Queues.Get(context.Background(), rs.Primary.Attributes["cluster_id"], rs.Primary.ID)
		if err != nil {
			return err
		}
		if q.DispatchPaused != paused {
			return fmt.Errorf("queue %s: dispatch_paused is %t on the service, want %t", q.Key, q.DispatchPaused, paused)
		}
		got := deref(q.DispatchPausedNote)
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
					resource.TestCheckResourceAttrPair(addr, "cluster_id", "buildkite_cluster.test", "id"),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("key"), knownvalue.StringExact("linux")),
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
				// Pause with a note and change the description, in place.
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  description          = "Linux agents, maintenance"
  dispatch_paused      = true
  dispatch_paused_note = "Patching hosts"`)),
				ConfigPlanChecks: inPlace(addr),
				Check:            e.checkQueuePaused(true, "Patching hosts"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dispatch_paused_note"), knownvalue.StringExact("Patching hosts")),
				},
			},
			{
				// A new note on a paused queue re-pauses it.
				Config: e.config(testAccClusterQueueConfig(cluster, "linux", `  description          = "Linux agents, maintenance"
  dispatch_paused      = true
  dispatch_paused_note = "Upgrading the kernel"`)),
				Check: e.checkQueuePaused(true, "Upgrading the kernel"),
			},
			{
				// Resume: the pause note goes away with the pause.
				Config:           e.config(testAccClusterQueueConfig(cluster, "linux", "")),
				ConfigPlanChecks: inPlace(addr),
				Check:            e.checkQueuePaused(false, ""),
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
	resource.UnitTest(t, resource.TestCase{
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
			_, err := c.Queues.Get(ctx, a["cluster_id"], a["id"])
			return err
		},
		del: func(ctx context.Context, c *buildkite.Client, a map[string]string) error {
			return c.Queues.Delete(ctx, a["cluster_id"], a["id"])
		},
	})
}

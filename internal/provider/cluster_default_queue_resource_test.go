package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccClusterDefaultQueueConfig(cluster, clusterRef, queueRef string) string {
	cfg := fmt.Sprintf(`
resource "buildkite_cluster" "a" {
  name = "%[1]s-a"
}

resource "buildkite_cluster" "b" {
  name = "%[1]s-b"
}

resource "buildkite_cluster_queue" "a1" {
  cluster_id = buildkite_cluster.a.id
  key        = "a1"
}

resource "buildkite_cluster_queue" "a2" {
  cluster_id = buildkite_cluster.a.id
  key        = "a2"
}

resource "buildkite_cluster_queue" "b1" {
  cluster_id = buildkite_cluster.b.id
  key        = "b1"
}
`, cluster)
	if queueRef != "" {
		cfg += fmt.Sprintf(`
resource "buildkite_cluster_default_queue" "test" {
  cluster_id = buildkite_cluster.%s.id
  queue_id   = buildkite_cluster_queue.%s.id
}
`, clusterRef, queueRef)
	}
	return cfg
}

// checkDefaultQueue fails unless the cluster's default queue on the service is the given queue ("" for none).
func (e *testEnv) checkDefaultQueue(clusterAddr, queueAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		cluster, ok := s.RootModule().Resources[clusterAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", clusterAddr)
		}
		want := ""
		if queueAddr != "" {
			q, ok := s.RootModule().Resources[queueAddr]
			if !ok {
				return fmt.Errorf("%s is not in state", queueAddr)
			}
			want = q.Primary.ID
		}
		got, err := e.defaultQueueOf(cluster.Primary.ID)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("default queue of %s is %q on the service, want %q", clusterAddr, got, want)
		}
		return nil
	}
}

// clearDefaultQueueOutside unsets a cluster's default queue behind Terraform's back.
func (e *testEnv) clearDefaultQueueOutside(clusterAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		cluster, ok := s.RootModule().Resources[clusterAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", clusterAddr)
		}
		if e.live {
			_, err := e.client.Clusters.Update(context.Background(), cluster.Primary.ID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Cleared[string]()})
			return err
		}
		return e.server.Store().SetClusterDefaultQueueID(e.org, cluster.Primary.ID, "")
	}
}

func TestAccClusterDefaultQueueResource_basic(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	name := e.name("defaults")
	const addr = "buildkite_cluster_default_queue.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{
				Config: e.config(testAccClusterDefaultQueueConfig(name, "a", "a1")),
				Check: resource.ComposeTestCheckFunc(
					e.checkDefaultQueue("buildkite_cluster.a", "buildkite_cluster_queue.a1"),
					resource.TestCheckResourceAttrPair(addr, "id", "buildkite_cluster.a", "id"),
					resource.TestCheckResourceAttrPair(addr, "key", "buildkite_cluster_queue.a1", "key"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: importID(addr, "cluster_id"),
				ImportStateVerify: true,
			},
			generateConfigStep(addr, importID(addr, "cluster_id")),
			{
				// Another queue of the same cluster: in place.
				Config: e.config(testAccClusterDefaultQueueConfig(name, "a", "a2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					e.checkDefaultQueue("buildkite_cluster.a", "buildkite_cluster_queue.a2"),
					resource.TestCheckResourceAttrPair(addr, "key", "buildkite_cluster_queue.a2", "key"),
				),
			},
			{
				// Another cluster: replacement, which unsets the first cluster's default.
				Config: e.config(testAccClusterDefaultQueueConfig(name, "b", "b1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(
					e.checkDefaultQueue("buildkite_cluster.b", "buildkite_cluster_queue.b1"),
					e.checkDefaultQueue("buildkite_cluster.a", ""),
				),
			},
			{
				// Destroying the resource alone unsets the default and keeps the cluster.
				Config: e.config(testAccClusterDefaultQueueConfig(name, "", "")),
				Check:  e.checkDefaultQueue("buildkite_cluster.b", ""),
			},
		},
	})
}

// TestAccClusterDefaultQueueResource_graphQLReferences names the cluster and the queue by GraphQL ID, as the
// official provider's configurations do: switching to UUIDs and back plans nothing, and the setting imports by
// the cluster's GraphQL ID, the official provider's import ID.
func TestAccClusterDefaultQueueResource_graphQLReferences(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	byUUID := e.config(testAccClusterDefaultQueueConfig(e.name("graphql"), "a", "a1"))
	byGraphQL := strings.NewReplacer("buildkite_cluster.a.id\n  queue_id", "buildkite_cluster.a.graphql_id\n  queue_id",
		"buildkite_cluster_queue.a1.id", "buildkite_cluster_queue.a1.graphql_id").Replace(byUUID)
	if byGraphQL == byUUID {
		t.Fatal("the configuration by GraphQL ID is the one by UUID")
	}
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{
				Config: byGraphQL,
				Check: resource.ComposeTestCheckFunc(
					e.checkDefaultQueue("buildkite_cluster.a", "buildkite_cluster_queue.a1"),
					resource.TestCheckResourceAttrPair(addr, "queue_id", "buildkite_cluster_queue.a1", "graphql_id"),
					resource.TestCheckResourceAttrPair(addr, "key", "buildkite_cluster_queue.a1", "key"),
				),
				ConfigPlanChecks: expectEmpty(),
			},
			{Config: byUUID, ConfigPlanChecks: empty},
			{Config: byGraphQL, ConfigPlanChecks: empty},
			{
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc:       importID(addr, "graphql_id"),
				ImportStateVerifyIgnore: []string{"cluster_id", "queue_id"}, // imported as UUIDs, held as GraphQL IDs
			},
		},
	})
}

func TestAccClusterDefaultQueueResource_disappears(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	cfg := e.config(testAccClusterDefaultQueueConfig(e.name("gone"), "a", "a1"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              e.clearDefaultQueueOutside("buildkite_cluster.a"),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: e.checkDefaultQueue("buildkite_cluster.a", "buildkite_cluster_queue.a1"),
			},
		},
	})
}

// refuseUnsetDefaultQueue answers 422 to a cluster update that clears the default queue, as a service
// that cannot unset one would.
func refuseUnsetDefaultQueue(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/clusters/") && r.Body != nil {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"default_queue_id":null`) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnprocessableEntity)
				_, _ = io.WriteString(w, `{"message":"Validation failed: Default queue can't be blank"}`)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

// TestAccClusterDefaultQueueResource_unsetRefused destroys the resource against a service that will not
// unset a default queue: the destroy must still finish, leaving the queue in place.
func TestAccClusterDefaultQueueResource_unsetRefused(t *testing.T) {
	t.Parallel()
	e := newTestEnvWith(t, fakeserver.Options{}, refuseUnsetDefaultQueue)
	if e.live {
		t.Skip("needs the emulator to refuse unsetting a default queue")
	}
	name := e.name("refused")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{Config: e.config(testAccClusterDefaultQueueConfig(name, "a", "a1"))},
			{
				// Only the default queue setting goes away; the service keeps the queue as default.
				Config: e.config(testAccClusterDefaultQueueConfig(name, "", "")),
				Check:  e.checkDefaultQueue("buildkite_cluster.a", "buildkite_cluster_queue.a1"),
			},
		},
	})
}

// TestAccClusterDefaultQueueResource_queueReplaced: the default queue's key changes, which replaces the queue
// (the old one, the default, is deleted first); the setting then points at the new queue, and key follows.
func TestAccClusterDefaultQueueResource_queueReplaced(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	cfg := func(key string) string {
		return e.config(fmt.Sprintf(`
resource "buildkite_cluster" "c" {
  name = %q
}

resource "buildkite_cluster_queue" "q" {
  cluster_id = buildkite_cluster.c.id
  key        = %q
}

resource "buildkite_cluster_default_queue" "test" {
  cluster_id = buildkite_cluster.c.id
  queue_id   = buildkite_cluster_queue.q.id
}
`, e.name("replaced"), key))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		CheckDestroy:             e.checkDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{Config: cfg("default"), Check: e.checkDefaultQueue("buildkite_cluster.c", "buildkite_cluster_queue.q")},
			{
				Config: cfg("new"),
				Check: resource.ComposeTestCheckFunc(
					e.checkDefaultQueue("buildkite_cluster.c", "buildkite_cluster_queue.q"),
					resource.TestCheckResourceAttr(addr, "key", "new"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// The rows of buildkite_cluster_default_queue in the tables every type runs through (type_tests_kit_test.go).
var _ = registerTypeTests("buildkite_cluster_default_queue", typeTests{
	identity: &identityCase{
		resourceType: "buildkite_cluster_default_queue", attrs: []string{"cluster_id"},
		setup: func(t *testing.T, e *testEnv) identityConfigs {
			return identityConfigs{
				create:    testAccClusterDefaultQueueConfig(e.name("identity"), "a", "a1"),
				destroyed: e.checkDefaultQueueDestroyed,
			}
		},
	},
	migration: []migrationCase{
		{name: "cluster_default_queue", add: (*officialWorkspace).addDefaultQueue, check: func(t *testing.T, w *cliWorkdir) {
			expectMoved(t, w, "buildkite_cluster_default_queue.main", map[string]any{"key": "linux"})
		}},
	},
	query: &queryCase{resourceType: "buildkite_cluster_default_queue", run: func(t *testing.T, e *testEnv, base string) queryRow {
		s := e.seedClusters(t, base)
		return queryRow{
			blocks: []string{"buildkite_cluster_default_queue", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID)},
			checks: []querycheck.QueryResultCheck{
				// Cluster b has no default queue, so only a's is found.
				querycheck.ExpectLength("buildkite_cluster_default_queue.all", 1),
				querycheck.ExpectLength("buildkite_cluster_default_queue.b", 0),
				querycheck.ExpectIdentity("buildkite_cluster_default_queue.all", identityOf("cluster_id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_default_queue.all", byIdentity("cluster_id", s.a.ID),
					knownvalue.StringExact(base+"-a / default queue")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_default_queue.all", byIdentity("cluster_id", s.a.ID),
					[]querycheck.KnownValueCheck{known("queue_id", knownvalue.StringExact(s.linux.ID))}),
			},
			imports: 1,
		}
	}},
	upgrade: []upgradeCase{
		{
			name: "default queue, ours at version 0", typeName: "buildkite_cluster_default_queue", version: 0,
			state: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "cluster_id": testUUID, "queue_id": otherUUID},
			want:  map[string]any{"id": testUUID, "queue_id": otherUUID, "key": nil},
		},
		{
			name: "default queue, the official provider's", typeName: "buildkite_cluster_default_queue", version: 0,
			state: map[string]any{"id": clusterGraphQLID, "uuid": testUUID, "cluster_id": clusterGraphQLID,
				"queue_id": kit.GraphQLID("ClusterQueue", otherUUID), "key": "linux"},
			want: map[string]any{"id": testUUID, "uuid": testUUID, "graphql_id": clusterGraphQLID, "cluster_id": testUUID,
				"queue_id": otherUUID, "key": "linux"},
		},
	},
	exempt: map[string]string{
		tableSweeper: "A default queue is a setting of its cluster, which the cluster sweeper removes.",
	},
})

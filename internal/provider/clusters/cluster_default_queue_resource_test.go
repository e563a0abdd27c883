package clusters_test

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
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
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
func checkDefaultQueue(e *acctest.TestEnv, clusterAddr, queueAddr string) resource.TestCheckFunc {
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
		got, err := e.DefaultQueueOf(cluster.Primary.ID)
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
func clearDefaultQueueOutside(e *acctest.TestEnv, clusterAddr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		cluster, ok := s.RootModule().Resources[clusterAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", clusterAddr)
		}
		if e.Live {
			_, err := e.Client.Clusters.Update(context.Background(), cluster.Primary.ID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Cleared[string]()})
			return err
		}
		return e.Server.Store().SetClusterDefaultQueueID(e.Org, cluster.Primary.ID, "")
	}
}

func TestAccClusterDefaultQueueResource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("defaults")
	const addr = "buildkite_cluster_default_queue.test"

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{
				Config: e.Config(testAccClusterDefaultQueueConfig(name, "a", "a1")),
				Check: resource.ComposeTestCheckFunc(
					checkDefaultQueue(e, "buildkite_cluster.a", "buildkite_cluster_queue.a1"),
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
				ImportStateIdFunc: acctest.ImportID(addr, "cluster_id"),
				ImportStateVerify: true,
			},
			acctest.GenerateConfigStep(addr, acctest.ImportID(addr, "cluster_id")),
			{
				// Another queue of the same cluster: in place.
				Config: e.Config(testAccClusterDefaultQueueConfig(name, "a", "a2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					checkDefaultQueue(e, "buildkite_cluster.a", "buildkite_cluster_queue.a2"),
					resource.TestCheckResourceAttrPair(addr, "key", "buildkite_cluster_queue.a2", "key"),
				),
			},
			{
				// Another cluster: replacement, which unsets the first cluster's default.
				Config: e.Config(testAccClusterDefaultQueueConfig(name, "b", "b1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeTestCheckFunc(
					checkDefaultQueue(e, "buildkite_cluster.b", "buildkite_cluster_queue.b1"),
					checkDefaultQueue(e, "buildkite_cluster.a", ""),
				),
			},
			{
				// Destroying the resource alone unsets the default and keeps the cluster.
				Config: e.Config(testAccClusterDefaultQueueConfig(name, "", "")),
				Check:  checkDefaultQueue(e, "buildkite_cluster.b", ""),
			},
		},
	})
}

// TestAccClusterDefaultQueueResource_graphQLReferences names the cluster and the queue by GraphQL ID, as the
// official provider's configurations do: switching to UUIDs and back plans nothing, and the setting imports by
// the cluster's GraphQL ID, the official provider's import ID.
func TestAccClusterDefaultQueueResource_graphQLReferences(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	byUUID := e.Config(testAccClusterDefaultQueueConfig(e.Name("graphql"), "a", "a1"))
	byGraphQL := strings.NewReplacer("buildkite_cluster.a.id\n  queue_id", "buildkite_cluster.a.graphql_id\n  queue_id",
		"buildkite_cluster_queue.a1.id", "buildkite_cluster_queue.a1.graphql_id").Replace(byUUID)
	if byGraphQL == byUUID {
		t.Fatal("the configuration by GraphQL ID is the one by UUID")
	}
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{
				Config: byGraphQL,
				Check: resource.ComposeTestCheckFunc(
					checkDefaultQueue(e, "buildkite_cluster.a", "buildkite_cluster_queue.a1"),
					resource.TestCheckResourceAttrPair(addr, "queue_id", "buildkite_cluster_queue.a1", "graphql_id"),
					resource.TestCheckResourceAttrPair(addr, "key", "buildkite_cluster_queue.a1", "key"),
				),
				ConfigPlanChecks: acctest.ExpectEmpty(),
			},
			{Config: byUUID, ConfigPlanChecks: empty},
			{Config: byGraphQL, ConfigPlanChecks: empty},
			{
				ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc:       acctest.ImportID(addr, "graphql_id"),
				ImportStateVerifyIgnore: []string{"cluster_id", "queue_id"}, // imported as UUIDs, held as GraphQL IDs
			},
		},
	})
}

func TestAccClusterDefaultQueueResource_disappears(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	cfg := e.Config(testAccClusterDefaultQueueConfig(e.Name("gone"), "a", "a1"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				Check:              clearDefaultQueueOutside(e, "buildkite_cluster.a"),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: checkDefaultQueue(e, "buildkite_cluster.a", "buildkite_cluster_queue.a1"),
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
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, refuseUnsetDefaultQueue)
	if e.Live {
		t.Skip("needs the emulator to refuse unsetting a default queue")
	}
	name := e.Name("refused")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(testAccClusterDefaultQueueConfig(name, "a", "a1"))},
			{
				// Only the default queue setting goes away; the service keeps the queue as default.
				Config: e.Config(testAccClusterDefaultQueueConfig(name, "", "")),
				Check:  checkDefaultQueue(e, "buildkite_cluster.a", "buildkite_cluster_queue.a1"),
			},
		},
	})
}

// TestAccClusterDefaultQueueResource_queueReplaced: the default queue's key changes, which replaces the queue
// (the old one, the default, is deleted first); the setting then points at the new queue, and key follows.
func TestAccClusterDefaultQueueResource_queueReplaced(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "buildkite_cluster_default_queue.test"
	cfg := func(key string) string {
		return e.Config(fmt.Sprintf(`
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
`, e.Name("replaced"), key))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDefaultQueueDestroyed,
		Steps: []resource.TestStep{
			{Config: cfg("default"), Check: checkDefaultQueue(e, "buildkite_cluster.c", "buildkite_cluster_queue.q")},
			{
				Config: cfg("new"),
				Check: resource.ComposeTestCheckFunc(
					checkDefaultQueue(e, "buildkite_cluster.c", "buildkite_cluster_queue.q"),
					resource.TestCheckResourceAttr(addr, "key", "new"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// The rows of buildkite_cluster_default_queue in the tables every type runs through (acctest/type_tests.go).
var _ = acctest.RegisterTypeTests("buildkite_cluster_default_queue", acctest.TypeTests{
	Identity: &acctest.IdentityCase{
		ResourceType: "buildkite_cluster_default_queue", Attrs: []string{"cluster_id"},
		Setup: func(t *testing.T, e *acctest.TestEnv) acctest.IdentityConfigs {
			return acctest.IdentityConfigs{
				Create:    testAccClusterDefaultQueueConfig(e.Name("identity"), "a", "a1"),
				Destroyed: e.CheckDefaultQueueDestroyed,
			}
		},
	},
	Migration: []acctest.MigrationCase{
		{Name: "cluster_default_queue", Add: (*acctest.OfficialWorkspace).AddDefaultQueue, Check: func(t *testing.T, w *acctest.CLIWorkdir) {
			acctest.ExpectMoved(t, w, "buildkite_cluster_default_queue.main", map[string]any{"key": "linux"})
		}},
	},
	Query: &acctest.QueryCase{ResourceType: "buildkite_cluster_default_queue", Run: func(t *testing.T, e *acctest.TestEnv, base string) acctest.QueryRow {
		s := e.SeedClusters(t, base)
		return acctest.QueryRow{
			Blocks: []string{"buildkite_cluster_default_queue", "b", fmt.Sprintf("    cluster_id = %q", s.B.ID)},
			Checks: []querycheck.QueryResultCheck{
				// Cluster b has no default queue, so only a's is found.
				querycheck.ExpectLength("buildkite_cluster_default_queue.all", 1),
				querycheck.ExpectLength("buildkite_cluster_default_queue.b", 0),
				querycheck.ExpectIdentity("buildkite_cluster_default_queue.all", acctest.IdentityOf("cluster_id", s.A.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_default_queue.all", acctest.ByIdentity("cluster_id", s.A.ID),
					knownvalue.StringExact(base+"-a / default queue")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_default_queue.all", acctest.ByIdentity("cluster_id", s.A.ID),
					[]querycheck.KnownValueCheck{acctest.Known("queue_id", knownvalue.StringExact(s.Linux.ID))}),
			},
			Imports: 1,
		}
	}},
	Upgrade: []acctest.UpgradeCase{
		{
			Name: "default queue, ours at version 0", TypeName: "buildkite_cluster_default_queue", Version: 0,
			State: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": acctest.ClusterGraphQLID, "cluster_id": acctest.TestUUID, "queue_id": acctest.OtherUUID},
			Want:  map[string]any{"id": acctest.TestUUID, "queue_id": acctest.OtherUUID, "key": nil},
		},
		{
			Name: "default queue, the official provider's", TypeName: "buildkite_cluster_default_queue", Version: 0,
			State: map[string]any{"id": acctest.ClusterGraphQLID, "uuid": acctest.TestUUID, "cluster_id": acctest.ClusterGraphQLID,
				"queue_id": kit.GraphQLID("ClusterQueue", acctest.OtherUUID), "key": "linux"},
			Want: map[string]any{"id": acctest.TestUUID, "uuid": acctest.TestUUID, "graphql_id": acctest.ClusterGraphQLID, "cluster_id": acctest.TestUUID,
				"queue_id": acctest.OtherUUID, "key": "linux"},
		},
	},
	Exempt: map[string]string{
		acctest.TableSweeper: "A default queue is a setting of its cluster, which the cluster sweeper removes.",
	},
})

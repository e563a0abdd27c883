package clusters_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// seedClusters creates two clusters named name-a (with a default and a paused queue) and name-b through
// the API and returns them.
func seedClusters(t *testing.T, e *acctest.TestEnv, name string) (a, b *buildkite.Cluster) {
	t.Helper()
	ctx := context.Background()
	var err error
	desc := "first"
	if a, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: name + "-a", Description: &desc}); err != nil {
		t.Fatal(err)
	}
	if b, err = e.Client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: name + "-b"}); err != nil {
		t.Fatal(err)
	}
	linux, err := e.Client.Queues.Create(ctx, a.ID, buildkite.QueueCreate{Key: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	mac, err := e.Client.Queues.Create(ctx, a.ID, buildkite.QueueCreate{Key: "macos"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Client.Queues.Pause(ctx, a.ID, mac.ID, "upgrading"); err != nil {
		t.Fatal(err)
	}
	if a, err = e.Client.Clusters.Update(ctx, a.ID, buildkite.ClusterUpdate{DefaultQueueID: buildkite.Value(linux.ID)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.Client.Clusters.Delete(context.Background(), a.ID)
		_ = e.Client.Clusters.Delete(context.Background(), b.ID)
	})
	return a, b
}

func TestAccClusterDataSources(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("views")
	a, b := seedClusters(t, e, name)
	// Cluster b has a team as its maintainer; a has none.
	team, err := e.Client.Teams.Create(context.Background(), buildkite.TeamWrite{Name: name + "-owners", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	maintainer, err := e.Client.ClusterMaintainers.Create(context.Background(), b.ID, buildkite.ClusterMaintainerCreate{TeamID: team.ID})
	if err != nil {
		t.Fatal(err)
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Config(fmt.Sprintf(`
data "buildkite_cluster" "by_name" {
  name = "%[1]s-a"
}

data "buildkite_cluster" "by_id" {
  id = %[2]q
}

data "buildkite_clusters" "all" {}

data "buildkite_cluster_queues" "a" {
  cluster_id = data.buildkite_cluster.by_name.id
}

data "buildkite_cluster" "by_graphql_id" {
  id = %[3]q
}

data "buildkite_cluster_queues" "by_graphql_id" {
  cluster_id = %[4]q
}
`, name, b.ID, b.GraphQLID, a.GraphQLID)),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "id", a.ID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "uuid", a.ID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "description", "first"),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "default_queue_id", *a.DefaultQueueID),
					resource.TestCheckResourceAttrSet("data.buildkite_cluster.by_name", "created_at"),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_id", "name", name+"-b"),
					resource.TestCheckNoResourceAttr("data.buildkite_cluster.by_id", "default_queue_id"),
					resource.TestCheckNoResourceAttr("data.buildkite_cluster.by_id", "description"),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_clusters.all", "clusters.*", map[string]string{
						"id": a.ID, "name": name + "-a", "default_queue_id": *a.DefaultQueueID, "description": "first",
					}),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_clusters.all", "clusters.*", map[string]string{
						"id": b.ID, "name": name + "-b",
					}),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "default_queue.id", *a.DefaultQueueID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "default_queue.key", "linux"),
					resource.TestCheckNoResourceAttr("data.buildkite_cluster.by_name", "default_queue.description"),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_name", "maintainers.#", "0"),
					resource.TestCheckNoResourceAttr("data.buildkite_cluster.by_id", "default_queue.key"),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_id", "maintainers.#", "1"),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_id", "maintainers.0.permission_uuid", maintainer.ID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_id", "maintainers.0.actor_uuid", team.ID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_id", "maintainers.0.actor_type", "team"),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_id", "maintainers.0.actor_name", team.Name),
					resource.TestCheckNoResourceAttr("data.buildkite_cluster.by_id", "maintainers.0.actor_email"),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_clusters.all", "clusters.*", map[string]string{
						"id": b.ID, "maintainers.#": "1", "maintainers.0.actor_uuid": team.ID,
					}),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_graphql_id", "id", b.GraphQLID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_graphql_id", "uuid", b.ID),
					resource.TestCheckResourceAttr("data.buildkite_cluster.by_graphql_id", "name", name+"-b"),
					resource.TestCheckResourceAttr("data.buildkite_cluster_queues.by_graphql_id", "queues.#", "2"),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_clusters.all", "clusters.*", map[string]string{
						"id": a.ID, "default_queue.key": "linux", "default_queue.uuid": *a.DefaultQueueID,
					}),
					resource.TestCheckResourceAttr("data.buildkite_cluster_queues.a", "queues.#", "2"),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_cluster_queues.a", "queues.*", map[string]string{
						"key": "linux", "dispatch_paused": "false", "cluster_id": a.ID,
					}),
					resource.TestCheckTypeSetElemNestedAttrs("data.buildkite_cluster_queues.a", "queues.*", map[string]string{
						"key": "macos", "dispatch_paused": "true", "dispatch_paused_note": "upgrading",
					}),
				),
			},
		},
	})
}

func TestAccClusterDataSource_errors(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	name := e.Name("twice")
	seedClusters(t, e, name)
	if _, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: name + "-b"}); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`data "buildkite_cluster" "x" { name = "no-such-cluster" }`),
				ExpectError: acctest.RegexpMust(`(?s)Unable to find Cluster.*Could not find cluster with name "no-such-cluster"`),
			},
			{
				Config:      e.Config(fmt.Sprintf(`data "buildkite_cluster" "x" { name = "%s-b" }`, name)),
				ExpectError: acctest.RegexpMust(`(?s)More Than One Cluster Found.*2 clusters match the name`),
			},
			{
				Config:      e.Config(`data "buildkite_cluster" "x" { id = "01234567-89ab-cdef-0123-456789abcdef" }`),
				ExpectError: acctest.RegexpMust(`(?s)Unable to find Cluster.*Could not find cluster with ID "01234567-89ab-cdef-0123-456789abcdef"`),
			},
			{
				Config:      e.Config(`data "buildkite_cluster" "x" {}`),
				ExpectError: acctest.RegexpMust(`(?s)Exactly one of these attributes must be configured: \[id,name\]`),
			},
		},
	})
}

// TestAccClusterDataSources_clusterDeletedWhileListed: a cluster deleted between the listing and the reads
// of its details (as another workspace of a shared organization may) is left out, not an error.
func TestAccClusterDataSources_clusterDeletedWhileListed(t *testing.T) {
	t.Parallel()
	var gone atomic.Value // the ID of the cluster deleted once the listing has been answered
	gone.Store("")
	deleteAfterListing := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			id := gone.Load().(string)
			if id != "" && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/clusters") {
				del := r.Clone(r.Context())
				del.Method, del.URL.Path, del.Body = http.MethodDelete, r.URL.Path+"/"+id, http.NoBody
				next.ServeHTTP(httptest.NewRecorder(), del)
				gone.Store("")
			}
		})
	}
	e := acctest.NewTestEnvWith(t, fakeserver.Options{}, deleteAfterListing)
	name := e.Name("vanishing")
	a, b := seedClusters(t, e, name)
	gone.Store(b.ID)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(`data "buildkite_clusters" "all" {}`),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.buildkite_clusters.all", "clusters.#", "1"),
				resource.TestCheckResourceAttr("data.buildkite_clusters.all", "clusters.0.id", a.ID),
			),
		}},
	})
}

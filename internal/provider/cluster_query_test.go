package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// `terraform query` (Terraform 1.14+) over the cluster resources: what the list resources find with their
// filters, and configuration generated from it that imports and then plans empty. `make testacc-next` runs
// these.

// seededClusters is what seedClusters made outside Terraform.
type seededClusters struct {
	a, b              *buildkite.Cluster
	linux, mac, other *buildkite.Queue
	tokenA, tokenB    *buildkite.ClusterToken
}

// seedClusters makes, through the API as someone outside Terraform would, cluster "<base>-a" with every
// optional attribute, a described queue that is its default, a paused queue with a note and a restricted,
// expiring token; and cluster "<base>-b" with nothing optional, one queue, one token and no default queue.
func (e *testEnv) seedClusters(t *testing.T, base string) seededClusters {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
	}
	str := func(s string) *string { return &s }
	var s seededClusters
	var err error
	s.a, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{
		Name: base + "-a", Description: str("Builds for the platform"), Emoji: str(":rocket:"), Color: str("#A8D5FF"),
	})
	must(err)
	s.b, err = e.client.Clusters.Create(ctx, buildkite.ClusterCreate{Name: base + "-b"})
	must(err)
	s.linux, err = e.client.Queues.Create(ctx, s.a.ID, buildkite.QueueCreate{Key: "linux", Description: str("Linux agents")})
	must(err)
	s.mac, err = e.client.Queues.Create(ctx, s.a.ID, buildkite.QueueCreate{Key: "mac"})
	must(err)
	_, err = e.client.Queues.Pause(ctx, s.a.ID, s.mac.ID, "Patching hosts")
	must(err)
	s.other, err = e.client.Queues.Create(ctx, s.b.ID, buildkite.QueueCreate{Key: "other"})
	must(err)
	_, err = e.client.Clusters.Update(ctx, s.a.ID, buildkite.ClusterUpdate{DefaultQueueID: &s.linux.ID})
	must(err)
	expires := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s.tokenA, err = e.client.ClusterTokens.Create(ctx, s.a.ID, buildkite.ClusterTokenCreate{
		Description: "CI agents", AllowedIPAddresses: str("10.0.0.0/8 192.168.1.0/24"), ExpiresAt: &expires,
	})
	must(err)
	s.tokenB, err = e.client.ClusterTokens.Create(ctx, s.b.ID, buildkite.ClusterTokenCreate{Description: "Other agents"})
	must(err)
	return s
}

// queryConfig is a .tfquery.hcl: the provider block and listBlocks(blocks...).
func (e *testEnv) queryConfig(blocks ...string) string {
	return e.config("") + listBlocks(blocks...)
}

// listBlocks renders list blocks that include the resources, from triples of resource type, name and the
// body of the config block ("" for none).
func listBlocks(blocks ...string) string {
	cfg := ""
	for i := 0; i+2 < len(blocks); i += 3 {
		cfg += fmt.Sprintf(`
list %q %q {
  provider         = buildkite
  include_resource = true
  config {
%s
  }
}
`, blocks[i], blocks[i+1], blocks[i+2])
	}
	return cfg
}

func TestAccClusterResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedClusters(t, base)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_cluster", "all", "",
				"buildkite_cluster", "named", fmt.Sprintf("    name = %q", base+"-A"),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster.all", 2),
				querycheck.ExpectLength("buildkite_cluster.named", 1),
				querycheck.ExpectIdentity("buildkite_cluster.named", identityOf("id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster.all",
					queryfilter.ByResourceIdentity(identityOf("id", s.b.ID)), knownvalue.StringExact(base+"-b")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", queryfilter.ByResourceIdentity(identityOf("id", s.a.ID)),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact(base + "-a")},
						{Path: tfjsonpath.New("emoji"), KnownValue: knownvalue.StringExact(":rocket:")},
						{Path: tfjsonpath.New("color"), KnownValue: knownvalue.StringExact("#A8D5FF")},
					}),
				querycheck.ExpectResourceKnownValues("buildkite_cluster.all", queryfilter.ByResourceIdentity(identityOf("id", s.b.ID)),
					[]querycheck.KnownValueCheck{{Path: tfjsonpath.New("description"), KnownValue: knownvalue.Null()}}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_cluster", "all", ""), 2)
}

func TestAccClusterQueueResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedClusters(t, base)
	queue := func(c *buildkite.Cluster, q *buildkite.Queue) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(identityOf("cluster_id", c.ID, "key", q.Key))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: e.queryConfig(
					"buildkite_cluster_queue", "all", "",
					"buildkite_cluster_queue", "a", fmt.Sprintf("    cluster_id = %q", s.a.ID),
				),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("buildkite_cluster_queue.all", 3),
					querycheck.ExpectLength("buildkite_cluster_queue.a", 2),
					querycheck.ExpectIdentity("buildkite_cluster_queue.a", identityOf("cluster_id", s.a.ID, "key", "mac")),
					querycheck.ExpectResourceDisplayName("buildkite_cluster_queue.all", queue(s.b, s.other),
						knownvalue.StringExact(base+"-b / other")),
					querycheck.ExpectResourceKnownValues("buildkite_cluster_queue.a", queue(s.a, s.mac), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(s.mac.ID)},
						{Path: tfjsonpath.New("dispatch_paused"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("dispatch_paused_note"), KnownValue: knownvalue.StringExact("Patching hosts")},
					}),
				},
			},
			{
				Query:       true,
				Config:      e.queryConfig("buildkite_cluster_queue", "none", `    cluster_id = "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"`),
				ExpectError: wrapped(`No cluster matches the ID "0b5e7c1a-2f3d-4e5f-8a9b-1c2d3e4f5a6b"`),
			},
		},
	})
	e.queryImport(t, listBlocks("buildkite_cluster_queue", "all", ""), 3)
}

func TestAccClusterAgentTokenResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedClusters(t, base)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_cluster_agent_token", "all", "",
				"buildkite_cluster_agent_token", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("buildkite_cluster_agent_token.all", 2),
				querycheck.ExpectLength("buildkite_cluster_agent_token.b", 1),
				querycheck.ExpectIdentity("buildkite_cluster_agent_token.b", identityOf("cluster_id", s.b.ID, "id", s.tokenB.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_agent_token.all",
					queryfilter.ByResourceIdentity(identityOf("cluster_id", s.a.ID, "id", s.tokenA.ID)),
					knownvalue.StringExact(base+"-a / CI agents")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_agent_token.all",
					queryfilter.ByResourceIdentity(identityOf("cluster_id", s.a.ID, "id", s.tokenA.ID)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("allowed_ip_addresses"), KnownValue: knownvalue.ListExact([]knownvalue.Check{
							knownvalue.StringExact("10.0.0.0/8"), knownvalue.StringExact("192.168.1.0/24"),
						})},
						{Path: tfjsonpath.New("expires_at"), KnownValue: knownvalue.StringExact("2030-01-01T00:00:00Z")},
						{Path: tfjsonpath.New("token"), KnownValue: knownvalue.Null()},
					}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_cluster_agent_token", "all", ""), 2)
}

func TestAccClusterDefaultQueueResource_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	base := e.name("query")
	s := e.seedClusters(t, base)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{{
			Query: true,
			Config: e.queryConfig(
				"buildkite_cluster_default_queue", "all", "",
				"buildkite_cluster_default_queue", "b", fmt.Sprintf("    cluster_id = %q", s.b.ID),
			),
			QueryResultChecks: []querycheck.QueryResultCheck{
				// Cluster b has no default queue, so only a's is found.
				querycheck.ExpectLength("buildkite_cluster_default_queue.all", 1),
				querycheck.ExpectLength("buildkite_cluster_default_queue.b", 0),
				querycheck.ExpectIdentity("buildkite_cluster_default_queue.all", identityOf("cluster_id", s.a.ID)),
				querycheck.ExpectResourceDisplayName("buildkite_cluster_default_queue.all",
					queryfilter.ByResourceIdentity(identityOf("cluster_id", s.a.ID)), knownvalue.StringExact(base+"-a / default queue")),
				querycheck.ExpectResourceKnownValues("buildkite_cluster_default_queue.all",
					queryfilter.ByResourceIdentity(identityOf("cluster_id", s.a.ID)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("queue_id"), KnownValue: knownvalue.StringExact(s.linux.ID)},
					}),
			},
		}},
	})
	e.queryImport(t, listBlocks("buildkite_cluster_default_queue", "all", ""), 1)
}

// TestAccClusters_query imports everything the cluster list resources find in one query, as the guide does,
// and counts the calls: listings only, never one GET per object.
func TestAccClusters_query(t *testing.T) {
	requireCLI(t, queryCLI)
	t.Parallel()
	e := newTestEnv(t)
	e.seedClusters(t, e.name("query"))
	calls := e.queryImport(t, listBlocks(
		"buildkite_cluster", "all", "",
		"buildkite_cluster_queue", "all", "",
		"buildkite_cluster_agent_token", "all", "",
		"buildkite_cluster_default_queue", "all", "",
	), 2+3+2+1)
	if e.live {
		return
	}
	// Clusters, then the queues and tokens of each: a listing per kind and cluster, nothing per object.
	listing := regexp.MustCompile(`^/v2/organizations/[^/]+/clusters(/[^/]+/(queues|tokens))?$`)
	lists := 0
	for _, r := range calls {
		switch {
		case r.Method == http.MethodGet && listing.MatchString(r.Path):
			lists++
		case r.Method == http.MethodGet && (r.Path == "/v2/access-token" || r.Path == "/v2/organizations/"+e.org):
		default:
			t.Errorf("terraform query made %s %s; it should only list", r.Method, r.Path)
		}
	}
	if want := 4 + 2*2; lists != want {
		t.Errorf("terraform query made %d listing calls, want %d (clusters four times, then queues and tokens of two clusters)", lists, want)
	}
}

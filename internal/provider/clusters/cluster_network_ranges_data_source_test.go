package clusters_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func testAccClusterNetworkRangesConfig(cluster, ref string) string {
	return fmt.Sprintf(`
resource "buildkite_cluster" "test" {
  name = %q
}

data "buildkite_cluster_network_ranges" "test" {
  cluster_uuid = %s
}
`, cluster, ref)
}

func TestAccClusterNetworkRangesDataSource_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	const addr = "data.buildkite_cluster_network_ranges.test"
	name := e.Name("hosted")
	seed := func(*terraform.State) error { return nil }
	if !e.Live {
		seed = func(s *terraform.State) error {
			cidr, kind, other := "64.6.39.248/29", "NAMESPACE_MANAGED", "egress"
			e.Server.Store().SetNetworkRanges(s.RootModule().Resources["buildkite_cluster.test"].Primary.ID,
				[]fakeserver.NetworkRange{{CIDRRange: &cidr, Kind: &kind}, {Kind: &other}})
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				// A cluster without hosted agents: a known, empty set.
				Config: e.Config(testAccClusterNetworkRangesConfig(name, "buildkite_cluster.test.uuid")),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "cluster_uuid", "buildkite_cluster.test", "uuid"),
					resource.TestCheckResourceAttr(addr, "ranges.#", "0"),
					seed,
				),
			},
			{
				// The ranges seeded above; nulls stay null.
				SkipFunc: func() (bool, error) { return e.Live, nil },
				Config:   e.Config(testAccClusterNetworkRangesConfig(name, "buildkite_cluster.test.uuid")),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "cluster_uuid", "buildkite_cluster.test", "uuid"),
					resource.TestCheckResourceAttr(addr, "ranges.#", "2"),
					resource.TestCheckTypeSetElemNestedAttrs(addr, "ranges.*", map[string]string{"cidr_range": "64.6.39.248/29", "kind": "NAMESPACE_MANAGED"}),
					resource.TestCheckTypeSetElemNestedAttrs(addr, "ranges.*", map[string]string{"kind": "egress"}),
					func(s *terraform.State) error {
						for k, v := range s.RootModule().Resources[addr].Primary.Attributes {
							if regexp.MustCompile(`^ranges\.\d+\.cidr_range$`).MatchString(k) && v == "" {
								return fmt.Errorf("%s is %q: a null cidr_range became a string", k, v)
							}
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccClusterNetworkRangesDataSource_unavailable: the service's 503 is retried like any 5xx.
func TestAccClusterNetworkRangesDataSource_unavailable(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("makes the emulator answer 503")
	}
	const addr = "data.buildkite_cluster_network_ranges.test"
	c := clusterID(e, "flaky")
	cidr := "10.0.0.0/16"
	e.Server.Store().SetNetworkRanges(c, []fakeserver.NetworkRange{{CIDRRange: &cidr}})
	e.Server.Store().FailNetworkRanges(c, 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Config(fmt.Sprintf("data \"buildkite_cluster_network_ranges\" \"test\" {\n  cluster_uuid = %q\n}\n", c)),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "ranges.#", "1"),
				resource.TestCheckTypeSetElemNestedAttrs(addr, "ranges.*", map[string]string{"cidr_range": cidr}),
			),
		}},
	})
}

func TestAccClusterNetworkRangesDataSource_badInput(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("seeds a token without permission in the emulator")
	}
	c := clusterID(e, "guarded")
	ds := func(ref string) string {
		return fmt.Sprintf("data \"buildkite_cluster_network_ranges\" \"test\" {\n  cluster_uuid = %q\n}\n", ref)
	}
	member := e.Server.Store().AddUser(e.Org, "Member", "member@example.com", false)
	if err := e.Server.Store().AddTokenForUser("member-token", member, []string{e.Org}, fakeserver.AllScopes()); err != nil {
		t.Fatal(err)
	}
	asMember := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = \"member-token\"\n}\n", e.URL, e.Org)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Config(ds("not-a-cluster")), ExpectError: regexp.MustCompile(`must be a cluster UUID`)},
			{Config: e.Config(ds(kit.GraphQLID("Pipeline", c))), ExpectError: regexp.MustCompile(`must be a cluster UUID`)},
			// A UUID of a cluster that does not exist: the service's 404, with what the attribute takes.
			{Config: e.Config(ds("e8738c39-1f2a-4a1e-9b3c-2d4e5f6a7b8c")), ExpectError: regexp.MustCompile(`must be a cluster UUID`)},
			{Config: asMember + ds(c), ExpectError: regexp.MustCompile(`This endpoint needs`)},
		},
	})
}

// TestAccClusterNetworkRangesDataSource_refusedAtPlan: what is not a UUID is refused when the configuration is
// validated, with the official provider's words ("must be a cluster UUID", its test
// TestClusterNetworkRangesRejectsNonUUID), before any request for the ranges. A cluster's GraphQL ID (the
// value in that test is one) is refused too, as there, and the error names the UUID it holds.
func TestAccClusterNetworkRangesDataSource_refusedAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("counts the emulator's requests")
	}
	ds := func(ref string) string {
		return fmt.Sprintf("data \"buildkite_cluster_network_ranges\" \"test\" {\n  cluster_uuid = %q\n}\n", ref)
	}
	uuid := "e8738c39-1f2a-4a1e-9b3c-2d4e5f6a7b8c"
	var steps []resource.TestStep
	for _, ref := range []string{
		"Q2x1c3Rlci0tLWU4NzM4YzM5LTFmMmEtNGExZS05YjNjLTJkNGU1ZjZhN2I4Yw==", // a cluster's GraphQL ID, the official test's value
		kit.GraphQLID("Cluster", uuid),
		"not-a-cluster",
		"",
		"Cluster---" + uuid,             // a GraphQL ID before its base64
		kit.GraphQLID("Pipeline", uuid), // another type's GraphQL ID
		kit.GraphQLID("cluster", uuid),  // a type name in the wrong case
		uuid + "0",                      // one digit too many
		base64.StdEncoding.EncodeToString([]byte("Cluster---" + uuid[:30])), // a GraphQL ID around no UUID
	} {
		steps = append(steps, resource.TestStep{Config: e.Config(ds(ref)), PlanOnly: true, ExpectError: regexp.MustCompile(`must be a cluster UUID`)})
	}
	// A cluster's GraphQL ID: the error names the UUID to use instead.
	steps = append(steps, resource.TestStep{Config: e.Config(ds(kit.GraphQLID("Cluster", uuid))), PlanOnly: true,
		ExpectError: acctest.Wrapped("use its UUID, " + uuid)})
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: e.Factories(), Steps: steps})
	for _, r := range e.Server.Requests() {
		if strings.Contains(r.Path, "network_ranges") {
			t.Errorf("a refused cluster_uuid reached the service: %s %s", r.Method, r.Path)
		}
	}
}

// clusterID creates a cluster through the client and returns its ID.
func clusterID(e *acctest.TestEnv, name string) string {
	e.T.Helper()
	c, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: e.Name(name)})
	if err != nil {
		e.T.Fatal(err)
	}
	return c.ID
}

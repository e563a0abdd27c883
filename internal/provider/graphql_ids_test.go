package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func TestGraphQLID_encodeDecode(t *testing.T) {
	if got := kit.GraphQLID("Cluster", acctest.TestUUID); got != acctest.ClusterGraphQLID {
		t.Errorf("graphQLID(Cluster, %s) = %q, want %q", acctest.TestUUID, got, acctest.ClusterGraphQLID)
	}
	if got := kit.GraphQLID("Cluster", strings.ToUpper(acctest.TestUUID)); got != acctest.ClusterGraphQLID {
		t.Errorf("an upper-case UUID encodes as %q, want the service's lower-case form %q", got, acctest.ClusterGraphQLID)
	}
	for _, typ := range kit.GraphQLTypes {
		gotType, gotUUID, ok := kit.DecodeGraphQLID(kit.GraphQLID(typ, acctest.TestUUID))
		if !ok || gotType != typ || gotUUID != acctest.TestUUID {
			t.Errorf("%s: decoded (%q, %q, %t), want the type and UUID back", typ, gotType, gotUUID, ok)
		}
	}
	// Without its padding, as some tools strip it, and of a type this provider does not know.
	if typ, uuid, ok := kit.DecodeGraphQLID(strings.TrimRight(acctest.ClusterGraphQLID, "=")); !ok || typ != "Cluster" || uuid != acctest.TestUUID {
		t.Errorf("the unpadded ID decoded as (%q, %q, %t)", typ, uuid, ok)
	}
	if typ, _, ok := kit.DecodeGraphQLID(kit.GraphQLID("Agent", acctest.TestUUID)); !ok || typ != "Agent" {
		t.Errorf("an Agent ID decoded as (%q, %t), want Agent", typ, ok)
	}
	for _, s := range []string{
		"", "platform", acctest.TestUUID, "not base64!",
		acctest.B64("Cluster:" + acctest.TestUUID), acctest.B64("Cluster---not-a-uuid"), acctest.B64("---" + acctest.TestUUID), acctest.B64("cluster---" + acctest.TestUUID),
		acctest.B64("Cluster---" + acctest.TestUUID + "---x"),
	} {
		if typ, uuid, ok := kit.DecodeGraphQLID(s); ok {
			t.Errorf("decodeGraphQLID(%q) = (%q, %q, true), want it refused", s, typ, uuid)
		}
	}
}

func TestGraphQLID_types(t *testing.T) {
	if err := kit.CheckGraphQLType("ClusterQueue"); err != nil {
		t.Error(err)
	}
	if err := kit.CheckGraphQLType("clusterqueue"); err == nil || !strings.Contains(err.Error(), `did you mean "ClusterQueue"`) {
		t.Errorf("a type in the wrong case gave %v, want the right spelling suggested", err)
	}
	if err := kit.CheckGraphQLType("Widget"); err == nil || !strings.Contains(err.Error(), "Cluster, ClusterQueue") {
		t.Errorf("an unknown type gave %v, want the known types listed", err)
	}
}

func TestUUIDOrGraphQLID(t *testing.T) {
	cases := []struct {
		ref, typ string
		uuid     string
		ok       bool
		err      string
	}{
		{acctest.TestUUID, "Cluster", acctest.TestUUID, true, ""},
		{acctest.ClusterGraphQLID, "Cluster", acctest.TestUUID, true, ""},
		{"linux", "ClusterQueue", "", false, ""},
		{acctest.ClusterGraphQLID, "Pipeline", "", false, "is the GraphQL ID of a Cluster (" + acctest.TestUUID + "), not of a Pipeline"},
	}
	for _, c := range cases {
		uuid, ok, err := kit.UuidOrGraphQLID(c.ref, c.typ)
		if uuid != c.uuid || ok != c.ok || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("uuidOrGraphQLID(%q, %s) = (%q, %t, %v), want (%q, %t, %q)", c.ref, c.typ, uuid, ok, err, c.uuid, c.ok, c.err)
		}
	}
}

// TestAccGraphQLIDFunctions_basic: graphql_id gives the ID the service shows for an object, uuid takes it back,
// and each refuses what is not its input, naming the argument.
func TestAccGraphQLIDFunctions_basic(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		CheckDestroy:             e.CheckDestroyed("buildkite_cluster"),
		Steps: []resource.TestStep{
			{
				Config:      e.Config(`output "x" { value = provider::buildkite::graphql_id("cluster", "` + acctest.TestUUID + `") }`),
				ExpectError: acctest.Wrapped(`Invalid value for "type" parameter: "cluster" is not a GraphQL type: type names are case-sensitive, did you mean "Cluster"?`),
			},
			{
				Config:      e.Config(`output "x" { value = provider::buildkite::graphql_id("Widget", "` + acctest.TestUUID + `") }`),
				ExpectError: acctest.Wrapped(`Invalid value for "type" parameter: "Widget" is not a GraphQL type this provider knows`),
			},
			{
				Config:      e.Config(`output "x" { value = provider::buildkite::graphql_id("Cluster", "platform") }`),
				ExpectError: acctest.Wrapped(`Invalid value for "uuid" parameter: "platform" is not a UUID.`),
			},
			{
				Config:      e.Config(`output "x" { value = provider::buildkite::graphql_id("Cluster", "` + acctest.ClusterGraphQLID + `") }`),
				ExpectError: acctest.Wrapped(`is not a UUID: it is already a GraphQL ID (of Cluster ` + acctest.TestUUID + `)`),
			},
			{
				Config:      e.Config(`output "x" { value = provider::buildkite::uuid("platform") }`),
				ExpectError: acctest.Wrapped(`Invalid value for "graphql_id" parameter: "platform" is not a GraphQL ID: it is not base64 of "<type>---<uuid>".`),
			},
			{
				Config:      e.Config(`output "x" { value = provider::buildkite::uuid("` + acctest.TestUUID + `") }`),
				ExpectError: acctest.Wrapped(`is not a GraphQL ID: it is already a UUID.`),
			},
			{
				Config: e.Config(`
resource "buildkite_cluster" "test" {
  name = "` + e.Name("ids") + `"
}

output "graphql_id_matches" {
  value = provider::buildkite::graphql_id("Cluster", buildkite_cluster.test.id) == buildkite_cluster.test.graphql_id
}

output "uuid_matches" {
  value = provider::buildkite::uuid(buildkite_cluster.test.graphql_id) == buildkite_cluster.test.id
}

output "encoded" {
  value = provider::buildkite::graphql_id("Cluster", "` + acctest.TestUUID + `")
}

output "decoded" {
  value = provider::buildkite::uuid("` + acctest.ClusterGraphQLID + `")
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("graphql_id_matches", knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("uuid_matches", knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("encoded", knownvalue.StringExact(acctest.ClusterGraphQLID)),
					statecheck.ExpectKnownOutputValue("decoded", knownvalue.StringExact(acctest.TestUUID)),
				},
			},
		},
	})
}

package provider

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

func TestSplitImportID(t *testing.T) {
	t.Parallel()
	const cluster = "7b6a1d2e-4c3f-4b1a-9e8d-0f1e2d3c4b5a"
	graphQL := base64.StdEncoding.EncodeToString([]byte("Cluster---" + cluster))
	queue := []kit.ImportPart{kit.UuidPart("<cluster id>"), kit.KeyPart("<queue id or key>")}
	token := []kit.ImportPart{kit.UuidPart("<cluster id>"), kit.UuidPart("<token id>")}
	queueTyped := []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster"), kit.KeyPart("<queue id or key>", "ClusterQueue")}
	single := []kit.ImportPart{kit.UuidPart("<cluster id>", "Cluster")}
	untyped := []kit.ImportPart{kit.UuidPart("<cluster id>")}
	member := []kit.ImportPart{kit.KeyPart("<team id or slug>", "Team"), kit.UuidPart("<user id>", "User")}
	teamMember := base64.StdEncoding.EncodeToString([]byte("TeamMember---" + cluster))
	user := base64.StdEncoding.EncodeToString([]byte("User---" + cluster))
	cases := []struct {
		name  string
		id    string
		parts []kit.ImportPart
		want  []string
		err   string
	}{
		{"queue by key", cluster + "/linux", queue, []string{cluster, "linux"}, ""},
		{"queue by id", cluster + "/" + cluster, queue, []string{cluster, cluster}, ""},
		{"trailing slash", cluster + "/", queue, nil, `<queue id or key> is empty`},
		{"no child", cluster, queue, nil, `of the form "<cluster id>/<queue id or key>", got`},
		{"too many parts", cluster + "/a/b", queue, nil, `of the form "<cluster id>/<queue id or key>"`},
		{"token not a uuid", cluster + "/my-token", token, nil, `<token id> "my-token" is not a UUID`},
		// The official provider's import IDs are GraphQL IDs: a part of the right type is its UUID.
		{"graphql id", graphQL, single, []string{cluster}, ""},
		{"graphql id without padding", strings.TrimRight(graphQL, "="), single, []string{cluster}, ""},
		{"graphql id in a pair", graphQL + "/linux", queueTyped, []string{cluster, "linux"}, ""},
		{"graphql ids of both sides", graphQL + "/" + user, member, nil, `<team id or slug> "` + graphQL + `" is the GraphQL ID of a Cluster`},
		{"user graphql id", "platform/" + user, member, []string{"platform", cluster}, ""},
		{"graphql id of another type", user, single, nil, `is the GraphQL ID of a User (` + cluster + `), not of a Cluster`},
		{"graphql id where none is taken", graphQL, untyped, nil, `"` + graphQL + `" is not a UUID`},
		{"association graphql id", teamMember, member, nil, "official provider's ID of a team membership (buildkite_team_member): " +
			"import it as `<team id or slug>/<user id>`: its GraphQL ID encodes the association's own UUID"},
		{"association graphql id as a part", "platform/" + teamMember, member, nil, "the REST API never shows"},
		{"default queue given a pair", cluster + "/" + cluster, single, nil, `of the form "<cluster id>", got`},
		{"blank", "", single, nil, `<cluster id> is empty`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := kit.SplitImportID(tc.id, tc.parts...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("parts = %q, want %q", got, tc.want)
			}
		})
	}
}

// The ID rule: what CheckID accepts, and what its refusals say.
func TestCheckID(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100_000)
	cases := []struct {
		name  string
		id    string
		types []string
		want  string
		err   string
	}{
		{"uuid", acctest.TestUUID, []string{"Cluster"}, acctest.TestUUID, ""},
		{"upper-case uuid", strings.ToUpper(acctest.TestUUID), []string{"Cluster"}, acctest.TestUUID, ""},
		{"graphql id of the type", acctest.ClusterGraphQLID, []string{"Cluster"}, acctest.TestUUID, ""},
		{"graphql id without padding", strings.TrimRight(acctest.ClusterGraphQLID, "="), []string{"Cluster"}, acctest.TestUUID, ""},
		{"graphql id of another type", kit.GraphQLID("Pipeline", acctest.TestUUID), []string{"Cluster"}, "", "must name a Cluster, got"},
		{"graphql id of a made-up type", acctest.B64("Widget---" + acctest.TestUUID), nil, "", "the GraphQL ID of a Widget, a type no Buildkite object has"},
		{"made-up type where one is expected", acctest.B64("Widget---" + acctest.TestUUID), []string{"Cluster"}, "", "must name a Cluster"},
		{"any known type", kit.GraphQLID("Team", acctest.TestUUID), nil, acctest.TestUUID, ""},
		{"lower-case type name", acctest.B64("cluster---" + acctest.TestUUID), []string{"Cluster"}, "", `did you mean "Cluster"?`},
		{"not a uuid inside", acctest.B64("Cluster---not-a-uuid"), []string{"Cluster"}, "", `whose part after "---" is not a UUID`},
		{"bad base64", "Q2x1c3Rlci0tLT%%%", []string{"Cluster"}, "", `or the GraphQL ID of a Cluster, got "Q2x1c3Rlci0tLT%%%"`},
		{"a number", "12345", []string{"Cluster"}, "", `got "12345"`},
		{"a slug", "platform", []string{"Team"}, "", `got "platform"`},
		{"empty", "", []string{"Cluster"}, "", "got an empty value"},
		{"blank", " ", []string{"Cluster"}, "", "got an empty value"},
		{"braces", "{" + acctest.TestUUID + "}", []string{"Cluster"}, "", "must be a UUID"},
		{"very long", long, []string{"Cluster"}, "", "(100000 characters)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := kit.CheckID(tc.id, tc.types)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("checkID(%.40q) = %q, %v; want an error containing %q", tc.id, got, err, tc.err)
				}
				if len(err.Error()) > 600 {
					t.Fatalf("checkID(%.40q): the error repeats the input whole (%d characters)", tc.id, len(err.Error()))
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("checkID(%q) = %q, %v; want %q", tc.id, got, err, tc.want)
			}
		})
	}
}

// A reference that may be a slug takes one, never a GraphQL ID of another type or a path.
func TestCheckRef(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id   string
		want string
		ok   bool
	}{
		{"website", "website", true},
		{kit.GraphQLID("Pipeline", acctest.TestUUID), acctest.TestUUID, true},
		{acctest.TestUUID, acctest.TestUUID, true},
		{kit.GraphQLID("Cluster", acctest.TestUUID), "", false},
		{"a/b", "", false},
		{"", "", false},
	} {
		got, err := kit.CheckRef(tc.id, []string{"Pipeline"}, true)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("checkRef(%q) = %q, %v; want %q, ok %t", tc.id, got, err, tc.want, tc.ok)
		}
	}
	if _, err := kit.CheckRef("website", []string{"Pipeline"}, false); err == nil {
		t.Error("checkRef took a slug where none is allowed")
	}
}

// The `id` of a state: each type's form, an association's two sides, and types that declare none.
func TestCheckStateID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, typ, id string
		ok            bool
	}{
		{"cluster uuid", "cluster", acctest.TestUUID, true},
		{"cluster graphql id", "cluster", acctest.ClusterGraphQLID, true},
		{"cluster given a pipeline's", "cluster", kit.GraphQLID("Pipeline", acctest.TestUUID), false},
		{"default queue is the cluster's", "cluster_default_queue", acctest.ClusterGraphQLID, true},
		{"association's sides", "team_member", acctest.TestUUID + "/" + acctest.TestUUID, true},
		{"association's side unreadable", "team_member", acctest.TestUUID + "/ann", false},
		{"association's own graphql id", "team_member", kit.GraphQLID("TeamMember", acctest.TestUUID), true},
		{"a pair where one id is meant", "pipeline_template", acctest.TestUUID + "/" + acctest.TestUUID, false},
		{"a pair for a secret", "cluster_secret", acctest.TestUUID + "/" + acctest.TestUUID, false},
		{"secret: a UUID only", "cluster_secret", acctest.TestUUID, true},
		{"secret given a graphql id", "cluster_secret", acctest.ClusterGraphQLID, false},
		{"a type that declares no form", "portal", "anything", true},
		{"organization graphql id", "organization", kit.GraphQLID("Organization", acctest.TestUUID), true},
		{"organization uuid", "organization", acctest.TestUUID, true},
		{"organization given a cluster's", "organization", acctest.ClusterGraphQLID, false},
		{"banner graphql id", "organization_banner", kit.GraphQLID("OrganizationBanner", acctest.TestUUID), true},
		{"banner given the organization's", "organization_banner", kit.GraphQLID("Organization", acctest.TestUUID), false},
		{"notification service uuid", "notification_service", acctest.TestUUID, true},
		{"notification service given a graphql id", "notification_service", kit.GraphQLID("Pipeline", acctest.TestUUID), false},
		{"pipeline webhook: GitHub's ID", "pipeline_webhook", "482913377", true},
		{"agent token graphql id", "agent_token", kit.GraphQLID("AgentToken", acctest.TestUUID), true},
		{"agent token given a cluster token's", "agent_token", kit.GraphQLID("ClusterToken", acctest.TestUUID), false},
	} {
		if err := kit.CheckStateID(tc.typ, tc.id); (err == nil) != tc.ok {
			t.Errorf("%s: checkStateID(%s, %q) = %v, want ok %t", tc.name, tc.typ, tc.id, err, tc.ok)
		}
	}
}

package provider

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestSplitImportID(t *testing.T) {
	t.Parallel()
	const cluster = "7b6a1d2e-4c3f-4b1a-9e8d-0f1e2d3c4b5a"
	graphQL := base64.StdEncoding.EncodeToString([]byte("Cluster---" + cluster))
	queue := []importPart{uuidPart("<cluster id>"), keyPart("<queue id or key>")}
	token := []importPart{uuidPart("<cluster id>"), uuidPart("<token id>")}
	queueTyped := []importPart{uuidPart("<cluster id>", "Cluster"), keyPart("<queue id or key>", "ClusterQueue")}
	single := []importPart{uuidPart("<cluster id>", "Cluster")}
	untyped := []importPart{uuidPart("<cluster id>")}
	member := []importPart{keyPart("<team id or slug>", "Team"), uuidPart("<user id>", "User")}
	teamMember := base64.StdEncoding.EncodeToString([]byte("TeamMember---" + cluster))
	user := base64.StdEncoding.EncodeToString([]byte("User---" + cluster))
	cases := []struct {
		name  string
		id    string
		parts []importPart
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
			got, err := splitImportID(tc.id, tc.parts...)
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

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
	single := []importPart{uuidPart("<cluster id>")}
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
		{"graphql id", graphQL, single, nil, `looks like a GraphQL ID`},
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

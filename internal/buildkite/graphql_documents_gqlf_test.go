package buildkite

import (
	"os"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestGraphQLDocuments_rulesWebhookQueuesTeamLinks: every document of the rules, webhook, macOS queue and team
// association operations is valid against the subset's SDL the emulator serves, the batched rules read
// included, so that a typo fails here rather than at the service.
func TestGraphQLDocuments_rulesWebhookQueuesTeamLinks(t *testing.T) {
	sdl, err := os.ReadFile("../../fakeserver/graphql/schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	schema := gqlparser.MustLoadSchema(&ast.Source{Name: "schema.graphql", Input: string(sdl)})
	batch, _ := rulesDetailsOp([]string{"a", "b", "c"})
	for _, op := range []operation{batch,
		opGetRule, opUpdateRule, opGetPipelineWebhook, opDeletePipelineWebhook,
		opGetQueueMacSettings, opSetQueueMacSettings, opGetTeamLink,
	} {
		if _, errs := gqlparser.LoadQueryWithRules(schema, op.document, nil); errs != nil {
			t.Errorf("%s: %v", op.name, errs)
		}
	}
}

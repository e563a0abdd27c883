package organization_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// TestAccAgentTokenListResource_queryBeyondAThousand: the service's listing of unclustered agent tokens has no
// cursor, so of 1,003 tokens a query finds the 1,000 at the two ends of the list (the first and the last
// made among them) and says in a warning that 3 were not found, rather than finding fewer in silence.
func TestAccAgentTokenListResource_queryBeyondAThousand(t *testing.T) {
	acctest.RequireCLI(t, acctest.QueryCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("seeds 1,003 tokens in the emulator's store")
	}
	const total = 1003
	var first, last string
	for i := range total {
		id, _, err := e.Server.Store().AddUnclusteredAgentToken(e.Org, fmt.Sprintf("fleet %04d", i))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = id
		}
		last = id
	}
	tf, reattach := e.QueryWorkdir(t, `
list "buildkite_agent_token" "all" {
  provider = buildkite
  limit    = 10000
}
`)
	logs, err := tf.QueryJSON(context.Background(), tfexec.Reattach(reattach))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	var warnings []string
	for msg := range logs {
		if msg.Err != nil {
			t.Fatalf("terraform query: %v", msg.Err)
		}
		switch m := msg.Msg.(type) {
		case tfjson.ListResourceFoundMessage:
			found[fmt.Sprint(m.ListResourceFound.Identity["id"])] = true
		case tfjson.DiagnosticLogMessage:
			if m.Severity == tfjson.DiagnosticSeverityError {
				t.Errorf("terraform query: %s: %s", m.Summary, m.Detail)
			}
			warnings = append(warnings, m.Summary+": "+m.Detail)
		}
	}
	if len(found) != 1000 || !found[first] || !found[last] {
		t.Errorf("found %d tokens (the first made: %v, the last: %v), want 1000 with both", len(found), found[first], found[last])
	}
	want := fmt.Sprintf("has %d unclustered agent tokens that are not revoked", total)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "Not Every Agent Token Listed") ||
		!strings.Contains(warnings[0], want) || !strings.Contains(warnings[0], "so 3 were not found") {
		t.Errorf("warnings %q, want one that says %q and that 3 were not found", warnings, want)
	}
}

// TestAccAgentTokenListResource_queryFails: a listing the service answers with errors fails the query with
// them, and so does a failure of the second query of an organization with over 500 tokens, rather than a
// query that shows the first 500 as if they were all.
func TestAccAgentTokenListResource_queryFails(t *testing.T) {
	acctest.RequireCLI(t, acctest.QueryCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the faults are the emulator's")
	}
	for i := range 501 {
		if _, _, err := e.Server.Store().AddUnclusteredAgentToken(e.Org, fmt.Sprintf("fleet %04d", i)); err != nil {
			t.Fatal(err)
		}
	}
	query := e.QueryConfig("buildkite_agent_token", "all", "")
	step := func(op string) resource.TestStep {
		return resource.TestStep{
			Query: true, Config: query,
			PreConfig:   e.Aim(fakeserver.AimedFault{Operation: op, Kind: fakeserver.FaultErrorsWithData}),
			ExpectError: regexp.MustCompile(`Unable to List Agent Tokens[\s\S]*GraphQL ` + op),
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps:                    []resource.TestStep{step("listAgentTokens"), step("listLastAgentTokens")},
	})
}

// TestAccAgentTokenListResource_queryWithoutGraphQL: where rest_url is set without graphql_url, the query
// fails saying that the tokens' listing needs GraphQL and what to set, and sends the token nowhere else.
func TestAccAgentTokenListResource_queryWithoutGraphQL(t *testing.T) {
	acctest.RequireCLI(t, acctest.QueryCLI)
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("the provider block is the emulator's")
	}
	noGraphQL := fmt.Sprintf("provider \"buildkite\" {\n  rest_url = %q\n  organization = %q\n  api_token = %q\n}\n", e.URL, e.Org, e.Token)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{{
			Query: true, Config: noGraphQL + acctest.ListBlocks("buildkite_agent_token", "all", ""),
			ExpectError: regexp.MustCompile(`Unable to List Agent Tokens[\s\S]*needs Buildkite's GraphQL API[\s\S]*graphql_url`),
		}},
	})
}

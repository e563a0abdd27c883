package kit

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// TestTraceLogHoldsNoSecret creates every object whose create response carries a secret (a cluster agent
// token, a test suite's API token, a registry token) through the client the provider configures, with a
// TRACE logger: the log shows the requests and bodies, and neither a secret nor the API token.
func TestTraceLogHoldsNoSecret(t *testing.T) {
	t.Parallel()
	const apiToken = "bkua_4p1-t0k3n-never-logged"
	srv := fakeserver.New(fakeserver.Options{Org: "acme", Token: apiToken})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	var log bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &log)
	c, err := buildkite.NewClient(buildkite.Config{
		BaseURL: ts.URL, Organization: "acme", Token: apiToken, Logger: tfLogger{},
	})
	if err != nil {
		t.Fatal(err)
	}

	cluster, err := c.Clusters.Create(ctx, buildkite.ClusterCreate{Name: "traced"})
	if err != nil {
		t.Fatal(err)
	}
	agentToken, err := c.ClusterTokens.Create(ctx, cluster.ID, buildkite.ClusterTokenCreate{Description: "agents"})
	if err != nil {
		t.Fatal(err)
	}
	team, err := c.Teams.Create(ctx, buildkite.TeamWrite{Name: "owners", Privacy: "visible", DefaultMemberRole: "member"})
	if err != nil {
		t.Fatal(err)
	}
	suite, err := c.TestSuites.Create(ctx, buildkite.TestSuiteCreate{Name: "traced", DefaultBranch: "main", ShowAPIToken: true, TeamIDs: []string{team.ID}})
	if err != nil {
		t.Fatal(err)
	}
	registry, err := c.Registries.Create(ctx, buildkite.RegistryCreate{Name: "traced", Ecosystem: "ruby"})
	if err != nil {
		t.Fatal(err)
	}
	registryToken, err := c.RegistryTokens.Create(ctx, registry.Slug, buildkite.RegistryTokenWrite{Description: "readers"})
	if err != nil {
		t.Fatal(err)
	}

	text := log.String()
	secrets := map[string]string{
		"the API token": apiToken, "the agent token": agentToken.Token,
		"the suite's API token": suite.APIToken, "the registry token": registryToken.Token,
	}
	for what, secret := range secrets {
		if secret == "" {
			t.Fatalf("%s is empty: the create response must carry it for this test to mean anything", what)
		}
		if strings.Contains(text, secret) {
			t.Errorf("the TRACE log holds %s", what)
		}
	}
	for _, want := range []string{`"@level":"trace"`, `"@level":"debug"`, "/clusters/" + cluster.ID + "/tokens", `{\"description\":\"agents\"}`, `\"token\":\"***\"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks %s: the test would pass without logging anything", want)
		}
	}
}

package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// metricsConfig is the provider block with the emulator as the agent API too, then body.
func (e *testEnv) metricsConfig(body string) string {
	return fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %[1]q
  agent_url    = %[1]q
  organization = %[2]q
  api_token    = %[3]q
  max_retries  = 1
}
%[4]s`, e.url, e.org, e.token, body)
}

// seedAgents gives the emulator an organization agent token, three agents and some jobs, and returns a
// cluster's agent token, which reports only the agents of its cluster.
func seedAgents(t *testing.T, e *testEnv) (clusterToken string) {
	t.Helper()
	st := e.server.Store()
	if err := st.AddAgentToken(e.org, "org-agent-token"); err != nil {
		t.Fatal(err)
	}
	cluster, err := e.client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: "Platform"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.client.ClusterTokens.Create(context.Background(), cluster.ID, buildkite.ClusterTokenCreate{Description: "agents"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []fakeserver.AgentFixture{
		{Org: e.org, Name: "linux-1", Queue: "linux", Cluster: "Platform", State: "busy"},
		{Org: e.org, Name: "linux-2", Queue: "linux", Cluster: "Platform"},
		{Org: e.org, Name: "legacy-1"},
	} {
		if _, err := st.AddAgent(a); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range []fakeserver.QueueJobsFixture{
		{Org: e.org, Queue: "linux", Cluster: "Platform", State: "scheduled", Count: 4},
		{Org: e.org, Queue: "linux", Cluster: "Platform", State: "running", Count: 1},
		{Org: e.org, Queue: "default", State: "waiting", Count: 2},
	} {
		if err := st.SetQueueJobs(j); err != nil {
			t.Fatal(err)
		}
	}
	return tok.Token
}

func TestAccAgentMetricsDataSource(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("agents and jobs are seeded in the emulator")
	}
	clusterToken := seedAgents(t, e)
	const all, linux, cluster = "data.buildkite_agent_metrics.all", "data.buildkite_agent_metrics.linux", "data.buildkite_agent_metrics.cluster"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config: e.metricsConfig(fmt.Sprintf(`
data "buildkite_agent_metrics" "all" {
  agent_token = "org-agent-token"
}

data "buildkite_agent_metrics" "linux" {
  agent_token = "org-agent-token"
  queue       = "linux"
}

data "buildkite_agent_metrics" "cluster" {
  agent_token = %q
}
`, clusterToken)),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(all, "organization_slug", e.org),
					resource.TestCheckNoResourceAttr(all, "cluster_name"),
					resource.TestCheckResourceAttr(all, "agents.total", "3"),
					resource.TestCheckResourceAttr(all, "agents.busy", "1"),
					resource.TestCheckResourceAttr(all, "agents.idle", "2"),
					resource.TestCheckResourceAttr(all, "agents.queues.linux.total", "2"),
					resource.TestCheckResourceAttr(all, "agents.queues.default.idle", "1"),
					resource.TestCheckResourceAttr(all, "jobs.scheduled", "4"),
					resource.TestCheckResourceAttr(all, "jobs.running", "1"),
					resource.TestCheckResourceAttr(all, "jobs.waiting", "2"),
					resource.TestCheckResourceAttr(all, "jobs.total", "7"),
					resource.TestCheckResourceAttr(all, "jobs.queues.default.waiting", "2"),
					resource.TestCheckResourceAttr(linux, "agents.total", "2"),
					resource.TestCheckResourceAttr(linux, "jobs.total", "5"),
					resource.TestCheckResourceAttr(cluster, "cluster_name", "Platform"),
					resource.TestCheckResourceAttr(cluster, "agents.total", "2"),
				),
			},
			{
				Config:      e.metricsConfig(`data "buildkite_agent_metrics" "x" { agent_token = "wrong" }`),
				ExpectError: regexpMust(`(?s)Unable to Read Agent Metrics.*401`),
			},
		},
	})
}

// Without agent_token the token comes from BUILDKITE_AGENT_TOKEN; without either the error says what to set.
// Not parallel: it sets the environment.
func TestAccAgentMetricsDataSource_environment(t *testing.T) {
	e := newTestEnv(t)
	if e.live {
		t.Skip("agents and jobs are seeded in the emulator")
	}
	seedAgents(t, e)
	t.Setenv(envAgentToken, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories(),
		Steps: []resource.TestStep{
			{
				Config:      e.metricsConfig(`data "buildkite_agent_metrics" "x" {}`),
				ExpectError: regexpMust(`(?s)Missing Agent Token.*BUILDKITE_AGENT_TOKEN`),
			},
			{
				PreConfig: func() { t.Setenv(envAgentToken, "org-agent-token") },
				Config:    e.metricsConfig(`data "buildkite_agent_metrics" "x" {}`),
				Check:     resource.TestCheckResourceAttr("data.buildkite_agent_metrics.x", "agents.total", "3"),
			},
		},
	})
}

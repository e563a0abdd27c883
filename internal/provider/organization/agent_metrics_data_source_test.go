package organization_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
)

// metricsConfig is the provider block with the emulator as the agent API too, then body.
func metricsConfig(e *acctest.TestEnv, body string) string {
	return fmt.Sprintf(`
provider "buildkite" {
  rest_url     = %[1]q
  agent_url    = %[1]q
  organization = %[2]q
  api_token    = %[3]q
  max_retries  = 1
}
%[4]s`, e.URL, e.Org, e.Token, body)
}

// seedAgents gives the emulator an organization agent token, three agents and some jobs, and returns a
// cluster's agent token, which reports only the agents of its cluster.
func seedAgents(t *testing.T, e *acctest.TestEnv) (clusterToken string) {
	t.Helper()
	st := e.Server.Store()
	if err := st.AddAgentToken(e.Org, "org-agent-token"); err != nil {
		t.Fatal(err)
	}
	cluster, err := e.Client.Clusters.Create(context.Background(), buildkite.ClusterCreate{Name: "Platform"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Client.ClusterTokens.Create(context.Background(), cluster.ID, buildkite.ClusterTokenCreate{Description: "agents"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []fakeserver.AgentFixture{
		{Org: e.Org, Name: "linux-1", Queue: "linux", Cluster: "Platform", State: "busy"},
		{Org: e.Org, Name: "linux-2", Queue: "linux", Cluster: "Platform"},
		{Org: e.Org, Name: "legacy-1"},
	} {
		if _, err := st.AddAgent(a); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range []fakeserver.QueueJobsFixture{
		{Org: e.Org, Queue: "linux", Cluster: "Platform", State: "scheduled", Count: 4},
		{Org: e.Org, Queue: "linux", Cluster: "Platform", State: "running", Count: 1},
		{Org: e.Org, Queue: "default", State: "waiting", Count: 2},
	} {
		if err := st.SetQueueJobs(j); err != nil {
			t.Fatal(err)
		}
	}
	return tok.Token
}

func TestAccAgentMetricsDataSource(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("agents and jobs are seeded in the emulator")
	}
	clusterToken := seedAgents(t, e)
	const all, linux, cluster = "data.buildkite_agent_metrics.all", "data.buildkite_agent_metrics.linux", "data.buildkite_agent_metrics.cluster"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config: metricsConfig(e, fmt.Sprintf(`
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
					resource.TestCheckResourceAttr(all, "organization_slug", e.Org),
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
				Config:      metricsConfig(e, `data "buildkite_agent_metrics" "x" { agent_token = "wrong" }`),
				ExpectError: acctest.RegexpMust(`(?s)Unable to Read Agent Metrics.*401`),
			},
		},
	})
}

// Without agent_token the token comes from BUILDKITE_AGENT_TOKEN; without either the error says what to set.
// Not parallel: it sets the environment.
func TestAccAgentMetricsDataSource_environment(t *testing.T) {
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("agents and jobs are seeded in the emulator")
	}
	seedAgents(t, e)
	t.Setenv(organization.EnvAgentTokenForTest, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      metricsConfig(e, `data "buildkite_agent_metrics" "x" {}`),
				ExpectError: acctest.RegexpMust(`(?s)Missing Agent Token.*BUILDKITE_AGENT_TOKEN`),
			},
			{
				PreConfig: func() { t.Setenv(organization.EnvAgentTokenForTest, "org-agent-token") },
				Config:    metricsConfig(e, `data "buildkite_agent_metrics" "x" {}`),
				Check:     resource.TestCheckResourceAttr("data.buildkite_agent_metrics.x", "agents.total", "3"),
			},
		},
	})
}

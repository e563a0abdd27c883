package buildkite

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

const metricsJSON = `{
  "agents": {"idle": 1, "busy": 2, "total": 3, "queues": {"linux": {"idle": 1, "busy": 2, "total": 3}}},
  "jobs": {"scheduled": 4, "running": 2, "waiting": 1, "total": 7, "queues": {"linux": {"scheduled": 4, "running": 2, "waiting": 1, "total": 7}}},
  "organization": {"slug": "acme"}
}`

func TestMetrics_AgentAPI(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, metricsJSON))
	c := newTestClient(t, "http://127.0.0.1:1", func(cfg *Config) { cfg.AgentURL = s.srv.URL })
	m, err := c.Metrics.Get(context.Background(), "agent-secret")
	if err != nil {
		t.Fatal(err)
	}
	r := s.only(t)
	assertRequest(t, r, "GET", "/v3/metrics", "")
	if got := r.Header.Get("Authorization"); got != "Token agent-secret" {
		t.Errorf("Authorization = %q", got)
	}
	if m.Agents.Busy != 2 || m.Agents.Total != 3 || m.Jobs.Scheduled != 4 || m.Jobs.Queues["linux"].Total != 7 ||
		m.Agents.Queues["linux"].Idle != 1 || m.Organization.Slug != "acme" || m.Cluster != nil {
		t.Errorf("decoded %+v", m)
	}

	if _, err := c.Metrics.GetQueue(context.Background(), "agent-secret", "linux x"); err != nil {
		t.Fatal(err)
	}
	last := s.requests()[1]
	if last.Path != "/v3/metrics/queue" || last.Query != "name=linux+x" {
		t.Errorf("queue request %s?%s", last.Path, last.Query)
	}
}

func TestMetrics_Refusals(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"agents":{},"jobs":{},"organization":{}}`))
	c := newTestClient(t, "http://127.0.0.1:1", func(cfg *Config) { cfg.AgentURL = s.srv.URL })
	if _, err := c.Metrics.Get(context.Background(), ""); !errors.Is(err, errNoAgentToken) || s.count() != 0 {
		t.Errorf("no token: %v after %d requests", err, s.count())
	}
	if _, err := c.Metrics.Get(context.Background(), "t"); err == nil {
		t.Error("a response naming no organization was accepted")
	}
}

func TestMetrics_Emulator(t *testing.T) {
	c, fs := emulatorWithStore(t)
	st := fs.Store()
	if err := st.AddAgentToken("acme", "agent-token"); err != nil {
		t.Fatal(err)
	}
	for _, a := range []fakeserver.AgentFixture{
		{Org: "acme", Name: "a1", Queue: "linux", State: "busy"},
		{Org: "acme", Name: "a2", Queue: "linux"},
		{Org: "acme", Name: "a3"},
	} {
		if _, err := st.AddAgent(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetQueueJobs(fakeserver.QueueJobsFixture{Org: "acme", Queue: "linux", State: "scheduled", Count: 4}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := c.Metrics.Get(ctx, "agent-token")
	if err != nil {
		t.Fatal(err)
	}
	if m.Agents.Total != 3 || m.Agents.Busy != 1 || m.Agents.Queues["linux"].Total != 2 || m.Jobs.Scheduled != 4 ||
		m.Organization.Slug != "acme" {
		t.Errorf("metrics %+v", m)
	}
	q, err := c.Metrics.GetQueue(ctx, "agent-token", "default")
	if err != nil {
		t.Fatal(err)
	}
	if q.Agents.Total != 1 || q.Jobs.Total != 0 {
		t.Errorf("queue metrics %+v", q)
	}
	if _, err := c.Metrics.Get(ctx, "wrong"); !IsUnauthorized(err) {
		t.Errorf("wrong token: %v", err)
	}
}

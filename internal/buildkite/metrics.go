package buildkite

import (
	"context"
	"errors"
	"net/http"
	"net/url"
)

// MetricsService reads agent metrics from the agent API.
type MetricsService struct{ client *Client }

// AgentMetrics is what the agent API reports for an agent registration token
// (https://buildkite.com/docs/apis/agent-api/metrics).
type AgentMetrics struct {
	Agents       AgentCounts         `json:"agents"`
	Jobs         JobCounts           `json:"jobs"`
	Organization MetricsOrganization `json:"organization"`
	// Cluster is set only for a cluster's agent token.
	Cluster *MetricsCluster `json:"cluster,omitempty"`
}

var _ identified = (*AgentMetrics)(nil)

// identity is the organization the metrics are of: the official agent tooling, too, takes an answer
// without it for a failure.
func (x *AgentMetrics) identity() (string, string) { return "organization.slug", x.Organization.Slug }

// AgentCounts counts agents, in total and per queue.
type AgentCounts struct {
	AgentQueueCounts
	Queues map[string]AgentQueueCounts `json:"queues"`
}

// AgentQueueCounts counts the agents of one queue (or of all).
type AgentQueueCounts struct {
	Idle  int64 `json:"idle"`
	Busy  int64 `json:"busy"`
	Total int64 `json:"total"`
}

// JobCounts counts jobs, in total and per queue.
type JobCounts struct {
	JobQueueCounts
	Queues map[string]JobQueueCounts `json:"queues"`
}

// JobQueueCounts counts the jobs of one queue (or of all).
type JobQueueCounts struct {
	Scheduled int64 `json:"scheduled"`
	Running   int64 `json:"running"`
	Waiting   int64 `json:"waiting"`
	Total     int64 `json:"total"`
}

// MetricsOrganization names the token's organization.
type MetricsOrganization struct {
	Slug string `json:"slug"`
}

// MetricsCluster names the cluster of a cluster agent token.
type MetricsCluster struct {
	Name string `json:"name"`
}

// errNoAgentToken is returned before any request when no agent token is given: the API would only answer
// 401.
var errNoAgentToken = errors.New("buildkite: an agent registration token is required for agent metrics")

// Get returns the metrics of every queue the agent registration token reaches, from
// {agent_url}/v3/metrics.
func (s *MetricsService) Get(ctx context.Context, agentToken string) (*AgentMetrics, error) {
	return s.read(ctx, agentToken, "/v3/metrics", nil)
}

// GetQueue returns the metrics of one queue, from {agent_url}/v3/metrics/queue?name=<queue>.
func (s *MetricsService) GetQueue(ctx context.Context, agentToken, queue string) (*AgentMetrics, error) {
	return s.read(ctx, agentToken, "/v3/metrics/queue", url.Values{"name": {queue}})
}

func (s *MetricsService) read(ctx context.Context, agentToken, path string, query url.Values) (*AgentMetrics, error) {
	if agentToken == "" {
		return nil, errNoAgentToken
	}
	var out AgentMetrics
	if _, err := s.client.send(ctx, call{method: http.MethodGet, path: path, query: query, out: &out, repeatable: true, agentToken: agentToken}); err != nil {
		return nil, err
	}
	return &out, nil
}

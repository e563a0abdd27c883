package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// QueuesService manages the queues of clusters.
type QueuesService struct{ client *Client }

// Queue is a cluster queue; agents take jobs from the queues they listen on.
type Queue struct {
	ID             string `json:"id"`
	GraphQLID      string `json:"graphql_id"`
	Key            string `json:"key"`
	Description    string `json:"description"`
	URL            string `json:"url"`
	WebURL         string `json:"web_url"`
	ClusterURL     string `json:"cluster_url"`
	DispatchPaused bool   `json:"dispatch_paused"`
	// The pause fields are nil while dispatch is not paused.
	DispatchPausedBy   *User      `json:"dispatch_paused_by"`
	DispatchPausedAt   *time.Time `json:"dispatch_paused_at"`
	DispatchPausedNote *string    `json:"dispatch_paused_note"`
	CreatedAt          *time.Time `json:"created_at"`
	CreatedBy          *User      `json:"created_by"`

	// RetryAgentAffinity is prefer-warmest (the default) or prefer-different: which agent a retried job goes to.
	RetryAgentAffinity string `json:"retry_agent_affinity"`

	// Hosted is true for a Buildkite-hosted queue; HostedAgents is nil for a self-hosted one.
	Hosted       bool               `json:"hosted"`
	HostedAgents *QueueHostedAgents `json:"hosted_agents"`
}

// QueueHostedAgents is what an answer shows of a hosted queue's agents.
type QueueHostedAgents struct {
	InstanceShape struct {
		Name         string `json:"name"`
		MachineType  string `json:"machine_type"`
		Architecture string `json:"architecture"`
		CPU          int    `json:"cpu"`
		Memory       int    `json:"memory"`
	} `json:"instance_shape"`
	PlatformSettings struct {
		// Linux is nil on a macOS queue; its AgentImageRef is nil while the queue runs the default image.
		Linux *struct {
			AgentImageRef *string `json:"agent_image_ref"`
		} `json:"linux"`
	} `json:"platform_settings"`
}

// AgentImageRef is a hosted Linux queue's agent image, "" for the default image.
func (h *QueueHostedAgents) AgentImageRef() string {
	if h == nil || h.PlatformSettings.Linux == nil || h.PlatformSettings.Linux.AgentImageRef == nil {
		return ""
	}
	return *h.PlatformSettings.Linux.AgentImageRef
}

// HostedAgentsWrite is the hostedAgents of a create or an update; its keys are camelCase, unlike the rest of
// the body. A create takes only the shape (the service drops an image sent with it); an update needs the
// shape even when only the image changes.
type HostedAgentsWrite struct {
	InstanceShape string `json:"instanceShape"`
	// AgentImageRef is the image to set, Cleared to go back to the default image, or left out.
	AgentImageRef Optional[string] `json:"agentImageRef,omitzero"`
}

var _ identified = (*Queue)(nil)

func (x *Queue) identity() (string, string) { return "id", x.ID }

// QueueCreate is the body of a create.
type QueueCreate struct {
	Key         string  `json:"key"`
	Description *string `json:"description,omitempty"`

	RetryAgentAffinity *string `json:"retry_agent_affinity,omitempty"`

	// HostedAgents makes a hosted queue; nil for a self-hosted one.
	HostedAgents *HostedAgentsWrite `json:"hostedAgents,omitempty"`
}

// QueueUpdate is the body of an update; nil fields are not sent.
type QueueUpdate struct {
	Description *string `json:"description,omitempty"`

	RetryAgentAffinity *string `json:"retry_agent_affinity,omitempty"`

	// HostedAgents resizes a hosted queue or sets its image; nil leaves them.
	HostedAgents *HostedAgentsWrite `json:"hostedAgents,omitempty"`
}

// queuePause is the pause body; the note uses the name go-buildkite and the
// documentation's sample send.
type queuePause struct {
	Note string `json:"dispatch_paused_note,omitempty"`
}

// List returns every queue of a cluster, across all pages.
func (s *QueuesService) List(ctx context.Context, clusterID string) ([]Queue, error) {
	p, err := s.client.orgPath("clusters", clusterID, "queues")
	if err != nil {
		return nil, err
	}
	return listAll[Queue](ctx, s.client, p, nil)
}

// Get returns one queue of a cluster.
func (s *QueuesService) Get(ctx context.Context, clusterID, id string) (*Queue, error) {
	list, err := s.client.orgPath("clusters", clusterID, "queues")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(q *Queue) []string { return []string{q.ID} })
}

// Create creates a queue in a cluster (the service answers 201). When the answer is lost, the queue with
// the key, if it was not there before the request was sent, is adopted; an older one is not ours to take.
func (s *QueuesService) Create(ctx context.Context, clusterID string, in QueueCreate) (*Queue, error) {
	p, err := s.client.orgPath("clusters", clusterID, "queues")
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[Queue]{
		matching: func(ctx context.Context) ([]Queue, error) {
			return listMatching(ctx, s.client, p, func(q *Queue) bool { return q.Key == in.Key })
		},
		id: func(q *Queue) string { return q.ID },
		describe: func(q *Queue) string {
			return fmt.Sprintf("cluster queue %q (ID %s) in cluster %s", q.Key, q.ID, clusterID)
		},
	})
}

// Update changes a queue with PUT, the form the documentation shows.
func (s *QueuesService) Update(ctx context.Context, clusterID, id string, in QueueUpdate) (*Queue, error) {
	p, err := s.client.orgPath("clusters", clusterID, "queues", id)
	if err != nil {
		return nil, err
	}
	return change[Queue](ctx, s.client, http.MethodPut, p, in)
}

// Delete deletes a queue.
func (s *QueuesService) Delete(ctx context.Context, clusterID, id string) error {
	p, err := s.client.orgPath("clusters", clusterID, "queues", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

// Pause stops dispatching jobs to the queue's agents; note is shown on the
// queue page and omitted when empty. Pausing a paused queue is a 422.
func (s *QueuesService) Pause(ctx context.Context, clusterID, id, note string) (*Queue, error) {
	return s.dispatchAction(ctx, clusterID, id, "pause_dispatch", queuePause{Note: note})
}

// Resume restarts dispatching to the queue's agents. Resuming a queue that is
// not paused is a 422.
func (s *QueuesService) Resume(ctx context.Context, clusterID, id string) (*Queue, error) {
	return s.dispatchAction(ctx, clusterID, id, "resume_dispatch", nil)
}

// dispatchAction posts a pause or resume. Repeating one is harmless (the second answers 422 "already
// paused"), so it is repeatable. go-buildkite ignores the response body, so when it holds no queue the
// queue is read again instead.
func (s *QueuesService) dispatchAction(ctx context.Context, clusterID, id, action string, in any) (*Queue, error) {
	p, err := s.client.orgPath("clusters", clusterID, "queues", id, action)
	if err != nil {
		return nil, err
	}
	var q Queue
	if _, err := s.client.send(ctx, call{method: http.MethodPost, path: p, in: in, out: &q, repeatable: true, holds: holdsAny}); err != nil {
		return nil, err
	}
	if q.ID == "" {
		return s.Get(ctx, clusterID, id)
	}
	return &q, nil
}

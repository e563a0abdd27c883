package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// ClustersService manages the organization's clusters.
type ClustersService struct{ client *Client }

// Cluster is a group of queues and agent tokens.
type Cluster struct {
	ID          string `json:"id"`
	GraphQLID   string `json:"graphql_id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Emoji       string `json:"emoji"`
	Color       string `json:"color"`
	URL         string `json:"url"`
	WebURL      string `json:"web_url"`
	QueuesURL   string `json:"queues_url"`
	// DefaultQueueID is nil while the cluster has no default queue.
	DefaultQueueID  *string    `json:"default_queue_id"`
	DefaultQueueURL *string    `json:"default_queue_url"`
	CreatedAt       *time.Time `json:"created_at"`
	CreatedBy       *User      `json:"created_by"`
	// The hosted agents' git mirror and container cache; nil where the answer leaves them out (a token that
	// cannot manage the cluster).
	HostedGitMirrorEnabled      *bool `json:"hosted_git_mirror_enabled"`
	HostedContainerCacheEnabled *bool `json:"hosted_container_cache_enabled"`
}

var _ identified = (*Cluster)(nil)

func (x *Cluster) identity() (string, string) { return "id", x.ID }

// ClusterCreate is the body of a create; nil fields are left to the service.
type ClusterCreate struct {
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	Emoji       *string `json:"emoji,omitempty"`
	Color       *string `json:"color,omitempty"`
}

// ClusterUpdate is the body of an update: a field left unset is left out, so a partial update leaves the
// others as they are; DefaultQueueID Cleared unsets the default queue.
type ClusterUpdate struct {
	Name           Optional[string] `json:"name,omitzero"`
	Description    Optional[string] `json:"description,omitzero"`
	Emoji          Optional[string] `json:"emoji,omitzero"`
	Color          Optional[string] `json:"color,omitzero"`
	DefaultQueueID Optional[string] `json:"default_queue_id,omitzero"`
}

// IsZero reports whether the update sends nothing.
func (u ClusterUpdate) IsZero() bool { return u == ClusterUpdate{} }

// ClusterHostedSettings is the body of a PATCH of the hosted agents' settings, the form the official provider
// sends them in; the service refuses a change (422) while the cluster has no hosted queue.
type ClusterHostedSettings struct {
	HostedGitMirrorEnabled      Optional[bool] `json:"hosted_git_mirror_enabled,omitzero"`
	HostedContainerCacheEnabled Optional[bool] `json:"hosted_container_cache_enabled,omitzero"`
}

// IsZero reports whether the change sends nothing.
func (u ClusterHostedSettings) IsZero() bool { return u == ClusterHostedSettings{} }

// List returns every cluster of the organization, across all pages.
func (s *ClustersService) List(ctx context.Context) ([]Cluster, error) {
	p, err := s.client.orgPath("clusters")
	if err != nil {
		return nil, err
	}
	return listAll[Cluster](ctx, s.client, p, nil)
}

// Get returns one cluster by ID.
func (s *ClustersService) Get(ctx context.Context, id string) (*Cluster, error) {
	list, err := s.client.orgPath("clusters")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(c *Cluster) []string { return []string{c.ID} })
}

// Create creates a cluster (the service answers 201). When the answer is lost, the one cluster of the same
// name that was not there before the request was sent, and that no other create returned, is adopted;
// with two or more, none is.
func (s *ClustersService) Create(ctx context.Context, in ClusterCreate) (*Cluster, error) {
	p, err := s.client.orgPath("clusters")
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[Cluster]{
		matching: func(ctx context.Context) ([]Cluster, error) {
			return listMatching(ctx, s.client, p, func(c *Cluster) bool { return c.Name == in.Name })
		},
		id:       func(c *Cluster) string { return c.ID },
		describe: func(c *Cluster) string { return fmt.Sprintf("cluster %q (ID %s)", c.Name, c.ID) },
	})
}

// Update changes a cluster with PUT, the form the documentation shows.
func (s *ClustersService) Update(ctx context.Context, id string, in ClusterUpdate) (*Cluster, error) {
	p, err := s.client.orgPath("clusters", id)
	if err != nil {
		return nil, err
	}
	return change[Cluster](ctx, s.client, http.MethodPut, p, in)
}

// Delete deletes a cluster; the service also deletes its queues and tokens.
func (s *ClustersService) Delete(ctx context.Context, id string) error {
	p, err := s.client.orgPath("clusters", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

// SetHostedSettings changes the hosted agents' settings of a cluster with PATCH.
func (s *ClustersService) SetHostedSettings(ctx context.Context, id string, in ClusterHostedSettings) (*Cluster, error) {
	p, err := s.client.orgPath("clusters", id)
	if err != nil {
		return nil, err
	}
	return change[Cluster](ctx, s.client, http.MethodPatch, p, in)
}

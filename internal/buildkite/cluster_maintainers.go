package buildkite

import (
	"context"
	"fmt"
)

// ClusterMaintainersService manages the maintainers of clusters: users and teams given permission to
// manage one cluster. An assignment cannot be changed, only created and deleted.
type ClusterMaintainersService struct{ client *Client }

// ClusterMaintainer is a user's or team's assignment as a maintainer of a cluster; ID is the
// assignment's own (the official provider's permission_uuid).
type ClusterMaintainer struct {
	ID    string                 `json:"id"`
	Actor ClusterMaintainerActor `json:"actor"`
}

// ClusterMaintainerActor is the user or team an assignment names. Email is a user's only, Slug a team's.
type ClusterMaintainerActor struct {
	ID        string  `json:"id"`
	GraphQLID string  `json:"graphql_id"`
	Name      *string `json:"name"`
	Email     *string `json:"email"`
	Slug      *string `json:"slug"`
	// Type is ActorUser or ActorTeam.
	Type string `json:"type"`
}

// The kinds of actor a maintainer is.
const (
	ActorUser = "user"
	ActorTeam = "team"
)

// ClusterMaintainerCreate names the actor to assign: set exactly one of UserID and TeamID (UUIDs).
type ClusterMaintainerCreate struct {
	UserID string `json:"user,omitempty"`
	TeamID string `json:"team,omitempty"`
}

// actorID is the UUID the create names.
func (in ClusterMaintainerCreate) actorID() string {
	if in.TeamID != "" {
		return in.TeamID
	}
	return in.UserID
}

func (s *ClusterMaintainersService) maintainersPath(clusterID string, segments ...string) (string, error) {
	return s.client.orgPath(append([]string{"clusters", clusterID, "maintainers"}, segments...)...)
}

// List returns every maintainer of a cluster, across all pages: what the cluster data sources show as
// maintainers, and what a refresh of many buildkite_cluster_maintainer resources reads.
func (s *ClusterMaintainersService) List(ctx context.Context, clusterID string) ([]ClusterMaintainer, error) {
	p, err := s.maintainersPath(clusterID)
	if err != nil {
		return nil, err
	}
	return listAll[ClusterMaintainer](ctx, s.client, p, nil)
}

// Get returns one assignment; a refresh of many answers from the cluster's listing.
func (s *ClusterMaintainersService) Get(ctx context.Context, clusterID, id string) (*ClusterMaintainer, error) {
	list, err := s.maintainersPath(clusterID)
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(m *ClusterMaintainer) []string { return []string{m.ID} })
}

// Create assigns a user or team (201). An actor is a maintainer of a cluster at most once, so when the
// answer is lost the assignment of that actor is adopted, if it was not there before the create was sent.
func (s *ClusterMaintainersService) Create(ctx context.Context, clusterID string, in ClusterMaintainerCreate) (*ClusterMaintainer, error) {
	p, err := s.maintainersPath(clusterID)
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[ClusterMaintainer]{
		matching: func(ctx context.Context) ([]ClusterMaintainer, error) {
			return listMatching(ctx, s.client, p, func(m *ClusterMaintainer) bool { return m.Actor.ID == in.actorID() })
		},
		id: func(m *ClusterMaintainer) string { return m.ID },
		describe: func(m *ClusterMaintainer) string {
			return fmt.Sprintf("maintainer %s of cluster %s (ID %s)", m.Actor.ID, clusterID, m.ID)
		},
	})
}

// Delete removes an assignment (204).
func (s *ClusterMaintainersService) Delete(ctx context.Context, clusterID, id string) error {
	p, err := s.maintainersPath(clusterID, id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

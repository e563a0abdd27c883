package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// ClusterTokensService manages the agent tokens of clusters.
type ClusterTokensService struct{ client *Client }

// ClusterToken is an agent token that registers agents with one cluster.
type ClusterToken struct {
	ID          string `json:"id"`
	GraphQLID   string `json:"graphql_id"`
	Description string `json:"description"`
	// AllowedIPAddresses holds the CIDR blocks, separated by spaces, from which agents may use the token.
	AllowedIPAddresses string `json:"allowed_ip_addresses"`
	// ExpiresAt is nil for a token that does not expire.
	ExpiresAt  *time.Time `json:"expires_at"`
	URL        string     `json:"url"`
	ClusterURL string     `json:"cluster_url"`
	CreatedAt  *time.Time `json:"created_at"`
	CreatedBy  *User      `json:"created_by"`
	// Token is the secret; the service returns it only from Create.
	Token string `json:"token,omitempty"`
}

var _ identified = (*ClusterToken)(nil)

func (x *ClusterToken) identity() (string, string) { return "id", x.ID }

// ClusterTokenCreate is the body of a create.
type ClusterTokenCreate struct {
	Description        string     `json:"description"`
	AllowedIPAddresses *string    `json:"allowed_ip_addresses,omitempty"`
	ExpiresAt          *time.Time `json:"expires_at,omitempty"`
}

// ClusterTokenUpdate is the body of an update; nil fields are not sent.
type ClusterTokenUpdate struct {
	Description        *string `json:"description,omitempty"`
	AllowedIPAddresses *string `json:"allowed_ip_addresses,omitempty"`
}

// List returns every agent token of a cluster (without secrets), across all
// pages.
func (s *ClusterTokensService) List(ctx context.Context, clusterID string) ([]ClusterToken, error) {
	p, err := s.client.orgPath("clusters", clusterID, "tokens")
	if err != nil {
		return nil, err
	}
	return listAll[ClusterToken](ctx, s.client, p, nil)
}

// Get returns one agent token (without its secret).
func (s *ClusterTokensService) Get(ctx context.Context, clusterID, id string) (*ClusterToken, error) {
	list, err := s.client.orgPath("clusters", clusterID, "tokens")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(t *ClusterToken) []string { return []string{t.ID} })
}

// Create creates an agent token; the response is the only one carrying Token. When the answer is lost, the
// secret is lost with it: the one token of the description that was not there before the create was sent
// (and that no other create returned) is revoked and the create repeated, so no valid token is left that
// nobody knows of; with two or more such tokens, none is revoked (createOrReplace).
func (s *ClusterTokensService) Create(ctx context.Context, clusterID string, in ClusterTokenCreate) (*ClusterToken, error) {
	p, err := s.client.orgPath("clusters", clusterID, "tokens")
	if err != nil {
		return nil, err
	}
	return createOrReplace(ctx, s.client, p, in, lostCreate[ClusterToken]{
		matching: func(ctx context.Context) ([]ClusterToken, error) {
			return listMatching(ctx, s.client, p, func(t *ClusterToken) bool { return t.Description == in.Description })
		},
		id: func(t *ClusterToken) string { return t.ID },
		describe: func(t *ClusterToken) string {
			return fmt.Sprintf("cluster agent token %q (ID %s)", t.Description, t.ID)
		},
	}, func(ctx context.Context, t *ClusterToken) error { return s.Delete(ctx, clusterID, t.ID) })
}

// Update changes an agent token with PATCH: the documentation does not show
// this endpoint, and PATCH is what the official client sends.
func (s *ClusterTokensService) Update(ctx context.Context, clusterID, id string, in ClusterTokenUpdate) (*ClusterToken, error) {
	p, err := s.client.orgPath("clusters", clusterID, "tokens", id)
	if err != nil {
		return nil, err
	}
	return change[ClusterToken](ctx, s.client, http.MethodPatch, p, in)
}

// Delete revokes an agent token.
func (s *ClusterTokensService) Delete(ctx context.Context, clusterID, id string) error {
	p, err := s.client.orgPath("clusters", clusterID, "tokens", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

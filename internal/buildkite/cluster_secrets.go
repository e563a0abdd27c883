package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// ClusterSecretsService manages the secrets of clusters: values the cluster's agents read. A secret's
// value is written, never read: no answer carries it, and the bodies that do (create, UpdateValue) are
// logged with it masked.
type ClusterSecretsService struct{ client *Client }

// ClusterSecret is a secret of a cluster, without its value.
type ClusterSecret struct {
	ID          string  `json:"id"`
	GraphQLID   string  `json:"graphql_id"`
	Key         string  `json:"key"`
	Description *string `json:"description"`
	// Policy is YAML naming the pipelines and branches whose builds may read the secret.
	Policy     *string    `json:"policy"`
	URL        string     `json:"url"`
	ClusterURL string     `json:"cluster_url"`
	CreatedAt  *time.Time `json:"created_at"`
	CreatedBy  *User      `json:"created_by"`
	UpdatedAt  *time.Time `json:"updated_at"`
	UpdatedBy  *User      `json:"updated_by"`
	LastReadAt *time.Time `json:"last_read_at"`
}

// ClusterSecretCreate is the body of a create.
type ClusterSecretCreate struct {
	Key         string  `json:"key"`
	Value       string  `json:"value"`
	Description *string `json:"description,omitempty"`
	Policy      *string `json:"policy,omitempty"`
}

// ClusterSecretUpdate is the body of an update of the description and policy; nil fields are not sent,
// and "" clears one.
type ClusterSecretUpdate struct {
	Description *string `json:"description,omitempty"`
	Policy      *string `json:"policy,omitempty"`
}

type clusterSecretValue struct {
	Value string `json:"value"`
}

// secretBodyFields are the properties of a secret's bodies that hold its value, masked in the TRACE log.
var secretBodyFields = []string{"value"}

func (s *ClusterSecretsService) secretsPath(clusterID string, segments ...string) (string, error) {
	return s.client.orgPath(append([]string{"clusters", clusterID, "secrets"}, segments...)...)
}

// List returns every secret of a cluster (without values), across all pages.
func (s *ClusterSecretsService) List(ctx context.Context, clusterID string) ([]ClusterSecret, error) {
	p, err := s.secretsPath(clusterID)
	if err != nil {
		return nil, err
	}
	return listAll[ClusterSecret](ctx, s.client, p, nil)
}

// Get returns one secret of a cluster (without its value); a refresh of many answers from the cluster's
// listing.
func (s *ClusterSecretsService) Get(ctx context.Context, clusterID, id string) (*ClusterSecret, error) {
	list, err := s.secretsPath(clusterID)
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(sec *ClusterSecret) []string { return []string{sec.ID} })
}

// Create creates a secret (201). A key names one secret of its cluster, so when the answer is lost the
// secret of the key, if it was not there before the request was sent, holds the value sent: it is
// adopted.
func (s *ClusterSecretsService) Create(ctx context.Context, clusterID string, in ClusterSecretCreate) (*ClusterSecret, error) {
	p, err := s.secretsPath(clusterID)
	if err != nil {
		return nil, err
	}
	ctx = withSecretFields(ctx, secretBodyFields...)
	return createOrAdopt(ctx, s.client, p, in, lostCreate[ClusterSecret]{
		matching: func(ctx context.Context) ([]ClusterSecret, error) {
			return listMatching(ctx, s.client, p, func(sec *ClusterSecret) bool { return sec.Key == in.Key })
		},
		id: func(sec *ClusterSecret) string { return sec.ID },
		describe: func(sec *ClusterSecret) string {
			return fmt.Sprintf("cluster secret %q (ID %s) in cluster %s", sec.Key, sec.ID, clusterID)
		},
	})
}

// Update changes a secret's description and policy with PUT, the form go-buildkite sends.
func (s *ClusterSecretsService) Update(ctx context.Context, clusterID, id string, in ClusterSecretUpdate) (*ClusterSecret, error) {
	p, err := s.secretsPath(clusterID, id)
	if err != nil {
		return nil, err
	}
	return change[ClusterSecret](ctx, s.client, http.MethodPut, p, in)
}

// UpdateValue replaces a secret's value (PUT .../value). Sending the same value again changes nothing
// more, so it is retried like any update. When the answer has no body the secret is read again.
func (s *ClusterSecretsService) UpdateValue(ctx context.Context, clusterID, id, value string) (*ClusterSecret, error) {
	p, err := s.secretsPath(clusterID, id, "value")
	if err != nil {
		return nil, err
	}
	sec, err := change[ClusterSecret](withSecretFields(ctx, secretBodyFields...), s.client, http.MethodPut, p, clusterSecretValue{Value: value})
	if err != nil || sec.ID != "" {
		return sec, err
	}
	return s.Get(ctx, clusterID, id)
}

// Delete deletes a secret (204).
func (s *ClusterSecretsService) Delete(ctx context.Context, clusterID, id string) error {
	p, err := s.secretsPath(clusterID, id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

package buildkite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// CacheRegistriesService manages the cache registries of clusters (/clusters/{id}/cache-registries): named
// stores of build caches with a policy of who may save and restore. Member paths take the registry's UUID
// only. Every cluster has a registry named Default, which cannot be deleted. Scopes are the clusters'.
type CacheRegistriesService struct{ client *Client }

// CacheRegistry is one registry of a cluster.
type CacheRegistry struct {
	UUID        string  `json:"uuid"`
	Slug        string  `json:"slug"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Emoji       *string `json:"emoji"`
	Color       *string `json:"color"`
	// Policy is the normalized policy as the service answers it; JSON null denies everything.
	Policy     json.RawMessage `json:"policy"`
	Default    bool            `json:"default"`
	CreatedAt  *time.Time      `json:"created_at"`
	UpdatedAt  *time.Time      `json:"updated_at"`
	URL        string          `json:"url"`
	ClusterURL string          `json:"cluster_url"`
}

var _ identified = (*CacheRegistry)(nil)

func (x *CacheRegistry) identity() (string, string) { return "uuid", x.UUID }

// CacheRegistryWrite is the body of a create or an update. A nil or unset field is not sent (on an update:
// left as it is); a Cleared one is sent as null. The fields are in their keys' sorted order, the order the
// body had when it was built as a map.
type CacheRegistryWrite struct {
	Color       Optional[string] `json:"color,omitzero"`
	Description Optional[string] `json:"description,omitzero"`
	Emoji       Optional[string] `json:"emoji,omitzero"`
	Name        *string          `json:"name,omitempty"`
	// Policy stays raw JSON inside the Optional: it is the user's policy document, sent as written
	// (compacted), and its shape is the service's to judge, not a type of ours. Cleared, or the JSON null,
	// denies everything.
	Policy Optional[json.RawMessage] `json:"policy,omitzero"`
}

// IsZero reports whether the write changes nothing: it sends nothing.
func (w CacheRegistryWrite) IsZero() bool {
	return w.Color.IsZero() && w.Description.IsZero() && w.Emoji.IsZero() && w.Name == nil && w.Policy.IsZero()
}

func (s *CacheRegistriesService) registriesPath(clusterID string, segments ...string) (string, error) {
	return s.client.orgPath(append([]string{"clusters", clusterID, "cache-registries"}, segments...)...)
}

// List returns every registry of a cluster, by slug, following the listing's cursor.
func (s *CacheRegistriesService) List(ctx context.Context, clusterID string) ([]CacheRegistry, error) {
	p, err := s.registriesPath(clusterID)
	if err != nil {
		return nil, err
	}
	return listCursor[CacheRegistry](ctx, s.client, p, nil)
}

// Get returns the registry of a cluster with the UUID id.
func (s *CacheRegistriesService) Get(ctx context.Context, clusterID, id string) (*CacheRegistry, error) {
	p, err := s.registriesPath(clusterID, id)
	if err != nil {
		return nil, err
	}
	return get[CacheRegistry](ctx, s.client, p, nil)
}

// Create creates a registry (201). Its name makes a slug unique in the cluster, so when the answer is lost
// the registry of that name is adopted if it was not there before the request was sent.
func (s *CacheRegistriesService) Create(ctx context.Context, clusterID string, in CacheRegistryWrite) (*CacheRegistry, error) {
	p, err := s.registriesPath(clusterID)
	if err != nil {
		return nil, err
	}
	if in.Name == nil {
		return nil, errors.New("creating a cache registry: a name is required")
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[CacheRegistry]{
		matching: func(ctx context.Context) ([]CacheRegistry, error) {
			all, err := s.List(ctx, clusterID)
			return keep(all, err, func(r *CacheRegistry) bool { return strings.EqualFold(r.Name, *in.Name) })
		},
		id: func(r *CacheRegistry) string { return r.UUID },
		describe: func(r *CacheRegistry) string {
			return fmt.Sprintf("cache registry %q (slug %s, UUID %s)", r.Name, r.Slug, r.UUID)
		},
	})
}

// Update changes what in names (PATCH).
func (s *CacheRegistriesService) Update(ctx context.Context, clusterID, id string, in CacheRegistryWrite) (*CacheRegistry, error) {
	p, err := s.registriesPath(clusterID, id)
	if err != nil {
		return nil, err
	}
	return change[CacheRegistry](ctx, s.client, http.MethodPatch, p, in)
}

// Delete deletes a registry (204); the cluster's Default registry is refused (422).
func (s *CacheRegistriesService) Delete(ctx context.Context, clusterID, id string) error {
	p, err := s.registriesPath(clusterID, id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

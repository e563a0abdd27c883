package buildkite

import (
	"context"
	"fmt"
	"net/http"
)

// RegistriesService manages package registries.
type RegistriesService struct{ client *Client }

// Registry is a package registry (https://buildkite.com/docs/apis/rest-api/package-registries/registries).
type Registry struct {
	ID          string  `json:"id"`
	GraphQLID   string  `json:"graphql_id"`
	Slug        string  `json:"slug"`
	URL         string  `json:"url"`
	WebURL      string  `json:"web_url"`
	Name        string  `json:"name"`
	Ecosystem   string  `json:"ecosystem"`
	Description *string `json:"description"`
	Emoji       *string `json:"emoji"`
	Color       *string `json:"color"`
	Public      bool    `json:"public"`
	// OIDCPolicy is the policy's text (YAML or JSON), nil when none is set.
	OIDCPolicy *string `json:"oidc_policy"`
	// Type is the registry's kind, such as "source" (undocumented; the official provider reads it).
	Type string `json:"type"`
	// TeamIDs are the UUIDs of the teams the registry was created for (nil when the answer has none).
	TeamIDs []string `json:"team_ids"`
}

var _ identified = (*Registry)(nil)

func (x *Registry) identity() (string, string) { return "id", x.ID }

// RegistryCreate is the body of a create.
type RegistryCreate struct {
	Name        string   `json:"name"`
	Ecosystem   string   `json:"ecosystem"`
	Description *string  `json:"description,omitempty"`
	Emoji       *string  `json:"emoji,omitempty"`
	Color       *string  `json:"color,omitempty"`
	TeamIDs     []string `json:"team_ids,omitempty"`
	OIDCPolicy  *string  `json:"oidc_policy,omitempty"`
}

// RegistryUpdate is the body of an update; nil fields are not sent, and an empty string clears a field.
// A new name gives the registry a new slug.
type RegistryUpdate struct {
	Name        *string `json:"name,omitempty"`
	Description *string `json:"description,omitempty"`
	Emoji       *string `json:"emoji,omitempty"`
	Color       *string `json:"color,omitempty"`
	OIDCPolicy  *string `json:"oidc_policy,omitempty"`
}

// List returns every registry of the organization, across all pages.
func (s *RegistriesService) List(ctx context.Context) ([]Registry, error) {
	p, err := s.client.packagesPath("registries")
	if err != nil {
		return nil, err
	}
	return listAll[Registry](ctx, s.client, p, nil)
}

// Get returns one registry by slug.
func (s *RegistriesService) Get(ctx context.Context, slug string) (*Registry, error) {
	list, err := s.client.packagesPath("registries")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, slug)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, slug, func(r *Registry) []string { return []string{r.Slug, r.ID} })
}

// GetByID returns one registry by UUID, from the listing: the service addresses registries by slug only.
func (s *RegistriesService) GetByID(ctx context.Context, id string) (*Registry, error) {
	list, err := s.client.packagesPath("registries")
	if err != nil {
		return nil, err
	}
	return findListed(ctx, s.client, list, "registry", func(r *Registry) bool { return r.ID == id })
}

// Create creates a registry (the service answers 200). After an unknown outcome the registry of the same
// name is adopted if it was not there before the create was sent: its slug comes from the name, so there
// can be only one.
func (s *RegistriesService) Create(ctx context.Context, in RegistryCreate) (*Registry, error) {
	p, err := s.client.packagesPath("registries")
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[Registry]{
		matching: func(ctx context.Context) ([]Registry, error) {
			all, err := listAll[Registry](ctx, s.client, p, nil)
			return keep(all, err, func(r *Registry) bool { return r.Name == in.Name })
		},
		id:       func(r *Registry) string { return r.ID },
		describe: func(r *Registry) string { return fmt.Sprintf("registry %q (slug %s, ID %s)", r.Name, r.Slug, r.ID) },
	})
}

// Update changes a registry by POST, as the documentation shows; sending the same change twice has no
// further effect, so it is retried like a PUT.
func (s *RegistriesService) Update(ctx context.Context, slug string, in RegistryUpdate) (*Registry, error) {
	p, err := s.client.packagesPath("registries", slug)
	if err != nil {
		return nil, err
	}
	return change[Registry](ctx, s.client, http.MethodPost, p, in)
}

// Delete deletes a registry with its packages and tokens.
func (s *RegistriesService) Delete(ctx context.Context, slug string) error {
	p, err := s.client.packagesPath("registries", slug)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

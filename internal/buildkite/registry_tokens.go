package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// RegistryTokensService manages the tokens of package registries.
type RegistryTokensService struct{ client *Client }

// RegistryToken is a token that reads packages of one registry
// (https://buildkite.com/docs/apis/rest-api/package-registries/registry-tokens).
type RegistryToken struct {
	ID           string                     `json:"id"`
	GraphQLID    string                     `json:"graphql_id"`
	Description  string                     `json:"description"`
	URL          string                     `json:"url"`
	CreatedAt    *time.Time                 `json:"created_at"`
	CreatedBy    *User                      `json:"created_by"`
	Organization *RegistryTokenOrganization `json:"organization"`
	Registry     *RegistryTokenRegistry     `json:"registry"`
	// Token is the secret; only the create response carries it.
	Token string `json:"token,omitempty"`
}

var _ identified = (*RegistryToken)(nil)

func (x *RegistryToken) identity() (string, string) { return "id", x.ID }

// RegistryTokenOrganization is the organization a registry token embeds.
type RegistryTokenOrganization struct {
	ID     string `json:"id"`
	Slug   string `json:"slug"`
	URL    string `json:"url"`
	WebURL string `json:"web_url"`
}

// RegistryTokenRegistry is the registry a registry token embeds.
type RegistryTokenRegistry struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	Slug      string `json:"slug"`
	URL       string `json:"url"`
	WebURL    string `json:"web_url"`
}

// RegistryTokenWrite is the body of a create or an update: the description is all a token has.
type RegistryTokenWrite struct {
	Description string `json:"description"`
}

// List returns every token of a registry (without secrets), across all pages.
func (s *RegistryTokensService) List(ctx context.Context, registrySlug string) ([]RegistryToken, error) {
	p, err := s.client.packagesPath("registries", registrySlug, "tokens")
	if err != nil {
		return nil, err
	}
	return listAll[RegistryToken](ctx, s.client, p, nil)
}

// Get returns one token of a registry (without its secret).
func (s *RegistryTokensService) Get(ctx context.Context, registrySlug, id string) (*RegistryToken, error) {
	list, err := s.client.packagesPath("registries", registrySlug, "tokens")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(t *RegistryToken) []string { return []string{t.ID} })
}

// Create creates a token (the service answers 200); the response is the only one carrying Token. After
// an unknown outcome, the one token with the description that was not there before the create was sent
// (and that no other create returned) is deleted and the create sent again, since its secret cannot be
// read; with two or more such tokens, none is deleted (createOrReplace).
func (s *RegistryTokensService) Create(ctx context.Context, registrySlug string, in RegistryTokenWrite) (*RegistryToken, error) {
	p, err := s.client.packagesPath("registries", registrySlug, "tokens")
	if err != nil {
		return nil, err
	}
	lc := lostCreate[RegistryToken]{
		matching: func(ctx context.Context) ([]RegistryToken, error) {
			return listMatching(ctx, s.client, p, func(t *RegistryToken) bool { return t.Description == in.Description })
		},
		id: func(t *RegistryToken) string { return t.ID },
		describe: func(t *RegistryToken) string {
			return fmt.Sprintf("registry token %q (ID %s) of registry %s", t.Description, t.ID, registrySlug)
		},
	}
	del := func(ctx context.Context, t *RegistryToken) error { return s.Delete(ctx, registrySlug, t.ID) }
	return createOrReplace(ctx, s.client, p, in, lc, del)
}

// Update changes a token's description by POST, as the documentation shows; it is safe to repeat.
func (s *RegistryTokensService) Update(ctx context.Context, registrySlug, id string, in RegistryTokenWrite) (*RegistryToken, error) {
	p, err := s.client.packagesPath("registries", registrySlug, "tokens", id)
	if err != nil {
		return nil, err
	}
	return change[RegistryToken](ctx, s.client, http.MethodPost, p, in)
}

// Delete revokes a token.
func (s *RegistryTokensService) Delete(ctx context.Context, registrySlug, id string) error {
	p, err := s.client.packagesPath("registries", registrySlug, "tokens", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

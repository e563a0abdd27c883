package buildkite

import (
	"context"
	"time"
)

// OrganizationsService reads organizations and their members.
type OrganizationsService struct {
	client *Client
}

// Organization is one organization the token may see.
type Organization struct {
	ID           string     `json:"id"`
	GraphQLID    string     `json:"graphql_id"`
	URL          string     `json:"url"`
	WebURL       string     `json:"web_url"`
	Name         string     `json:"name"`
	Slug         string     `json:"slug"`
	PipelinesURL string     `json:"pipelines_url"`
	AgentsURL    string     `json:"agents_url"`
	EmojisURL    string     `json:"emojis_url"`
	CreatedAt    *time.Time `json:"created_at"`
}

// Member is a user of the organization.
type Member struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// List returns every organization the token may see.
func (s *OrganizationsService) List(ctx context.Context) ([]Organization, error) {
	return listAll[Organization](ctx, s.client, pathOrganizations, nil)
}

// Get returns the configured organization. A 404 here means the slug is wrong or the token does not
// reach it: the provider asks this before it believes any other 404.
func (s *OrganizationsService) Get(ctx context.Context) (*Organization, error) {
	p, err := s.client.orgPath()
	if err != nil {
		return nil, err
	}
	return get[Organization](ctx, s.client, p, nil)
}

// ListMembers returns every member of the configured organization.
func (s *OrganizationsService) ListMembers(ctx context.Context) ([]Member, error) {
	p, err := s.client.orgPath("members")
	if err != nil {
		return nil, err
	}
	return listAll[Member](ctx, s.client, p, nil)
}

// GetMember returns one member by user UUID.
func (s *OrganizationsService) GetMember(ctx context.Context, userID string) (*Member, error) {
	p, err := s.client.orgPath("members", userID)
	if err != nil {
		return nil, err
	}
	return get[Member](ctx, s.client, p, nil)
}

// AccessTokenService reads and revokes the token the client authenticates with.
type AccessTokenService struct {
	client *Client
}

// AccessToken describes the calling token.
type AccessToken struct {
	UUID        string   `json:"uuid"`
	Scopes      []string `json:"scopes"`
	Description string   `json:"description"`
	// CreatedAt is kept as sent: the service uses "YYYY-MM-DD HH:MM:SS UTC", not RFC 3339.
	CreatedAt string `json:"created_at"`
	User      *User  `json:"user"`
}

// HasScope reports whether the token holds scope.
func (t *AccessToken) HasScope(scope string) bool {
	for _, s := range t.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Get returns the calling token and its scopes; no scope is needed, and a 401 means the token is unknown.
func (s *AccessTokenService) Get(ctx context.Context) (*AccessToken, error) {
	return get[AccessToken](ctx, s.client, pathAccessToken, nil)
}

// Revoke revokes the calling token; every later call with it is a 401.
func (s *AccessTokenService) Revoke(ctx context.Context) error {
	return s.client.remove(ctx, pathAccessToken)
}

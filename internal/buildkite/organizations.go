package buildkite

import (
	"context"
	"time"
)

// OrganizationsService reads organizations and their members.
type OrganizationsService struct{ client *Client }

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

var _ identified = (*Organization)(nil)

func (x *Organization) identity() (string, string) { return "id", x.ID }

// Member is a user of the organization.
type Member struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

var _ identified = (*Member)(nil)

func (x *Member) identity() (string, string) { return "id", x.ID }

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

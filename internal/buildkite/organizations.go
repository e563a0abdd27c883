package buildkite

import (
	"context"
	"net/http"
	"strings"
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
	// Role is "admin" or "member"; SSOMode "required" or "optional", shown only to administrators and on
	// the caller's own membership (nil otherwise).
	Role    string  `json:"role"`
	SSOMode *string `json:"sso_mode"`
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

// ReadMember is GetMember for a refresh: with Config.ListReadTTL set, the members' listing answers the
// reads of many members (listcache.go), so a refresh never costs one request per member.
func (s *OrganizationsService) ReadMember(ctx context.Context, userID string) (*Member, error) {
	list, err := s.client.orgPath("members")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, userID)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, strings.ToLower(userID), func(m *Member) []string { return []string{strings.ToLower(m.ID)} })
}

// FindMemberByEmail pages the members' listing (REST has no e-mail filter) for the member whose e-mail is
// email, ignoring case, and stops at the page that holds it; nil when there is none. It lists afresh.
func (s *OrganizationsService) FindMemberByEmail(ctx context.Context, email string) (*Member, error) {
	p, err := s.client.orgPath("members")
	if err != nil {
		return nil, err
	}
	for m, err := range listEach[Member](ctx, s.client, p, ListOptions{}) {
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(m.Email, email) {
			return m, nil
		}
	}
	return nil, nil
}

// MemberUpdate is a PATCH of a member: nil fields are not sent (one at least must be set).
type MemberUpdate struct {
	Role    *string `json:"role,omitempty"`
	SSOMode *string `json:"sso_mode,omitempty"`
}

// UpdateMember changes a member's role or SSO mode (403 for the caller's own membership).
func (s *OrganizationsService) UpdateMember(ctx context.Context, userID string, u MemberUpdate) (*Member, error) {
	p, err := s.client.orgPath("members", userID)
	if err != nil {
		return nil, err
	}
	return change[Member](ctx, s.client, http.MethodPatch, p, u)
}

// RemoveMember removes a member from the organization (204; 422 when it would leave no administrator).
func (s *OrganizationsService) RemoveMember(ctx context.Context, userID string) error {
	p, err := s.client.orgPath("members", userID)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

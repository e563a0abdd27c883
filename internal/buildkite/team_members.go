package buildkite

import (
	"context"
	"net/http"
	"time"
)

// TeamMembersService manages the members of teams.
type TeamMembersService struct{ client *Client }

// TeamMember is a user's membership of a team (https://buildkite.com/docs/apis/rest-api/teams/members).
type TeamMember struct {
	// GraphQLID is empty where the service sends none: the documentation gives associations no identifiers.
	GraphQLID string     `json:"graphql_id"`
	UserID    string     `json:"user_id"`
	UserName  string     `json:"user_name"`
	Role      string     `json:"role"`
	CreatedAt *time.Time `json:"created_at"`
}

var _ identified = (*TeamMember)(nil)

func (x *TeamMember) identity() (string, string) { return "user_id", x.UserID }

// TeamMemberCreate is the body of an add; both fields are required.
type TeamMemberCreate struct {
	UserID string `json:"user_id"`
	Role   string `json:"role"`
}

type teamMemberUpdate struct {
	Role string `json:"role"`
}

// teamPath builds "/v2/organizations/{org}/teams/{team}/seg/...".
func (c *Client) teamPath(teamID string, segments ...string) (string, error) {
	return c.orgPath(append([]string{"teams", teamID}, segments...)...)
}

// List returns every member of a team, across all pages.
func (s *TeamMembersService) List(ctx context.Context, teamID string) ([]TeamMember, error) {
	p, err := s.client.teamPath(teamID, "members")
	if err != nil {
		return nil, err
	}
	return listAll[TeamMember](ctx, s.client, p, nil)
}

// Get returns a user's membership of a team.
func (s *TeamMembersService) Get(ctx context.Context, teamID, userID string) (*TeamMember, error) {
	list, err := s.client.teamPath(teamID, "members")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, userID)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, userID, func(m *TeamMember) []string { return []string{m.UserID} })
}

// Create adds a member of the organization to a team (201) with "POST .../members/", the documentation's
// form. The pair identifies the membership, so a create whose answer was lost adopts it,
// if it was not there before the create was sent (pairCreate).
func (s *TeamMembersService) Create(ctx context.Context, teamID string, in TeamMemberCreate) (*TeamMember, error) {
	p, err := s.client.teamPath(teamID, "members")
	if err != nil {
		return nil, err
	}
	item, err := s.client.teamPath(teamID, "members", in.UserID)
	if err != nil {
		return nil, err
	}
	// The find reads the pair itself: Get may answer from a listing fetched before the create.
	return createOrAdopt(ctx, s.client, p+"/", in, pairCreate[TeamMember](s.client, item, "user "+in.UserID+"'s membership of team "+teamID))
}

// Update changes a member's role (PATCH).
func (s *TeamMembersService) Update(ctx context.Context, teamID, userID, role string) (*TeamMember, error) {
	p, err := s.client.teamPath(teamID, "members", userID)
	if err != nil {
		return nil, err
	}
	return change[TeamMember](ctx, s.client, http.MethodPatch, p, teamMemberUpdate{Role: role})
}

// Delete removes a user from a team (204).
func (s *TeamMembersService) Delete(ctx context.Context, teamID, userID string) error {
	p, err := s.client.teamPath(teamID, "members", userID)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

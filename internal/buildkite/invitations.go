package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// InvitationsService manages the organization's invitations (/invitations): created in batches, listed
// while pending (cursor-paged), read in any state, revoked while pending. Every route needs an
// administrator's token with read_organization_invitations or write_organization_invitations.
type InvitationsService struct{ client *Client }

// Invitation is an invitation to join the organization.
type Invitation struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	URL       string `json:"url"`
	Email     string `json:"email"`
	// State is pending, accepted, revoked or expired.
	State      string           `json:"state"`
	Role       string           `json:"role"`
	SSOMode    string           `json:"sso_mode"`
	Teams      []InvitationTeam `json:"teams"`
	CreatedAt  *time.Time       `json:"created_at"`
	CreatedBy  *User            `json:"created_by"`
	AcceptedAt *time.Time       `json:"accepted_at"`
	AcceptedBy *User            `json:"accepted_by"`
	RevokedAt  *time.Time       `json:"revoked_at"`
}

// InvitationTeam is a team an invitation adds the invitee to (the answer does not say the team role).
type InvitationTeam struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	Slug      string `json:"slug"`
}

var _ identified = (*Invitation)(nil)

func (x *Invitation) identity() (string, string) { return "id", x.ID }

// InvitationCreate is the body of a create: one invitation per address.
type InvitationCreate struct {
	Emails  []string `json:"emails"`
	Role    string   `json:"role,omitempty"`
	SSOMode string   `json:"sso_mode,omitempty"`
}

// ListPending returns every pending invitation, newest first, following the listing's cursor.
func (s *InvitationsService) ListPending(ctx context.Context) ([]Invitation, error) {
	p, err := s.client.orgPath("invitations")
	if err != nil {
		return nil, err
	}
	return listCursor[Invitation](ctx, s.client, p, nil)
}

// Get returns an invitation in any state.
func (s *InvitationsService) Get(ctx context.Context, id string) (*Invitation, error) {
	p, err := s.client.orgPath("invitations", id)
	if err != nil {
		return nil, err
	}
	return get[Invitation](ctx, s.client, p, nil)
}

// Create invites every address of in (201 with the created invitations). It is not repeated on an
// unknown outcome: a pending invitation for the address then shows whether it acted.
func (s *InvitationsService) Create(ctx context.Context, in InvitationCreate) ([]Invitation, error) {
	p, err := s.client.orgPath("invitations")
	if err != nil {
		return nil, err
	}
	var out []Invitation
	if _, err := s.client.send(ctx, call{method: http.MethodPost, path: p, in: in, out: &out, holds: holdsList}); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].ID == "" {
			return nil, fmt.Errorf("POST %s: the service answered an invitation without an id", p)
		}
	}
	return out, nil
}

// Revoke revokes a pending invitation (204; 422 when it is no longer pending).
func (s *InvitationsService) Revoke(ctx context.Context, id string) error {
	p, err := s.client.orgPath("invitations", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

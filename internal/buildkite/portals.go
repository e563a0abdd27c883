package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// PortalsService manages portals: saved GraphQL queries invoked with a token of their own.
type PortalsService struct{ client *Client }

// Portal is a portal (https://buildkite.com/docs/apis/rest-api/portals). Token is set only in the answer to a
// create: the service never shows it again.
type Portal struct {
	UUID               string     `json:"uuid"`
	Slug               string     `json:"slug"`
	OrganizationUUID   string     `json:"organization_uuid"`
	Name               string     `json:"name"`
	Description        *string    `json:"description"`
	Query              string     `json:"query"`
	AllowedIPAddresses *string    `json:"allowed_ip_addresses"`
	UserInvokable      bool       `json:"user_invokable"`
	CreatedAt          *time.Time `json:"created_at"`
	CreatedBy          *User      `json:"created_by"`
	Token              string     `json:"token,omitempty"`
}

var _ identified = (*Portal)(nil)

func (x *Portal) identity() (string, string) { return "uuid", x.UUID }

// PortalWrite is the body of a create or an update (PUT). On an update a nil Description or
// AllowedIPAddresses is sent as null, which clears it; on a create it is left out.
type PortalWrite struct {
	Name               string  `json:"name"`
	Slug               string  `json:"slug"`
	Query              string  `json:"query"`
	Description        *string `json:"description"`
	AllowedIPAddresses *string `json:"allowed_ip_addresses"`
	UserInvokable      bool    `json:"user_invokable"`
}

// portalCreate leaves out what a create does not set.
type portalCreate struct {
	Name               string  `json:"name"`
	Slug               string  `json:"slug"`
	Query              string  `json:"query"`
	Description        *string `json:"description,omitempty"`
	AllowedIPAddresses *string `json:"allowed_ip_addresses,omitempty"`
	UserInvokable      bool    `json:"user_invokable"`
}

// List returns every portal of the organization, across all pages.
func (s *PortalsService) List(ctx context.Context) ([]Portal, error) {
	p, err := s.client.orgPath("portals")
	if err != nil {
		return nil, err
	}
	return listAll[Portal](ctx, s.client, p, nil)
}

// Get returns the portal with slug.
func (s *PortalsService) Get(ctx context.Context, slug string) (*Portal, error) {
	p, err := s.client.orgPath("portals", slug)
	if err != nil {
		return nil, err
	}
	return get[Portal](ctx, s.client, p, nil)
}

// Create creates a portal; only its answer carries the portal's token. After an unknown outcome, a
// portal with the slug, name and query asked for that was not there before the create was sent is what
// the lost create made: it is deleted and the create sent once more, exactly once, for its token
// (createForSecret); when that answer is lost too, the portal is returned with a *SecretLostError. One that
// was there before is never deleted.
func (s *PortalsService) Create(ctx context.Context, in PortalWrite) (*Portal, error) {
	p, err := s.client.orgPath("portals")
	if err != nil {
		return nil, err
	}
	body := portalCreate(in)
	lc := lostCreate[Portal]{
		matching: func(ctx context.Context) ([]Portal, error) {
			got, err := onlyIf(absentAsNil(s.Get(ctx, in.Slug)))
			return keep(got, err, func(got *Portal) bool { return got.Name == in.Name && got.Query == in.Query })
		},
		id: func(got *Portal) string { return got.UUID },
		describe: func(got *Portal) string {
			return fmt.Sprintf("portal %q (slug %s, UUID %s)", got.Name, got.Slug, got.UUID)
		},
	}
	del := func(ctx context.Context, got *Portal) error { return s.Delete(ctx, got.Slug) }
	return createForSecret(ctx, s.client, p, body, lc, del, func(got *Portal) bool { return got.Token != "" })
}

// Update replaces the portal with slug by PUT; in.Slug may rename it.
func (s *PortalsService) Update(ctx context.Context, slug string, in PortalWrite) (*Portal, error) {
	p, err := s.client.orgPath("portals", slug)
	if err != nil {
		return nil, err
	}
	return change[Portal](ctx, s.client, http.MethodPut, p, in)
}

// Delete deletes the portal with slug.
func (s *PortalsService) Delete(ctx context.Context, slug string) error {
	p, err := s.client.orgPath("portals", slug)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

package buildkite

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// TeamsService manages teams.
type TeamsService struct{ client *Client }

// Team is a group of users given access to pipelines and suites
// (https://buildkite.com/docs/apis/rest-api/teams).
type Team struct {
	ID          string `json:"id"`
	GraphQLID   string `json:"graphql_id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	Privacy     string `json:"privacy"`
	// Default is the read form of "users join this team by default"; IsDefaultTeam the write form, which
	// create and update responses echo. IsDefault reads whichever the response has.
	Default       bool  `json:"default"`
	IsDefaultTeam *bool `json:"is_default_team"`
	// DefaultMemberRole and MembersCanCreatePipelines are echoed by create and update; nil when
	// a response leaves them out, so a caller can keep what it knows instead of reading a zero value.
	DefaultMemberRole         *string    `json:"default_member_role"`
	MembersCanCreatePipelines *bool      `json:"members_can_create_pipelines"`
	CreatedAt                 *time.Time `json:"created_at"`
	CreatedBy                 *User      `json:"created_by"`

	// The permissions beyond the documented ones (as the service answers); nil when a response leaves them
	// out.
	MembersCanCreateSuites      *bool `json:"members_can_create_suites"`
	MembersCanCreateRegistries  *bool `json:"members_can_create_registries"`
	MembersCanDestroyRegistries *bool `json:"members_can_destroy_registries"`
	MembersCanDestroyPackages   *bool `json:"members_can_destroy_packages"`
}

var _ identified = (*Team)(nil)

func (x *Team) identity() (string, string) { return "id", x.ID }

// IsDefault reports whether users join the team by default, from whichever field the response carries.
func (t *Team) IsDefault() bool {
	if t.IsDefaultTeam != nil {
		return *t.IsDefaultTeam
	}
	return t.Default
}

// TeamWrite is the body of a create and of an update. The documentation lists all six properties as
// required on both, so every one is always sent.
type TeamWrite struct {
	Name                      string `json:"name"`
	Description               string `json:"description"`
	Privacy                   string `json:"privacy"`
	IsDefaultTeam             bool   `json:"is_default_team"`
	DefaultMemberRole         string `json:"default_member_role"`
	MembersCanCreatePipelines bool   `json:"members_can_create_pipelines"`

	// The permissions beyond the documented ones (as the service takes them), sent when set.
	MembersCanCreateSuites      *bool `json:"members_can_create_suites,omitempty"`
	MembersCanCreateRegistries  *bool `json:"members_can_create_registries,omitempty"`
	MembersCanDestroyRegistries *bool `json:"members_can_destroy_registries,omitempty"`
	MembersCanDestroyPackages   *bool `json:"members_can_destroy_packages,omitempty"`
}

// TeamListOptions filters a listing of teams.
type TeamListOptions struct {
	// UserID, when set, lists only the teams that user is a member of.
	UserID string
}

func (o TeamListOptions) query() url.Values {
	q := url.Values{}
	if o.UserID != "" {
		q.Set("user_id", o.UserID)
	}
	return q
}

// List returns the organization's teams, across all pages.
func (s *TeamsService) List(ctx context.Context, opts TeamListOptions) ([]Team, error) {
	p, err := s.client.orgPath("teams")
	if err != nil {
		return nil, err
	}
	return listAll[Team](ctx, s.client, p, opts.query())
}

// Get returns one team by UUID.
func (s *TeamsService) Get(ctx context.Context, id string) (*Team, error) {
	list, err := s.client.orgPath("teams")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, id)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, id, func(t *Team) []string { return []string{t.ID, t.Slug} })
}

// Create creates a team (201). A team's name identifies it (names share slugs, which are unique), so a
// create whose answer was lost adopts the team of that name, if it was not there before the create was
// sent.
func (s *TeamsService) Create(ctx context.Context, in TeamWrite) (*Team, error) {
	p, err := s.client.orgPath("teams")
	if err != nil {
		return nil, err
	}
	return createOrAdopt(ctx, s.client, p, in, lostCreate[Team]{
		matching: func(ctx context.Context) ([]Team, error) {
			teams, err := s.List(ctx, TeamListOptions{})
			return keep(teams, err, func(t *Team) bool { return t.Name == in.Name })
		},
		id:       func(t *Team) string { return t.ID },
		describe: func(t *Team) string { return fmt.Sprintf("team %q (slug %s, ID %s)", t.Name, t.Slug, t.ID) },
	})
}

// Update changes a team with PATCH, sending all six properties.
func (s *TeamsService) Update(ctx context.Context, id string, in TeamWrite) (*Team, error) {
	p, err := s.client.orgPath("teams", id)
	if err != nil {
		return nil, err
	}
	return change[Team](ctx, s.client, http.MethodPatch, p, in)
}

// Delete deletes a team with its memberships and accesses (204).
func (s *TeamsService) Delete(ctx context.Context, id string) error {
	p, err := s.client.orgPath("teams", id)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

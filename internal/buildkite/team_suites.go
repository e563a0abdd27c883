package buildkite

import (
	"context"
	"net/http"
	"time"
)

// TeamSuitesService manages teams' access to test suites.
type TeamSuitesService struct{ client *Client }

// TeamSuite is a team's access to a test suite (https://buildkite.com/docs/apis/rest-api/teams/suites).
type TeamSuite struct {
	// GraphQLID is empty where the service sends none: the documentation gives associations no identifiers.
	GraphQLID string `json:"graphql_id"`
	SuiteID   string `json:"suite_id"`
	SuiteURL  string `json:"suite_url"`
	// AccessLevel holds read and/or edit.
	AccessLevel []string   `json:"access_level"`
	CreatedAt   *time.Time `json:"created_at"`
}

var _ identified = (*TeamSuite)(nil)

func (x *TeamSuite) identity() (string, string) { return "suite_id", x.SuiteID }

// SuiteSlug is the suite's slug, the last segment of SuiteURL ("" when there is none).
func (ts *TeamSuite) SuiteSlug() string {
	return lastSegment(ts.SuiteURL)
}

// TeamSuiteCreate is the body of an add; both fields are required.
type TeamSuiteCreate struct {
	SuiteID     string   `json:"suite_id"`
	AccessLevel []string `json:"access_level"`
}

type teamSuiteUpdate struct {
	AccessLevel []string `json:"access_level"`
}

// List returns every test suite a team has access to, across all pages.
func (s *TeamSuitesService) List(ctx context.Context, teamID string) ([]TeamSuite, error) {
	p, err := s.client.teamPath(teamID, "suites")
	if err != nil {
		return nil, err
	}
	return listAll[TeamSuite](ctx, s.client, p, nil)
}

// Get returns a team's access to a test suite, by the suite's UUID.
func (s *TeamSuitesService) Get(ctx context.Context, teamID, suiteID string) (*TeamSuite, error) {
	list, err := s.client.teamPath(teamID, "suites")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, suiteID)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, suiteID, func(ts *TeamSuite) []string {
		return []string{ts.SuiteID, ts.SuiteSlug()}
	})
}

// Create gives a team access to a test suite (201) with "POST .../suite/": the singular segment and the
// trailing slash are the documentation's. The pair identifies the access, so a create whose answer was
// lost adopts it, if it was not there before the create was sent (pairCreate).
func (s *TeamSuitesService) Create(ctx context.Context, teamID string, in TeamSuiteCreate) (*TeamSuite, error) {
	p, err := s.client.teamPath(teamID, "suite")
	if err != nil {
		return nil, err
	}
	item, err := s.client.teamPath(teamID, "suites", in.SuiteID)
	if err != nil {
		return nil, err
	}
	// The find reads the pair itself: Get may answer from a listing fetched before the create.
	return createOrAdopt(ctx, s.client, p+"/", in, pairCreate[TeamSuite](s.client, item, "team "+teamID+"'s access to suite "+in.SuiteID))
}

// Update replaces a team's access to a test suite (PATCH).
func (s *TeamSuitesService) Update(ctx context.Context, teamID, suiteID string, accessLevel []string) (*TeamSuite, error) {
	p, err := s.client.teamPath(teamID, "suites", suiteID)
	if err != nil {
		return nil, err
	}
	return change[TeamSuite](ctx, s.client, http.MethodPatch, p, teamSuiteUpdate{AccessLevel: accessLevel})
}

// Delete removes a team's access to a test suite with "DELETE .../suites/{suite uuid}/", the
// documentation's form (204).
func (s *TeamSuitesService) Delete(ctx context.Context, teamID, suiteID string) error {
	p, err := s.client.teamPath(teamID, "suites", suiteID)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p+"/")
}

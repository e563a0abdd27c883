package buildkite

import (
	"context"
	"fmt"
	"net/http"
)

// TestSuitesService manages analytics test suites.
type TestSuitesService struct{ client *Client }

// TestSuite is an analytics test suite (https://buildkite.com/docs/apis/rest-api/test-engine/suites).
type TestSuite struct {
	ID              string  `json:"id"`
	GraphQLID       string  `json:"graphql_id"`
	Slug            string  `json:"slug"`
	Name            string  `json:"name"`
	URL             string  `json:"url"`
	WebURL          string  `json:"web_url"`
	DefaultBranch   string  `json:"default_branch"`
	ApplicationName *string `json:"application_name"`
	Color           *string `json:"color"`
	Emoji           *string `json:"emoji"`
	// OIDCPolicy is the policy's text (YAML or JSON), nil when none is set.
	OIDCPolicy *string `json:"oidc_policy"`
	// APIToken is the suite's secret: only the create response carries it, and only when ShowAPIToken
	// was set.
	APIToken string `json:"api_token,omitempty"`
}

var _ identified = (*TestSuite)(nil)

func (x *TestSuite) identity() (string, string) { return "id", x.ID }

// TestSuiteCreate is the body of a create.
type TestSuiteCreate struct {
	Name          string `json:"name"`
	DefaultBranch string `json:"default_branch"`
	// ShowAPIToken asks for the suite's API token in the response: the only way REST returns it.
	ShowAPIToken bool `json:"show_api_token"`
	// TeamIDs are the teams given access; required where the organization has teams enabled. The name is
	// the one of the documentation's sample and of go-buildkite.
	TeamIDs         []string `json:"team_ids,omitempty"`
	ApplicationName *string  `json:"application_name,omitempty"`
	Color           *string  `json:"color,omitempty"`
	Emoji           *string  `json:"emoji,omitempty"`
	OIDCPolicy      *string  `json:"oidc_policy,omitempty"`
}

// TestSuiteUpdate is the body of an update; nil fields are not sent. A new name gives the suite a new
// slug, so the caller must use the returned slug from then on.
type TestSuiteUpdate struct {
	Name            *string `json:"name,omitempty"`
	DefaultBranch   *string `json:"default_branch,omitempty"`
	ApplicationName *string `json:"application_name,omitempty"`
	Color           *string `json:"color,omitempty"`
	Emoji           *string `json:"emoji,omitempty"`
	// OIDCPolicy "" clears the policy.
	OIDCPolicy *string `json:"oidc_policy,omitempty"`
}

// List returns every test suite of the organization, across all pages.
func (s *TestSuitesService) List(ctx context.Context) ([]TestSuite, error) {
	p, err := s.client.analyticsPath("suites")
	if err != nil {
		return nil, err
	}
	return listAll[TestSuite](ctx, s.client, p, nil)
}

// Get returns one suite by slug.
func (s *TestSuitesService) Get(ctx context.Context, slug string) (*TestSuite, error) {
	list, err := s.client.analyticsPath("suites")
	if err != nil {
		return nil, err
	}
	p, err := joinPath(list, slug)
	if err != nil {
		return nil, err
	}
	return readItem(ctx, s.client, list, p, slug, suiteKeys)
}

// GetByID returns one suite by UUID. The service addresses suites by slug only, and a suite renamed
// elsewhere has a new one, so this looks the suite up in the listing.
func (s *TestSuitesService) GetByID(ctx context.Context, id string) (*TestSuite, error) {
	list, err := s.client.analyticsPath("suites")
	if err != nil {
		return nil, err
	}
	return findListed(ctx, s.client, list, "suite", func(t *TestSuite) bool { return t.ID == id })
}

// suiteKeys are the keys a suite answers to.
func suiteKeys(t *TestSuite) []string { return []string{t.Slug, t.ID} }

// Create creates a suite (201). After an unknown outcome the suite of the same name is adopted if it was
// not there before the create was sent (its slug comes from the name, so there can be only one). Where the API token was asked for, an adopted suite lacks
// it: it is deleted and created once more for its token (createForSecret; adopted, it would be tainted and
// replaced all the same), or returned with a *SecretLostError when that answer is lost too.
func (s *TestSuitesService) Create(ctx context.Context, in TestSuiteCreate) (*TestSuite, error) {
	p, err := s.client.analyticsPath("suites")
	if err != nil {
		return nil, err
	}
	lc := lostCreate[TestSuite]{
		matching: func(ctx context.Context) ([]TestSuite, error) {
			return listMatching(ctx, s.client, p, func(t *TestSuite) bool { return t.Name == in.Name })
		},
		id:       func(t *TestSuite) string { return t.ID },
		describe: func(t *TestSuite) string { return fmt.Sprintf("test suite %q (slug %s, ID %s)", t.Name, t.Slug, t.ID) },
	}
	if !in.ShowAPIToken {
		return createOrAdopt(ctx, s.client, p, in, lc)
	}
	return createForSecret(ctx, s.client, p, in, lc,
		func(ctx context.Context, t *TestSuite) error { return s.Delete(ctx, t.Slug) },
		func(t *TestSuite) bool { return t.APIToken != "" })
}

// Update changes a suite with PATCH.
func (s *TestSuitesService) Update(ctx context.Context, slug string, in TestSuiteUpdate) (*TestSuite, error) {
	p, err := s.client.analyticsPath("suites", slug)
	if err != nil {
		return nil, err
	}
	return change[TestSuite](ctx, s.client, http.MethodPatch, p, in)
}

// Delete deletes a suite with its test data.
func (s *TestSuitesService) Delete(ctx context.Context, slug string) error {
	p, err := s.client.analyticsPath("suites", slug)
	if err != nil {
		return err
	}
	return s.client.remove(ctx, p)
}

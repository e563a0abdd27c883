package buildkite

import (
	"context"
	"net/url"
	"time"
)

// FlakyTestsService reads the flaky tests of suites.
type FlakyTestsService struct{ client *Client }

// FlakyTest is a test that both passed and failed on the same commit
// (https://buildkite.com/docs/apis/rest-api/test-engine/flaky-tests).
type FlakyTest struct {
	ID                   string     `json:"id"`
	GraphQLID            string     `json:"graphql_id"`
	WebURL               string     `json:"web_url"`
	Scope                string     `json:"scope"`
	Name                 string     `json:"name"`
	Location             string     `json:"location"`
	FileName             string     `json:"file_name"`
	Instances            int64      `json:"instances"`
	LatestOccurrenceAt   *time.Time `json:"latest_occurrence_at"`
	MostRecentInstanceAt *time.Time `json:"most_recent_instance_at"`
	// LastResolvedAt is nil for a test never resolved.
	LastResolvedAt *time.Time `json:"last_resolved_at"`
}

// FlakyTestFilter narrows a listing; empty fields filter nothing.
type FlakyTestFilter struct {
	// Search matches the test's name or scope (and, for the Ruby collector, its location).
	Search string
	// Branch keeps tests that were flaky one or more times on this branch.
	Branch string
}

func (f FlakyTestFilter) query() url.Values {
	q := url.Values{}
	if f.Search != "" {
		q.Set("search", f.Search)
	}
	if f.Branch != "" {
		q.Set("branch", f.Branch)
	}
	return q
}

// List returns the flaky tests of the suite with suiteSlug that match filter, across all pages.
func (s *FlakyTestsService) List(ctx context.Context, suiteSlug string, filter FlakyTestFilter) ([]FlakyTest, error) {
	p, err := s.client.analyticsPath("suites", suiteSlug, "flaky-tests")
	if err != nil {
		return nil, err
	}
	return listAll[FlakyTest](ctx, s.client, p, filter.query())
}

package fakeserver

import (
	"net/http"
	"time"
)

// Analytics test suites and their flaky tests (spec 2.14, 2.15, 4.10).

// suiteState is this area's part of the Store.
type suiteState struct {
	suites map[string]*suiteRecord // by id
}

func newSuiteState() suiteState { return suiteState{suites: map[string]*suiteRecord{}} }

// suiteRecord is a test suite. Other areas rely on the fields below (teams link to suites).
type suiteRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string
}

// suiteByID returns the suite of org with id, or nil. A lock must be held.
func (st *Store) suiteByID(org, id string) *suiteRecord {
	if s, ok := st.suites.suites[id]; ok && s.org == org {
		return s
	}
	return nil
}

// SuiteFixture declares a test suite and its flaky tests in a fixture file or a test's seed.
type SuiteFixture struct {
	Slug          string             `json:"slug" yaml:"slug"`
	Name          string             `json:"name" yaml:"name"`
	DefaultBranch string             `json:"default_branch" yaml:"default_branch"`
	FlakyTests    []FlakyTestFixture `json:"flaky_tests" yaml:"flaky_tests"`
}

// FlakyTestFixture declares one flaky-test record (spec 2.15).
type FlakyTestFixture struct {
	Name           string     `json:"name" yaml:"name"`
	Scope          string     `json:"scope" yaml:"scope"`
	Location       string     `json:"location" yaml:"location"`
	FileName       string     `json:"file_name" yaml:"file_name"`
	Branch         string     `json:"branch" yaml:"branch"` // the branch it was flaky on
	Instances      int        `json:"instances" yaml:"instances"`
	LatestAt       time.Time  `json:"latest_occurrence_at" yaml:"latest_occurrence_at"`
	LastResolvedAt *time.Time `json:"last_resolved_at" yaml:"last_resolved_at"`
}

// seedSuite creates (or finds, by slug) a suite of org and adds its flaky tests. The write lock must be held.
func (st *Store) seedSuite(org string, f SuiteFixture) error { return nil }

func (s *Server) routeSuites(mux *http.ServeMux) {}

package fakeserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// A test suite's flaky tests (https://buildkite.com/docs/apis/rest-api/test-engine/flaky-tests): read through
// the API, created only by fixtures, Store methods and the test-only /_fake/ route, since the service records
// them from test runs.

// ---- state ----

func (f *flakyTestRecord) recordID() string { return f.id }
func (f *flakyTestRecord) recordSeq() int64 { return f.seq }

// flakyTestRecord is one flaky test of a suite.
type flakyTestRecord struct {
	seq                             int64
	org, suiteID, id                string
	name, scope, location, fileName string
	branch                          string // the branch it was flaky on
	instances                       int
	latestAt                        time.Time
	lastResolvedAt                  time.Time // zero: never resolved, shown as null
}

// flakyTestsOf lists in creation order; the caller must not change the slice.
func (st *Store) flakyTestsOf(suiteID string) []*flakyTestRecord {
	return st.suites.flaky.list(suiteID)
}

// FlakyTestFixture declares one flaky-test record.
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

// problems returns what makes f unusable.
func (f FlakyTestFixture) problems() validationErrors {
	var v validationErrors
	if strings.TrimSpace(f.Name) == "" {
		v.addBlank("name")
	}
	if f.Instances < 0 {
		v.add("instances", "must not be negative")
	}
	return v
}

// addFlakyTest records a checked fixture as a flaky test of s. A fixture without a file name takes it
// from its location ("spec/a_spec.rb:12" gives "spec/a_spec.rb"); one without instances has one; one
// without a latest occurrence occurred now. The write lock must be held.
func (st *Store) addFlakyTest(s *suiteRecord, f FlakyTestFixture) *flakyTestRecord {
	rec := &flakyTestRecord{
		seq: st.nextSeq(), org: s.org, suiteID: s.id, id: newID(),
		name: f.Name, scope: f.Scope, location: f.Location, fileName: f.FileName, branch: f.Branch,
		instances: f.Instances, latestAt: f.LatestAt.UTC().Truncate(time.Millisecond),
	}
	if rec.fileName == "" && rec.location != "" {
		rec.fileName = rec.location
		if i := strings.LastIndexByte(rec.location, ':'); i > 0 {
			rec.fileName = rec.location[:i]
		}
	}
	if rec.instances == 0 {
		rec.instances = 1
	}
	if f.LatestAt.IsZero() {
		rec.latestAt = st.timestamp()
	}
	if f.LastResolvedAt != nil && !f.LastResolvedAt.IsZero() {
		rec.lastResolvedAt = f.LastResolvedAt.UTC().Truncate(time.Millisecond)
	}
	st.suites.flaky.insert(rec)
	return rec
}

// AddFlakyTest adds a flaky test to the suite of org with suiteSlug and returns its ID. The suite must
// exist (create it through the API or SeedSuite).
func (st *Store) AddFlakyTest(org, suiteSlug string, f FlakyTestFixture) (id string, err error) {
	defer st.edit()()
	s := st.suiteBySlug(org, suiteSlug)
	if s == nil {
		return "", fmt.Errorf("fakeserver: no suite %q in organization %q", suiteSlug, org)
	}
	if v := f.problems(); len(v) > 0 {
		return "", fixtureError(fmt.Sprintf("suite %q: flaky test %q", suiteSlug, f.Name), v)
	}
	return st.addFlakyTest(s, f).id, nil
}

// ---- views ----

// flakyTestView is a flaky test as the flaky tests API shows it.
type flakyTestView struct {
	ID                   string  `json:"id"`
	GraphQLID            string  `json:"graphql_id"`
	WebURL               string  `json:"web_url"`
	Scope                string  `json:"scope"`
	Name                 string  `json:"name"`
	Location             string  `json:"location"`
	FileName             string  `json:"file_name"`
	Instances            int     `json:"instances"`
	LatestOccurrenceAt   string  `json:"latest_occurrence_at"`
	MostRecentInstanceAt string  `json:"most_recent_instance_at"`
	LastResolvedAt       *string `json:"last_resolved_at"`
}

func flakyTestViewOf(base string, s *suiteRecord, f *flakyTestRecord) flakyTestView {
	return flakyTestView{
		ID:                   f.id,
		GraphQLID:            graphQLID("Test", f.id),
		WebURL:               webURL(base, "organizations", s.org, "analytics", "suites", s.slug, "tests", f.id),
		Scope:                f.scope,
		Name:                 f.name,
		Location:             f.location,
		FileName:             f.fileName,
		Instances:            f.instances,
		LatestOccurrenceAt:   formatTime(f.latestAt),
		MostRecentInstanceAt: formatTime(f.latestAt),
		LastResolvedAt:       formatTimePtr(f.lastResolvedAt),
	}
}

// ---- routes and handlers ----

func (s *Server) routeFlakyTests(mux *routeMux) {
	mux.HandleFunc("GET /v2/analytics/organizations/{org}/suites/{suite}/flaky-tests", s.listFlakyTests)

	// Admin API for tests: no authentication.
	mux.HandleFunc("POST /_fake/organizations/{org}/suites/{suite}/flaky-tests", s.adminAddFlakyTests)
}

// listFlakyTests filters by search (a case-insensitive substring of the name, scope or location: the
// documented location match is for the Ruby collector, whose tests are the only ones carrying one) and by
// branch (the branch the test was flaky on).
func (s *Server) listFlakyTests(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadSuites, func(org string) (any, *apiError) {
		q := r.URL.Query()
		search, branch := strings.ToLower(q.Get("search")), q.Get("branch")
		su, err := s.store.findSuite(org, r)
		if err != nil {
			return nil, err
		}
		var matched []*flakyTestRecord
		for _, f := range s.store.flakyTestsOf(su.id) {
			if branch != "" && f.branch != branch {
				continue
			}
			if search != "" && !strings.Contains(strings.ToLower(f.name), search) &&
				!strings.Contains(strings.ToLower(f.scope), search) &&
				!strings.Contains(strings.ToLower(f.location), search) {
				continue
			}
			matched = append(matched, f)
		}
		out := []flakyTestView{}
		for _, f := range paginate(w, r, matched) {
			out = append(out, flakyTestViewOf(baseURL(r), su, f))
		}
		return out, nil
	})
}

// adminAddFlakyTests is POST /_fake/organizations/{org}/suites/{suite}/flaky-tests: the body is one
// FlakyTestFixture or an array of them; the answer (201) is the flaky test or the array as listed. All or
// none are added.
func (s *Server) adminAddFlakyTests(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, errBodyTooLarge())
			return
		}
		writeError(w, errBadRequest("Could not read the request body"))
		return
	}
	data = bytes.TrimSpace(data)
	isArray := len(data) > 0 && data[0] == '['
	var fixtures []FlakyTestFixture
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt fixture property should fail the test that wrote it
	if isArray {
		err = dec.Decode(&fixtures)
	} else {
		var f FlakyTestFixture
		err = dec.Decode(&f)
		fixtures = []FlakyTestFixture{f}
	}
	if err != nil {
		writeError(w, errBadRequest("Invalid flaky test fixture: "+err.Error()))
		return
	}
	var out []flakyTestView
	apiErr := s.store.update(func() *apiError {
		org := r.PathValue("org")
		if _, ok := s.store.orgs[org]; !ok {
			return errNotFound("organization")
		}
		su, err := s.store.findSuite(org, r)
		if err != nil {
			return err
		}
		for _, f := range fixtures {
			if v := f.problems(); len(v) > 0 {
				return errValidation(v)
			}
		}
		for _, f := range fixtures {
			out = append(out, flakyTestViewOf(baseURL(r), su, s.store.addFlakyTest(su, f)))
		}
		return nil
	})
	switch {
	case apiErr != nil:
		writeError(w, apiErr)
	case isArray:
		writeJSON(w, http.StatusCreated, nonNil(out))
	default:
		writeJSON(w, http.StatusCreated, out[0])
	}
}

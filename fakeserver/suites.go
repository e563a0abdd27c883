package fakeserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Analytics test suites (https://buildkite.com/docs/apis/rest-api/test-engine/suites); their flaky tests
// (https://buildkite.com/docs/apis/rest-api/test-engine/flaky-tests) are in flaky_tests.go. A suite's
// oidc_policy (a suite's OIDC policy, as a registry has one) is read and checked as a registry's
// (readOIDCPolicy): every answer shows it, null when none; "" or null clears it.

// KindSuite is an analytics test suite, by UUID; removing it removes its flaky tests and every team's
// access to it.
const KindSuite Kind = "suite"

// defaultSuiteBranch is the default branch of a seeded suite whose fixture names none.
const defaultSuiteBranch = "main"

func init() {
	registerKind(KindSuite, (*Store).suiteByID, (*Store).deleteSuite)
}

// ---- state ----

// suiteState is this area's part of the Store: suites listed by org and named by slug in it, flaky tests
// listed by suite.
type suiteState struct {
	suites *table[*suiteRecord]
	flaky  *table[*flakyTestRecord]
}

func newSuiteState() suiteState {
	return suiteState{
		suites: newTable(func(s *suiteRecord) []string { return []string{s.org} },
			func(s *suiteRecord) []string { return []string{nameKey(s.org, "slug", s.slug)} }),
		flaky: newTable(func(f *flakyTestRecord) []string { return []string{f.suiteID} }, nil),
	}
}

func (s *suiteRecord) recordID() string { return s.id }
func (s *suiteRecord) recordSeq() int64 { return s.seq }

// suiteRecord is a test suite. Other areas rely on the fields of the first line (teams link to suites).
type suiteRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string

	defaultBranch                 string
	applicationName, color, emoji *string // nil: never given, shown as null
	// oidcPolicy is the suite's OIDC policy as text (an array given is kept as its compact JSON), nil for none;
	// read and checked as a registry's (readOIDCPolicy).
	oidcPolicy *string
	apiToken   string // shown once, in the create response, when show_api_token is true
	createdAt  time.Time
}

// suiteByID returns the suite of org with id, or nil. A lock must be held.
func (st *Store) suiteByID(org, id string) *suiteRecord {
	if s, ok := st.suites.suites.get(id); ok && s.org == org {
		return s
	}
	return nil
}

// suiteBySlug returns the suite of org with slug, or nil. A lock must be held.
func (st *Store) suiteBySlug(org, slug string) *suiteRecord {
	s, _ := st.suites.suites.lookup(nameKey(org, "slug", slug))
	return s
}

// suitesOf lists in creation order; the caller must not change the slice.
func (st *Store) suitesOf(org string) []*suiteRecord { return st.suites.suites.list(org) }

// deleteSuite removes s with its flaky tests and the teams' access to it. The write lock must be held.
func (st *Store) deleteSuite(s *suiteRecord) {
	removeAll(st.suites.flaky, s.id)
	st.deleteSuiteAssociations(s.id)
	st.suites.suites.remove(s)
}

// newSuite creates a suite of org. The write lock must be held and slug must be free.
func (st *Store) newSuite(org, slug, name, defaultBranch string) *suiteRecord {
	id := newID()
	s := &suiteRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Suite", id), slug: slug, name: name,
		defaultBranch: defaultBranch, apiToken: newSecret(), createdAt: st.timestamp(),
	}
	st.suites.suites.insert(s)
	return s
}

// SuiteFixture declares a test suite and its flaky tests in a fixture file or a test's seed.
type SuiteFixture struct {
	Slug          string             `json:"slug" yaml:"slug"`
	Name          string             `json:"name" yaml:"name"`
	DefaultBranch string             `json:"default_branch" yaml:"default_branch"`
	FlakyTests    []FlakyTestFixture `json:"flaky_tests" yaml:"flaky_tests"`
}

// fixtureError words a fixture's problems as an error for a Go caller.
func fixtureError(context string, v validationErrors) error {
	return fmt.Errorf("fakeserver: %s: %s", context, strings.Join(v.sentences(), ", "))
}

// seedSuite creates (or finds, by slug) a suite of org and adds its flaky tests. The slug defaults to one
// derived from the name, the name to the slug, the default branch to "main". Nothing is created when a
// flaky test is invalid. The write lock must be held.
func (st *Store) seedSuite(org string, f SuiteFixture) error {
	if _, ok := st.orgs[org]; !ok {
		return fmt.Errorf("fakeserver: suite %q: no organization %q", f.Slug+f.Name, org)
	}
	slug := f.Slug
	if slug == "" {
		slug = slugify(f.Name)
	}
	if slug == "" {
		return fmt.Errorf("fakeserver: suite in organization %q needs a slug or a name with a letter or digit", org)
	}
	for _, ft := range f.FlakyTests {
		if v := ft.problems(); len(v) > 0 {
			return fixtureError(fmt.Sprintf("suite %q: flaky test %q", slug, ft.Name), v)
		}
	}
	s := st.suiteBySlug(org, slug)
	if s == nil {
		name, branch := f.Name, f.DefaultBranch
		if name == "" {
			name = slug
		}
		if branch == "" {
			branch = defaultSuiteBranch
		}
		s = st.newSuite(org, slug, name, branch)
	}
	for _, ft := range f.FlakyTests {
		st.addFlakyTest(s, ft)
	}
	return nil
}

// SeedSuite is seedSuite for tests: it creates the suite unless one with the slug exists, then adds the
// fixture's flaky tests.
func (st *Store) SeedSuite(org string, f SuiteFixture) error {
	defer st.edit()()
	return st.seedSuite(org, f)
}

// SuiteID returns the UUID of the suite of org with slug (for Exists and Remove, which take UUIDs).
func (st *Store) SuiteID(org, slug string) (id string, ok bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if s := st.suiteBySlug(org, slug); s != nil {
		return s.id, true
	}
	return "", false
}

// ---- views ----

// suiteURL is a suite's API URL, also the suite_url of a team's access to it.
func suiteURL(base string, s *suiteRecord) string {
	return apiURL(base, "analytics", "organizations", s.org, "suites", s.slug)
}

// suiteView is a suite as the suites API shows it. go-buildkite decodes the first seven fields and ignores
// the rest.
type suiteView struct {
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
	OIDCPolicy      *string `json:"oidc_policy"`
}

// suiteCreatedView is a response carrying the secret: the create response when the body's show_api_token was
// true, and GET of one suite with ?show_api_token=true, which the official provider reads the token by
// (V O resource_test_suite.go Read; its tests import a suite and expect the token back; the REST docs name
// only the create).
type suiteCreatedView struct {
	suiteView
	APIToken string `json:"api_token"`
}

func suiteViewOf(base string, s *suiteRecord) suiteView {
	return suiteView{
		ID: s.id, GraphQLID: s.graphqlID, Slug: s.slug, Name: s.name,
		URL:             suiteURL(base, s),
		WebURL:          webURL(base, "organizations", s.org, "analytics", "suites", s.slug),
		DefaultBranch:   s.defaultBranch,
		ApplicationName: s.applicationName, Color: s.color, Emoji: s.emoji, OIDCPolicy: s.oidcPolicy,
	}
}

// ---- routes ----

func (s *Server) routeSuites(mux *routeMux) {
	const suites = "/v2/analytics/organizations/{org}/suites"
	const suite = suites + "/{suite}"
	mux.HandleFunc("GET "+suites, s.listSuites)
	mux.HandleFunc("POST "+suites, s.createSuite)
	mux.HandleFunc("GET "+suite, s.getSuite)
	mux.HandleFunc("PATCH "+suite, s.updateSuite)
	mux.HandleFunc("DELETE "+suite, s.deleteSuiteHandler)
}

// findSuite finds the path's suite by slug (or, for convenience, UUID): 404 "No suite found". A lock
// must be held.
func (st *Store) findSuite(org string, r *http.Request) (*suiteRecord, *apiError) {
	ref := r.PathValue("suite")
	if s := st.suiteBySlug(org, ref); s != nil {
		return s, nil
	}
	if s := st.suiteByID(org, ref); s != nil {
		return s, nil
	}
	return nil, errNotFound("suite")
}

// ---- handlers ----

func (s *Server) listSuites(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadSuites, func(org string) (any, *apiError) {
		out := []suiteView{}
		for _, su := range paginate(w, r, s.store.suitesOf(org)) {
			out = append(out, suiteViewOf(baseURL(r), su))
		}
		return out, nil
	})
}

func (s *Server) getSuite(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadSuites, func(org string) (any, *apiError) {
		su, err := s.store.findSuite(org, r)
		if err != nil {
			return nil, err
		}
		if r.URL.Query().Get("show_api_token") == "true" {
			return suiteCreatedView{suiteView: suiteViewOf(baseURL(r), su), APIToken: su.apiToken}, nil
		}
		return suiteViewOf(baseURL(r), su), nil
	})
}

// checkSuiteName records a problem when name (given) derives no slug, or the slug of another suite of
// org: suite slugs are unique per organization and come from the name.
func (st *Store) checkSuiteName(problems *validationErrors, org string, name opt[string], self *suiteRecord) {
	if !name.Given() || strings.TrimSpace(name.Value) == "" {
		return
	}
	slug := slugify(name.Value)
	if slug == "" {
		problems.add("name", "must contain a letter or digit")
		return
	}
	if other := st.suiteBySlug(org, slug); other != nil && other != self {
		problems.add("name", "has already been taken")
	}
}

// optionalString turns a property into the nullable string a suite keeps: nil for null and for "".
func optionalString(v opt[string]) *string {
	if v.Given() && v.Value != "" {
		return stringPtr(v.Value)
	}
	return nil // "" clears the field, which the service then shows as null
}

// createSuite takes the team IDs as team_ids (the documentation's sample, go-buildkite) or teams_ids (its
// property list). With teams enabled at least one is required and each team gets read and edit access;
// with teams disabled they are ignored.
func (s *Server) createSuite(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteSuites, http.StatusCreated, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		name, branch := in.String("name"), in.String("default_branch")
		showToken := in.Bool("show_api_token")
		appName, color, emoji := in.String("application_name"), in.String("color"), in.String("emoji")
		teamsField := "team_ids"
		teamIDs := in.Strings("team_ids")
		if !teamIDs.Given() && in.Has("teams_ids") {
			teamsField, teamIDs = "teams_ids", in.Strings("teams_ids")
		}
		problems := in.Problems()
		policy := readOIDCPolicy(in, &problems)
		checkOIDCPolicy(&problems, policy.Value)
		if strings.TrimSpace(name.Value) == "" {
			problems.addBlank("name")
		}
		if strings.TrimSpace(branch.Value) == "" {
			problems.addBlank("default_branch")
		}
		s.store.checkSuiteName(&problems, org.slug, name, nil)
		var teams []string
		if o := s.store.orgs[org.slug]; o != nil && o.teamsEnabled {
			var unknown []string
			for _, id := range teamIDs.Value {
				switch {
				case s.store.teamByID(org.slug, id) == nil:
					unknown = append(unknown, id)
				case !slices.Contains(teams, id):
					teams = append(teams, id)
				}
			}
			switch {
			case len(unknown) > 0:
				problems.add(teamsField, "must be teams of the organization (unknown: "+strings.Join(unknown, ", ")+")")
			case len(teams) == 0:
				problems.addBlank(teamsField)
			}
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		su := s.store.newSuite(org.slug, slugify(name.Value), name.Value, branch.Value)
		su.applicationName, su.color, su.emoji = optionalString(appName), optionalString(color), optionalString(emoji)
		nullableString(&su.oidcPolicy, policy)
		for _, id := range teams {
			s.store.addTeamSuite(org.slug, id, su.id, []string{"read", "edit"}, su.createdAt)
		}
		v := suiteViewOf(baseURL(r), su)
		if showToken.Value {
			return suiteCreatedView{suiteView: v, APIToken: su.apiToken}, nil
		}
		return v, nil
	})
}

// updateSuite changes the properties given; a new name derives a new slug, so the suite's URL changes.
// Other properties (go-buildkite sends back the whole suite, id and url included) are ignored.
func (s *Server) updateSuite(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteSuites, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		name, branch := in.String("name"), in.String("default_branch")
		appName, color, emoji := in.String("application_name"), in.String("color"), in.String("emoji")
		problems := in.Problems()
		policy := readOIDCPolicy(in, &problems)
		checkOIDCPolicy(&problems, policy.Value)
		if name.Set && strings.TrimSpace(name.Value) == "" {
			problems.addBlank("name")
		}
		if branch.Set && strings.TrimSpace(branch.Value) == "" {
			problems.addBlank("default_branch")
		}
		su, err := s.store.findSuite(org.slug, r)
		if err != nil {
			return nil, err
		}
		s.store.checkSuiteName(&problems, org.slug, name, su)
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		if name.Given() {
			s.store.suites.suites.rename(su, func() { su.name, su.slug = name.Value, slugify(name.Value) })
		}
		setString(&su.defaultBranch, branch)
		for _, f := range []struct {
			dst **string
			v   opt[string]
		}{{&su.applicationName, appName}, {&su.color, color}, {&su.emoji, emoji}} {
			if f.v.Set {
				*f.dst = optionalString(f.v)
			}
		}
		nullableString(&su.oidcPolicy, policy)
		return suiteViewOf(baseURL(r), su), nil
	})
}

func (s *Server) deleteSuiteHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteSuites, func(org string) *apiError {
		su, err := s.store.findSuite(org, r)
		if err != nil {
			return err
		}
		s.store.deleteSuite(su)
		return nil
	})
}

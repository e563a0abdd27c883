package fakeserver

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// Teams (https://buildkite.com/docs/apis/rest-api/teams). Their links to users, pipelines and suites are
// declared in team_links.go and share its handlers.

// Kinds of this area, for Store.Exists and Store.Remove.
const (
	// KindTeam is a team, by UUID; removing it removes its members, pipelines and suites associations.
	KindTeam Kind = "team"
	// KindTeamMember is a user's membership of a team, identified "<team id>/<user id>".
	KindTeamMember Kind = "team_member"
	// KindTeamPipeline is a team's access to a pipeline, identified "<team id>/<pipeline id>".
	KindTeamPipeline Kind = "team_pipeline"
	// KindTeamSuite is a team's access to a test suite, identified "<team id>/<suite id>".
	KindTeamSuite Kind = "team_suite"
)

// The enums of the team APIs, in the order error messages list them.
var (
	teamPrivacies        = []string{"visible", "secret"}
	teamMemberRoles      = []string{"member", "maintainer"}
	teamPipelineAccesses = []string{"read_only", "build_and_read", "manage_build_and_read"}
	teamSuiteAccesses    = []string{"read", "edit"}
)

func init() {
	registerKind(KindTeam, (*Store).teamByID, (*Store).deleteTeam)
	for _, a := range teamAssociations {
		registerKind(a.kind, nestedKey(func(st *Store, org, teamID, otherID string) *teamLinkRecord {
			return st.teamLink(a, org, teamID, otherID)
		}), func(st *Store, l *teamLinkRecord) { a.links(st).remove(l) })
	}
}

// ---- state ----

// teamState is this area's part of the Store. Teams are listed by org and named by slug in it. Links
// (team_links.go) are keyed "<team id>/<other id>", the ID their Kind uses, so a team has at most one of
// each; they are listed by team, and suite access also by suite ("suite:<id>") so a deleted suite takes it
// along, and registry access by registry ("registry:<id>", graphql_team_registries.go).
type teamState struct {
	teams      *table[*teamRecord]
	members    *table[*teamLinkRecord]
	pipelines  *table[*teamLinkRecord]
	suites     *table[*teamLinkRecord]
	registries *table[*teamLinkRecord]
}

func newTeamState() teamState {
	byTeam := func(l *teamLinkRecord) []string { return []string{l.teamID} }
	return teamState{
		teams: newTable(func(t *teamRecord) []string { return []string{t.org} },
			func(t *teamRecord) []string { return []string{teamSlugName(t.org, t.slug)} }),
		members:    newTable(byTeam, nil),
		pipelines:  newTable(byTeam, nil),
		suites:     newTable(func(l *teamLinkRecord) []string { return []string{l.teamID, "suite:" + l.otherID} }, nil),
		registries: newTable(func(l *teamLinkRecord) []string { return []string{l.teamID, "registry:" + l.otherID} }, nil),
	}
}

func teamSlugName(org, slug string) string { return nameKey(org, "slug", slug) }

func (t *teamRecord) recordID() string { return t.id }
func (t *teamRecord) recordSeq() int64 { return t.seq }

// teamRecord is a team. Other areas rely on the fields of the first line (pipelines and suites add
// themselves to teams).
type teamRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string

	description, privacy, defaultMemberRole string
	isDefault                               bool
	// The members_can_* permissions: the documentation writes only members_can_create_pipelines; go-buildkite
	// writes and reads the other four as well, so they are kept and echoed too.
	membersCan map[string]bool
	createdAt  time.Time
	createdBy  string // user id
}

// teamPermissions are the members_can_* booleans a team echoes; the first is the documented one.
var teamPermissions = []string{
	"members_can_create_pipelines", "members_can_create_suites", "members_can_create_registries",
	"members_can_destroy_registries", "members_can_destroy_packages",
}

// teamByID returns the team of org with id, or nil. A lock must be held.
func (st *Store) teamByID(org, id string) *teamRecord {
	if t, ok := st.teams.teams.get(id); ok && t.org == org {
		return t
	}
	return nil
}

// teamsOf lists in creation order; the caller must not change the slice.
func (st *Store) teamsOf(org string) []*teamRecord { return st.teams.teams.list(org) }

// teamBySlug returns the team of org with slug, or nil. A lock must be held.
func (st *Store) teamBySlug(org, slug string) *teamRecord {
	t, _ := st.teams.teams.lookup(teamSlugName(org, slug))
	return t
}

// removeAll removes each record of scope from tbl.
func removeAll[T record](tbl *table[T], scope string) {
	for _, rec := range slices.Clone(tbl.list(scope)) {
		tbl.remove(rec)
	}
}

// deleteTeam removes t with its member, pipeline, suite and registry links and its cluster maintainer
// assignments. The write lock must be held.
func (st *Store) deleteTeam(t *teamRecord) {
	for _, a := range teamAssociations {
		removeAll(a.links(st), t.id)
	}
	removeAll(st.teams.registries, t.id)
	removeAll(st.maintainers.maintainers, "actor:"+t.id)
	st.teams.teams.remove(t)
}

// EveryoneTeamName is the team a new organization starts with (Options.SeedDefaults).
const EveryoneTeamName = "Everyone"

// seedEveryoneTeam gives org, when it has teams turned on and no team yet, the team Buildkite creates when an organization
// turns teams on: "Everyone", holding all its members (V: Buildkite's docs, team-management/permissions).
// Choices where the facts are silent (I): it is visible and the default team, its members and new ones get
// the member role, and its members may create pipelines (as everyone could before teams), nothing else.
// The write lock must be held.
func (st *Store) seedEveryoneTeam(org string) {
	o := st.orgs[org]
	if o == nil || !o.teamsEnabled || len(st.teamsOf(org)) > 0 {
		return
	}
	id, now := newID(), st.timestamp()
	st.teams.teams.insert(&teamRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("Team", id), slug: slugify(EveryoneTeamName),
		name: EveryoneTeamName, privacy: "visible", defaultMemberRole: "member", isDefault: true,
		membersCan: map[string]bool{"members_can_create_pipelines": true}, createdAt: now, createdBy: st.defaultUserID,
	})
	for _, u := range st.membersOf(o) {
		st.addTeamLink(teamMembers, org, id, u.id, []string{"member"}, now)
	}
}

// deleteSuiteAssociations removes every team's access to the suite. The write lock must be held.
func (st *Store) deleteSuiteAssociations(suiteID string) {
	removeAll(st.teams.suites, "suite:"+suiteID)
}

// addTeamPipeline gives a team access to a pipeline (creating a pipeline with `teams` does this), or
// changes the access level when the team has access already. accessLevel is read_only, build_and_read or
// manage_build_and_read. A team outside org is ignored: the caller validates the team IDs it was given.
// The write lock must be held.
func (st *Store) addTeamPipeline(org, teamID, pipelineID, accessLevel string, at time.Time) {
	st.addTeamLink(teamPipelines, org, teamID, pipelineID, []string{accessLevel}, at)
}

// addTeamSuite gives a team access to a test suite (creating a suite with team_ids does this), or replaces
// the access when the team has access already. access holds read and/or edit. A team outside org is
// ignored. The write lock must be held.
func (st *Store) addTeamSuite(org, teamID, suiteID string, access []string, at time.Time) {
	st.addTeamLink(teamSuites, org, teamID, suiteID, access, at)
}

// oneOf words an enum for a validation message: "a, b or c".
func oneOf(values []string) string {
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// checkEnum records a problem when v is given but not one of allowed.
func checkEnum(problems *validationErrors, name string, v opt[string], allowed []string) {
	if v.Given() && !slices.Contains(allowed, v.Value) {
		problems.add(name, "must be "+oneOf(allowed))
	}
}

// requireEnum records "can't be blank" when v is absent, null or empty, and a problem when it is not one
// of allowed.
func requireEnum(problems *validationErrors, name string, v opt[string], allowed []string) {
	if v.Value == "" {
		problems.addBlank(name)
		return
	}
	checkEnum(problems, name, v, allowed)
}

// checkLevels validates an access property holding several levels (a team suite's access_level): a
// non-empty array of allowed values. It returns the levels without repeats, in the order given.
func checkLevels(problems *validationErrors, name string, v opt[[]string], allowed []string) []string {
	if len(v.Value) == 0 {
		problems.addBlank(name)
		return nil
	}
	var out []string
	for _, a := range v.Value {
		if !slices.Contains(allowed, a) {
			problems.add(name, "must contain only "+strings.Join(allowed, " and "))
			return nil
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// ---- routes ----

// routeTeams registers the team endpoints, and the link endpoints through each association's routeTeamLinks.
func (s *Server) routeTeams(mux *routeMux) {
	const teams = "/v2/organizations/{org}/teams"
	const team = teams + "/{team}"
	mux.HandleFunc("GET "+teams, s.listTeams)
	mux.HandleFunc("POST "+teams, s.createTeam)
	mux.HandleFunc("GET "+team, s.getTeam)
	mux.HandleFunc("PATCH "+team, s.updateTeam)
	mux.HandleFunc("PUT "+team, s.updateTeam)
	mux.HandleFunc("DELETE "+team, s.deleteTeamHandler)

	for _, a := range teamAssociations {
		s.routeTeamLinks(mux, team, a)
	}
}

// findTeam finds the path's team: 404 "No team found". A lock must be held.
func (st *Store) findTeam(org string, r *http.Request) (*teamRecord, *apiError) {
	t := st.teamByID(org, r.PathValue("team"))
	if t == nil {
		return nil, errNotFound("team")
	}
	return t, nil
}

// ---- team handlers ----

func (s *Server) listTeams(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadTeams, func(org string) (any, *apiError) {
		userID, byUser := r.URL.Query().Get("user_id"), r.URL.Query().Has("user_id")
		var teams []*teamRecord
		for _, t := range s.store.teamsOf(org) {
			if _, member := s.store.teams.members.get(t.id + "/" + userID); !byUser || member {
				teams = append(teams, t)
			}
		}
		out := []teamView{}
		for _, t := range paginate(w, r, teams) {
			out = append(out, s.store.teamView(t))
		}
		return out, nil
	})
}

func (s *Server) getTeam(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeViewTeams, func(org string) (any, *apiError) {
		t, err := s.store.findTeam(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.teamView(t), nil
	})
}

// teamInput is a team create or update body, read and type-checked.
type teamInput struct {
	name, description, privacy, defaultMemberRole opt[string]
	isDefault                                     opt[bool]
	membersCan                                    map[string]opt[bool]
	problems                                      validationErrors
}

// readTeamInput reads the six properties the teams API documents (and go-buildkite's other members_can_*
// booleans). The documentation lists them all as required; only name is, the rest taking the defaults a team
// created in the web interface gets. A null enum or boolean counts as absent.
func readTeamInput(in *jsonObject, creating bool) teamInput {
	ti := teamInput{
		name: in.String("name"), description: in.String("description"),
		privacy: in.String("privacy"), isDefault: in.Bool("is_default_team"),
		defaultMemberRole: in.String("default_member_role"), membersCan: map[string]opt[bool]{},
	}
	for _, p := range teamPermissions {
		ti.membersCan[p] = in.Bool(p)
	}
	ti.problems = in.Problems()
	if (creating || ti.name.Set) && strings.TrimSpace(ti.name.Value) == "" {
		ti.problems.addBlank("name")
	} else if ti.name.Value != "" && slugify(ti.name.Value) == "" {
		ti.problems.add("name", "must contain a letter or digit")
	}
	checkEnum(&ti.problems, "privacy", ti.privacy, teamPrivacies)
	checkEnum(&ti.problems, "default_member_role", ti.defaultMemberRole, teamMemberRoles)
	return ti
}

// apply writes the given properties to t.
func (ti teamInput) apply(t *teamRecord) {
	if ti.name.Given() {
		t.name = ti.name.Value
		t.slug = slugify(ti.name.Value)
	}
	setString(&t.description, ti.description)
	if ti.privacy.Given() {
		t.privacy = ti.privacy.Value
	}
	if ti.defaultMemberRole.Given() {
		t.defaultMemberRole = ti.defaultMemberRole.Value
	}
	if ti.isDefault.Given() {
		t.isDefault = ti.isDefault.Value
	}
	for p, v := range ti.membersCan {
		if v.Given() {
			t.membersCan[p] = v.Value
		}
	}
}

// checkTeamName records "Name has already been taken" when another team of org has the slug name
// derives. Names that differ only in case or punctuation share a slug, and slugs are unique per
// organization.
func (st *Store) checkTeamName(problems *validationErrors, org string, name opt[string], self *teamRecord) {
	if !name.Given() {
		return
	}
	slug := slugify(name.Value)
	if slug == "" {
		return
	}
	if other := st.teamBySlug(org, slug); other != nil && other != self {
		problems.add("name", "has already been taken")
	}
}

func (s *Server) createTeam(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteTeams, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		ti := readTeamInput(in, true)
		s.store.checkTeamName(&ti.problems, org.slug, ti.name, nil)
		if len(ti.problems) > 0 {
			return nil, errValidation(ti.problems)
		}
		id := newID()
		t := &teamRecord{
			seq: s.store.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("Team", id),
			privacy: "visible", defaultMemberRole: "member", membersCan: map[string]bool{},
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		ti.apply(t)
		s.store.teams.teams.insert(t)
		return s.store.teamView(t), nil
	})
}

// updateTeam changes the properties given; a new name derives a new slug.
func (s *Server) updateTeam(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteTeams, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		ti := readTeamInput(in, false)
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return nil, err
		}
		s.store.checkTeamName(&ti.problems, org.slug, ti.name, t)
		if len(ti.problems) > 0 {
			return nil, errValidation(ti.problems)
		}
		s.store.teams.teams.rename(t, func() { ti.apply(t) })
		return s.store.teamView(t), nil
	})
}

func (s *Server) deleteTeamHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteTeams, func(org string) *apiError {
		t, err := s.store.findTeam(org, r)
		if err != nil {
			return err
		}
		s.store.deleteTeam(t)
		return nil
	})
}

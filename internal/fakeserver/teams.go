package fakeserver

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Teams (spec 2.7, 4.5) and their members, pipelines and suites (spec 2.8–2.10, 4.6).

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

// The enums of spec 2.7–2.10, in the order error messages list them.
var (
	teamPrivacies        = []string{"visible", "secret"}
	teamMemberRoles      = []string{"member", "maintainer"}
	teamPipelineAccesses = []string{"read_only", "build_and_read", "manage_build_and_read"}
	teamSuiteAccesses    = []string{"read", "edit"}
)

func init() {
	registerKind(KindTeam, (*Store).teamByID, (*Store).deleteTeam)
	registerKind(KindTeamMember, nestedKey((*Store).teamMember), func(st *Store, m *teamMemberRecord) { st.teams.members.remove(m) })
	registerKind(KindTeamPipeline, nestedKey((*Store).teamPipeline), func(st *Store, tp *teamPipelineRecord) {
		st.teams.pipelines.remove(tp)
	})
	registerKind(KindTeamSuite, nestedKey((*Store).teamSuite), func(st *Store, ts *teamSuiteRecord) { st.teams.suites.remove(ts) })
}

// ---- state ----

// teamState is this area's part of the Store. Teams are listed by org and named by slug in it.
// Associations are keyed "<team id>/<other id>", the ID their Kind uses, so a team has at most one of each;
// they are listed by team, and suite access also by suite ("suite:<id>") so a deleted suite takes it along.
type teamState struct {
	teams     *table[*teamRecord]
	members   *table[*teamMemberRecord]
	pipelines *table[*teamPipelineRecord]
	suites    *table[*teamSuiteRecord]
}

func newTeamState() teamState {
	return teamState{
		teams: newTable(func(t *teamRecord) []string { return []string{t.org} },
			func(t *teamRecord) []string { return []string{teamSlugName(t.org, t.slug)} }),
		members:   newTable(func(m *teamMemberRecord) []string { return []string{m.teamID} }, nil),
		pipelines: newTable(func(tp *teamPipelineRecord) []string { return []string{tp.teamID} }, nil),
		suites: newTable(func(ts *teamSuiteRecord) []string { return []string{ts.teamID, "suite:" + ts.suiteID} },
			nil),
	}
}

func teamSlugName(org, slug string) string { return nameKey(org, "slug", slug) }

func (t *teamRecord) recordID() string          { return t.id }
func (t *teamRecord) recordSeq() int64          { return t.seq }
func (m *teamMemberRecord) recordID() string    { return m.teamID + "/" + m.userID }
func (m *teamMemberRecord) recordSeq() int64    { return m.seq }
func (tp *teamPipelineRecord) recordID() string { return tp.teamID + "/" + tp.pipelineID }
func (tp *teamPipelineRecord) recordSeq() int64 { return tp.seq }
func (ts *teamSuiteRecord) recordID() string    { return ts.teamID + "/" + ts.suiteID }
func (ts *teamSuiteRecord) recordSeq() int64    { return ts.seq }

// teamRecord is a team. Other areas rely on the fields of the first line (pipelines and suites add
// themselves to teams).
type teamRecord struct {
	seq                            int64
	org, id, graphqlID, slug, name string

	description, privacy, defaultMemberRole string
	isDefault                               bool
	// The members_can_* permissions: the spec writes only members_can_create_pipelines; go-buildkite
	// writes and reads the other four as well, so they are kept and echoed too.
	membersCan map[string]bool
	createdAt  time.Time
	createdBy  string // user id
}

// teamPermissions are the members_can_* booleans a team echoes; the first is the spec's.
var teamPermissions = []string{
	"members_can_create_pipelines", "members_can_create_suites", "members_can_create_registries",
	"members_can_destroy_registries", "members_can_destroy_packages",
}

type teamMemberRecord struct {
	seq                 int64
	org, teamID, userID string
	role                string
	createdAt           time.Time
}

type teamPipelineRecord struct {
	seq                     int64
	org, teamID, pipelineID string
	accessLevel             string
	createdAt               time.Time
}

type teamSuiteRecord struct {
	seq                  int64
	org, teamID, suiteID string
	access               []string
	createdAt            time.Time
}

// teamByID returns the team of org with id, or nil. A lock must be held.
func (st *Store) teamByID(org, id string) *teamRecord {
	if t, ok := st.teams.teams.get(id); ok && t.org == org {
		return t
	}
	return nil
}

// The association lookups below need a lock held. They return nil when the team is not org's, and the
// pipeline and suite ones also when the pipeline or suite has since been deleted: those live in other
// files and do not clean up after themselves, so a dangling association is filtered out wherever it is read.

func (st *Store) teamMember(org, teamID, userID string) *teamMemberRecord {
	if st.teamByID(org, teamID) == nil {
		return nil
	}
	m, _ := st.teams.members.get(teamID + "/" + userID)
	return m
}

func (st *Store) teamPipeline(org, teamID, pipelineID string) *teamPipelineRecord {
	if st.teamByID(org, teamID) == nil || st.pipelineByID(org, pipelineID) == nil {
		return nil
	}
	tp, _ := st.teams.pipelines.get(teamID + "/" + pipelineID)
	return tp
}

func (st *Store) teamSuite(org, teamID, suiteID string) *teamSuiteRecord {
	if st.teamByID(org, teamID) == nil || st.suiteByID(org, suiteID) == nil {
		return nil
	}
	ts, _ := st.teams.suites.get(teamID + "/" + suiteID)
	return ts
}

// teamsOf and teamMembersOf list in creation order; the caller must not change the slice.

func (st *Store) teamsOf(org string) []*teamRecord { return st.teams.teams.list(org) }

func (st *Store) teamMembersOf(teamID string) []*teamMemberRecord {
	return st.teams.members.list(teamID)
}

// teamPipelinesOf and teamSuitesOf list in creation order, leaving out associations whose pipeline or
// suite has gone.

func (st *Store) teamPipelinesOf(t *teamRecord) []*teamPipelineRecord {
	return slices.DeleteFunc(slices.Clone(st.teams.pipelines.list(t.id)), func(tp *teamPipelineRecord) bool {
		return st.pipelineByID(t.org, tp.pipelineID) == nil
	})
}

func (st *Store) teamSuitesOf(t *teamRecord) []*teamSuiteRecord {
	return slices.DeleteFunc(slices.Clone(st.teams.suites.list(t.id)), func(ts *teamSuiteRecord) bool {
		return st.suiteByID(t.org, ts.suiteID) == nil
	})
}

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

// deleteTeam removes t with its member, pipeline and suite associations. The write lock must be held.
func (st *Store) deleteTeam(t *teamRecord) {
	removeAll(st.teams.members, t.id)
	removeAll(st.teams.pipelines, t.id)
	removeAll(st.teams.suites, t.id)
	st.teams.teams.remove(t)
}

// deleteSuiteAssociations removes every team's access to the suite. The write lock must be held.
func (st *Store) deleteSuiteAssociations(suiteID string) {
	removeAll(st.teams.suites, "suite:"+suiteID)
}

// associationTime is when an association made by another area was created: at, or now when at is zero.
func (st *Store) associationTime(at time.Time) time.Time {
	if at.IsZero() {
		return st.timestamp()
	}
	return at.UTC().Truncate(time.Millisecond)
}

// addTeamPipeline gives a team access to a pipeline (creating a pipeline with `teams` does this), or
// changes the access level when the team has access already. accessLevel is read_only, build_and_read or
// manage_build_and_read. A team outside org is ignored: the caller validates the team IDs it was given.
// The write lock must be held.
func (st *Store) addTeamPipeline(org, teamID, pipelineID, accessLevel string, at time.Time) {
	if st.teamByID(org, teamID) == nil {
		return
	}
	if tp, ok := st.teams.pipelines.get(teamID + "/" + pipelineID); ok {
		tp.accessLevel = accessLevel
		return
	}
	st.teams.pipelines.insert(&teamPipelineRecord{
		seq: st.nextSeq(), org: org, teamID: teamID, pipelineID: pipelineID, accessLevel: accessLevel,
		createdAt: st.associationTime(at),
	})
}

// addTeamSuite gives a team access to a test suite (creating a suite with team_ids does this), or replaces
// the access when the team has access already. access holds read and/or edit. A team outside org is
// ignored. The write lock must be held.
func (st *Store) addTeamSuite(org, teamID, suiteID string, access []string, at time.Time) {
	if st.teamByID(org, teamID) == nil {
		return
	}
	if ts, ok := st.teams.suites.get(teamID + "/" + suiteID); ok {
		ts.access = slices.Clone(access)
		return
	}
	st.teams.suites.insert(&teamSuiteRecord{
		seq: st.nextSeq(), org: org, teamID: teamID, suiteID: suiteID, access: slices.Clone(access),
		createdAt: st.associationTime(at),
	})
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

// checkSuiteAccess validates a team suite's access_level: a non-empty array of read and edit. It returns
// the levels without repeats, in the order given.
func checkSuiteAccess(problems *validationErrors, v opt[[]string]) []string {
	if len(v.Value) == 0 {
		problems.addBlank("access_level")
		return nil
	}
	var out []string
	for _, a := range v.Value {
		if !slices.Contains(teamSuiteAccesses, a) {
			problems.add("access_level", "must contain only read and edit")
			return nil
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// ---- views ----

// teamView is spec 2.7 plus the write properties the reference echoes (is_default_team,
// default_member_role, members_can_create_pipelines) and go-buildkite's other members_can_* booleans.
type teamView struct {
	ID                          string    `json:"id"`
	GraphQLID                   string    `json:"graphql_id"`
	Name                        string    `json:"name"`
	Slug                        string    `json:"slug"`
	Description                 string    `json:"description"`
	Privacy                     string    `json:"privacy"`
	Default                     bool      `json:"default"`
	IsDefaultTeam               bool      `json:"is_default_team"`
	DefaultMemberRole           string    `json:"default_member_role"`
	MembersCanCreatePipelines   bool      `json:"members_can_create_pipelines"`
	MembersCanCreateSuites      bool      `json:"members_can_create_suites"`
	MembersCanCreateRegistries  bool      `json:"members_can_create_registries"`
	MembersCanDestroyRegistries bool      `json:"members_can_destroy_registries"`
	MembersCanDestroyPackages   bool      `json:"members_can_destroy_packages"`
	CreatedAt                   string    `json:"created_at"`
	CreatedBy                   *userView `json:"created_by"`
}

func (st *Store) teamView(t *teamRecord) teamView {
	return teamView{
		ID: t.id, GraphQLID: t.graphqlID, Name: t.name, Slug: t.slug, Description: t.description,
		Privacy: t.privacy, Default: t.isDefault, IsDefaultTeam: t.isDefault, DefaultMemberRole: t.defaultMemberRole,
		MembersCanCreatePipelines:   t.membersCan["members_can_create_pipelines"],
		MembersCanCreateSuites:      t.membersCan["members_can_create_suites"],
		MembersCanCreateRegistries:  t.membersCan["members_can_create_registries"],
		MembersCanDestroyRegistries: t.membersCan["members_can_destroy_registries"],
		MembersCanDestroyPackages:   t.membersCan["members_can_destroy_packages"],
		CreatedAt:                   formatTime(t.createdAt),
		CreatedBy:                   st.userSummary(t.createdBy),
	}
}

// teamMemberView is spec 2.8. created_at is always a timestamp: go-buildkite decodes it as non-null.
type teamMemberView struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	UserID    string `json:"user_id"`
	UserName  string `json:"user_name"`
	Role      string `json:"role"`
	CreatedAt string `json:"created_at"`
}

func (st *Store) teamMemberView(m *teamMemberRecord) teamMemberView {
	id := linkID(m.teamID, m.userID)
	v := teamMemberView{ID: id, GraphQLID: graphQLID("TeamMember", id), UserID: m.userID, Role: m.role, CreatedAt: formatTime(m.createdAt)}
	if u, ok := st.users[m.userID]; ok {
		v.UserName = u.name
	}
	return v
}

// teamPipelineView is spec 2.9.
type teamPipelineView struct {
	ID          string `json:"id"`
	GraphQLID   string `json:"graphql_id"`
	PipelineID  string `json:"pipeline_id"`
	PipelineURL string `json:"pipeline_url"`
	AccessLevel string `json:"access_level"`
	CreatedAt   string `json:"created_at"`
}

func (st *Store) teamPipelineView(base string, tp *teamPipelineRecord) teamPipelineView {
	id := linkID(tp.teamID, tp.pipelineID)
	v := teamPipelineView{
		ID: id, GraphQLID: graphQLID("TeamPipeline", id),
		PipelineID: tp.pipelineID, AccessLevel: tp.accessLevel, CreatedAt: formatTime(tp.createdAt),
	}
	if p := st.pipelineByID(tp.org, tp.pipelineID); p != nil {
		v.PipelineURL = apiURL(base, "organizations", tp.org, "pipelines", p.slug)
	}
	return v
}

// teamSuiteView is spec 2.10.
type teamSuiteView struct {
	ID          string   `json:"id"`
	GraphQLID   string   `json:"graphql_id"`
	SuiteID     string   `json:"suite_id"`
	SuiteURL    string   `json:"suite_url"`
	AccessLevel []string `json:"access_level"`
	CreatedAt   string   `json:"created_at"`
}

func (st *Store) teamSuiteView(base string, ts *teamSuiteRecord) teamSuiteView {
	id := linkID(ts.teamID, ts.suiteID)
	v := teamSuiteView{
		ID: id, GraphQLID: graphQLID("TeamSuite", id),
		SuiteID: ts.suiteID, AccessLevel: nonNil(slices.Clone(ts.access)), CreatedAt: formatTime(ts.createdAt),
	}
	if s := st.suiteByID(ts.org, ts.suiteID); s != nil {
		v.SuiteURL = suiteURL(base, s)
	}
	return v
}

// linkID is the identifier of a team's link to a user, pipeline or suite. The spec gives these links no
// id of their own, but every object carries one: derived from both ends, it is stable across requests.
func linkID(teamID, otherID string) string {
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte(teamID+"/"+otherID)).String()
}

// ---- routes ----

// routeTeams registers spec 4.5 and 4.6. Where the specification and go-buildkite disagree on a path
// (the trailing slash of the add endpoints, /suite against /suites, how a pipeline is removed) both are
// served.
func (s *Server) routeTeams(mux *http.ServeMux) {
	const teams = "/v2/organizations/{org}/teams"
	const team = teams + "/{team}"
	mux.HandleFunc("GET "+teams, s.listTeams)
	mux.HandleFunc("POST "+teams, s.createTeam)
	mux.HandleFunc("GET "+team, s.getTeam)
	mux.HandleFunc("PATCH "+team, s.updateTeam)
	mux.HandleFunc("PUT "+team, s.updateTeam)
	mux.HandleFunc("DELETE "+team, s.deleteTeamHandler)

	const members = team + "/members"
	const member = members + "/{user}"
	mux.HandleFunc("GET "+members, s.listTeamMembers)
	mux.HandleFunc("POST "+members, s.addTeamMember)
	mux.HandleFunc("POST "+members+"/{$}", s.addTeamMember)
	mux.HandleFunc("GET "+member, s.getTeamMember)
	mux.HandleFunc("PATCH "+member, s.updateTeamMember)
	mux.HandleFunc("DELETE "+member, s.removeTeamMember)

	const pipelines = team + "/pipelines"
	const pipeline = pipelines + "/{pipeline}"
	mux.HandleFunc("GET "+pipelines, s.listTeamPipelines)
	mux.HandleFunc("POST "+pipelines, s.addTeamPipelineHandler)
	mux.HandleFunc("POST "+pipelines+"/{$}", s.addTeamPipelineHandler)
	mux.HandleFunc("GET "+pipeline, s.getTeamPipeline)
	mux.HandleFunc("PATCH "+pipeline, s.updateTeamPipeline)
	mux.HandleFunc("DELETE "+pipeline, s.removeTeamPipeline)
	mux.HandleFunc("DELETE "+pipelines+"/{$}", s.removeTeamPipeline) // the spec's form: the id in the body
	mux.HandleFunc("DELETE "+pipelines, s.removeTeamPipeline)

	const suites = team + "/suites"
	const suite = suites + "/{suite}"
	mux.HandleFunc("GET "+suites, s.listTeamSuites)
	mux.HandleFunc("POST "+team+"/suite", s.addTeamSuiteHandler)
	mux.HandleFunc("POST "+team+"/suite/{$}", s.addTeamSuiteHandler)
	mux.HandleFunc("POST "+suites, s.addTeamSuiteHandler)
	mux.HandleFunc("POST "+suites+"/{$}", s.addTeamSuiteHandler)
	mux.HandleFunc("GET "+suite, s.getTeamSuite)
	mux.HandleFunc("PATCH "+suite, s.updateTeamSuite)
	mux.HandleFunc("DELETE "+suite, s.removeTeamSuite)
	mux.HandleFunc("DELETE "+suite+"/{$}", s.removeTeamSuite)
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
	org, _, ok := s.authorize(w, r, scopeReadTeams)
	if !ok {
		return
	}
	userID, byUser := r.URL.Query().Get("user_id"), r.URL.Query().Has("user_id")
	var out []teamView
	_ = s.store.view(func() *apiError {
		var teams []*teamRecord
		for _, t := range s.store.teamsOf(org.slug) {
			if _, member := s.store.teams.members.get(t.id + "/" + userID); !byUser || member {
				teams = append(teams, t)
			}
		}
		for _, t := range paginate(w, r, teams) {
			out = append(out, s.store.teamView(t))
		}
		return nil
	})
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) getTeam(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out teamView
	err := s.store.view(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		out = s.store.teamView(t)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// teamInput is a team create or update body, read and type-checked.
type teamInput struct {
	name, description, privacy, defaultMemberRole opt[string]
	isDefault                                     opt[bool]
	membersCan                                    map[string]opt[bool]
	problems                                      validationErrors
}

// readTeamInput reads the six properties of spec 4.5 (and go-buildkite's other members_can_* booleans).
// The spec lists them all as required; only name is, the rest taking the defaults a team created in the
// web interface gets. A null enum or boolean counts as absent.
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
	org, user, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	ti := readTeamInput(in, true)
	var out teamView
	err := s.store.update(func() *apiError {
		s.store.checkTeamName(&ti.problems, org.slug, ti.name, nil)
		if len(ti.problems) > 0 {
			return errValidation(ti.problems)
		}
		id := newID()
		t := &teamRecord{
			seq: s.store.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("Team", id),
			privacy: "visible", defaultMemberRole: "member", membersCan: map[string]bool{},
			createdAt: s.store.timestamp(), createdBy: user.id,
		}
		ti.apply(t)
		s.store.teams.teams.insert(t)
		out = s.store.teamView(t)
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

// updateTeam changes the properties given; a new name derives a new slug.
func (s *Server) updateTeam(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	ti := readTeamInput(in, false)
	var out teamView
	err := s.store.update(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		s.store.checkTeamName(&ti.problems, org.slug, ti.name, t)
		if len(ti.problems) > 0 {
			return errValidation(ti.problems)
		}
		s.store.teams.teams.rename(t, func() { ti.apply(t) })
		out = s.store.teamView(t)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) deleteTeamHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		s.store.deleteTeam(t)
		return nil
	})
	respondNoContent(w, err)
}

// ---- team member handlers ----

func (s *Server) listTeamMembers(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out []teamMemberView
	err := s.store.view(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		for _, m := range paginate(w, r, s.store.teamMembersOf(t.id)) {
			out = append(out, s.store.teamMemberView(m))
		}
		return nil
	})
	respond(w, http.StatusOK, nonNil(out), err)
}

// findTeamMember finds the membership of the path's team and user: 404 for either. A lock must be held.
func (st *Store) findTeamMember(org string, r *http.Request) (*teamMemberRecord, *apiError) {
	t, err := st.findTeam(org, r)
	if err != nil {
		return nil, err
	}
	m := st.teamMember(org, t.id, r.PathValue("user"))
	if m == nil {
		return nil, errNotFound("team member")
	}
	return m, nil
}

func (s *Server) getTeamMember(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out teamMemberView
	err := s.store.view(func() *apiError {
		m, err := s.store.findTeamMember(org.slug, r)
		if err != nil {
			return err
		}
		out = s.store.teamMemberView(m)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// addTeamMember adds a member of the organization to the team; a user outside it, or one already in the
// team, is a 422.
func (s *Server) addTeamMember(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	userID, role := in.String("user_id"), in.String("role")
	problems := in.Problems()
	if userID.Value == "" {
		problems.addBlank("user_id")
	}
	requireEnum(&problems, "role", role, teamMemberRoles)
	var out teamMemberView
	err := s.store.update(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		if userID.Value != "" {
			switch {
			case !s.store.isMember(org.slug, userID.Value):
				problems.add("user_id", "must be a member of the organization")
			case s.store.teamMember(org.slug, t.id, userID.Value) != nil:
				problems.add("user_id", "is already a member of the team")
			}
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		m := &teamMemberRecord{
			seq: s.store.nextSeq(), org: org.slug, teamID: t.id, userID: userID.Value, role: role.Value,
			createdAt: s.store.timestamp(),
		}
		s.store.teams.members.insert(m)
		out = s.store.teamMemberView(m)
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

func (s *Server) updateTeamMember(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	role := in.String("role")
	problems := in.Problems()
	requireEnum(&problems, "role", role, teamMemberRoles)
	var out teamMemberView
	err := s.store.update(func() *apiError {
		m, err := s.store.findTeamMember(org.slug, r)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		m.role = role.Value
		out = s.store.teamMemberView(m)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) removeTeamMember(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		m, err := s.store.findTeamMember(org.slug, r)
		if err != nil {
			return err
		}
		s.store.teams.members.remove(m)
		return nil
	})
	respondNoContent(w, err)
}

// ---- team pipeline handlers ----

func (s *Server) listTeamPipelines(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out []teamPipelineView
	err := s.store.view(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		for _, tp := range paginate(w, r, s.store.teamPipelinesOf(t)) {
			out = append(out, s.store.teamPipelineView(baseURL(r), tp))
		}
		return nil
	})
	respond(w, http.StatusOK, nonNil(out), err)
}

// findTeamPipeline finds the association of the path's team with pipelineID: 404 for an unknown team,
// an unknown pipeline, or a pipeline the team has no access to. A lock must be held.
func (st *Store) findTeamPipeline(org string, r *http.Request, pipelineID string) (*teamPipelineRecord, *apiError) {
	t, err := st.findTeam(org, r)
	if err != nil {
		return nil, err
	}
	if st.pipelineByID(org, pipelineID) == nil {
		return nil, errNotFound("pipeline")
	}
	tp := st.teamPipeline(org, t.id, pipelineID)
	if tp == nil {
		return nil, errNotFound("team pipeline")
	}
	return tp, nil
}

func (s *Server) getTeamPipeline(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out teamPipelineView
	err := s.store.view(func() *apiError {
		tp, err := s.store.findTeamPipeline(org.slug, r, r.PathValue("pipeline"))
		if err != nil {
			return err
		}
		out = s.store.teamPipelineView(baseURL(r), tp)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) addTeamPipelineHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	pipelineID, access := in.String("pipeline_id"), in.String("access_level")
	problems := in.Problems()
	if pipelineID.Value == "" {
		problems.addBlank("pipeline_id")
	}
	requireEnum(&problems, "access_level", access, teamPipelineAccesses)
	var out teamPipelineView
	err := s.store.update(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		if pipelineID.Value != "" {
			switch {
			case s.store.pipelineByID(org.slug, pipelineID.Value) == nil:
				problems.add("pipeline_id", "must be a pipeline of the organization")
			case s.store.teamPipeline(org.slug, t.id, pipelineID.Value) != nil:
				problems.add("pipeline_id", "has already been added to the team")
			}
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		// A left-over association of a deleted pipeline with the same ID is replaced, not updated.
		if stale, ok := s.store.teams.pipelines.get(t.id + "/" + pipelineID.Value); ok {
			s.store.teams.pipelines.remove(stale)
		}
		s.store.addTeamPipeline(org.slug, t.id, pipelineID.Value, access.Value, time.Time{})
		out = s.store.teamPipelineView(baseURL(r), s.store.teamPipeline(org.slug, t.id, pipelineID.Value))
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

func (s *Server) updateTeamPipeline(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	access := in.String("access_level")
	problems := in.Problems()
	requireEnum(&problems, "access_level", access, teamPipelineAccesses)
	var out teamPipelineView
	err := s.store.update(func() *apiError {
		tp, err := s.store.findTeamPipeline(org.slug, r, r.PathValue("pipeline"))
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		tp.accessLevel = access.Value
		out = s.store.teamPipelineView(baseURL(r), tp)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// removeTeamPipeline serves both removal forms: go-buildkite's DELETE .../pipelines/{pipeline uuid} and
// the spec's DELETE .../pipelines/, whose path carries no ID, with {"pipeline_id": ...} in the body.
func (s *Server) removeTeamPipeline(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	pipelineID := r.PathValue("pipeline")
	var problems validationErrors
	if pipelineID == "" {
		in, ok := readObject(w, r)
		if !ok {
			return
		}
		v := in.String("pipeline_id")
		problems = in.Problems()
		if v.Value == "" {
			problems.addBlank("pipeline_id")
		}
		pipelineID = v.Value
	}
	err := s.store.update(func() *apiError {
		if _, err := s.store.findTeam(org.slug, r); err != nil {
			return err
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		tp, err := s.store.findTeamPipeline(org.slug, r, pipelineID)
		if err != nil {
			return err
		}
		s.store.teams.pipelines.remove(tp)
		return nil
	})
	respondNoContent(w, err)
}

// ---- team suite handlers ----

func (s *Server) listTeamSuites(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out []teamSuiteView
	err := s.store.view(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		for _, ts := range paginate(w, r, s.store.teamSuitesOf(t)) {
			out = append(out, s.store.teamSuiteView(baseURL(r), ts))
		}
		return nil
	})
	respond(w, http.StatusOK, nonNil(out), err)
}

// findTeamSuite finds the association of the path's team and suite: 404 for an unknown team, an unknown
// suite, or a suite the team has no access to. A lock must be held.
func (st *Store) findTeamSuite(org string, r *http.Request) (*teamSuiteRecord, *apiError) {
	t, err := st.findTeam(org, r)
	if err != nil {
		return nil, err
	}
	suiteID := r.PathValue("suite")
	if st.suiteByID(org, suiteID) == nil {
		return nil, errNotFound("suite")
	}
	ts := st.teamSuite(org, t.id, suiteID)
	if ts == nil {
		return nil, errNotFound("team suite")
	}
	return ts, nil
}

func (s *Server) getTeamSuite(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeViewTeams)
	if !ok {
		return
	}
	var out teamSuiteView
	err := s.store.view(func() *apiError {
		ts, err := s.store.findTeamSuite(org.slug, r)
		if err != nil {
			return err
		}
		out = s.store.teamSuiteView(baseURL(r), ts)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) addTeamSuiteHandler(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	suiteID, accessIn := in.String("suite_id"), in.Strings("access_level")
	problems := in.Problems()
	if suiteID.Value == "" {
		problems.addBlank("suite_id")
	}
	access := checkSuiteAccess(&problems, accessIn)
	var out teamSuiteView
	err := s.store.update(func() *apiError {
		t, err := s.store.findTeam(org.slug, r)
		if err != nil {
			return err
		}
		if suiteID.Value != "" {
			switch {
			case s.store.suiteByID(org.slug, suiteID.Value) == nil:
				problems.add("suite_id", "must be a test suite of the organization")
			case s.store.teamSuite(org.slug, t.id, suiteID.Value) != nil:
				problems.add("suite_id", "has already been added to the team")
			}
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		if stale, ok := s.store.teams.suites.get(t.id + "/" + suiteID.Value); ok {
			s.store.teams.suites.remove(stale)
		}
		s.store.addTeamSuite(org.slug, t.id, suiteID.Value, access, time.Time{})
		out = s.store.teamSuiteView(baseURL(r), s.store.teamSuite(org.slug, t.id, suiteID.Value))
		return nil
	})
	respond(w, http.StatusCreated, out, err)
}

func (s *Server) updateTeamSuite(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	in, ok := readObject(w, r)
	if !ok {
		return
	}
	accessIn := in.Strings("access_level")
	problems := in.Problems()
	access := checkSuiteAccess(&problems, accessIn)
	var out teamSuiteView
	err := s.store.update(func() *apiError {
		ts, err := s.store.findTeamSuite(org.slug, r)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return errValidation(problems)
		}
		ts.access = access
		out = s.store.teamSuiteView(baseURL(r), ts)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

func (s *Server) removeTeamSuite(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.authorize(w, r, scopeWriteTeams)
	if !ok {
		return
	}
	err := s.store.update(func() *apiError {
		ts, err := s.store.findTeamSuite(org.slug, r)
		if err != nil {
			return err
		}
		s.store.teams.suites.remove(ts)
		return nil
	})
	respondNoContent(w, err)
}

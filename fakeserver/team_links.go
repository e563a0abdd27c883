package fakeserver

import (
	"net/http"
	"slices"
	"time"
)

// A team's links to users (members), pipelines and test suites
// (https://buildkite.com/docs/apis/rest-api/teams/members, /teams/pipelines, /teams/suites). The three are
// declared by one descriptor each (teamAssociations) and served by one set of handlers. Where the
// documentation and go-buildkite disagree on a path (the trailing slash of the add endpoints, /suite against
// /suites, how a pipeline is removed) both are served.

// teamLinkRecord is one link of a team to another object.
type teamLinkRecord struct {
	seq                  int64
	org, teamID, otherID string
	// access is what the link grants: a member's role or a pipeline's access level (one value), or a
	// suite's access levels.
	access    []string
	createdAt time.Time
	// uuid is the association's own UUID, which only its GraphQL ID shows (graphql_teams.go); "" in a
	// state saved before it was kept.
	uuid string
}

func (l *teamLinkRecord) recordID() string { return l.teamID + "/" + l.otherID }
func (l *teamLinkRecord) recordSeq() int64 { return l.seq }

// level is the link's single access value (a member's role, a pipeline's access level).
func (l *teamLinkRecord) level() string {
	if len(l.access) == 0 {
		return ""
	}
	return l.access[0]
}

// linkAccess is the body property holding what a link grants: one of allowed, or (many) a non-empty
// array of them.
type linkAccess struct {
	field   string
	allowed []string
	many    bool
}

// read reads the property from a body. The check it returns, run once the body's type problems are in
// problems, validates the value and returns the access to store.
func (la linkAccess) read(in *jsonObject) func(problems *validationErrors) []string {
	if la.many {
		v := in.Strings(la.field)
		return func(p *validationErrors) []string { return checkLevels(p, la.field, v, la.allowed) }
	}
	v := in.String(la.field)
	return func(p *validationErrors) []string {
		requireEnum(p, la.field, v, la.allowed)
		return []string{v.Value}
	}
}

// teamAssociation declares one kind of team link: its routes, its body, its checks and its view.
type teamAssociation struct {
	kind       Kind
	collection string // the path under a team listing its links: "members"
	param      string // the path parameter naming the other end of one link: "user"
	idField    string // the create body property naming the other end: "user_id"
	access     linkAccess
	noun       string // a missing link is a 404 "No <noun> found"
	// otherNoun and exists, when set, make an unknown other end a 404 "No <otherNoun> found" and hide
	// links whose other end has gone: pipelines and suites are deleted behind their links (their areas do
	// not clean up after themselves); users never are.
	otherNoun string
	exists    func(st *Store, org, id string) bool
	// linkable tells whether id may be linked to a team of org; notLinkable words the problem when not, and
	// taken the problem of a link that exists.
	linkable           func(st *Store, org, id string) bool
	notLinkable, taken string
	links              func(st *Store) *table[*teamLinkRecord]
	view               func(st *Store, base string, l *teamLinkRecord) any
	// addAliases are further paths under the team that create a link (go-buildkite's "suite");
	// slashDelete serves DELETE <link>/ too, and deleteByBody the documented DELETE <collection>/ naming the
	// other end in the body.
	addAliases                []string
	slashDelete, deleteByBody bool
}

// Each association's descriptor.
var (
	teamMembers = &teamAssociation{
		kind: KindTeamMember, collection: "members", param: "user", idField: "user_id",
		access: linkAccess{field: "role", allowed: teamMemberRoles}, noun: "team member",
		linkable:    (*Store).isMember,
		notLinkable: "must be a member of the organization", taken: "is already a member of the team",
		links: func(st *Store) *table[*teamLinkRecord] { return st.teams.members },
		view:  func(st *Store, _ string, l *teamLinkRecord) any { return st.teamMemberView(l) },
	}
	teamPipelines = &teamAssociation{
		kind: KindTeamPipeline, collection: "pipelines", param: "pipeline", idField: "pipeline_id",
		access: linkAccess{field: "access_level", allowed: teamPipelineAccesses}, noun: "team pipeline",
		otherNoun: "pipeline", exists: pipelineExists, linkable: pipelineExists,
		notLinkable: "must be a pipeline of the organization", taken: "has already been added to the team",
		links:        func(st *Store) *table[*teamLinkRecord] { return st.teams.pipelines },
		view:         func(st *Store, base string, l *teamLinkRecord) any { return st.teamPipelineView(base, l) },
		deleteByBody: true,
	}
	teamSuites = &teamAssociation{
		kind: KindTeamSuite, collection: "suites", param: "suite", idField: "suite_id",
		access: linkAccess{field: "access_level", allowed: teamSuiteAccesses, many: true}, noun: "team suite",
		otherNoun: "suite", exists: suiteExists, linkable: suiteExists,
		notLinkable: "must be a test suite of the organization", taken: "has already been added to the team",
		links:      func(st *Store) *table[*teamLinkRecord] { return st.teams.suites },
		view:       func(st *Store, base string, l *teamLinkRecord) any { return st.teamSuiteView(base, l) },
		addAliases: []string{"suite"}, slashDelete: true,
	}
	teamAssociations = []*teamAssociation{teamMembers, teamPipelines, teamSuites}
)

func pipelineExists(st *Store, org, id string) bool { return st.pipelineByID(org, id) != nil }
func suiteExists(st *Store, org, id string) bool    { return st.suiteByID(org, id) != nil }

// ---- state ----

// teamLink returns org's link of kind a from teamID to otherID, or nil; nil also when the other end has
// gone. A lock must be held.
func (st *Store) teamLink(a *teamAssociation, org, teamID, otherID string) *teamLinkRecord {
	if st.teamByID(org, teamID) == nil || (a.exists != nil && !a.exists(st, org, otherID)) {
		return nil
	}
	l, _ := a.links(st).get(teamID + "/" + otherID)
	return l
}

// teamLinksOf lists t's links of kind a in creation order, leaving out those whose other end has gone.
// The caller must not change the slice. A lock must be held.
func (st *Store) teamLinksOf(a *teamAssociation, t *teamRecord) []*teamLinkRecord {
	links := a.links(st).list(t.id)
	if a.exists == nil {
		return links
	}
	return slices.DeleteFunc(slices.Clone(links), func(l *teamLinkRecord) bool { return !a.exists(st, t.org, l.otherID) })
}

// addTeamLink links a team of org to otherID, or replaces the access of the link that exists (even one
// whose other end has gone). A team outside org is ignored. The write lock must be held.
func (st *Store) addTeamLink(a *teamAssociation, org, teamID, otherID string, access []string, at time.Time) {
	if st.teamByID(org, teamID) == nil {
		return
	}
	if l, ok := a.links(st).get(teamID + "/" + otherID); ok {
		l.access = slices.Clone(access)
		return
	}
	a.links(st).insert(&teamLinkRecord{
		seq: st.nextSeq(), org: org, teamID: teamID, otherID: otherID, access: slices.Clone(access),
		createdAt: st.associationTime(at), uuid: newID(),
	})
}

// associationTime is when a link made by another area was created: at, or now when at is zero.
func (st *Store) associationTime(at time.Time) time.Time {
	if at.IsZero() {
		return st.timestamp()
	}
	return at.UTC().Truncate(time.Millisecond)
}

// findTeamLink finds the path's team's link of kind a to otherID: 404 for an unknown team, an unknown
// other end (when a checks it) and a missing link. A lock must be held.
func (st *Store) findTeamLink(a *teamAssociation, org string, r *http.Request, otherID string) (*teamLinkRecord, *apiError) {
	t, err := st.findTeam(org, r)
	if err != nil {
		return nil, err
	}
	if a.exists != nil && !a.exists(st, org, otherID) {
		return nil, errNotFound(a.otherNoun)
	}
	l := st.teamLink(a, org, t.id, otherID)
	if l == nil {
		return nil, errNotFound(a.noun)
	}
	return l, nil
}

// ---- routes ----

// routeTeamLinks registers a's routes under team (the path of one team).
func (s *Server) routeTeamLinks(mux *routeMux, team string, a *teamAssociation) {
	links := team + "/" + a.collection
	link := links + "/{" + a.param + "}"
	mux.HandleFunc("GET "+links, s.listTeamLinks(a))
	for _, p := range append([]string{a.collection}, a.addAliases...) {
		mux.HandleFunc("POST "+team+"/"+p, s.addTeamLinkHandler(a))
		mux.HandleFunc("POST "+team+"/"+p+"/{$}", s.addTeamLinkHandler(a))
	}
	mux.HandleFunc("GET "+link, s.getTeamLink(a))
	mux.HandleFunc("PATCH "+link, s.updateTeamLink(a))
	mux.HandleFunc("DELETE "+link, s.removeTeamLink(a))
	if a.slashDelete {
		mux.HandleFunc("DELETE "+link+"/{$}", s.removeTeamLink(a))
	}
	if a.deleteByBody {
		mux.HandleFunc("DELETE "+links+"/{$}", s.removeTeamLink(a))
		mux.HandleFunc("DELETE "+links, s.removeTeamLink(a))
	}
}

// ---- handlers ----

func (s *Server) listTeamLinks(a *teamAssociation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.serveRead(w, r, scopeViewTeams, func(org string) (any, *apiError) {
			t, err := s.store.findTeam(org, r)
			if err != nil {
				return nil, err
			}
			out := []any{}
			for _, l := range paginate(w, r, s.store.teamLinksOf(a, t)) {
				out = append(out, a.view(s.store, baseURL(r), l))
			}
			return out, nil
		})
	}
}

func (s *Server) getTeamLink(a *teamAssociation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.serveRead(w, r, scopeViewTeams, func(org string) (any, *apiError) {
			l, err := s.store.findTeamLink(a, org, r, r.PathValue(a.param))
			if err != nil {
				return nil, err
			}
			return a.view(s.store, baseURL(r), l), nil
		})
	}
}

// addTeamLinkHandler links the path's team to the body's other end; one the association does not allow,
// or one already linked, is a 422.
func (s *Server) addTeamLinkHandler(a *teamAssociation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.serveWrite(w, r, scopeWriteTeams, http.StatusCreated, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
			id, checkAccess := in.String(a.idField), a.access.read(in)
			problems := in.Problems()
			if id.Value == "" {
				problems.addBlank(a.idField)
			}
			access := checkAccess(&problems)
			t, err := s.store.findTeam(org.slug, r)
			if err != nil {
				return nil, err
			}
			if id.Value != "" {
				switch {
				case !a.linkable(s.store, org.slug, id.Value):
					problems.add(a.idField, a.notLinkable)
				case s.store.teamLink(a, org.slug, t.id, id.Value) != nil:
					problems.add(a.idField, a.taken)
				}
			}
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			// A left-over link to a deleted object with the same ID is replaced, not updated.
			if stale, ok := a.links(s.store).get(t.id + "/" + id.Value); ok {
				a.links(s.store).remove(stale)
			}
			s.store.addTeamLink(a, org.slug, t.id, id.Value, access, time.Time{})
			return a.view(s.store, baseURL(r), s.store.teamLink(a, org.slug, t.id, id.Value)), nil
		})
	}
}

// updateTeamLink changes what a link grants.
func (s *Server) updateTeamLink(a *teamAssociation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.serveWrite(w, r, scopeWriteTeams, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
			checkAccess := a.access.read(in)
			problems := in.Problems()
			access := checkAccess(&problems)
			l, err := s.store.findTeamLink(a, org.slug, r, r.PathValue(a.param))
			if err != nil {
				return nil, err
			}
			if len(problems) > 0 {
				return nil, errValidation(problems)
			}
			l.access = access
			return a.view(s.store, baseURL(r), l), nil
		})
	}
}

// removeTeamLink serves DELETE <link>, and for an association removed by body (pipelines: the documented
// DELETE .../pipelines/, whose path carries no ID) reads the other end from the body's idField.
// Not on serveDelete: it reads a body, and only when the path names no other end.
func (s *Server) removeTeamLink(a *teamAssociation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		org, _, ok := s.authorize(w, r, scopeWriteTeams)
		if !ok {
			return
		}
		otherID := r.PathValue(a.param)
		var problems validationErrors
		if otherID == "" {
			in, ok := readObject(w, r)
			if !ok {
				return
			}
			v := in.String(a.idField)
			problems = in.Problems()
			if v.Value == "" {
				problems.addBlank(a.idField)
			}
			otherID = v.Value
		}
		err := s.store.update(func() *apiError {
			if _, err := s.store.findTeam(org.slug, r); err != nil {
				return err
			}
			if len(problems) > 0 {
				return errValidation(problems)
			}
			l, err := s.store.findTeamLink(a, org.slug, r, otherID)
			if err != nil {
				return err
			}
			a.links(s.store).remove(l)
			return nil
		})
		respondNoContent(w, err)
	}
}

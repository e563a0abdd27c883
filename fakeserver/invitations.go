package fakeserver

import (
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"time"
)

// Organization members' changes and invitations (https://buildkite.com/docs/apis/rest-api/organizations/members,
// https://buildkite.com/docs/apis/rest-api/organizations/invitations): PATCH and
// DELETE /members/{user uuid} (role, sso_mode; write_organizations), and /invitations (pending listed newest
// first, cursor-paged; any state read by UUID; created in batches, 201 with the array; revoked by DELETE,
// 422 unless pending) with read_organization_invitations and write_organization_invitations. Every
// invitation route, and every member change, needs an administrator.
//
// A test-only route, POST /_fake/organizations/{org}/invitations/{uuid}/accept, accepts a pending
// invitation as its addressee would: the user with its e-mail (made when there is none) becomes a member
// with the invitation's role and SSO mode.
//
// Choices where the facts are silent: an organization has no SSO (sso_mode defaults to required, as the
// docs say without SSO); a member's sso_mode starts as optional; removing a member also removes it from the
// organization's teams; the invitation quota is 100 pending invitations; a cursor is an invitation's UUID.

// Scopes of invitations.
const (
	scopeReadInvitations  = "read_organization_invitations"
	scopeWriteInvitations = "write_organization_invitations"
	scopeWriteOrgs        = "write_organizations"
)

// KindInvitation is an organization invitation, for Store.Exists and Store.Remove, keyed by its UUID.
const KindInvitation Kind = "invitation"

// maxPendingInvitations is the quota of pending invitations per organization.
const maxPendingInvitations = 100

func init() {
	registerKind(KindInvitation, (*Store).invitation, (*Store).deleteInvitation)
}

// invitationState is this area's part of the Store: invitations listed by organization.
type invitationState struct {
	invitations *table[*invitationRecord]
}

func newInvitationState() invitationState {
	return invitationState{invitations: newTable(func(i *invitationRecord) []string { return []string{i.org} }, nil)}
}

func (i *invitationRecord) recordID() string { return i.id }
func (i *invitationRecord) recordSeq() int64 { return i.seq }

type invitationRecord struct {
	seq            int64
	org, id, email string
	role, ssoMode  string // lower case
	teams          []string
	state          string // pending, accepted, revoked, expired
	createdAt      time.Time
	createdBy      string
	acceptedAt     time.Time
	acceptedBy     string
	revokedAt      time.Time
	revokedBy      string
	expiredAt      time.Time
	teamRoles      []string // the role asked for each of teams (not shown)
}

// invitation returns org's invitation with id, or nil. A lock must be held.
func (st *Store) invitation(org, id string) *invitationRecord {
	if i, ok := st.invitations.invitations.get(strings.ToLower(id)); ok && i.org == org {
		return i
	}
	return nil
}

// deleteInvitation removes i. The write lock must be held.
func (st *Store) deleteInvitation(i *invitationRecord) { st.invitations.invitations.remove(i) }

// InvitationState returns the state of an invitation ("" when there is none), for tests.
func (st *Store) InvitationState(org, id string) string {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if i := st.invitation(org, id); i != nil {
		return i.state
	}
	return ""
}

// ---- views ----

type invitationTeamView struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	Slug      string `json:"slug"`
}

type invitationView struct {
	ID         string               `json:"id"`
	GraphQLID  string               `json:"graphql_id"`
	URL        string               `json:"url"`
	Email      string               `json:"email"`
	State      string               `json:"state"`
	Role       string               `json:"role"`
	SSOMode    string               `json:"sso_mode"`
	Teams      []invitationTeamView `json:"teams"`
	CreatedAt  string               `json:"created_at"`
	CreatedBy  *userView            `json:"created_by"`
	AcceptedAt *string              `json:"accepted_at"`
	AcceptedBy *userView            `json:"accepted_by"`
	RevokedAt  *string              `json:"revoked_at"`
	RevokedBy  *userView            `json:"revoked_by"`
	ExpiredAt  *string              `json:"expired_at"`
}

func optTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	return formatTimePtr(t)
}

// invitationView renders i. A lock must be held.
func (st *Store) invitationView(base string, i *invitationRecord) invitationView {
	v := invitationView{
		ID: i.id, GraphQLID: graphQLID("OrganizationInvitation", i.id), URL: apiURL(base, "organizations", i.org, "invitations", i.id),
		Email: i.email, State: i.state, Role: i.role, SSOMode: i.ssoMode, Teams: []invitationTeamView{},
		CreatedAt: formatTime(i.createdAt), CreatedBy: st.userSummary(i.createdBy),
		AcceptedAt: optTime(i.acceptedAt), AcceptedBy: st.userSummary(i.acceptedBy),
		RevokedAt: optTime(i.revokedAt), RevokedBy: st.userSummary(i.revokedBy), ExpiredAt: optTime(i.expiredAt),
	}
	for _, id := range i.teams {
		if t := st.teamByID(i.org, id); t != nil {
			v.Teams = append(v.Teams, invitationTeamView{ID: t.id, GraphQLID: t.graphqlID, Slug: t.slug})
		}
	}
	return v
}

// memberRole is a member's role as the API says it.
func memberRole(m *membership) string {
	if m.admin {
		return "admin"
	}
	return "member"
}

// ---- routes and handlers ----

func (s *Server) routeInvitations(mux *routeMux) {
	const members = "/v2/organizations/{org}/members/{user}"
	mux.HandleFunc("PATCH "+members, s.updateMember)
	mux.HandleFunc("DELETE "+members, s.removeMember)
	const invitations = "/v2/organizations/{org}/invitations"
	mux.HandleFunc("GET "+invitations, s.listInvitations)
	mux.HandleFunc("POST "+invitations, s.createInvitations)
	mux.HandleFunc("GET "+invitations+"/{invitation}", s.getInvitation)
	mux.HandleFunc("DELETE "+invitations+"/{invitation}", s.revokeInvitation)
	mux.HandleFunc("POST /_fake/organizations/{org}/invitations/{invitation}/accept", s.acceptInvitation)
}

// asAdmin runs fn under the write lock once the token (with scope) is found to be an administrator's.
func (s *Server) asAdmin(w http.ResponseWriter, r *http.Request, scope string, status int,
	fn func(org *orgRecord, user userRecord) (any, *apiError)) {
	s.serveAct(w, r, scope, status, func(org orgRecord, user userRecord) (any, *apiError) {
		o := s.store.orgs[org.slug]
		if o == nil {
			return nil, errNotFound("organization")
		}
		if !s.store.isAdmin(org.slug, user.id) {
			return nil, errForbidden()
		}
		return fn(o, user)
	})
}

// updateMember changes a member's role and SSO mode: at least one; never the caller's own membership.
func (s *Server) updateMember(w http.ResponseWriter, r *http.Request) {
	in, bad := parseObject(r.Body) // a bad body is answered after the token and the caller's role are checked
	s.asAdmin(w, r, scopeWriteOrgs, http.StatusOK, func(o *orgRecord, user userRecord) (any, *apiError) {
		if bad != nil {
			return nil, bad
		}
		id := strings.ToLower(r.PathValue("user"))
		m, u := o.members[id], s.store.users[id]
		if m == nil || u == nil {
			return nil, errNotFound("member")
		}
		if id == user.id {
			return nil, newMessageError(http.StatusForbidden, "You can't update your own organization membership")
		}
		role, sso := in.String("role"), in.String("sso_mode")
		problems := in.Problems()
		switch {
		case !role.Set && !sso.Set:
			problems.add("role", "or sso_mode must be given")
		case role.Set && role.Value != "admin" && role.Value != "member":
			problems.add("role", "must be admin or member")
		case sso.Set && sso.Value != "required" && sso.Value != "optional":
			problems.add("sso_mode", "must be required or optional")
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		if role.Given() {
			if role.Value == "member" && m.admin && s.store.adminCount(o) == 1 {
				return nil, errUnprocessable("The organization must keep at least one administrator")
			}
			m.admin = role.Value == "admin"
		}
		if sso.Given() {
			m.ssoMode = sso.Value
		}
		return s.store.memberViewIn(o, u, user.id), nil
	})
}

// adminCount is how many administrators o has. A lock must be held.
func (st *Store) adminCount(o *orgRecord) int {
	n := 0
	for _, m := range o.members {
		if m.admin {
			n++
		}
	}
	return n
}

// removeMember removes a member from the organization (and its teams); the last administrator stays.
func (s *Server) removeMember(w http.ResponseWriter, r *http.Request) {
	s.asAdmin(w, r, scopeWriteOrgs, http.StatusNoContent, func(o *orgRecord, _ userRecord) (any, *apiError) {
		id := strings.ToLower(r.PathValue("user"))
		m := o.members[id]
		if m == nil {
			return nil, errNotFound("member")
		}
		if m.admin && s.store.adminCount(o) == 1 {
			return nil, errUnprocessable("The organization must keep at least one administrator")
		}
		delete(o.members, id)
		s.store.removeFromTeams(o.slug, id)
		return nil, nil
	})
}

func (s *Server) listInvitations(w http.ResponseWriter, r *http.Request) {
	s.asAdmin(w, r, scopeReadInvitations, http.StatusOK, func(o *orgRecord, _ userRecord) (any, *apiError) {
		var pending []*invitationRecord
		all := s.store.invitations.invitations.list(o.slug)
		for i := len(all) - 1; i >= 0; i-- { // newest first
			if all[i].state == "pending" {
				pending = append(pending, all[i])
			}
		}
		page, more, err := cursorPageOf(r, pending, func(i *invitationRecord) string { return i.id })
		if err != nil {
			return nil, err
		}
		out := struct {
			Items []invitationView   `json:"items"`
			Links map[string]*string `json:"links"`
		}{Items: []invitationView{}}
		for _, i := range page {
			out.Items = append(out.Items, s.store.invitationView(baseURL(r), i))
		}
		self := baseURL(r) + r.URL.RequestURI()
		out.Links = map[string]*string{"self": &self, "next": nil}
		if more && len(page) > 0 {
			next := cursorLink(r, "after", page[len(page)-1].id)
			out.Links["next"] = &next
			w.Header().Set("Link", "<"+next+`>; rel="next"`)
		}
		return out, nil
	})
}

func (s *Server) getInvitation(w http.ResponseWriter, r *http.Request) {
	s.asAdmin(w, r, scopeReadInvitations, http.StatusOK, func(o *orgRecord, _ userRecord) (any, *apiError) {
		i := s.store.invitation(o.slug, r.PathValue("invitation"))
		if i == nil {
			return nil, errNotFound("invitation")
		}
		return s.store.invitationView(baseURL(r), i), nil
	})
}

// createInvitations invites every address of the batch, or none: the whole batch is checked first, and
// addresses differing only in case are one.
func (s *Server) createInvitations(w http.ResponseWriter, r *http.Request) {
	in, bad := parseObject(r.Body) // a bad body is answered after the token and the caller's role are checked
	s.asAdmin(w, r, scopeWriteInvitations, http.StatusCreated, func(o *orgRecord, user userRecord) (any, *apiError) {
		if bad != nil {
			return nil, bad
		}
		emails, role, sso := in.Strings("emails"), in.String("role"), in.String("sso_mode")
		teams := field[[]map[string]string](in, "teams", "a list of {id, role} objects")
		problems := in.Problems()
		batch := s.store.checkInvitees(o, emails.Value, &problems)
		roleValue := orDefault(role.Value, "member")
		if roleValue != "admin" && roleValue != "member" {
			problems.add("role", "must be admin or member")
		}
		ssoValue := orDefault(sso.Value, "required")
		if ssoValue != "required" && ssoValue != "optional" {
			problems.add("sso_mode", "must be required or optional")
		}
		var teamIDs, teamRoles []string
		for _, t := range teams.Value {
			tm := s.store.teamByID(o.slug, strings.ToLower(t["id"]))
			switch {
			case tm == nil:
				problems.add("teams", "names a team that does not exist: "+t["id"])
			case slices.Contains(teamIDs, tm.id):
				problems.add("teams", "names a team twice: "+t["id"])
			case t["role"] != "" && t["role"] != "member" && t["role"] != "maintainer":
				problems.add("teams", "role must be member or maintainer")
			default:
				teamIDs, teamRoles = append(teamIDs, tm.id), append(teamRoles, orDefault(t["role"], "member"))
			}
		}
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		out := []invitationView{}
		for _, e := range batch {
			i := s.store.addInvitation(o, user.id, e, roleValue, ssoValue, teamIDs, teamRoles)
			out = append(out, s.store.invitationView(baseURL(r), i))
		}
		return out, nil
	})
}

// checkInvitees checks the addresses of one batch of invitations to o, adding what is wrong to problems
// (an address that does not parse, a member's address, none at all, a batch past the quota), and returns
// the batch without repeated addresses. REST's POST /invitations and GraphQL's
// organizationInvitationCreate share it. A lock must be held.
func (st *Store) checkInvitees(o *orgRecord, emails []string, problems *validationErrors) []string {
	var batch []string
	for _, e := range emails {
		addr, err := mail.ParseAddress(e)
		if err != nil || addr.Address != strings.TrimSpace(e) {
			problems.add("emails", e+" is not a valid email address")
			continue
		}
		if !slices.ContainsFunc(batch, func(b string) bool { return strings.EqualFold(b, e) }) {
			batch = append(batch, e)
		}
		if u := st.userByEmail(e); u != nil && o.members[u.id] != nil {
			problems.add("emails", e+" is already a member of this organization")
		}
	}
	if len(emails) == 0 {
		problems.addBlank("emails")
	}
	if st.pendingCount(o.slug)+len(batch) > maxPendingInvitations {
		problems.add("emails", "would exceed the organization's invitation quota")
	}
	return batch
}

// addInvitation records a pending invitation of email to o, made by the user byID. The write lock must be
// held.
func (st *Store) addInvitation(o *orgRecord, byID, email, role, sso string, teamIDs, teamRoles []string) *invitationRecord {
	i := &invitationRecord{seq: st.nextSeq(), org: o.slug, id: newID(), email: email, role: role, ssoMode: sso,
		teams: teamIDs, teamRoles: teamRoles, state: "pending", createdAt: st.timestamp(), createdBy: byID}
	st.invitations.invitations.insert(i)
	return i
}

// pendingCount is how many pending invitations org has. A lock must be held.
func (st *Store) pendingCount(org string) int {
	n := 0
	for _, i := range st.invitations.invitations.list(org) {
		if i.state == "pending" {
			n++
		}
	}
	return n
}

func (s *Server) revokeInvitation(w http.ResponseWriter, r *http.Request) {
	s.asAdmin(w, r, scopeWriteInvitations, http.StatusNoContent, func(o *orgRecord, user userRecord) (any, *apiError) {
		i := s.store.invitation(o.slug, r.PathValue("invitation"))
		if i == nil {
			return nil, errNotFound("invitation")
		}
		if i.state != "pending" {
			return nil, errUnprocessable("Only a pending invitation can be revoked (this one is " + i.state + ")")
		}
		i.state, i.revokedAt, i.revokedBy = "revoked", s.store.timestamp(), user.id
		return nil, nil
	})
}

// acceptInvitation is the test-only acceptance of a pending invitation by its addressee.
func (s *Server) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	var out invitationView
	err := s.store.update(func() *apiError {
		i := s.store.invitation(r.PathValue("org"), r.PathValue("invitation"))
		if i == nil {
			return errNotFound("invitation")
		}
		if i.state != "pending" {
			return errUnprocessable("The invitation is " + i.state)
		}
		u := s.store.userByEmail(i.email)
		if u == nil {
			name, _, _ := strings.Cut(i.email, "@")
			u = s.store.addUser(name, i.email)
		}
		s.store.addMember(i.org, u.id, i.role == "admin")
		s.store.orgs[i.org].members[u.id].ssoMode = i.ssoMode
		i.state, i.acceptedAt, i.acceptedBy = "accepted", s.store.timestamp(), u.id
		out = s.store.invitationView(baseURL(r), i)
		return nil
	})
	respond(w, http.StatusOK, out, err)
}

// removeFromTeams removes a user who left org from its teams. The write lock must be held.
func (st *Store) removeFromTeams(org, userID string) {
	for _, t := range st.teams.teams.list(org) {
		if l, ok := st.teams.members.get(t.id + "/" + userID); ok {
			st.teams.members.remove(l)
		}
	}
}

// memberViewIn renders u as a member of o, as viewer sees it: sso_mode only for administrators or on the
// viewer's own membership. A lock must be held.
func (st *Store) memberViewIn(o *orgRecord, u *userRecord, viewer string) memberView {
	v := memberViewOf(u)
	if m := o.members[u.id]; m != nil {
		v.Role = memberRole(m)
		if st.isAdmin(o.slug, viewer) || viewer == u.id {
			sso := orDefault(m.ssoMode, "optional")
			v.SSOMode = &sso
		}
	}
	return v
}

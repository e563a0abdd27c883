package fakeserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// GraphQL for teams, suites and a team's links (https://buildkite.com/docs/apis/graphql/cookbooks/teams), over
// the REST area's records (teams.go, team_links.go, suites.go), so what one API writes the other reads with the
// same IDs: node(id:) and team(slug: "<org>/<team>") on Team, Organization.teams, Team's fields and its
// members, pipelines and suites; Suite's fields and its teams; teamCreate/Update/Delete; and the links
// TeamMember (role), TeamPipeline and TeamSuite (accessLevel), each with its two sides and its create, update
// and delete mutations. A link's GraphQL ID (the official provider's import ID) turns into the team and the
// user, pipeline or suite. A link's UUID is its own, which REST never shows; Store.TeamLinkGraphQLID gives
// it to tests. The mutations run the REST checks (readTeamInput, checkTeamName, the associations'
// linkable and taken), their problems worded "Validation failed: <sentences>" as the cluster mutations are.
//
// Choices where the facts are silent (I): a suite link with "edit" is MANAGE_AND_READ, one with "read"
// only READ_ONLY, and MANAGE_AND_READ is stored as read and edit; a link whose other end has gone answers
// null, as over REST; a link created without its access gets MEMBER, MANAGE_BUILD_AND_READ or
// MANAGE_AND_READ; anything a mutation names that the token cannot see is "No <thing> found"; teams list
// in creation order unless order is NAME; a team's empty description is null.

// teamLinkNodes are the GraphQL types of the team associations (team_links.go).
var teamLinkNodes = []struct {
	typ   string
	assoc **teamAssociation
}{{"TeamMember", &teamMembers}, {"TeamPipeline", &teamPipelines}, {"TeamSuite", &teamSuites}, {"TeamRegistry", &teamRegistries}}

func init() {
	gqlNodes["Team"] = func(x *gqlExec, uuid string) any { return x.teamObject(x.visibleTeam(uuid)) }
	gqlNodes["Suite"] = func(x *gqlExec, uuid string) any {
		if s, ok := x.st.suites.suites.get(uuid); ok && x.tok.orgs[s.org] {
			return x.suiteObject(s)
		}
		return nil
	}
	for _, n := range teamLinkNodes {
		gqlNodes[n.typ] = func(x *gqlExec, uuid string) any {
			if t, l := x.teamLinkByUUID(*n.assoc, uuid); l != nil {
				return x.teamLinkObject(n.typ, t, l)
			}
			return nil
		}
	}
	gqlQueries["team"] = func(x *gqlExec, args map[string]any) (any, error) {
		org, slug, _ := strings.Cut(argString(args, "slug"), "/")
		if !x.tok.orgs[org] {
			return nil, nil
		}
		return x.teamObject(x.st.teamBySlug(org, slug)), nil
	}
	gqlOrgFields["teams"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		var teams []*teamRecord
		search := strings.ToLower(argString(args, "search"))
		privacies, _ := args["privacy"].([]any)
		for _, t := range x.st.teamsOf(o.slug) {
			if search != "" && !strings.Contains(strings.ToLower(t.name), search) {
				continue
			}
			if len(privacies) > 0 && !slices.Contains(privacies, any(strings.ToUpper(t.privacy))) {
				continue
			}
			teams = append(teams, t)
		}
		if argString(args, "order") == "NAME" {
			teams = slices.Clone(teams)
			slices.SortStableFunc(teams, func(a, b *teamRecord) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
		}
		return gqlConnection("TeamConnection", args, teams, x.teamObject)
	}
	gqlMutations["teamCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org := x.visibleOrgByUUID(uuidOf(in.str("organizationID"), "Organization"))
		if org == nil {
			return nil, gqlError("No organization found")
		}
		ti, err := x.teamInput(in, org.slug, nil)
		if err != nil {
			return nil, err
		}
		id := newID()
		t := &teamRecord{
			seq: x.st.nextSeq(), org: org.slug, id: id, graphqlID: graphQLID("Team", id),
			privacy: "visible", defaultMemberRole: "member", membersCan: map[string]bool{},
			createdAt: x.st.timestamp(), createdBy: x.user.id,
		}
		ti.apply(t)
		x.st.teams.teams.insert(t)
		return withClientMutationID(in, "TeamCreatePayload", map[string]any{
			"organization": x.orgObject(org),
			"teamEdge":     gqlObject{typ: "TeamEdge", fields: map[string]any{"cursor": cursorFor(len(x.st.teamsOf(org.slug)) - 1), "node": x.teamObject(t)}},
		}), nil
	}
	gqlMutations["teamUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t := x.visibleTeam(uuidOf(in.str("id"), "Team"))
		if t == nil {
			return nil, gqlError("No team found")
		}
		ti, err := x.teamInput(in, t.org, t)
		if err != nil {
			return nil, err
		}
		x.st.teams.teams.rename(t, func() { ti.apply(t) })
		return withClientMutationID(in, "TeamUpdatePayload", map[string]any{"team": x.teamObject(t)}), nil
	}
	gqlMutations["teamDelete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t := x.visibleTeam(uuidOf(in.str("id"), "Team"))
		if t == nil {
			return nil, gqlError("No team found")
		}
		x.st.deleteTeam(t)
		return withClientMutationID(in, "TeamDeletePayload", map[string]any{
			"deletedTeamID": t.graphqlID, "organization": x.orgObject(x.st.orgs[t.org]),
		}), nil
	}
	for _, m := range teamLinkMutations {
		registerTeamLinkMutations(m)
	}
}

// visibleTeam returns the team with this UUID when the token sees its organization, or nil.
func (x *gqlExec) visibleTeam(uuid string) *teamRecord {
	if t, ok := x.st.teams.teams.get(uuid); ok && x.tok.orgs[t.org] {
		return t
	}
	return nil
}

// teamInputFields map teamCreate's and teamUpdate's input fields to the REST body's properties; the
// enums are lower-cased.
var teamInputFields = map[string]string{
	"name": "name", "description": "description", "privacy": "privacy", "isDefaultTeam": "is_default_team",
	"defaultMemberRole":         "default_member_role",
	"membersCanCreatePipelines": "members_can_create_pipelines", "membersCanCreateSuites": "members_can_create_suites",
	"membersCanCreateRegistries": "members_can_create_registries", "membersCanDestroyRegistries": "members_can_destroy_registries",
	"membersCanDestroyPackages": "members_can_destroy_packages",
}

// teamInput reads a teamCreate or teamUpdate input (self is the team updated, nil on create) with the REST
// checks, in org.
func (x *gqlExec) teamInput(in gqlInput, org string, self *teamRecord) (teamInput, error) {
	body := map[string]any{}
	for k, prop := range teamInputFields {
		if v, ok := in[k]; ok {
			if s, isString := v.(string); isString && (k == "privacy" || k == "defaultMemberRole") {
				v = strings.ToLower(s)
			}
			body[prop] = v
		}
	}
	raw, _ := json.Marshal(body)
	obj, perr := parseObject(bytes.NewReader(raw))
	if perr != nil {
		return teamInput{}, gqlError(perr.Error())
	}
	ti := readTeamInput(obj, self == nil)
	x.st.checkTeamName(&ti.problems, org, ti.name, self)
	if len(ti.problems) > 0 {
		return ti, gqlError("Validation failed: " + strings.Join(ti.problems.sentences(), ", "))
	}
	return ti, nil
}

// teamObject is a Team, or nil for nil.
func (x *gqlExec) teamObject(t *teamRecord) any {
	if t == nil {
		return nil
	}
	var description any
	if t.description != "" {
		description = t.description
	}
	fields := map[string]any{
		"id": t.graphqlID, "uuid": t.id, "slug": t.slug, "name": t.name, "description": description,
		"privacy": strings.ToUpper(t.privacy), "isDefaultTeam": t.isDefault,
		"defaultMemberRole":           strings.ToUpper(t.defaultMemberRole),
		"membersCanCreatePipelines":   t.membersCan["members_can_create_pipelines"],
		"membersCanCreateSuites":      t.membersCan["members_can_create_suites"],
		"membersCanCreateRegistries":  t.membersCan["members_can_create_registries"],
		"membersCanDestroyRegistries": t.membersCan["members_can_destroy_registries"],
		"membersCanDestroyPackages":   t.membersCan["members_can_destroy_packages"],
		"createdAt":                   formatTime(t.createdAt), "createdBy": x.userObject(t.createdBy),
		"organization": gqlResolver(func(map[string]any) (any, error) { return x.orgObject(x.st.orgs[t.org]), nil }),
	}
	for _, n := range teamLinkNodes {
		links := map[string]string{"TeamMember": "members", "TeamPipeline": "pipelines", "TeamSuite": "suites", "TeamRegistry": "registries"}[n.typ]
		fields[links] = gqlResolver(func(args map[string]any) (any, error) {
			return gqlConnection(n.typ+"Connection", args, x.st.teamLinksOf(*n.assoc, t), func(l *teamLinkRecord) any {
				return x.teamLinkObject(n.typ, t, l)
			})
		})
	}
	return gqlObject{typ: "Team", fields: fields}
}

// suiteObject is a Suite, or nil for nil.
func (x *gqlExec) suiteObject(s *suiteRecord) any {
	if s == nil {
		return nil
	}
	return gqlObject{typ: "Suite", fields: map[string]any{
		"id": s.graphqlID, "uuid": s.id, "slug": s.slug, "name": s.name,
		"applicationName": optional(s.applicationName), "color": optional(s.color), "emoji": optional(s.emoji),
		"defaultBranch": s.defaultBranch, "createdAt": formatTime(s.createdAt),
		"url":          webURL(x.base, "organizations", s.org, "analytics", "suites", s.slug),
		"organization": gqlResolver(func(map[string]any) (any, error) { return x.orgObject(x.st.orgs[s.org]), nil }),
		"teams": gqlResolver(func(args map[string]any) (any, error) {
			type pair struct {
				t *teamRecord
				l *teamLinkRecord
			}
			var links []pair
			for _, l := range x.st.teams.suites.list("suite:" + s.id) {
				if t := x.st.teamByID(s.org, l.teamID); t != nil {
					links = append(links, pair{t, l})
				}
			}
			if argString(args, "order") == "NAME" {
				slices.SortStableFunc(links, func(a, b pair) int { return strings.Compare(strings.ToLower(a.t.name), strings.ToLower(b.t.name)) })
			}
			return gqlConnection("TeamSuiteConnection", args, links, func(p pair) any { return x.teamLinkObject("TeamSuite", p.t, p.l) })
		}),
	}}
}

// teamLinkByUUID returns the link of kind a with this UUID, and its team, when the token sees them.
func (x *gqlExec) teamLinkByUUID(a *teamAssociation, uuid string) (*teamRecord, *teamLinkRecord) {
	if uuid == "" {
		return nil, nil
	}
	for slug := range x.tok.orgs {
		for _, t := range x.st.teamsOf(slug) {
			for _, l := range x.st.teamLinksOf(a, t) {
				if l.uuid == uuid {
					return t, l
				}
			}
		}
	}
	return nil, nil
}

// teamLinkObject is a TeamMember, TeamPipeline or TeamSuite.
func (x *gqlExec) teamLinkObject(typ string, t *teamRecord, l *teamLinkRecord) any {
	fields := map[string]any{"id": l.graphQLID(typ), "uuid": l.uuid, "team": x.teamObject(t)}
	switch typ {
	case "TeamMember":
		fields["role"], fields["user"] = strings.ToUpper(l.level()), x.userObject(l.otherID)
	case "TeamPipeline":
		fields["accessLevel"], fields["pipeline"] = strings.ToUpper(l.level()), x.pipelineObject(x.st.pipelineByID(l.org, l.otherID))
	case "TeamRegistry":
		fields["accessLevel"], fields["registry"] = strings.ToUpper(l.level()), x.registryObject(x.st.registryByID(l.org, l.otherID))
	case "TeamSuite":
		fields["accessLevel"], fields["suite"] = "READ_ONLY", x.suiteObject(x.st.suiteByID(l.org, l.otherID))
		if slices.Contains(l.access, "edit") {
			fields["accessLevel"] = "MANAGE_AND_READ"
		}
	}
	return gqlObject{typ: typ, fields: fields}
}

// teamLinkMutation declares the create, update and delete mutations of one kind of team link.
type teamLinkMutation struct {
	typ        string // the link's GraphQL type: "TeamMember"
	assoc      **teamAssociation
	otherInput string // the create input's field naming the other end: "userID"
	otherType  string // its GraphQL type: "User"
	otherNoun  string // what "No <noun> found" names
	accessKey  string // the input field of the access: "role"
	// access turns the GraphQL enum into the stored access; defaultAccess is what a create without it gets.
	access        func(v string) []string
	defaultAccess string
	// other is the payload field of the other end, with its object.
	other func(x *gqlExec, org, id string) (string, any)
}

// lowerAccess stores a single-valued access (a role, a pipeline access level) in lower case.
func lowerAccess(v string) []string { return []string{strings.ToLower(v)} }

var teamLinkMutations = []teamLinkMutation{
	{typ: "TeamMember", assoc: &teamMembers, otherInput: "userID", otherType: "User", otherNoun: "user",
		accessKey: "role", access: lowerAccess, defaultAccess: "MEMBER"},
	{typ: "TeamPipeline", assoc: &teamPipelines, otherInput: "pipelineID", otherType: "Pipeline", otherNoun: "pipeline",
		accessKey: "accessLevel", access: lowerAccess, defaultAccess: "MANAGE_BUILD_AND_READ",
		other: func(x *gqlExec, org, id string) (string, any) {
			return "pipeline", x.pipelineObject(x.st.pipelineByID(org, id))
		}},
	{typ: "TeamSuite", assoc: &teamSuites, otherInput: "suiteID", otherType: "Suite", otherNoun: "suite",
		accessKey: "accessLevel", defaultAccess: "MANAGE_AND_READ",
		access: func(v string) []string {
			if v == "MANAGE_AND_READ" {
				return []string{"read", "edit"}
			}
			return []string{"read"}
		},
		other: func(x *gqlExec, org, id string) (string, any) { return "suite", x.suiteObject(x.st.suiteByID(org, id)) }},
	{typ: "TeamRegistry", assoc: &teamRegistries, otherInput: "registryID", otherType: "Registry", otherNoun: "registry",
		accessKey: "accessLevel", access: lowerAccess, defaultAccess: "READ_ONLY",
		other: func(x *gqlExec, org, id string) (string, any) {
			return "registry", x.registryObject(x.st.registryByID(org, id))
		}},
}

// registerTeamLinkMutations adds <typ>Create, <typ>Update and <typ>Delete (teamMemberCreate, …).
func registerTeamLinkMutations(m teamLinkMutation) {
	name := "team" + strings.TrimPrefix(m.typ, "Team")
	gqlMutations[name+"Create"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		a := *m.assoc
		t := x.visibleTeam(uuidOf(in.str("teamID"), "Team"))
		if t == nil {
			return nil, gqlError("No team found")
		}
		otherID := uuidOf(in.str(m.otherInput), m.otherType)
		if otherID == "" {
			return nil, gqlErrorf("No %s found", m.otherNoun)
		}
		var problems validationErrors
		switch {
		case !a.linkable(x.st, t.org, otherID):
			problems.add(a.idField, a.notLinkable)
		case x.st.teamLink(a, t.org, t.id, otherID) != nil:
			problems.add(a.idField, a.taken)
		}
		if len(problems) > 0 {
			return nil, gqlError("Validation failed: " + strings.Join(problems.sentences(), ", "))
		}
		level := m.defaultAccess
		if v := in.str(m.accessKey); v != "" {
			level = v
		}
		// A left-over link to a deleted object with the same ID is replaced, not updated.
		if stale, ok := a.links(x.st).get(t.id + "/" + otherID); ok {
			a.links(x.st).remove(stale)
		}
		x.st.addTeamLink(a, t.org, t.id, otherID, m.access(level), x.st.timestamp())
		l := x.st.teamLink(a, t.org, t.id, otherID)
		link := x.teamLinkObject(m.typ, t, l)
		fields := map[string]any{
			"team": x.teamObject(t),
			strings.ToLower(m.typ[:1]) + m.typ[1:] + "Edge": gqlObject{typ: m.typ + "Edge", fields: map[string]any{
				"cursor": cursorFor(len(x.st.teamLinksOf(a, t)) - 1), "node": link,
			}},
		}
		if m.other != nil {
			key, obj := m.other(x, t.org, otherID)
			fields[key], fields[strings.ToLower(m.typ[:1])+m.typ[1:]] = obj, link
		}
		return withClientMutationID(in, m.typ+"CreatePayload", fields), nil
	}
	gqlMutations[name+"Update"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t, l := x.teamLinkByUUID(*m.assoc, uuidOf(in.str("id"), m.typ))
		if l == nil {
			return nil, gqlErrorf("No %s found", strings.ToLower(m.typ[:4])+" "+strings.ToLower(m.typ[4:]))
		}
		l.access = m.access(in.str(m.accessKey))
		return withClientMutationID(in, m.typ+"UpdatePayload", map[string]any{
			strings.ToLower(m.typ[:1]) + m.typ[1:]: x.teamLinkObject(m.typ, t, l),
		}), nil
	}
	gqlMutations[name+"Delete"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t, l := x.teamLinkByUUID(*m.assoc, uuidOf(in.str("id"), m.typ))
		if l == nil {
			return nil, gqlErrorf("No %s found", strings.ToLower(m.typ[:4])+" "+strings.ToLower(m.typ[4:]))
		}
		(*m.assoc).links(x.st).remove(l)
		return withClientMutationID(in, m.typ+"DeletePayload", map[string]any{
			"deleted" + m.typ + "ID": l.graphQLID(m.typ), "team": x.teamObject(t),
		}), nil
	}
}

// TeamLinkGraphQLID returns the GraphQL ID of org's link of kind (KindTeamMember, KindTeamPipeline,
// KindTeamSuite or KindTeamRegistry) from team teamID to otherID (a user, pipeline, suite or registry UUID), or "" when there is none.
// REST never shows it; tests use it as the official provider's import ID.
func (st *Store) TeamLinkGraphQLID(kind Kind, org, teamID, otherID string) string {
	st.mu.RLock()
	defer st.mu.RUnlock()
	for _, n := range teamLinkNodes {
		if (*n.assoc).kind != kind {
			continue
		}
		if l := st.teamLink(*n.assoc, org, teamID, otherID); l != nil && l.uuid != "" {
			return graphQLID(n.typ, l.uuid)
		}
	}
	return ""
}

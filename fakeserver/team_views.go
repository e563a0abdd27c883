package fakeserver

import (
	"slices"

	"github.com/google/uuid"
)

// How a team and its links to users, pipelines and suites are shown
// (https://buildkite.com/docs/apis/rest-api/teams).

// teamView is a team as the teams API shows it, plus the write properties the reference echoes
// (is_default_team, default_member_role, members_can_create_pipelines) and go-buildkite's other members_can_*
// booleans.
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

// teamMemberView is a team member (https://buildkite.com/docs/apis/rest-api/teams/members). created_at is
// always a timestamp: go-buildkite decodes it as non-null.
type teamMemberView struct {
	ID        string `json:"id"`
	GraphQLID string `json:"graphql_id"`
	UserID    string `json:"user_id"`
	UserName  string `json:"user_name"`
	Role      string `json:"role"`
	CreatedAt string `json:"created_at"`
}

func (st *Store) teamMemberView(m *teamLinkRecord) teamMemberView {
	id := linkID(m.teamID, m.otherID)
	v := teamMemberView{ID: id, GraphQLID: m.graphQLID("TeamMember"), UserID: m.otherID, Role: m.level(), CreatedAt: formatTime(m.createdAt)}
	if u, ok := st.users[m.otherID]; ok {
		v.UserName = u.name
	}
	return v
}

// teamPipelineView is a team's pipeline (https://buildkite.com/docs/apis/rest-api/teams/pipelines).
type teamPipelineView struct {
	ID          string `json:"id"`
	GraphQLID   string `json:"graphql_id"`
	PipelineID  string `json:"pipeline_id"`
	PipelineURL string `json:"pipeline_url"`
	AccessLevel string `json:"access_level"`
	CreatedAt   string `json:"created_at"`
}

func (st *Store) teamPipelineView(base string, tp *teamLinkRecord) teamPipelineView {
	id := linkID(tp.teamID, tp.otherID)
	v := teamPipelineView{
		ID: id, GraphQLID: tp.graphQLID("TeamPipeline"),
		PipelineID: tp.otherID, AccessLevel: tp.level(), CreatedAt: formatTime(tp.createdAt),
	}
	if p := st.pipelineByID(tp.org, tp.otherID); p != nil {
		v.PipelineURL = apiURL(base, "organizations", tp.org, "pipelines", p.slug)
	}
	return v
}

// teamSuiteView is a team's suite (https://buildkite.com/docs/apis/rest-api/teams/suites).
type teamSuiteView struct {
	ID          string   `json:"id"`
	GraphQLID   string   `json:"graphql_id"`
	SuiteID     string   `json:"suite_id"`
	SuiteURL    string   `json:"suite_url"`
	AccessLevel []string `json:"access_level"`
	CreatedAt   string   `json:"created_at"`
}

func (st *Store) teamSuiteView(base string, ts *teamLinkRecord) teamSuiteView {
	id := linkID(ts.teamID, ts.otherID)
	v := teamSuiteView{
		ID: id, GraphQLID: ts.graphQLID("TeamSuite"),
		SuiteID: ts.otherID, AccessLevel: nonNil(slices.Clone(ts.access)), CreatedAt: formatTime(ts.createdAt),
	}
	if s := st.suiteByID(ts.org, ts.otherID); s != nil {
		v.SuiteURL = suiteURL(base, s)
	}
	return v
}

// graphQLID is the link's GraphQL ID, the one node(id:) resolves (graphql_teams.go): it encodes the
// link's own UUID. A link saved before that UUID was kept has none, and shows one derived from its ends.
func (l *teamLinkRecord) graphQLID(typ string) string {
	if l.uuid == "" {
		return graphQLID(typ, linkID(l.teamID, l.otherID))
	}
	return graphQLID(typ, l.uuid)
}

// linkID is the identifier of a team's link to a user, pipeline or suite. The documentation gives these links
// no id of their own, but every object carries one: derived from both ends, it is stable across requests.
func linkID(teamID, otherID string) string {
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte(teamID+"/"+otherID)).String()
}

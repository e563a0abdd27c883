package fakeserver

import (
	"slices"
	"strings"
)

// GraphQL for an organization's members and invitations, over the REST records of orgs.go and
// invitations.go: Organization.members(first:, after:, email:, search:), newest member first (the
// service's default order, RECENTLY_CREATED), and organizationInvitationCreate (emails and role; the same
// checks as POST /invitations, and an administrator, as there). Buildkite's CLI finds a user by e-mail with
// the first (bk build list --creator <email>) and invites with the second (bk user invite).
//
// Choices where the facts are silent (I): email matches the whole address, case-insensitively; search
// matches part of a name or e-mail; an OrganizationMember's ID is the user's UUID under its own type; errors
// are the REST "Validation failed: …" sentences.

func init() {
	gqlOrgFields["members"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		members := x.st.membersOf(o)
		slices.SortStableFunc(members, func(a, b *userRecord) int {
			return o.members[b.id].createdAt.Compare(o.members[a.id].createdAt)
		})
		email, search := argString(args, "email"), strings.ToLower(argString(args, "search"))
		members = slices.DeleteFunc(members, func(u *userRecord) bool {
			return (email != "" && !strings.EqualFold(u.email, email)) ||
				(search != "" && !strings.Contains(strings.ToLower(u.name), search) && !strings.Contains(strings.ToLower(u.email), search))
		})
		return gqlConnection("OrganizationMemberConnection", args, members, func(u *userRecord) any { return x.memberObject(o, u) })
	}
	gqlNodes["OrganizationMember"] = func(x *gqlExec, uuid string) any {
		for slug := range x.tok.orgs {
			if o := x.st.orgs[slug]; o != nil && o.members[uuid] != nil {
				return x.memberObject(o, x.st.users[uuid])
			}
		}
		return nil
	}
	gqlMutations["organizationInvitationCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		o, err := x.adminOrg(in.str("organizationID"))
		if err != nil {
			return nil, err
		}
		var emails []string
		if list, ok := in["emails"].([]any); ok {
			for _, e := range list {
				if s, ok := e.(string); ok {
					emails = append(emails, s)
				}
			}
		}
		var problems validationErrors
		batch := x.st.checkInvitees(o, emails, &problems)
		if len(problems) > 0 {
			return nil, gqlError("Validation failed: " + strings.Join(problems.sentences(), ", "))
		}
		role := "member"
		if in.str("role") == "ADMIN" {
			role = "admin"
		}
		edges := []any{}
		for n, e := range batch {
			i := x.st.addInvitation(o, x.user.id, e, role, "required", nil, nil)
			edges = append(edges, x.invitationEdge(o, i, n))
		}
		return withClientMutationID(in, "OrganizationInvitationCreatePayload", map[string]any{
			"invitationEdges": edges, "organization": x.orgObject(o),
		}), nil
	}
}

// memberObject is u's OrganizationMember in o.
func (x *gqlExec) memberObject(o *orgRecord, u *userRecord) any {
	if u == nil {
		return nil
	}
	m := o.members[u.id]
	role := "MEMBER"
	if m.admin {
		role = "ADMIN"
	}
	return gqlObject{typ: "OrganizationMember", fields: map[string]any{
		"id": graphQLID("OrganizationMember", u.id), "uuid": u.id, "role": role, "createdAt": formatTime(m.createdAt),
		"organization": x.orgObject(o), "user": x.userObject(u.id),
	}}
}

// invitationEdge is the OrganizationInvitationEdge of i, the nth of a list.
func (x *gqlExec) invitationEdge(o *orgRecord, i *invitationRecord, n int) any {
	return gqlObject{typ: "OrganizationInvitationEdge", fields: map[string]any{"cursor": cursorFor(n), "node": x.invitationObject(o, i)}}
}

// invitationObject is an OrganizationInvitation.
func (x *gqlExec) invitationObject(o *orgRecord, i *invitationRecord) any {
	return gqlObject{typ: "OrganizationInvitation", fields: map[string]any{
		"id": graphQLID("OrganizationInvitation", i.id), "uuid": i.id, "email": i.email,
		"role": strings.ToUpper(i.role), "state": strings.ToUpper(i.state), "createdAt": formatTime(i.createdAt),
		"createdBy": x.userObject(i.createdBy), "organization": x.orgObject(o),
	}}
}

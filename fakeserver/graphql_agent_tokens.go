package fakeserver

import (
	"strings"
)

// GraphQL for unclustered agent tokens (https://buildkite.com/docs/apis/graphql/cookbooks/agents; the records are
// agent_tokens.go):
// agentToken(slug: "<org>/<uuid>"), node(id:) on AgentToken, Organization.agentTokens(first:, last:,
// revoked:), agentTokenCreate (the secret in tokenValue, that answer only) and agentTokenRevoke (the token
// is kept, with revokedAt, revokedBy and revokedReason).
//
// Choices where the facts are silent (I): agentToken(slug:) and node(id:) find revoked tokens too (the
// caller reads revokedAt); agentTokens without revoked lists both kinds, and without first or last at most
// 500; revoking a revoked token answers it unchanged; create and revoke need an organization
// administrator.
//
// Fact: the deprecated AgentToken.token is always empty (V G buildkite/terraform-provider-buildkite#281, a
// maintainer of the official provider: "It will always be empty"); the secret is shown once, in tokenValue.

// gqlDefaultPage is how many items a connection without first or last gives
// (https://buildkite.com/docs/apis/graphql/graphql-resource-limits).
const gqlDefaultPage = 500

func init() {
	gqlQueries["agentToken"] = func(x *gqlExec, args map[string]any) (any, error) {
		slug, id, ok := strings.Cut(argString(args, "slug"), "/")
		if !ok || x.visibleOrg(slug) == nil {
			return nil, nil
		}
		return x.agentTokenObject(x.st.unclusteredToken(slug, strings.ToLower(id))), nil
	}
	gqlNodes["AgentToken"] = func(x *gqlExec, uuid string) any {
		if t, ok := x.st.unclusteredTokens.tokens.get(uuid); ok && x.tok.orgs[t.org] {
			return x.agentTokenObject(t)
		}
		return nil
	}
	gqlOrgFields["agentTokens"] = func(x *gqlExec, o *orgRecord, args map[string]any) (any, error) {
		var items []*unclusteredTokenRecord
		revoked, filter := args["revoked"].(bool)
		for _, t := range x.st.unclusteredTokens.tokens.list(o.slug) {
			if !filter || revoked == !t.revokedAt.IsZero() {
				items = append(items, t)
			}
		}
		args = defaultFirst(args)
		return gqlConnection("AgentTokenConnection", args, items, func(t *unclusteredTokenRecord) any { return x.agentTokenObject(t) })
	}
	gqlMutations["agentTokenCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationID"))
		if err != nil {
			return nil, err
		}
		description, _ := in.optStr("description")
		if description != nil && len([]rune(*description)) > maxDescriptionLen {
			return nil, gqlError("Description is too long (maximum is 4096 characters)")
		}
		public, _ := in["public"].(bool)
		t := x.st.createUnclusteredToken(org.slug, description, public, x.user.id)
		return withClientMutationID(in, "AgentTokenCreatePayload", map[string]any{
			"tokenValue":   t.secret,
			"organization": x.orgObject(org),
			"agentTokenEdge": gqlObject{typ: "AgentTokenEdge", fields: map[string]any{
				"cursor": cursorFor(len(x.st.unclusteredTokens.tokens.list(org.slug)) - 1), "node": x.agentTokenObject(t),
			}},
		}), nil
	}
	gqlMutations["agentTokenRevoke"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t, ok := x.st.unclusteredTokens.tokens.get(uuidOf(in.str("id"), "AgentToken"))
		if !ok || !x.tok.orgs[t.org] {
			return nil, gqlError("No agent token found")
		}
		if !x.st.isAdmin(t.org, x.user.id) {
			return nil, gqlError("Forbidden: only an administrator of the organization may do this")
		}
		if strings.TrimSpace(in.str("reason")) == "" {
			return nil, gqlError("Reason can't be blank")
		}
		x.st.revokeUnclusteredToken(t, x.user.id, in.str("reason"))
		return withClientMutationID(in, "AgentTokenRevokePayload", map[string]any{"agentToken": x.agentTokenObject(t)}), nil
	}
}

// defaultFirst gives a connection without first or last the service's default page.
func defaultFirst(args map[string]any) map[string]any {
	if _, ok := argInt(args, "first"); ok {
		return args
	}
	if _, ok := argInt(args, "last"); ok {
		return args
	}
	out := map[string]any{"first": gqlDefaultPage}
	for k, v := range args {
		out[k] = v
	}
	return out
}

// agentTokenObject is an AgentToken, or nil for nil.
func (x *gqlExec) agentTokenObject(t *unclusteredTokenRecord) any {
	if t == nil {
		return nil
	}
	var description, revokedAt, revokedBy, revokedReason any
	if t.description != nil {
		description = *t.description
	}
	if !t.revokedAt.IsZero() {
		revokedAt, revokedBy, revokedReason = formatTime(t.revokedAt), x.userObject(t.revokedBy), t.revokedReason
	}
	canRevoke := t.revokedAt.IsZero() && x.st.isAdmin(t.org, x.user.id)
	permission := map[string]any{"allowed": canRevoke, "code": nil, "message": nil}
	if !canRevoke {
		permission["code"], permission["message"] = "not_allowed", "You can't revoke this agent token"
	}
	return gqlObject{typ: "AgentToken", fields: map[string]any{
		"id": t.graphqlID, "uuid": t.id, "description": description, "public": t.public,
		"createdAt": formatTime(t.createdAt), "createdBy": x.userObject(t.createdBy),
		"revokedAt": revokedAt, "revokedBy": revokedBy, "revokedReason": revokedReason,
		"organization": x.orgObject(x.st.orgs[t.org]), "token": "",
		"permissions": gqlObject{typ: "AgentTokenPermissions", fields: map[string]any{
			"agentTokenRevoke": gqlObject{typ: "Permission", fields: permission},
		}},
	}}
}

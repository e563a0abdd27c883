package fakeserver

// GraphQL for cluster agent tokens over the REST records and checks of cluster_tokens.go: Cluster.agentTokens,
// node(id:) on ClusterToken, clusterAgentTokenCreate (the secret in tokenValue, that answer only),
// clusterAgentTokenUpdate (description and allowedIpAddresses) and clusterAgentTokenRevoke, which removes the
// token as REST's DELETE does.
//
// Facts: the deprecated ClusterToken.token is hidden after creation (its deprecation reason in Buildkite's
// schema); the service answers it empty, as it does the matching AgentToken.token (V G
// buildkite/terraform-provider-buildkite#281, a maintainer: "It will always be empty").
//
// Choices where the facts are silent (I): the mutations need an organization administrator; a token of
// another organization, or of none, is "No cluster agent token found"; the revoke answers the token's node
// ID; Cluster.agentTokens lists in creation order, without first or last at most 500.

func init() {
	gqlNodes["ClusterToken"] = func(x *gqlExec, uuid string) any {
		if t, ok := x.st.clusters.tokens.get(uuid); ok && x.tok.orgs[t.org] {
			return x.clusterTokenObject(t)
		}
		return nil
	}
	gqlClusterFields["agentTokens"] = func(x *gqlExec, c *clusterRecord, args map[string]any) (any, error) {
		return gqlConnection("ClusterAgentTokenConnection", defaultFirst(args), x.st.clusterTokensOf(c.id),
			func(t *clusterTokenRecord) any { return x.clusterTokenObject(t) })
	}
	gqlMutations["clusterAgentTokenCreate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		org, err := x.adminOrg(in.str("organizationId"))
		if err != nil {
			return nil, err
		}
		c := x.st.cluster(org.slug, uuidOf(in.str("clusterId"), "Cluster"))
		if c == nil {
			return nil, gqlError("No cluster found")
		}
		t, problems := x.st.addClusterToken(c, x.user.id, gqlBody(in, "description", "allowedIpAddresses", "expiresAt"), x.st.now())
		if len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		return withClientMutationID(in, "ClusterAgentTokenCreatePayload", map[string]any{
			"clusterAgentToken": x.clusterTokenObject(t), "tokenValue": t.secret,
		}), nil
	}
	gqlMutations["clusterAgentTokenUpdate"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t, err := x.adminClusterToken(in)
		if err != nil {
			return nil, err
		}
		if problems := changeClusterToken(t, gqlBody(in, "description", "allowedIpAddresses")); len(problems) > 0 {
			return nil, gqlValidation(problems)
		}
		return withClientMutationID(in, "ClusterAgentTokenUpdatePayload", map[string]any{"clusterAgentToken": x.clusterTokenObject(t)}), nil
	}
	gqlMutations["clusterAgentTokenRevoke"] = func(x *gqlExec, args map[string]any) (any, error) {
		in := gqlInputOf(args)
		t, err := x.adminClusterToken(in)
		if err != nil {
			return nil, err
		}
		x.st.deleteClusterToken(t)
		return withClientMutationID(in, "ClusterAgentTokenRevokePayload", map[string]any{"deletedClusterAgentTokenId": t.graphqlID}), nil
	}
}

// adminClusterToken returns the token a mutation's id names in the organization its organizationId names,
// which the token's user must administer.
func (x *gqlExec) adminClusterToken(in gqlInput) (*clusterTokenRecord, error) {
	org, err := x.adminOrg(in.str("organizationId"))
	if err != nil {
		return nil, err
	}
	t, ok := x.st.clusters.tokens.get(uuidOf(in.str("id"), "ClusterToken"))
	if !ok || t.org != org.slug {
		return nil, gqlError("No cluster agent token found")
	}
	return t, nil
}

// clusterTokenObject is a ClusterToken; its secret is never shown (token is empty).
func (x *gqlExec) clusterTokenObject(t *clusterTokenRecord) any {
	var expiresAt any
	if !t.expiresAt.IsZero() {
		expiresAt = formatTime(t.expiresAt)
	}
	return gqlObject{typ: "ClusterToken", fields: map[string]any{
		"id": t.graphqlID, "uuid": t.id, "description": optionalText(t.description),
		"allowedIpAddresses": optionalText(t.allowedIPAddresses), "expiresAt": expiresAt,
		"cluster": x.clusterObject(x.st.cluster(t.org, t.clusterID)), "createdBy": x.userObject(t.createdBy),
		"token": "",
	}}
}

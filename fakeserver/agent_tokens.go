package fakeserver

import (
	"time"
)

// Unclustered agent tokens (https://buildkite.com/docs/apis/graphql/cookbooks/agents): organization-wide agent
// registration tokens made and revoked over GraphQL only (graphql_agent_tokens.go; REST has cluster tokens
// alone). A token revoked is kept, with revokedAt, revokedBy and revokedReason. The secret is shown once, in
// the create answer; it is also registered as an organization-wide registration token of the agent API
// (metrics.go), so GET /v3/metrics accepts it until it is revoked.
//
// Choices where the facts are silent (I): every organization may have them (the service refuses
// organizations created after 2024-02-26; the emulator has no such switch); the registration tokens that
// fixtures and AddAgentToken seed are not listed here.

// KindUnclusteredAgentToken is an unclustered agent token made over GraphQL, keyed by its UUID, for
// Store.Exists and Store.Remove (which deletes it outright, unlike a revoke).
const KindUnclusteredAgentToken Kind = "unclustered_agent_token"

func init() {
	registerKind(KindUnclusteredAgentToken, (*Store).unclusteredToken, func(st *Store, t *unclusteredTokenRecord) {
		st.unclusteredTokens.tokens.remove(t)
		delete(st.metrics.agentTokens, t.secret)
	})
}

// unclusteredTokenState is this area's part of the Store: the tokens, listed by organization.
type unclusteredTokenState struct {
	tokens *table[*unclusteredTokenRecord]
}

func newUnclusteredTokenState() unclusteredTokenState {
	return unclusteredTokenState{tokens: newTable(func(t *unclusteredTokenRecord) []string { return []string{t.org} }, nil)}
}

// unclusteredTokenRecord is one unclustered agent token.
type unclusteredTokenRecord struct {
	seq                int64
	org, id, graphqlID string
	description        *string // nil is null
	public             bool
	secret             string
	createdAt          time.Time
	createdBy          string
	revokedAt          time.Time // zero while the token is live
	revokedBy          string
	revokedReason      string
}

func (t *unclusteredTokenRecord) recordID() string { return t.id }
func (t *unclusteredTokenRecord) recordSeq() int64 { return t.seq }

// unclusteredToken returns org's unclustered agent token with this UUID, or nil. A lock must be held.
func (st *Store) unclusteredToken(org, id string) *unclusteredTokenRecord {
	if t, ok := st.unclusteredTokens.tokens.get(id); ok && t.org == org {
		return t
	}
	return nil
}

// createUnclusteredToken makes a live token of org and registers its secret with the agent API. The write
// lock must be held.
func (st *Store) createUnclusteredToken(org string, description *string, public bool, userID string) *unclusteredTokenRecord {
	id := newID()
	t := &unclusteredTokenRecord{
		seq: st.nextSeq(), org: org, id: id, graphqlID: graphQLID("AgentToken", id), description: description,
		public: public, secret: newSecret(), createdAt: st.timestamp(), createdBy: userID,
	}
	st.unclusteredTokens.tokens.insert(t)
	st.metrics.agentTokens[t.secret] = &agentTokenRecord{org: org, token: t.secret}
	return t
}

// revokeUnclusteredToken revokes t, keeping it, and stops the agent API accepting it. Revoking a revoked
// token changes nothing. The write lock must be held.
func (st *Store) revokeUnclusteredToken(t *unclusteredTokenRecord, userID, reason string) {
	if !t.revokedAt.IsZero() {
		return
	}
	t.revokedAt, t.revokedBy, t.revokedReason = st.timestamp(), userID, reason
	delete(st.metrics.agentTokens, t.secret)
}

// UnclusteredAgentToken reports org's unclustered agent token with this UUID: whether there is one, its
// description ("" for none), and when it was revoked (zero while live). For tests.
func (st *Store) UnclusteredAgentToken(org, id string) (found bool, description string, revokedAt time.Time) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	t := st.unclusteredToken(org, id)
	if t == nil {
		return false, "", time.Time{}
	}
	if t.description != nil {
		description = *t.description
	}
	return true, description, t.revokedAt
}

// AddUnclusteredAgentToken seeds a live unclustered agent token of org, as one made in the web interface,
// and returns its UUID and secret. It fails for an unknown organization.
func (st *Store) AddUnclusteredAgentToken(org, description string) (id, secret string, err error) {
	defer st.edit()()
	if err := st.checkOrg(org); err != nil {
		return "", "", err
	}
	var d *string
	if description != "" {
		d = &description
	}
	t := st.createUnclusteredToken(org, d, false, st.defaultUserID)
	return t.id, t.secret, nil
}

// RevokeUnclusteredAgentToken revokes org's unclustered agent token id, as someone revoking it in the web
// interface would (the token is kept, with revokedAt), and reports whether there was one.
func (st *Store) RevokeUnclusteredAgentToken(org, id, reason string) bool {
	defer st.edit()()
	t := st.unclusteredToken(org, id)
	if t == nil {
		return false
	}
	st.revokeUnclusteredToken(t, st.defaultUserID, reason)
	return true
}

package fakeserver

import (
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"strings"
	"time"
)

// Cluster agent tokens (https://buildkite.com/docs/apis/rest-api/clusters/agent-tokens): the secret is in the
// create answer only.

const (
	// KindClusterToken is a cluster agent token.
	KindClusterToken Kind = "cluster_token"
)

func init() {
	registerKind(KindClusterToken, nestedKey((*Store).clusterToken), (*Store).deleteClusterToken)
}

// ---- state ----

func clusterTokenSecretName(secret string) string { return nameKey("secret", secret) }

func (t *clusterTokenRecord) recordID() string { return t.id }
func (t *clusterTokenRecord) recordSeq() int64 { return t.seq }

type clusterTokenRecord struct {
	seq                    int64
	org, clusterID, id     string
	graphqlID, description string
	allowedIPAddresses     string // CIDR blocks separated by spaces, as sent; "" when unrestricted
	secret                 string
	expiresAt              time.Time // zero when the token does not expire
	createdAt              time.Time
	createdBy              string
}

// clusterToken and clusterTokensOf need a lock held; clusterToken returns nil for a token outside org or
// cluster, clusterTokensOf lists in creation order (the caller must not change the slice).
func (st *Store) clusterToken(org, clusterID, id string) *clusterTokenRecord {
	if t, ok := st.clusters.tokens.get(id); ok && t.org == org && t.clusterID == clusterID {
		return t
	}
	return nil
}

func (st *Store) clusterTokensOf(clusterID string) []*clusterTokenRecord {
	return st.clusters.tokens.list(clusterID)
}

// deleteClusterToken removes t. The write lock must be held.
func (st *Store) deleteClusterToken(t *clusterTokenRecord) { st.clusters.tokens.remove(t) }

// ---- views ----

type clusterTokenView struct {
	ID                 string    `json:"id"`
	GraphQLID          string    `json:"graphql_id"`
	Description        string    `json:"description"`
	AllowedIPAddresses string    `json:"allowed_ip_addresses"`
	URL                string    `json:"url"`
	ClusterURL         string    `json:"cluster_url"`
	ExpiresAt          *string   `json:"expires_at"`
	CreatedAt          string    `json:"created_at"`
	CreatedBy          *userView `json:"created_by"`
}

// clusterTokenCreatedView is the create response: the only one carrying the secret.
type clusterTokenCreatedView struct {
	clusterTokenView
	Token string `json:"token"`
}

func (st *Store) clusterTokenView(base string, t *clusterTokenRecord) clusterTokenView {
	return clusterTokenView{
		ID: t.id, GraphQLID: t.graphqlID, Description: t.description, AllowedIPAddresses: t.allowedIPAddresses,
		URL:        apiURL(base, "organizations", t.org, "clusters", t.clusterID, "tokens", t.id),
		ClusterURL: apiURL(base, "organizations", t.org, "clusters", t.clusterID),
		ExpiresAt:  formatTimePtr(t.expiresAt),
		CreatedAt:  formatTime(t.createdAt),
		CreatedBy:  st.userSummary(t.createdBy),
	}
}

// ---- routes ----

func (s *Server) routeClusterTokens(mux *routeMux) {
	const tokens = "/v2/organizations/{org}/clusters/{cluster}/tokens"
	const token = tokens + "/{token}"
	mux.HandleFunc("GET "+tokens, s.listClusterTokens)
	mux.HandleFunc("POST "+tokens, s.createClusterToken)
	mux.HandleFunc("GET "+token, s.getClusterToken)
	mux.HandleFunc("PUT "+token, s.updateClusterToken)
	mux.HandleFunc("PATCH "+token, s.updateClusterToken)
	mux.HandleFunc("DELETE "+token, s.deleteClusterTokenHandler)
}

// ---- cluster token handlers ----

func (s *Server) listClusterTokens(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		c := s.store.cluster(org, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		out := []clusterTokenView{}
		for _, t := range paginate(w, r, s.store.clusterTokensOf(c.id)) {
			out = append(out, s.store.clusterTokenView(baseURL(r), t))
		}
		return out, nil
	})
}

// findClusterToken finds the token of the path's cluster and token IDs: 404 for either. A lock must be
// held.
func (st *Store) findClusterToken(org string, r *http.Request) (*clusterTokenRecord, *apiError) {
	c := st.cluster(org, r.PathValue("cluster"))
	if c == nil {
		return nil, errNotFound("cluster")
	}
	t := st.clusterToken(org, c.id, r.PathValue("token"))
	if t == nil {
		return nil, errNotFound("cluster token")
	}
	return t, nil
}

func (s *Server) getClusterToken(w http.ResponseWriter, r *http.Request) {
	s.serveRead(w, r, scopeReadClusters, func(org string) (any, *apiError) {
		t, err := s.store.findClusterToken(org, r)
		if err != nil {
			return nil, err
		}
		return s.store.clusterTokenView(baseURL(r), t), nil
	})
}

// cidrBlocks splits allowed_ip_addresses: CIDR blocks separated by spaces.
func cidrBlocks(allowed string) []string { return strings.Fields(allowed) }

// checkCIDR records a problem for each block of v that is not a network in CIDR notation; empty (or only
// spaces) means unrestricted.
func checkCIDR(problems *validationErrors, v opt[string]) {
	for _, block := range cidrBlocks(v.Value) {
		if _, _, err := net.ParseCIDR(block); err != nil {
			problems.add("allowed_ip_addresses", block+" is not a valid CIDR")
		}
	}
}

// readExpiry reads a cluster token's optional expires_at: an ISO 8601 timestamp (RFC 3339, fractional
// seconds allowed) in the future of now. Absent or null means the token does not expire.
func readExpiry(problems *validationErrors, v opt[string], now time.Time) time.Time {
	if !v.Given() {
		return time.Time{}
	}
	at, err := time.Parse(time.RFC3339Nano, v.Value)
	switch {
	case err != nil:
		problems.add("expires_at", "is not a valid ISO 8601 timestamp")
	case !at.After(now):
		problems.add("expires_at", "must be in the future")
	}
	return at.UTC().Truncate(time.Millisecond)
}

// expired reports whether t can no longer be used at now.
func (t *clusterTokenRecord) expired(now time.Time) bool {
	return !t.expiresAt.IsZero() && !now.Before(t.expiresAt)
}

func (s *Server) createClusterToken(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusCreated, func(org orgRecord, user userRecord, in *jsonObject) (any, *apiError) {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		t, problems := s.store.addClusterToken(c, user.id, in, s.opts.Now())
		if len(problems) > 0 {
			return nil, errValidation(problems)
		}
		return clusterTokenCreatedView{clusterTokenView: s.store.clusterTokenView(baseURL(r), t), Token: t.secret}, nil
	})
}

// updateClusterToken changes the description and allowed_ip_addresses; expires_at is set on create only
// and, like other unknown properties, ignored here.
func (s *Server) updateClusterToken(w http.ResponseWriter, r *http.Request) {
	s.serveWrite(w, r, scopeWriteClusters, http.StatusOK, func(org orgRecord, _ userRecord, in *jsonObject) (any, *apiError) {
		t, err := s.store.findClusterToken(org.slug, r)
		if err != nil {
			return nil, err
		}
		if problems := changeClusterToken(t, in); len(problems) > 0 {
			return nil, errValidation(problems)
		}
		return s.store.clusterTokenView(baseURL(r), t), nil
	})
}

// addClusterToken checks a create's body (REST's, or GraphQL's clusterAgentTokenCreate input in its form)
// and stores a token of c with a new secret; nothing is stored when there are problems. The write lock
// must be held.
func (st *Store) addClusterToken(c *clusterRecord, userID string, in *jsonObject, now time.Time) (*clusterTokenRecord, validationErrors) {
	desc, allowed, expires := in.String("description"), in.String("allowed_ip_addresses"), in.String("expires_at")
	problems := in.Problems()
	if desc.Value == "" {
		problems.addBlank("description")
	}
	checkCIDR(&problems, allowed)
	expiresAt := readExpiry(&problems, expires, now)
	if len(problems) > 0 {
		return nil, problems
	}
	id := newID()
	t := &clusterTokenRecord{
		seq: st.nextSeq(), org: c.org, clusterID: c.id, id: id, graphqlID: graphQLID("ClusterToken", id),
		description: desc.Value, allowedIPAddresses: allowed.Value, secret: newSecret(), expiresAt: expiresAt,
		createdAt: st.timestamp(), createdBy: userID,
	}
	st.clusters.tokens.insert(t)
	return t, nil
}

// changeClusterToken checks an update's body (REST's, or GraphQL's clusterAgentTokenUpdate input in its
// form) and applies it to t; nothing changes when there are problems.
func changeClusterToken(t *clusterTokenRecord, in *jsonObject) validationErrors {
	desc, allowed := in.String("description"), in.String("allowed_ip_addresses")
	problems := in.Problems()
	if desc.Set && desc.Value == "" {
		problems.addBlank("description")
	}
	checkCIDR(&problems, allowed)
	if len(problems) > 0 {
		return problems
	}
	setString(&t.description, desc)
	setString(&t.allowedIPAddresses, allowed)
	return nil
}

func (s *Server) deleteClusterTokenHandler(w http.ResponseWriter, r *http.Request) {
	s.serveDelete(w, r, scopeWriteClusters, func(org string) *apiError {
		t, err := s.store.findClusterToken(org, r)
		if err != nil {
			return err
		}
		s.store.deleteClusterToken(t)
		return nil
	})
}

// newSecret returns an agent token secret.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

package fakeserver

import (
	"net/http"
)

// Cluster network ranges (https://buildkite.com/docs/apis/rest-api/clusters/network-ranges): GET
// /v2/organizations/{org}/clusters/{cluster}/network_ranges answers, unpaginated, the egress networks of the
// cluster's hosted agents as {cidr_range, kind}. Scope read_clusters, and the user must be able to manage
// the cluster (an administrator or one of its maintainers), else 403. The emulator runs no hosted agents:
// every cluster has no ranges ([]) until a test or a user seeds some with Store.SetNetworkRanges, and
// Store.FailNetworkRanges makes the next answers the service's 503.

// NetworkRange is one egress network of a cluster's hosted agents. Kind is the service's own word
// (NAMESPACE_MANAGED in its examples); nil fields are answered as JSON null.
type NetworkRange struct {
	CIDRRange *string `json:"cidr_range"`
	Kind      *string `json:"kind"`
}

// networkRangeState is this area's part of the Store: the ranges of each cluster that has some, and how
// many more requests answer 503, by cluster ID.
type networkRangeState struct {
	byCluster map[string][]networkRangeRecord
	failing   map[string]int
}

type networkRangeRecord struct {
	cidrRange, kind    string
	nullCIDR, nullKind bool
}

func newNetworkRangeState() networkRangeState {
	return networkRangeState{byCluster: map[string][]networkRangeRecord{}, failing: map[string]int{}}
}

// SetNetworkRanges replaces the network ranges of cluster clusterID (any organization's).
func (st *Store) SetNetworkRanges(clusterID string, ranges []NetworkRange) {
	defer st.edit()()
	recs := make([]networkRangeRecord, 0, len(ranges))
	for _, r := range ranges {
		recs = append(recs, networkRangeRecord{
			cidrRange: deref(r.CIDRRange), kind: deref(r.Kind), nullCIDR: r.CIDRRange == nil, nullKind: r.Kind == nil,
		})
	}
	st.ranges.byCluster[clusterID] = recs
}

// FailNetworkRanges makes the next n requests for cluster clusterID's ranges answer 503, as the service
// does when it cannot load them.
func (st *Store) FailNetworkRanges(clusterID string, n int) {
	defer st.edit()()
	st.ranges.failing[clusterID] = n
}

func (s *Server) routeNetworkRanges(mux *routeMux) {
	mux.HandleFunc("GET /v2/organizations/{org}/clusters/{cluster}/network_ranges", s.listNetworkRanges)
}

func (s *Server) listNetworkRanges(w http.ResponseWriter, r *http.Request) {
	// A write without a body, though a GET: a 503 counts down.
	s.serveAct(w, r, scopeReadClusters, http.StatusOK, func(org orgRecord, user userRecord) (any, *apiError) {
		c := s.store.cluster(org.slug, r.PathValue("cluster"))
		if c == nil {
			return nil, errNotFound("cluster")
		}
		_, maintainer := s.store.maintainers.maintainers.lookup(maintainerName(c.id, user.id))
		if !s.store.isAdmin(org.slug, user.id) && !maintainer {
			return nil, errForbidden()
		}
		if n := s.store.ranges.failing[c.id]; n > 0 {
			s.store.ranges.failing[c.id] = n - 1
			return nil, newMessageError(http.StatusServiceUnavailable, "Could not load network ranges: the hosted agents' network is not answering")
		}
		out := []NetworkRange{}
		for _, rec := range s.store.ranges.byCluster[c.id] {
			v := NetworkRange{}
			if !rec.nullCIDR {
				v.CIDRRange = stringPtr(rec.cidrRange)
			}
			if !rec.nullKind {
				v.Kind = stringPtr(rec.kind)
			}
			out = append(out, v)
		}
		return out, nil
	})
}

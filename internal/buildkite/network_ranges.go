package buildkite

import (
	"context"
	"net/http"
)

// NetworkRangesService reads the egress networks of a cluster's hosted agents.
type NetworkRangesService struct{ client *Client }

// NetworkRange is one egress network; the service may leave either field null.
type NetworkRange struct {
	CIDRRange *string `json:"cidr_range"`
	Kind      *string `json:"kind"`
}

// List returns the cluster's ranges (one unpaginated answer; empty for a cluster without hosted agents).
// A 503 ("Could not load network ranges") is retried as every 5xx is.
func (s *NetworkRangesService) List(ctx context.Context, clusterID string) ([]NetworkRange, error) {
	p, err := s.client.orgPath("clusters", clusterID, "network_ranges")
	if err != nil {
		return nil, err
	}
	var out []NetworkRange
	if _, err := s.client.send(ctx, call{method: http.MethodGet, path: p, out: &out, repeatable: true, holds: holdsList}); err != nil {
		return nil, err
	}
	return out, nil
}

package buildkite

import (
	"context"
	"slices"
)

// MetaService reads facts about the service itself (GET /v2/meta, outside any organization).
type MetaService struct{ client *Client }

// Meta is what GET /v2/meta answers.
type Meta struct {
	// WebhookIPs are the addresses (CIDR blocks) the service sends webhooks from.
	WebhookIPs []string `json:"webhook_ips"`
}

// pathMeta is the meta endpoint.
const pathMeta = "/v2/meta"

// Get returns the service's meta facts, the webhook addresses sorted so that a change of order in the
// answer is no change.
func (s *MetaService) Get(ctx context.Context) (*Meta, error) {
	m, err := get[Meta](ctx, s.client, pathMeta, nil)
	if err != nil {
		return nil, err
	}
	slices.Sort(m.WebhookIPs)
	return m, nil
}

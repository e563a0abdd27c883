package fakeserver

import (
	"net"
	"net/http"
	"slices"
)

// Meta (https://buildkite.com/docs/apis/rest-api/meta): GET /v2/meta, outside any organization, answers the
// addresses the service sends webhooks from. Any valid access token may ask; no scope is needed. The emulator
// sends no webhooks, so its list is made up: DefaultWebhookIPs, unless fixtures declare webhook_ips.

// DefaultWebhookIPs are the addresses GET /v2/meta answers without fixtures: the three networks RFC 5737
// reserves for documentation, so that nobody mistakes them for the service's own.
var DefaultWebhookIPs = []string{"192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"}

// metaState is this area's part of the Store.
type metaState struct {
	webhookIPs []string
}

func newMetaState() metaState { return metaState{webhookIPs: slices.Clone(DefaultWebhookIPs)} }

// metaView is the answer of GET /v2/meta.
type metaView struct {
	WebhookIPs []string `json:"webhook_ips"`
}

func (s *Server) routeMeta(mux *routeMux) {
	mux.HandleFunc("GET /v2/meta", s.getMeta)
}

func (s *Server) getMeta(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := s.authenticate(w, r, ""); !ok {
		return
	}
	var out metaView
	_ = s.store.view(func() *apiError {
		out.WebhookIPs = nonNil(slices.Clone(s.store.meta.webhookIPs))
		return nil
	})
	writeJSON(w, http.StatusOK, out)
}

// checkWebhookIP reports whether s is an address or a network in CIDR notation.
func checkWebhookIP(s string) bool {
	if _, _, err := net.ParseCIDR(s); err == nil {
		return true
	}
	return net.ParseIP(s) != nil
}

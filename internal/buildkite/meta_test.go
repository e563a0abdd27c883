package buildkite

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

func TestMeta(t *testing.T) {
	m, err := newTestClient(t, fakeserver.StartTest(t, fakeserver.Options{}).URL()).Meta.Get(context.Background())
	if err != nil || !slices.Equal(m.WebhookIPs, fakeserver.DefaultWebhookIPs) {
		t.Fatalf("Meta.Get = %+v, %v", m, err)
	}
	// Sorted, so that a change of order in the answer is no change.
	s := newStub(t, respond(http.StatusOK, `{"webhook_ips":["203.0.113.9/32","192.0.2.0/24"]}`))
	m, err = newTestClient(t, s.srv.URL).Meta.Get(context.Background())
	if err != nil || !slices.Equal(m.WebhookIPs, []string{"192.0.2.0/24", "203.0.113.9/32"}) {
		t.Fatalf("Meta.Get = %+v, %v", m, err)
	}
	if r := s.reqs[0]; r.Path != "/v2/meta" || r.Header.Get("Authorization") != "Bearer test-token" {
		t.Errorf("request %s with %q", r.Path, r.Header.Get("Authorization"))
	}
}

package buildkite

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/fakeserver"
)

// TestAPISettingsUpdate_body: a PATCH carries only what it names, a cleared allowlist and revocation as null.
func TestAPISettingsUpdate_body(t *testing.T) {
	s := newStub(t, respond(http.StatusOK, `{"url":"u","allowed_ip_addresses":null,"restrict_user_api_token_creation":false}`))
	c := newTestClient(t, s.srv.URL)
	for _, tc := range []struct {
		in   APISettingsUpdate
		want string
	}{
		{APISettingsUpdate{AllowedIPAddresses: Value("10.0.0.0/8 192.0.2.0/24")}, `{"allowed_ip_addresses":"10.0.0.0/8 192.0.2.0/24"}`},
		{APISettingsUpdate{AllowedIPAddresses: Cleared[string](), RevokeInactiveTokensAfterDays: Cleared[int64]()}, `{"allowed_ip_addresses":null,"revoke_inactive_tokens_after_days":null}`},
		{APISettingsUpdate{RevokeInactiveTokensAfterDays: Value(int64(90)), RestrictUserAPITokenCreation: Value(true)}, `{"revoke_inactive_tokens_after_days":90,"restrict_user_api_token_creation":true}`},
	} {
		if _, err := c.OrgSettings.UpdateAPISettings(context.Background(), tc.in); err != nil {
			t.Fatal(err)
		}
		reqs := s.requests()
		assertRequest(t, reqs[len(reqs)-1], http.MethodPatch, "/v2/organizations/acme/api-settings", tc.want)
	}
	if !(APISettingsUpdate{}).IsZero() || (APISettingsUpdate{RestrictUserAPITokenCreation: Value(true)}).IsZero() {
		t.Error("Empty is wrong")
	}
}

// TestOrgSettings_Emulator drives the settings, banner, network ranges and webhook calls against the
// emulator.
func TestOrgSettings_Emulator(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL)
	ctx := context.Background()

	ips := []string{"0.0.0.0/0", "192.0.2.0/24"}
	s, err := c.OrgSettings.UpdateAPISettings(ctx, APISettingsUpdate{AllowedIPAddresses: Value(strings.Join(ips, " ")), RevokeInactiveTokensAfterDays: Value(int64(30))})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.AllowedIPs(); len(got) != 2 || got[1] != "192.0.2.0/24" || orZero(s.RevokeInactiveTokensAfterDays) != 30 || !s.Features.APIIPAllowList {
		t.Errorf("settings = %+v", s)
	}
	if _, err := c.OrgSettings.UpdateAPISettings(ctx, APISettingsUpdate{RevokeInactiveTokensAfterDays: Value(int64(45))}); !IsValidation(err) {
		t.Errorf("45 days: %v, want a 422", err)
	}

	if _, err := c.OrgSettings.GetBanner(ctx); !IsNotFound(err) {
		t.Errorf("no banner: %v, want a 404", err)
	}
	b, err := c.OrgSettings.PutBanner(ctx, "Hello")
	if err != nil || b.Message != "Hello" || b.UUID == "" {
		t.Fatalf("put = %+v, %v", b, err)
	}
	again, err := c.OrgSettings.PutBanner(ctx, "Again")
	if err != nil || again.UUID != b.UUID {
		t.Errorf("second put = %+v, %v (want the same banner)", again, err)
	}
	if err := c.OrgSettings.DeleteBanner(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.OrgSettings.DeleteBanner(ctx); !IsNotFound(err) {
		t.Errorf("second delete: %v, want a 404", err)
	}

	cluster, err := c.Clusters.Create(ctx, ClusterCreate{Name: "Hosted"})
	if err != nil {
		t.Fatal(err)
	}
	ranges, err := c.NetworkRanges.List(ctx, cluster.ID)
	if err != nil || ranges == nil || len(ranges) != 0 {
		t.Errorf("ranges = %#v, %v (want an empty list)", ranges, err)
	}
	cidr := "10.0.0.0/16"
	fake.Store().SetNetworkRanges(cluster.ID, []fakeserver.NetworkRange{{CIDRRange: &cidr}})
	fake.Store().FailNetworkRanges(cluster.ID, 2)
	ranges, err = c.NetworkRanges.List(ctx, cluster.ID)
	if err != nil || len(ranges) != 1 || orZero(ranges[0].CIDRRange) != cidr || ranges[0].Kind != nil {
		t.Errorf("after two 503s, ranges = %#v, %v", ranges, err)
	}

	p := emulatorPost(t, srv.URL, "/v2/organizations/acme/pipelines", `{"name":"Web","repository":"git@github.com:acme/web.git","configuration":"steps: []"}`)
	if err := c.Pipelines.CreateWebhook(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	if err := c.Pipelines.CreateWebhook(ctx, "web"); !IsWebhookExists(err) {
		t.Errorf("second webhook: %v, want the service's refusal", err)
	}
	if !fake.Store().Exists(fakeserver.KindPipelineWebhook, "acme", p) {
		t.Error("the emulator holds no webhook")
	}
}

// orZero is *p, or the zero value for nil.
func orZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// TestAPISettingsUpdate_bytes pins the bytes a PATCH sends, key order included.
func TestAPISettingsUpdate_bytes(t *testing.T) {
	for _, tc := range []struct {
		in   APISettingsUpdate
		want string
	}{
		{APISettingsUpdate{}, `{}`},
		{APISettingsUpdate{AllowedIPAddresses: Value("10.0.0.0/8 192.0.2.0/24")}, `{"allowed_ip_addresses":"10.0.0.0/8 192.0.2.0/24"}`},
		{APISettingsUpdate{AllowedIPAddresses: Cleared[string]()}, `{"allowed_ip_addresses":null}`},
		{APISettingsUpdate{RevokeInactiveTokensAfterDays: Cleared[int64]()}, `{"revoke_inactive_tokens_after_days":null}`},
		{APISettingsUpdate{RestrictUserAPITokenCreation: Value(false)}, `{"restrict_user_api_token_creation":false}`},
		{APISettingsUpdate{AllowedIPAddresses: Value("0.0.0.0/0"), RevokeInactiveTokensAfterDays: Value(int64(90)), RestrictUserAPITokenCreation: Value(true)},
			`{"allowed_ip_addresses":"0.0.0.0/0","restrict_user_api_token_creation":true,"revoke_inactive_tokens_after_days":90}`},
		{APISettingsUpdate{AllowedIPAddresses: Cleared[string](), RevokeInactiveTokensAfterDays: Cleared[int64](), RestrictUserAPITokenCreation: Value(false)},
			`{"allowed_ip_addresses":null,"restrict_user_api_token_creation":false,"revoke_inactive_tokens_after_days":null}`},
	} {
		if tc.in.IsZero() != (tc.want == `{}`) {
			t.Errorf("%+v: IsZero = %t, but it sends %s", tc.in, tc.in.IsZero(), tc.want)
		}
		s := newStub(t, respond(http.StatusOK, `{"url":"u"}`))
		c := newTestClient(t, s.srv.URL)
		if _, err := c.OrgSettings.UpdateAPISettings(context.Background(), tc.in); err != nil {
			t.Fatal(err)
		}
		if got := s.only(t).Body; got != tc.want {
			t.Errorf("body = %s\nwant   %s", got, tc.want)
		}
	}
}

package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
)

// TestKeepSingletons: what a test changed of the organization's API settings and banner is put back when it
// ends, held (as in live mode) without deadlocking a test that asks twice.
func TestKeepSingletons(t *testing.T) {
	t.Parallel()
	e := acctest.NewTestEnv(t)
	if e.Live {
		t.Skip("live mode: this test changes the organization's settings to see them put back")
	}
	ctx := context.Background()
	e.Server.SetCallerAddress("192.0.2.7") // inside the allowlist below, which the emulator enforces
	ips, days, restrict := []string{"192.0.2.0/24"}, int64(30), true
	if _, err := e.Client.OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPAddresses: organization.AllowlistUpdate(ips), RevokeInactiveTokensAfterDays: organization.RevocationUpdate(days), RestrictUserAPITokenCreation: buildkite.Value(restrict)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Client.OrgSettings.PutBanner(ctx, "Original"); err != nil {
		t.Fatal(err)
	}
	// A test run as a live one would: it holds both, changes everything, and ends.
	changeAll := func(banner bool) {
		t.Run("changes", func(st *testing.T) {
			sub := &acctest.TestEnv{T: st, Live: true, Client: e.Client}
			sub.KeepAPISettings()
			sub.KeepAPISettings()
			sub.KeepBanner()
			if _, err := e.Client.OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPAddresses: buildkite.Cleared[string](),
				RevokeInactiveTokensAfterDays: buildkite.Cleared[int64](), RestrictUserAPITokenCreation: buildkite.Value(false)}); err != nil {
				st.Fatal(err)
			}
			if banner {
				if _, err := e.Client.OrgSettings.PutBanner(ctx, "Changed"); err != nil {
					st.Fatal(err)
				}
			} else if err := e.Client.OrgSettings.DeleteBanner(ctx); err != nil {
				st.Fatal(err)
			}
		})
	}
	changeAll(false)
	s, err := e.Client.OrgSettings.GetAPISettings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.AllowedIPs(), ips) || kit.Deref(s.RevokeInactiveTokensAfterDays) != days || !s.RestrictUserAPITokenCreation {
		t.Errorf("API settings after the test: %v, %d days, restrict %v; want them put back", s.AllowedIPs(), kit.Deref(s.RevokeInactiveTokensAfterDays), s.RestrictUserAPITokenCreation)
	}
	if b, err := e.Client.OrgSettings.GetBanner(ctx); err != nil || b.Message != "Original" {
		t.Errorf("banner after the test: %v, %v; want %q put back", b, err, "Original")
	}
	// Without a banner at the start, the one the test made goes.
	if err := e.Client.OrgSettings.DeleteBanner(ctx); err != nil {
		t.Fatal(err)
	}
	changeAll(true)
	if b, err := e.Client.OrgSettings.GetBanner(ctx); !buildkite.IsNotFound(err) {
		t.Errorf("banner after the test: %v, %v; want none, as at the start", b, err)
	}
}

package provider

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// The organization's singletons, its API settings and its banner, are no objects a sweeper can find by name
// or a test can make its own: in a live run every test shares the one organization's. A test that changes
// one holds it (the tests that do run one at a time) and puts it back as it found it when it ends, whatever
// Terraform did: the allowlist and the token settings as they were, the banner deleted (or its message put
// back where the organization had one). Against the emulator each test has its own organization and holds
// nothing, but puts back all the same.

// singletonLocks are the live run's locks, by singleton.
var singletonLocks sync.Map // name -> *sync.Mutex

// holdSingleton makes, in live mode, the test the only one changing the singleton name until it ends. Its
// release is registered before what puts the singleton back, so it runs after.
func (e *testEnv) holdSingleton(name string) {
	if !e.live || e.held[name] {
		return
	}
	l, _ := singletonLocks.LoadOrStore(name, &sync.Mutex{})
	mu := l.(*sync.Mutex)
	mu.Lock()
	if e.held == nil {
		e.held = map[string]bool{}
	}
	e.held[name] = true
	e.t.Cleanup(mu.Unlock)
}

// keepAPISettings makes the test leave the organization's API settings (allowlist, token revocation, token
// restriction) as it found them.
func (e *testEnv) keepAPISettings() {
	e.t.Helper()
	if e.held["api-settings"] {
		return
	}
	e.holdSingleton("api-settings")
	ctx := context.Background()
	found, err := e.client.OrgSettings.GetAPISettings(ctx)
	if err != nil {
		e.t.Fatalf("reading the organization's API settings, to put them back when the test ends: %v", err)
	}
	ips := found.AllowedIPs()
	if ips == nil {
		ips = []string{}
	}
	days, restrict := deref(found.RevokeInactiveTokensAfterDays), found.RestrictUserAPITokenCreation
	e.t.Cleanup(func() {
		now, err := e.client.OrgSettings.GetAPISettings(ctx)
		if err != nil {
			e.t.Errorf("reading the organization's API settings to put them back: %v", err)
			return
		}
		var u buildkite.APISettingsUpdate
		if !slices.Equal(now.AllowedIPs(), ips) && len(now.AllowedIPs())+len(ips) > 0 {
			u.AllowedIPs = &ips
		}
		if deref(now.RevokeInactiveTokensAfterDays) != days {
			u.RevokeAfterDays = &days
		}
		if now.RestrictUserAPITokenCreation != restrict {
			u.RestrictTokens = &restrict
		}
		if u.Empty() {
			return
		}
		if _, err := e.client.OrgSettings.UpdateAPISettings(ctx, u); err != nil {
			e.t.Errorf("left the organization's API settings changed (allowlist %v, %d days, restrict %v were found): %v", ips, days, restrict, err)
		}
	})
}

// keepBanner makes the test leave the organization's banner as it found it: none, or its message.
func (e *testEnv) keepBanner() {
	e.t.Helper()
	if e.held["banner"] {
		return
	}
	e.holdSingleton("banner")
	ctx := context.Background()
	found, err := e.client.OrgSettings.GetBanner(ctx)
	if err != nil && !buildkite.IsNotFound(err) {
		e.t.Fatalf("reading the organization's banner, to put it back when the test ends: %v", err)
	}
	e.t.Cleanup(func() {
		now, err := e.client.OrgSettings.GetBanner(ctx)
		switch {
		case buildkite.IsNotFound(err) && found == nil:
		case err != nil && !buildkite.IsNotFound(err):
			e.t.Errorf("reading the organization's banner to put it back: %v", err)
		case found == nil:
			if err := e.client.OrgSettings.DeleteBanner(ctx); err != nil && !buildkite.IsNotFound(err) {
				e.t.Errorf("left the organization's banner %q: %v", now.Message, err)
			}
		case now == nil || now.Message != found.Message:
			if _, err := e.client.OrgSettings.PutBanner(ctx, found.Message); err != nil {
				e.t.Errorf("left the organization's banner changed (%q was found): %v", found.Message, err)
			}
		}
	})
}

// TestKeepSingletons: what a test changed of the organization's API settings and banner is put back when it
// ends, held (as in live mode) without deadlocking a test that asks twice.
func TestKeepSingletons(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	if e.live {
		t.Skip("live mode: this test changes the organization's settings to see them put back")
	}
	ctx := context.Background()
	e.server.SetCallerAddress("192.0.2.7") // inside the allowlist below, which the emulator enforces
	ips, days, restrict := []string{"192.0.2.0/24"}, int64(30), true
	if _, err := e.client.OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPs: &ips, RevokeAfterDays: &days, RestrictTokens: &restrict}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.OrgSettings.PutBanner(ctx, "Original"); err != nil {
		t.Fatal(err)
	}
	// A test run as a live one would: it holds both, changes everything, and ends.
	changeAll := func(banner bool) {
		t.Run("changes", func(st *testing.T) {
			sub := &testEnv{t: st, live: true, client: e.client}
			sub.keepAPISettings()
			sub.keepAPISettings()
			sub.keepBanner()
			none, zero, no := []string{}, int64(0), false
			if _, err := e.client.OrgSettings.UpdateAPISettings(ctx, buildkite.APISettingsUpdate{AllowedIPs: &none, RevokeAfterDays: &zero, RestrictTokens: &no}); err != nil {
				st.Fatal(err)
			}
			if banner {
				if _, err := e.client.OrgSettings.PutBanner(ctx, "Changed"); err != nil {
					st.Fatal(err)
				}
			} else if err := e.client.OrgSettings.DeleteBanner(ctx); err != nil {
				st.Fatal(err)
			}
		})
	}
	changeAll(false)
	s, err := e.client.OrgSettings.GetAPISettings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.AllowedIPs(), ips) || deref(s.RevokeInactiveTokensAfterDays) != days || !s.RestrictUserAPITokenCreation {
		t.Errorf("API settings after the test: %v, %d days, restrict %v; want them put back", s.AllowedIPs(), deref(s.RevokeInactiveTokensAfterDays), s.RestrictUserAPITokenCreation)
	}
	if b, err := e.client.OrgSettings.GetBanner(ctx); err != nil || b.Message != "Original" {
		t.Errorf("banner after the test: %v, %v; want %q put back", b, err, "Original")
	}
	// Without a banner at the start, the one the test made goes.
	if err := e.client.OrgSettings.DeleteBanner(ctx); err != nil {
		t.Fatal(err)
	}
	changeAll(true)
	if b, err := e.client.OrgSettings.GetBanner(ctx); !buildkite.IsNotFound(err) {
		t.Errorf("banner after the test: %v, %v; want none, as at the start", b, err)
	}
}

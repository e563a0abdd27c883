package acctest

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// The organization's singletons, its API settings and its banner, are no objects a sweeper can find by name
// or a test can make its own: in a live run every test shares the one organization's. A test that changes
// one holds it (the tests that do run one at a time) and puts it back as it found it when it ends, whatever
// Terraform did: the allowlist and the token settings as they were, the banner deleted (or its message put
// back where the organization had one). Against the emulator each test has its own organization and holds
// nothing, but puts back all the same.

// holdSingleton makes, in live mode, the test the only one changing the singleton name until it ends. Its
// release is registered before what puts the singleton back, so it runs after.
func (e *TestEnv) HoldSingleton(name string) {
	if !e.Live || e.held[name] {
		return
	}
	l, _ := singletonLocks.LoadOrStore(name, &sync.Mutex{})
	mu := l.(*sync.Mutex)
	mu.Lock()
	if e.held == nil {
		e.held = map[string]bool{}
	}
	e.held[name] = true
	e.T.Cleanup(mu.Unlock)
}

// keepAPISettings makes the test leave the organization's API settings (allowlist, token revocation, token
// restriction) as it found them.
func (e *TestEnv) KeepAPISettings() {
	e.T.Helper()
	if e.held["api-settings"] {
		return
	}
	e.HoldSingleton("api-settings")
	ctx := context.Background()
	found, err := e.Client.OrgSettings.GetAPISettings(ctx)
	if err != nil {
		e.T.Fatalf("reading the organization's API settings, to put them back when the test ends: %v", err)
	}
	ips := found.AllowedIPs()
	if ips == nil {
		ips = []string{}
	}
	days, restrict := kit.Deref(found.RevokeInactiveTokensAfterDays), found.RestrictUserAPITokenCreation
	e.T.Cleanup(func() {
		now, err := e.Client.OrgSettings.GetAPISettings(ctx)
		if err != nil {
			e.T.Errorf("reading the organization's API settings to put them back: %v", err)
			return
		}
		var u buildkite.APISettingsUpdate
		if !slices.Equal(now.AllowedIPs(), ips) && len(now.AllowedIPs())+len(ips) > 0 {
			u.AllowedIPAddresses = AllowlistUpdate(ips)
		}
		if kit.Deref(now.RevokeInactiveTokensAfterDays) != days {
			u.RevokeInactiveTokensAfterDays = RevocationUpdate(days)
		}
		if now.RestrictUserAPITokenCreation != restrict {
			u.RestrictUserAPITokenCreation = buildkite.Value(restrict)
		}
		if u.IsZero() {
			return
		}
		if _, err := e.Client.OrgSettings.UpdateAPISettings(ctx, u); err != nil {
			e.T.Errorf("left the organization's API settings changed (allowlist %v, %d days, restrict %v were found): %v", ips, days, restrict, err)
		}
	})
}

// keepBanner makes the test leave the organization's banner as it found it: none, or its message.
func (e *TestEnv) KeepBanner() {
	e.T.Helper()
	if e.held["banner"] {
		return
	}
	e.HoldSingleton("banner")
	ctx := context.Background()
	found, err := e.Client.OrgSettings.GetBanner(ctx)
	if err != nil && !buildkite.IsNotFound(err) {
		e.T.Fatalf("reading the organization's banner, to put it back when the test ends: %v", err)
	}
	e.T.Cleanup(func() {
		now, err := e.Client.OrgSettings.GetBanner(ctx)
		switch {
		case buildkite.IsNotFound(err) && found == nil:
		case err != nil && !buildkite.IsNotFound(err):
			e.T.Errorf("reading the organization's banner to put it back: %v", err)
		case found == nil:
			if err := e.Client.OrgSettings.DeleteBanner(ctx); err != nil && !buildkite.IsNotFound(err) {
				e.T.Errorf("left the organization's banner %q: %v", now.Message, err)
			}
		case now == nil || now.Message != found.Message:
			if _, err := e.Client.OrgSettings.PutBanner(ctx, found.Message); err != nil {
				e.T.Errorf("left the organization's banner changed (%q was found): %v", found.Message, err)
			}
		}
	})
}

// keep2FA puts the organization's two-factor enforcement back as it was when the test ends.
func (e *TestEnv) Keep2FA() {
	e.T.Helper()
	ctx := context.Background()
	was, err := e.Client.Organizations.TwoFactorEnforced(ctx)
	if err != nil {
		e.T.Fatalf("reading the organization's 2FA enforcement, to put it back when the test ends: %v", err)
	}
	e.T.Cleanup(func() {
		if _, err := e.Client.Organizations.SetTwoFactorEnforced(ctx, was); err != nil {
			e.T.Errorf("putting the organization's 2FA enforcement back to %t: %v", was, err)
		}
	})
}

// keepPipelineSettings makes the test leave the organization's pipeline settings as it found them (held, in
// a live run, like the other singletons): the default branch and cluster, the expiry, the two switches and
// build export. The timeouts are put back only where they were set: the API cannot remove them.
func (e *TestEnv) KeepPipelineSettings() {
	e.T.Helper()
	if e.held["pipeline-settings"] {
		return
	}
	e.HoldSingleton("pipeline-settings")
	ctx := context.Background()
	found, err := e.Client.PipelineSettings.Get(ctx)
	if err != nil {
		e.T.Fatalf("reading the organization's pipeline settings, to put them back when the test ends: %v", err)
	}
	e.T.Cleanup(func() {
		now, err := e.Client.PipelineSettings.Get(ctx)
		if err != nil {
			e.T.Errorf("reading the organization's pipeline settings to put them back: %v", err)
			return
		}
		var u buildkite.PipelineSettingsUpdate
		if now.DefaultBranch != found.DefaultBranch {
			u.DefaultBranch = buildkite.Value(found.DefaultBranch)
		}
		if !strings.EqualFold(kit.Deref(now.DefaultClusterID), kit.Deref(found.DefaultClusterID)) {
			u.DefaultClusterID = buildkite.Value(kit.Deref(found.DefaultClusterID))
			if kit.Deref(found.DefaultClusterID) == "" {
				u.DefaultClusterID = buildkite.Cleared[string]()
			}
		}
		if found.ScheduledJobExpiryInMinutes != nil && kit.Deref(now.ScheduledJobExpiryInMinutes) != *found.ScheduledJobExpiryInMinutes {
			u.ScheduledJobExpiryInMinutes = buildkite.Value(*found.ScheduledJobExpiryInMinutes)
		}
		if found.DefaultTimeoutInMinutes != nil && kit.Deref(now.DefaultTimeoutInMinutes) != *found.DefaultTimeoutInMinutes {
			u.DefaultTimeoutInMinutes = buildkite.Value(*found.DefaultTimeoutInMinutes)
		}
		if found.MaximumTimeoutInMinutes != nil && kit.Deref(now.MaximumTimeoutInMinutes) != *found.MaximumTimeoutInMinutes {
			u.MaximumTimeoutInMinutes = buildkite.Value(*found.MaximumTimeoutInMinutes)
		}
		if !u.IsZero() {
			if _, err := e.Client.PipelineSettings.Update(ctx, u); err != nil {
				e.T.Errorf("left the organization's pipeline settings changed: %v", err)
			}
		}
		for name, was := range map[string][2]bool{
			buildkite.SwitchPublicPipelines: {found.PublicPipelineCreation.Enabled, now.PublicPipelineCreation.Enabled},
			buildkite.SwitchHostedAgentsSSH: {found.HostedAgentsTerminalAccess.Enabled, now.HostedAgentsTerminalAccess.Enabled},
		} {
			if was[0] != was[1] {
				if _, err := e.Client.PipelineSettings.SetSwitch(ctx, name, was[0]); err != nil {
					e.T.Errorf("left %s changed: %v", name, err)
				}
			}
		}
		fb, nb := found.BuildExports, now.BuildExports
		switch {
		case !fb.Enabled && nb.Enabled:
			_, err = e.Client.PipelineSettings.StopBuildExport(ctx)
		case fb.Enabled && (kit.Deref(fb.Location) != kit.Deref(nb.Location) || kit.Deref(fb.StrategyID) != kit.Deref(nb.StrategyID)):
			_, err = e.Client.PipelineSettings.ConfigureBuildExport(ctx, kit.Deref(fb.Location), kit.Deref(fb.StrategyID))
		}
		if err != nil {
			e.T.Errorf("left the organization's build export changed: %v", err)
		}
	})
}

// singletonLocks are the live run's locks, by singleton.
var singletonLocks sync.Map // name -> *sync.Mutex

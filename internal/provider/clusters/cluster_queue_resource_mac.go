package clusters

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// A macOS hosted queue's hosted_agents.mac (xcode_version, macos_version), through GraphQL
// (https://buildkite.com/docs/apis/graphql/cookbooks/hosted-agents): the queue is created over REST as every
// other queue (exactly once, adopted after a lost answer), then clusterQueueUpdate sets the settings,
// repeating the current instance shape as every hosted update must; a change is the same update, and a removed
// block sends xcodeVersion null, as the official provider does. Reads ask node(id:) for them, for a macOS
// queue and where GraphQL can be reached; the block is filled only when the service holds an Xcode version, as
// the official provider fills it.

// hostedMacTypes are the attributes of hosted_agents.mac.
var hostedMacTypes = hostedAgentsTypes["mac"].(types.ObjectType).AttrTypes

// macSettingsFrom reads the mac block of a hosted_agents value: nil when it is null or unknown (or the
// block is), else what the configuration asks for (macos_version nil when unknown or null).
func macSettingsFrom(o types.Object) *buildkite.MacSettingsWrite {
	if !kit.IsKnownValue(o) {
		return nil
	}
	mac, _ := o.Attributes()["mac"].(types.Object)
	if !kit.IsKnownValue(mac) {
		return nil
	}
	a := mac.Attributes()
	xcode, _ := a["xcode_version"].(types.String)
	macos, _ := a["macos_version"].(types.String)
	w := &buildkite.MacSettingsWrite{XcodeVersion: xcode.ValueStringPointer()}
	if kit.IsKnownValue(macos) {
		w.MacosVersion = macos.ValueStringPointer()
	}
	return w
}

// withMacSettings returns hosted_agents with its mac block as the service holds it.
func withMacSettings(o types.Object, m *buildkite.MacSettings) types.Object {
	if !kit.IsKnownValue(o) || m == nil {
		return o
	}
	mac := types.ObjectNull(hostedMacTypes)
	if m.XcodeVersion != "" {
		macos := types.StringNull()
		if m.MacosVersion != "" {
			macos = types.StringValue(m.MacosVersion)
		}
		mac = types.ObjectValueMust(hostedMacTypes, map[string]attr.Value{"xcode_version": types.StringValue(m.XcodeVersion), "macos_version": macos})
	}
	attrs := o.Attributes()
	attrs["mac"] = mac
	return types.ObjectValueMust(hostedAgentsTypes, attrs)
}

// isMacQueue reports whether hosted_agents has a macOS instance shape.
func isMacQueue(o types.Object) bool {
	h, ok := hostedFrom(o)
	return ok && strings.HasPrefix(h.shape, "MACOS_")
}

// readMacSettings fills the mac block of a macOS queue from the service, where GraphQL can be reached
// (otherwise the block stays as the state held it). Its error, a null queue included, is the settings'
// alone: Read keeps the queue in state (AddPartReadError).
func readMacSettings(ctx context.Context, d *kit.ProviderData, m *clusterQueueModel) error {
	if !isMacQueue(m.HostedAgents) || !d.GraphQLReachable() {
		return nil
	}
	mac, err := d.Client.Queues.MacSettings(ctx, m.GraphQLID.ValueString())
	if err != nil {
		return err
	}
	m.HostedAgents = withMacSettings(m.HostedAgents, mac)
	return nil
}

// applyMacSettings sets the mac block planned (plan) where it differs from what prior held (a null object for
// a new queue), and takes the service's answer into plan. A removed block clears the Xcode version.
func applyMacSettings(ctx context.Context, c *buildkite.Client, plan *clusterQueueModel, prior types.Object, diags *diag.Diagnostics) {
	want, had := macSettingsFrom(plan.HostedAgents), macSettingsFrom(prior)
	if !isMacQueue(plan.HostedAgents) || (want == nil && had == nil) {
		return
	}
	if want == nil {
		want = &buildkite.MacSettingsWrite{}
	} else if had != nil && *want.XcodeVersion == *had.XcodeVersion && (want.MacosVersion == nil ||
		(had.MacosVersion != nil && *want.MacosVersion == *had.MacosVersion)) {
		return
	}
	h, _ := hostedFrom(plan.HostedAgents)
	mac, err := c.Queues.SetMacSettings(ctx, plan.GraphQLID.ValueString(), h.shape, *want)
	if mac != nil && kit.ActedWithErrors(diags, err, "set the macOS settings of", "cluster queue", plan.ident()) {
		err = nil
	}
	if err != nil {
		kit.AddGraphQLError(diags, "set the macOS settings of", "cluster queue", plan.ident(), err, map[string]path.Path{
			"xcodeVersion": path.Root("hosted_agents").AtName("mac").AtName("xcode_version"),
			"macosVersion": path.Root("hosted_agents").AtName("mac").AtName("macos_version"),
		})
		return
	}
	plan.HostedAgents = withMacSettings(plan.HostedAgents, mac)
}

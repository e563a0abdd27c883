package kit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// A singleton's settings on the object kind. The rule of singleton_settings.go (a setting the configuration
// leaves out is read, never written; destroy puts back only what the configuration managed) needs what the
// kind's calls do not see: the configuration, the private state in which each create and update records the
// settings it managed, and the provider's data (whether GraphQL can be reached). The kind follows the rule for
// a type that declares Settings; the type keeps what its settings mean.

// SettingsCalls are the hooks of a kind whose object is a singleton's settings (ObjectKind.Settings). All but
// Write are required.
type SettingsCalls[M any] struct {
	// Plan plans what the service will hold, after PlanSettings has planned the settings the configuration
	// leaves out: over plan, from config and the prior state (nil for a create); managed holds the settings the
	// last create or update managed (none for a create).
	Plan func(d *ProviderData, config, plan, state *M, managed map[string]bool)
	// Send gives a create or update, before its call, the settings the configuration sets and those the last
	// create or update managed (none for a create), for the call to send: it keeps in plan what the call needs.
	Send func(plan *M, configured, managed map[string]bool)
	// Write, after the call has been recorded in got, writes what is served apart (through GraphQL), from
	// planned over prior (nil for a create), and says in diags what it warns of. A create or update that ends
	// in an error records nothing, neither state nor what it managed: the settings exist before and after the
	// resource, and the next refresh reads what the service then holds.
	Write func(ctx context.Context, d *ProviderData, planned, prior, got *M, diags *diag.Diagnostics)
	// Undo is Delete: it puts back what the last create or update managed (managed; known is false where none
	// was recorded, as after an import) and warns of what it leaves (SettingsLeftWarning).
	Undo func(ctx context.Context, d *ProviderData, state *M, managed map[string]bool, known bool, diags *diag.Diagnostics)
}

// planSettings plans a settings kind's update or create; a destroy plans nothing.
func (r *objectResource[T, M]) planSettings(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	PlanSettings(ctx, req, resp)
	var config, plan M
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *M
	managed := map[string]bool{}
	if !req.State.Raw.IsNull() {
		state = new(M)
		if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() {
			return
		}
		managed, _ = ManagedSettings(ctx, req.Private)
	}
	r.kind.Settings.Plan(r.Data, &config, &plan, state, managed)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// sendSettings hands a create (private nil) or an update what its configuration sets and what the last one
// managed.
func (r *objectResource[T, M]) sendSettings(ctx context.Context, config tfsdk.Config, private PrivateReader, plan *M, diags *diag.Diagnostics) {
	configured, d := ConfiguredSingletonSettings(ctx, config)
	diags.Append(d...)
	managed := map[string]bool{}
	if private != nil {
		managed, _ = ManagedSettings(ctx, private)
	}
	r.kind.Settings.Send(plan, configured, managed)
}

// writeSettings runs Write and, where the create or update ends without an error, records in private what its
// configuration sets; it reports whether the state is to record got.
func (r *objectResource[T, M]) writeSettings(ctx context.Context, config tfsdk.Config, planned, prior, got *M, private PrivateWriter, diags *diag.Diagnostics) bool {
	if r.kind.Settings.Write != nil {
		r.kind.Settings.Write(ctx, r.Data, planned, prior, got, diags)
	}
	if diags.HasError() {
		return false
	}
	configured, d := ConfiguredSingletonSettings(ctx, config)
	diags.Append(d...)
	diags.Append(RecordManaged(ctx, private, configured)...)
	return true
}

// undoSettings is a settings kind's Delete.
func (r *objectResource[T, M]) undoSettings(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := r.Timeout(ctx, OpDelete)
	defer cancel()
	managed, known := ManagedSettings(ctx, req.Private)
	r.kind.Settings.Undo(ctx, r.Data, &state, managed, known, &resp.Diagnostics)
}

// importWhole records the whole object ImportWhole reads, unless it failed.
func (r *objectResource[T, M]) importWhole(ctx context.Context, id string, parts []string, resp *resource.ImportStateResponse) {
	var m M
	if r.kind.ImportWhole(ctx, r.Data, id, parts, &m, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

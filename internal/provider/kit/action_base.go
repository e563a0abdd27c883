package kit

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// Actions (Terraform 1.14+) do something once, when a resource's lifecycle triggers them
// (`lifecycle { action_trigger { … } }`) or when someone asks (`terraform apply -invoke=action.<type>.<name>`),
// and keep nothing in state. Each action embeds ActionBase, which gives it Metadata, Configure, a plan-time
// scope check, a timeout and progress events; the action file holds its schema and Invoke.

// ActionBase is what every action shares. Build it with NewActionBase.
type ActionBase struct {
	name string // type name without the "buildkite_" prefix
	Data *ProviderData
}

func NewActionBase(name string) ActionBase { return ActionBase{name: name} }

// Metadata implements action.Action.
func (b *ActionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure implements action.ActionWithConfigure.
func (b *ActionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.Data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Configured reports whether the provider has configured the action, adding an error when it has not:
// Invoke cannot run without a client.
func (b *ActionBase) Configured(diags *diag.Diagnostics) bool {
	if b.Data == nil {
		diags.AddError("Provider Not Configured",
			fmt.Sprintf("The buildkite_%s action ran before the provider was configured. Please report this issue to the provider developers.", b.name))
		return false
	}
	return true
}

// Client returns the shared REST client.
func (b *ActionBase) Client() *buildkite.Client { return b.Data.Client }

// CheckScopes fails the plan when the token lacks a scope the action needs, before anything is applied: an
// action triggered after a create would otherwise fail with the resource already created.
func (b *ActionBase) CheckScopes(ctx context.Context, diags *diag.Diagnostics, scopes ...string) {
	if !b.Data.contactForPlan(ctx, diags) { // the token's scopes are known after first contact
		return
	}
	if missing := b.Data.MissingScopes(scopes); len(missing) > 0 {
		diags.AddError("Missing API Token Scope",
			fmt.Sprintf("The buildkite_%s action needs the %s scope%s, and the API token lacks it. "+
				"Add the scope to the token (or use another token) and plan again; nothing has been changed.",
				b.name, QuoteList(missing), Plural(len(missing))))
	}
}

// ValidateKnown checks config again as Terraform had it checked when it validated the configuration: the
// string attributes' validators, then a's ValidateConfig. Terraform validates an action's configuration
// before variables have values, and validators pass over unknown values, so an input that came from a
// variable ("soon" for a duration) has been checked by nothing: the actions call this from ModifyPlan,
// where variables are known, and from Invoke, where everything is, and refuse rather than fall back to a
// default. It reports whether config passed.
func ValidateKnown(ctx context.Context, a action.ActionWithValidateConfig, config tfsdk.Config, diags *diag.Diagnostics) bool {
	attrs := config.Schema.GetAttributes()
	var found diag.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		attr, ok := attrs[name].(schema.StringAttribute)
		if !ok || len(attr.Validators) == 0 {
			continue
		}
		p := path.Root(name)
		var v types.String
		if d := config.GetAttribute(ctx, p, &v); d.HasError() {
			found.Append(d...)
			continue
		}
		for _, check := range attr.Validators {
			resp := &validator.StringResponse{}
			check.ValidateString(ctx, validator.StringRequest{Path: p, PathExpression: p.Expression(), ConfigValue: v, Config: config}, resp)
			found.Append(resp.Diagnostics...)
		}
	}
	resp := &action.ValidateConfigResponse{}
	a.ValidateConfig(ctx, action.ValidateConfigRequest{Config: config}, resp)
	found.Append(resp.Diagnostics...)
	diags.Append(found...)
	return !found.HasError()
}

// Timeout bounds an invocation: by d when positive, else by the provider block's timeout of op.
func (b *ActionBase) Timeout(ctx context.Context, op Operation, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		d = defaultTimeout
		if b.Data != nil {
			d = b.Data.Timeouts.Of(op)
		}
	}
	return context.WithTimeout(ctx, d)
}

// Progress sends a progress event, which Terraform prints under the action as it runs.
func Progress(resp *action.InvokeResponse, format string, args ...any) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
	}
}

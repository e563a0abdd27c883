package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The rule of the organization's singletons (buildkite_organization's API settings and 2FA, the banner, the
// pipeline settings): a singleton exists before Terraform and after it, and other people change it in the
// web interface. So an optional setting the configuration leaves out is read, never written: it is planned
// as the state holds it (unknown on create, filled from the service), and a create or update sends only the
// configured settings. Destroy puts back only what the configuration managed, and a warning says what it
// leaves. Which settings the configuration managed is recorded in the resource's private state at every
// create and update (managedKey): Delete has no configuration to ask.
//
// A kind follows the rule by declaring Settings (object_settings.go): the kind plans with PlanSettings, sends
// only the configured settings (ConfiguredSingletonSettings), records them once the state is set
// (RecordManaged), and gives Delete the managed ones (ManagedSettings) for the type to put back, warning with
// SettingsLeftWarning of the rest. The settings are the schema's optional top-level
// attributes, so an attribute added later (enforce_2fa through GraphQL, say) follows the rule unnamed.

// managedKey is the private-state key holding the settings the configuration managed at the last create
// or update, a JSON array of attribute names.
const managedKey = "buildkite_managed"

// SettingAttributes returns the names of a schema's optional top-level attributes: the settings a
// singleton manages when the configuration sets them.
func SettingAttributes(s schema.Schema) []string {
	var out []string
	for name, a := range s.Attributes {
		if a.IsOptional() {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// ConfiguredSingletonSettings returns the settings (optional attributes) that config sets, known or not.
func ConfiguredSingletonSettings(ctx context.Context, config tfsdk.Config) (map[string]bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := map[string]bool{}
	s, ok := config.Schema.(schema.Schema)
	if !ok {
		return out, diags
	}
	for _, name := range SettingAttributes(s) {
		var v attr.Value
		diags.Append(config.GetAttribute(ctx, path.Root(name), &v)...)
		if v != nil && !v.IsNull() {
			out[name] = true
		}
	}
	return out, diags
}

// PlanSettings plans every optional and computed setting the configuration leaves out: on create as
// unknown (the service's value is read), on update as the state holds it, except where the last apply
// managed it (the configuration has just let it go): then unknown, so that the update records that it no
// longer manages it and shows what the service holds. Call it in ModifyPlan before the type's own planning,
// which reads resp.Plan.
func PlanSettings(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	s, ok := req.Plan.Schema.(schema.Schema)
	if !ok {
		return
	}
	configured, diags := ConfiguredSingletonSettings(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	creating := req.State.Raw.IsNull()
	var managed map[string]bool
	if !creating && req.Private != nil {
		managed, _ = ManagedSettings(ctx, req.Private)
	}
	for _, name := range SettingAttributes(s) {
		a := s.Attributes[name]
		if configured[name] || !a.IsComputed() {
			continue
		}
		p := path.Root(name)
		var v attr.Value
		switch {
		case creating || managed[name]:
			resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, p, &v)...)
			if v != nil {
				v = UnknownOf(ctx, v)
			}
		default:
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, p, &v)...)
		}
		if v != nil {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, p, v)...)
		}
	}
}

// UnknownOf is the unknown value of v's type.
func UnknownOf(ctx context.Context, v attr.Value) attr.Value {
	t := v.Type(ctx)
	u, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), tftypes.UnknownValue))
	if err != nil {
		return v
	}
	return u
}

// RecordManaged writes, into private state, the settings the configuration of this create or update sets.
func RecordManaged(ctx context.Context, private PrivateWriter, configured map[string]bool) diag.Diagnostics {
	if private == nil {
		return nil
	}
	names := make([]string, 0, len(configured))
	for name, on := range configured {
		if on {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	data, _ := json.Marshal(names)
	return private.SetKey(ctx, managedKey, data)
}

// ManagedSettings returns the settings the last create or update managed; known is false for a state no
// create or update of this provider wrote (an import, another provider's state): then nothing is taken
// as managed, and destroy changes nothing.
func ManagedSettings(ctx context.Context, private PrivateReader) (managed map[string]bool, known bool) {
	managed = map[string]bool{}
	if private == nil {
		return managed, false
	}
	data, diags := private.GetKey(ctx, managedKey)
	if diags.HasError() || len(data) == 0 {
		return managed, false
	}
	var names []string
	if json.Unmarshal(data, &names) != nil {
		return managed, false
	}
	for _, n := range names {
		managed[n] = true
	}
	return managed, true
}

// SettingsLeftWarning says what destroying a singleton did and what it left: undone names the settings
// destroy put back, left the ones it did not touch; known is whether the state recorded what the
// configuration managed.
func SettingsLeftWarning(diags *diag.Diagnostics, typeName, org string, undone, left []string, known bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s no longer manages organization %s. ", typeName, org)
	if len(undone) > 0 {
		fmt.Fprintf(&b, "Destroy put back what the configuration managed: %s. ", strings.Join(backquotedEach(undone), ", "))
	} else {
		b.WriteString("Destroy changed nothing on the service. ")
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "Left as they are: %s", strings.Join(backquotedEach(left), ", "))
		if !known {
			b.WriteString(" (the state does not record which settings the configuration managed: it was imported or " +
				"written by another provider, and no apply of this one has recorded it since)")
		}
		b.WriteString("; change them in the web interface if need be.")
	}
	diags.AddWarning("Organization Settings Left in Place", strings.TrimSpace(b.String()))
}

// backquotedEach wraps each name in backquotes.
func backquotedEach(names []string) []string {
	out := slices.Clone(names)
	for i := range out {
		out[i] = "`" + out[i] + "`"
	}
	return out
}

// PrivateReader and PrivateWriter are the framework's private state, as requests and responses hold it.
type (
	PrivateReader interface {
		GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	}
	PrivateWriter interface {
		SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
	}
)

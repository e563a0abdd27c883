package provider

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Conversions between the client's Go values and Terraform's: where "" or nil means unset, and how times
// are written.

// terraformString reads a Terraform string value as the framework's, for the custom string types (enums,
// references, documents) to wrap.
func terraformString(ctx context.Context, in tftypes.Value) (basetypes.StringValue, error) {
	v, err := basetypes.StringType{}.ValueFromTerraform(ctx, in)
	if err != nil {
		return basetypes.StringValue{}, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return basetypes.StringValue{}, fmt.Errorf("unexpected value type %T", v)
	}
	return s, nil
}

// optionalString maps an API string where "" means unset to a Terraform value that is null when unset,
// so that an attribute left out of the configuration does not show a diff against "".
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// optionalStringPtr is optionalString for fields the service may send as null.
func optionalStringPtr(s *string) types.String {
	if s == nil {
		return types.StringNull()
	}
	return optionalString(*s)
}

// keepEmpty maps a string the service may send as null or "" for "unset": null, unless the prior value
// was "" (the user wrote an empty string), which is kept so that neither form drifts to the other.
func keepEmpty(prior types.String, s *string) types.String {
	if s == nil || *s == "" {
		if isKnownValue(prior) && prior.ValueString() == "" {
			return prior
		}
		return types.StringNull()
	}
	return types.StringValue(*s)
}

// stringPtr returns a pointer to the value, with null sent as "" so that removing an attribute from the
// configuration clears it on the service.
func stringPtr(v types.String) *string {
	s := v.ValueString()
	return &s
}

// stringPtrIfSet returns nil for a null or unknown value, so the field is left out of a create request.
func stringPtrIfSet(v types.String) *string {
	if !isKnownValue(v) {
		return nil
	}
	s := v.ValueString()
	return &s
}

// deref is the value a pointer holds, or the zero value ("", false) for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// displayOr is s, or fallback when the service sent no s: a display name is never empty.
func displayOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// stringList builds a list of strings.
func stringList(items []string) types.List {
	values := make([]attr.Value, len(items))
	for i, s := range items {
		values[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, values)
}

// timeValue renders a service time as RFC 3339, or null when the service sent none.
func timeValue(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// valueOrEnv returns the configured value, else the first non-empty environment variable.
func valueOrEnv(v types.String, envs ...string) string {
	if isKnownValue(v) {
		return v.ValueString()
	}
	for _, e := range envs {
		if s := os.Getenv(e); s != "" {
			return s
		}
	}
	return ""
}

// isKnownValue reports whether v holds a value: set, neither null nor unknown.
func isKnownValue(v attr.Value) bool { return v != nil && !v.IsNull() && !v.IsUnknown() }

// stringSet is a set of strings.
func stringSet(items []string) types.Set {
	values := make([]attr.Value, len(items))
	for i, s := range items {
		values[i] = types.StringValue(s)
	}
	return types.SetValueMust(types.StringType, values)
}

// stringMap is a map of strings.
func stringMap(items map[string]string) types.Map {
	values := make(map[string]attr.Value, len(items))
	for k, v := range items {
		values[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, values)
}

// nullUnknowns settles an object of attrTypes the service does not read back, after an apply: what the plan
// left unknown (a computed attribute inside it, or the object itself) becomes null, since the service never
// says what it is.
// A model built from the service alone (a list resource's) holds the zero value, which becomes null too.
func nullUnknowns(o types.Object, attrTypes map[string]attr.Type) types.Object {
	ctx := context.Background()
	if !isKnownValue(o) {
		return types.ObjectNull(attrTypes)
	}
	settled := make(map[string]attr.Value, len(o.Attributes()))
	for name, v := range o.Attributes() {
		if obj, ok := v.(types.Object); ok {
			v = nullUnknowns(obj, obj.AttributeTypes(ctx))
		} else if v.IsUnknown() {
			typ := v.Type(ctx)
			if null, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), nil)); err == nil {
				v = null
			}
		}
		settled[name] = v
	}
	return types.ObjectValueMust(o.AttributeTypes(ctx), settled)
}

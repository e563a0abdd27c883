package kit

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
func OptionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// OptionalStringPtr is optionalString for fields the service may send as null.
func OptionalStringPtr(s *string) types.String {
	if s == nil {
		return types.StringNull()
	}
	return OptionalString(*s)
}

// KeepEmpty maps a string the service may send as null or "" for "unset": null, unless the prior value
// was "" (the user wrote an empty string), which is kept so that neither form drifts to the other.
func KeepEmpty(prior types.String, s *string) types.String {
	if s == nil || *s == "" {
		if IsKnownValue(prior) && prior.ValueString() == "" {
			return prior
		}
		return types.StringNull()
	}
	return types.StringValue(*s)
}

// StringPtr returns a pointer to the value, with null sent as "" so that removing an attribute from the
// configuration clears it on the service.
func StringPtr(v types.String) *string {
	s := v.ValueString()
	return &s
}

// StringPtrIfSet returns nil for a null or unknown value, so the field is left out of a create request.
func StringPtrIfSet(v types.String) *string {
	if !IsKnownValue(v) {
		return nil
	}
	s := v.ValueString()
	return &s
}

// Deref is the value a pointer holds, or the zero value ("", false) for nil.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// DisplayOr is s, or fallback when the service sent no s: a display name is never empty.
func DisplayOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// StringList builds a list of strings.
func StringList(items []string) types.List {
	values := make([]attr.Value, len(items))
	for i, s := range items {
		values[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, values)
}

// TimeValue renders a service time as RFC 3339, or null when the service sent none.
func TimeValue(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// ValueOrEnv returns the configured value, else the first non-empty environment variable.
func ValueOrEnv(v types.String, envs ...string) string {
	if IsKnownValue(v) {
		return v.ValueString()
	}
	for _, e := range envs {
		if s := os.Getenv(e); s != "" {
			return s
		}
	}
	return ""
}

// IsKnownValue reports whether v holds a value: set, neither null nor unknown.
func IsKnownValue(v attr.Value) bool { return v != nil && !v.IsNull() && !v.IsUnknown() }

// StringSet is a set of strings.
func StringSet(items []string) types.Set {
	values := make([]attr.Value, len(items))
	for i, s := range items {
		values[i] = types.StringValue(s)
	}
	return types.SetValueMust(types.StringType, values)
}

// StringMap is a map of strings.
func StringMap(items map[string]string) types.Map {
	values := make(map[string]attr.Value, len(items))
	for k, v := range items {
		values[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, values)
}

// NullUnknowns settles an object of attrTypes the service does not read back, after an apply: what the plan
// left unknown (a computed attribute inside it, or the object itself) becomes null, since the service never
// says what it is.
// A model built from the service alone (a list resource's) holds the zero value, which becomes null too.
func NullUnknowns(o types.Object, attrTypes map[string]attr.Type) types.Object {
	ctx := context.Background()
	if !IsKnownValue(o) {
		return types.ObjectNull(attrTypes)
	}
	settled := make(map[string]attr.Value, len(o.Attributes()))
	for name, v := range o.Attributes() {
		if obj, ok := v.(types.Object); ok {
			v = NullUnknowns(obj, obj.AttributeTypes(ctx))
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

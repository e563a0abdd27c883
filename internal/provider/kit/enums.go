package kit

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Case-insensitive enums: the official provider spells its enums in upper case (VISIBLE, READ_ONLY), the
// REST API in lower case (visible, read_only). A configuration in either spelling must work and never show
// a diff against what the service answers. Three pieces do that, and CaseInsensitiveEnum puts them on an
// attribute:
//   - EnumType/EnumValue: a string whose semantic equality ignores case, so the value kept after create,
//     update and read is the configuration's spelling, not the service's;
//   - EnumOneOf: the plan-time check, naming the attribute and both spellings;
//   - enumKeepStateSpelling: after an import the state holds the service's spelling, which Terraform's
//     plan would compare byte for byte with the configuration (semantic equality is not applied to plans),
//     so the plan keeps the state's spelling when the two differ only in case.

var (
	_ basetypes.StringTypable                    = EnumType{}
	_ basetypes.StringValuableWithSemanticEquals = EnumValue{}
)

// EnumType is the type of a case-insensitive enum attribute.
type EnumType struct {
	basetypes.StringType
}

// String names the type in diagnostics.
func (t EnumType) String() string { return "provider.enumType" }

// Equal reports whether o is also an EnumType.
func (t EnumType) Equal(o attr.Type) bool {
	_, ok := o.(EnumType)
	return ok
}

// ValueType returns the value type of this type.
func (t EnumType) ValueType(context.Context) attr.Value { return EnumValue{} }

// ValueFromString wraps a framework string as an EnumValue.
func (t EnumType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return EnumValue{StringValue: in}, nil
}

// ValueFromTerraform converts a Terraform value into an EnumValue.
func (t EnumType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	s, err := terraformString(ctx, in)
	return EnumValue{StringValue: s}, err
}

// EnumValue is a value of a case-insensitive enum attribute.
type EnumValue struct {
	basetypes.StringValue
}

// NewEnumValue is a value the service answered, in the official provider's upper-case form (what its
// users' modules, outputs and policies compare against); "" is null, the service's way of saying "not set".
// A configured spelling survives reads through semantic equality, so only what the service or an import
// fills in takes this form.
func NewEnumValue(s string) EnumValue {
	if s == "" {
		return EnumValue{StringValue: basetypes.NewStringNull()}
	}
	return EnumValue{StringValue: basetypes.NewStringValue(strings.ToUpper(s))}
}

// OfficialEnum is an enum a data source shows, in the official provider's upper-case form (data sources have
// no configuration spelling to keep); "" is null.
func OfficialEnum(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(strings.ToUpper(s))
}

// Type returns EnumType.
func (v EnumValue) Type(context.Context) attr.Type { return EnumType{} }

// Equal is exact equality, which Terraform needs for plans; StringSemanticEquals is the loose one.
func (v EnumValue) Equal(o attr.Value) bool {
	other, ok := o.(EnumValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals treats spellings that differ only in case as the same value.
func (v EnumValue) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	nv, ok := newValuable.(EnumValue)
	if !ok {
		diags.AddError("Semantic Equality Check Error",
			fmt.Sprintf("Expected an enum value, got %T. Please report this issue to the provider developers.", newValuable))
		return false, diags
	}
	return strings.EqualFold(v.ValueString(), nv.ValueString()), diags
}

// API is the value in the REST API's lower-case spelling.
func (v EnumValue) API() string { return strings.ToLower(v.ValueString()) }

// EnumOneOf checks at plan time that a value is one of the allowed ones, in either case.
type EnumOneOf struct{ Values []string }

var _ validator.String = EnumOneOf{}

func (e EnumOneOf) Description(context.Context) string {
	return "value must be one of " + enumSpellings(e.Values)
}

func (e EnumOneOf) MarkdownDescription(ctx context.Context) string { return e.Description(ctx) }

func (e EnumOneOf) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !IsKnownValue(req.ConfigValue) {
		return
	}
	got := req.ConfigValue.ValueString()
	for _, v := range e.Values {
		if strings.EqualFold(got, v) {
			return
		}
	}
	// The official provider's summary and sentence (its users' tests match on them), then the spellings
	// accepted here.
	official := make([]string, len(e.Values))
	for i, v := range e.Values {
		official[i] = fmt.Sprintf("%q", strings.ToUpper(v))
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value Match",
		fmt.Sprintf("Attribute %s value must be one of: [%s], got: %q. Either spelling is accepted: %s.",
			req.Path, strings.Join(official, " "), got, enumSpellings(e.Values)))
}

// enumSpellings lists the values in both spellings: `"visible"`/`"VISIBLE"`, ...
func enumSpellings(values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprintf("%q/%q", strings.ToLower(v), strings.ToUpper(v))
	}
	return strings.Join(parts, ", ")
}

// enumKeepStateSpelling plans the state's value when the configuration differs from it only in case.
// Terraform accepts a planned value equal to the prior state in place of the configuration's as the
// provider saying the two are the same.
type enumKeepStateSpelling struct{}

var _ planmodifier.String = enumKeepStateSpelling{}

func (enumKeepStateSpelling) Description(context.Context) string {
	return "a value that differs from the state only in case is not a change"
}

func (m enumKeepStateSpelling) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (enumKeepStateSpelling) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || !IsKnownValue(req.ConfigValue) || req.PlanValue.IsUnknown() {
		return
	}
	if req.ConfigValue.ValueString() != req.StateValue.ValueString() &&
		strings.EqualFold(req.ConfigValue.ValueString(), req.StateValue.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}

// CaseInsensitiveEnum makes a resource's string attribute an enum of values that accepts both spellings
// and never diffs between them: it sets the type, adds the check and the plan modifier, and appends the
// accepted values to the description. values are given in the REST API's lower case.
func CaseInsensitiveEnum(a schema.StringAttribute, values ...string) schema.StringAttribute {
	a.CustomType = EnumType{}
	a.Validators = append([]validator.String{EnumOneOf{Values: values}}, a.Validators...)
	a.PlanModifiers = append([]planmodifier.String{enumKeepStateSpelling{}}, a.PlanModifiers...)
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	a.MarkdownDescription = strings.TrimSpace(a.MarkdownDescription) + " One of " + strings.Join(quoted, ", ") +
		"; the official provider's upper-case spelling (`" + strings.ToUpper(values[0]) + "`, ...) is accepted too and never shows as a change."
	return a
}

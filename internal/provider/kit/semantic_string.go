package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"gopkg.in/yaml.v3"
)

// Strings that hold a document (a pipeline's YAML steps, a rule's JSON value) are compared by meaning, not
// by text: the service re-renders what it stores (line endings, a byte-order mark, trailing newlines,
// spacing), and the official provider's "inconsistent result after apply" (#853) came from comparing
// text. One string type serves both formats; a format says how to decode a document.

// textFormat is a document format: its name for messages and how to decode a document of it.
type textFormat struct {
	name   string
	decode func(s string) (any, error)
}

var (
	YamlFormat = &textFormat{name: "YAML", decode: decodeYAML}
	JsonFormat = &textFormat{name: "JSON", decode: DecodeJSON}
)

// NormalizeText removes what never carries meaning in a document: a byte-order mark and CR line endings.
func NormalizeText(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func decodeYAML(s string) (any, error) {
	var doc any
	if err := yaml.Unmarshal([]byte(NormalizeText(s)), &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

func DecodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(NormalizeText(s)))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return doc, nil
}

// Equal reports whether two documents mean the same. Texts that differ only in what NormalizeText removes
// are equal without decoding: that is all the emulator changes (its normalizeConfiguration), and a
// document is then equal to its stored form even where decoding cannot tell (a NaN is not equal to itself).
// Text that does not decode is compared after NormalizeText, so a broken document still never differs
// from itself re-rendered with other line endings.
func (f *textFormat) Equal(a, b string) bool {
	na, nb := NormalizeText(a), NormalizeText(b)
	if na == nb {
		return true
	}
	da, errA := f.decode(a)
	db, errB := f.decode(b)
	if errA != nil || errB != nil {
		return strings.TrimRight(na, "\n") == strings.TrimRight(nb, "\n")
	}
	return SameDocument(da, db)
}

// SameDocument compares two decoded documents as reflect.DeepEqual does, except that a NaN equals a NaN
// and timestamps compare as instants, so a document re-rendered by the service equals the one sent.
func SameDocument(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || (math.IsNaN(x) && math.IsNaN(y)))
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && allSame(len(x), func(i int) bool { return SameDocument(x[i], y[i]) })
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && sameMap(x, y)
	case map[any]any:
		y, ok := b.(map[any]any)
		return ok && sameMap(x, y)
	}
	return reflect.DeepEqual(a, b)
}

// sameMap compares two decoded mappings key by key.
func sameMap[K comparable](x, y map[K]any) bool {
	if len(x) != len(y) {
		return false
	}
	for k, vx := range x {
		vy, ok := y[k]
		if !ok || !SameDocument(vx, vy) {
			return false
		}
	}
	return true
}

// allSame reports whether same holds for every index below n.
func allSame(n int, same func(i int) bool) bool {
	for i := range n {
		if !same(i) {
			return false
		}
	}
	return true
}

// ---- the type ----

var _ basetypes.StringTypable = semanticStringType{}

// semanticStringType is a string attribute type holding a document of format.
type semanticStringType struct {
	basetypes.StringType
	format *textFormat
}

var (
	YamlStringType = semanticStringType{format: YamlFormat}
	JsonStringType = semanticStringType{format: JsonFormat}
)

func (t semanticStringType) String() string { return t.format.name + "StringType" }

func (t semanticStringType) Equal(o attr.Type) bool {
	other, ok := o.(semanticStringType)
	return ok && other.format == t.format
}

func (t semanticStringType) ValueType(context.Context) attr.Value {
	return SemanticString{format: t.format}
}

func (t semanticStringType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return SemanticString{StringValue: in, format: t.format}, nil
}

func (t semanticStringType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	s, err := terraformString(ctx, in)
	if err != nil {
		return nil, err
	}
	out, diags := t.ValueFromString(ctx, s)
	if diags.HasError() {
		return nil, fmt.Errorf("converting StringValue to %s: %v", t, diags)
	}
	return out, nil
}

// ---- the value ----

var (
	_ basetypes.StringValuableWithSemanticEquals = SemanticString{}
	_ xattr.ValidateableAttribute                = SemanticString{}
)

// SemanticString is a value of semanticStringType.
type SemanticString struct {
	basetypes.StringValue
	format *textFormat
}

// YamlString and JsonString make known values; a null or unknown value comes from the type.
func YamlString(s string) SemanticString {
	return SemanticString{StringValue: basetypes.NewStringValue(s), format: YamlFormat}
}

func JsonString(s string) SemanticString {
	return SemanticString{StringValue: basetypes.NewStringValue(s), format: JsonFormat}
}

func (v SemanticString) Type(context.Context) attr.Type { return semanticStringType{format: v.format} }

func (v SemanticString) Equal(o attr.Value) bool {
	other, ok := o.(SemanticString)
	return ok && other.format == v.format && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals lets the framework keep the configuration's text when the service answers the
// same document in another rendering, after apply and on refresh.
func (v SemanticString) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	other, ok := newValuable.(SemanticString)
	if !ok {
		diags.AddError("Semantic Equality Check Error",
			fmt.Sprintf("Expected a %s string, got %T. Please report this issue to the provider developers.", v.format.name, newValuable))
		return false, diags
	}
	return v.format.Equal(v.ValueString(), other.ValueString()), diags
}

// ValidateAttribute rejects, at plan time, text that is not a document of the format.
func (v SemanticString) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if !IsKnownValue(v) {
		return
	}
	if _, err := v.format.decode(v.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+v.format.name,
			fmt.Sprintf("%s must be valid %s: %s", req.Path, v.format.name, err))
	}
}

// ---- plan modifier ----

// KeepSemanticallyEqualState plans the state's text when the configuration holds the same document in
// another rendering, so an imported object (whose state holds the service's rendering) plans empty
// against a configuration written with CRLF or a byte-order mark.
func KeepSemanticallyEqualState(f *textFormat) planmodifier.String { return keepEqualState{format: f} }

type keepEqualState struct{ format *textFormat }

func (keepEqualState) Description(context.Context) string {
	return "Keeps the state's value when the configuration holds the same document written differently."
}

func (m keepEqualState) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m keepEqualState) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !IsKnownValue(req.PlanValue) || !IsKnownValue(req.StateValue) {
		return
	}
	if m.format.Equal(req.PlanValue.ValueString(), req.StateValue.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}

// CompactJSON renders a JSON document without insignificant space, for sending it on.
func CompactJSON(s string) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(NormalizeText(s))); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// JsonNull and YamlNull are null documents.
func JsonNull() SemanticString {
	return SemanticString{StringValue: basetypes.NewStringNull(), format: JsonFormat}
}

func YamlNull() SemanticString {
	return SemanticString{StringValue: basetypes.NewStringNull(), format: YamlFormat}
}

package kit

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestEnumValue_SemanticEquals(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"visible", "VISIBLE", true},
		{"READ_ONLY", "read_only", true},
		{"visible", "visible", true},
		{"visible", "secret", false},
	} {
		got, diags := NewEnumValue(tc.a).StringSemanticEquals(ctx, NewEnumValue(tc.b))
		if diags.HasError() || got != tc.want {
			t.Errorf("%q ~ %q = %v %v, want %v", tc.a, tc.b, got, diags, tc.want)
		}
	}
	if _, diags := NewEnumValue("a").StringSemanticEquals(ctx, types.StringValue("a")); !diags.HasError() {
		t.Error("comparing with a plain string did not fail")
	}
	configured := EnumValue{StringValue: types.StringValue("visible")}
	if NewEnumValue("VISIBLE").Equal(configured) {
		t.Error("Equal must stay exact")
	}
	if !NewEnumValue("").IsNull() || NewEnumValue("MEMBER").API() != "member" {
		t.Error("newEnumValue / API")
	}
	// What the service answers is stored in the official provider's form, whatever the service's spelling.
	if got := NewEnumValue("read_only").ValueString(); got != "READ_ONLY" {
		t.Errorf("newEnumValue(read_only) = %q, want READ_ONLY", got)
	}
}

func TestEnumType_RoundTrip(t *testing.T) {
	ctx := context.Background()
	v, err := EnumType{}.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, "SECRET"))
	if err != nil {
		t.Fatal(err)
	}
	ev, ok := v.(EnumValue)
	if !ok || ev.ValueString() != "SECRET" || !ev.Type(ctx).Equal(EnumType{}) {
		t.Errorf("ValueFromTerraform = %#v", v)
	}
	if (EnumType{}).Equal(types.StringType) {
		t.Error("enumType equals the plain string type")
	}
}

func TestEnumOneOf(t *testing.T) {
	ctx := context.Background()
	v := EnumOneOf{Values: []string{"visible", "secret"}}
	for value, ok := range map[string]bool{"visible": true, "SECRET": true, "Visible": true, "hidden": false, "": false} {
		resp := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root("privacy"), ConfigValue: types.StringValue(value)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("%q: diagnostics %v", value, resp.Diagnostics)
		}
		if !ok && !strings.Contains(resp.Diagnostics[0].Detail(), `"secret"/"SECRET"`) {
			t.Errorf("%q: detail %q does not list both spellings", value, resp.Diagnostics[0].Detail())
		}
	}
	resp := &validator.StringResponse{}
	v.ValidateString(ctx, validator.StringRequest{Path: path.Root("privacy"), ConfigValue: types.StringUnknown()}, resp)
	if resp.Diagnostics.HasError() {
		t.Error("unknown value refused")
	}
}

func TestEnumKeepStateSpelling(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		state, config types.String
		want          string
	}{
		{types.StringValue("visible"), types.StringValue("VISIBLE"), "visible"}, // after an import
		{types.StringValue("visible"), types.StringValue("secret"), "secret"},   // a real change
		{types.StringNull(), types.StringValue("VISIBLE"), "VISIBLE"},           // a create
	} {
		resp := &planmodifier.StringResponse{PlanValue: tc.config}
		enumKeepStateSpelling{}.PlanModifyString(ctx, planmodifier.StringRequest{
			StateValue: tc.state, ConfigValue: tc.config, PlanValue: tc.config,
		}, resp)
		if resp.PlanValue.ValueString() != tc.want {
			t.Errorf("state %s, config %s: planned %s, want %s", tc.state, tc.config, resp.PlanValue, tc.want)
		}
	}
}

func TestCaseInsensitiveEnum(t *testing.T) {
	a := CaseInsensitiveEnum(schema.StringAttribute{Required: true, MarkdownDescription: "Who sees the team."}, "visible", "secret")
	if _, ok := a.CustomType.(EnumType); !ok || len(a.Validators) != 1 || len(a.PlanModifiers) != 1 {
		t.Errorf("attribute = %+v", a)
	}
	if !strings.Contains(a.MarkdownDescription, "`visible`, `secret`") || !strings.Contains(a.MarkdownDescription, "`VISIBLE`") {
		t.Errorf("description = %q", a.MarkdownDescription)
	}
}

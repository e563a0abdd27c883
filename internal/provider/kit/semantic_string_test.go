package kit

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestSemanticString_YAML(t *testing.T) {
	const base = "steps:\n  - label: build\n    command: make\n"
	same := []string{
		"\ufeff" + base,
		"steps:\r\n  - label: build\r\n    command: make\r\n",
		"steps:\n  - label: build\n    command: make",
		"steps:\n  - label: build\n    command: make\n\n\n",
		"steps:\n- command: 'make'\n  label: \"build\"\n",
		"steps: [{label: build, command: make}]",
	}
	for _, s := range same {
		if eq, diags := YamlString(base).StringSemanticEquals(context.Background(), YamlString(s)); !eq || diags.HasError() {
			t.Errorf("%q should equal %q (%v)", s, base, diags)
		}
	}
	different := []string{
		"steps:\n  - label: build\n    command: make test\n",
		"steps:\n  - label: build\n    command: make\n  - wait\n",
		"steps: []\n",
	}
	for _, s := range different {
		if eq, _ := YamlString(base).StringSemanticEquals(context.Background(), YamlString(s)); eq {
			t.Errorf("%q should differ from %q", s, base)
		}
	}
}

// TestSemanticString_YAMLBlanks: blanks that are a block scalar's content are meaning, so a change to them
// is a difference; the document equals its stored form whatever it decodes to (a NaN included).
func TestSemanticString_YAMLBlanks(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		equal bool
	}{
		{"steps:\n- command: |\n    make  \n", "steps:\n- command: |\n    make\n", false},
		{"steps:\n- command: |+\n    make\n\n", "steps:\n- command: |+\n    make\n", false},
		{"steps:\n- command: |\n    make\n\n", "steps:\n- command: |\n    make\n", true},
		{"steps:\r\n- command: |\r\n    make  \r\n", "steps:\n- command: |\n    make  \n", true},
		{"\ufeffsteps: [.nan]\r\n", "steps: [.nan]\n", true},
		{"steps: [.nan]\n", "steps: [ .NaN ]\n", true},
		{"steps: [.nan]\n", "steps: [1]\n", false},
		{"steps: [2001-12-14t21:59:43.10-05:00]\n", "steps: [2001-12-15 2:59:43.10]\n", true},
	} {
		if got := YamlFormat.Equal(tc.a, tc.b); got != tc.equal {
			t.Errorf("equal(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.equal)
		}
		if got := YamlFormat.Equal(tc.b, tc.a); got != tc.equal {
			t.Errorf("equal(%q, %q) = %v, want %v (not symmetric)", tc.b, tc.a, got, tc.equal)
		}
	}
}

func TestSemanticString_JSON(t *testing.T) {
	a := `{"source_pipeline":"a","target_pipeline":"b"}`
	if !JsonFormat.Equal(a, "{\r\n  \"target_pipeline\": \"b\",\n  \"source_pipeline\": \"a\"\n}\n") {
		t.Error("reordered and re-spaced JSON should be equal")
	}
	if JsonFormat.Equal(a, `{"source_pipeline":"a","target_pipeline":"c"}`) {
		t.Error("a changed value should differ")
	}
	if JsonFormat.Equal(`{"n": 1}`, `{"n": 2}`) {
		t.Error("a changed number should differ")
	}
}

func TestSemanticString_Validate(t *testing.T) {
	for _, tc := range []struct {
		v    SemanticString
		fail bool
	}{
		{YamlString("steps:\n  - command: x\n"), false},
		{YamlString("steps: [\n"), true},
		{JsonString(`{"a": 1}`), false},
		{JsonString(`{"a": 1} {}`), true},
		{JsonString(`{"a":`), true},
	} {
		resp := &xattr.ValidateAttributeResponse{}
		tc.v.ValidateAttribute(context.Background(), xattr.ValidateAttributeRequest{Path: path.Root("steps")}, resp)
		if resp.Diagnostics.HasError() != tc.fail {
			t.Errorf("%q: diagnostics %v", tc.v.ValueString(), resp.Diagnostics)
		}
	}
}

func TestKeepSemanticallyEqualState(t *testing.T) {
	m := KeepSemanticallyEqualState(YamlFormat)
	state := types.StringValue("steps:\n- command: x\n")
	for cfg, want := range map[string]string{
		"steps:\r\n- command: x\r\n": state.ValueString(),
		"steps:\n- command: y\n":     "steps:\n- command: y\n",
	} {
		req := planmodifier.StringRequest{PlanValue: types.StringValue(cfg), StateValue: state}
		resp := &planmodifier.StringResponse{PlanValue: req.PlanValue}
		m.PlanModifyString(context.Background(), req, resp)
		if resp.PlanValue.ValueString() != want {
			t.Errorf("plan for %q = %q, want %q", cfg, resp.PlanValue.ValueString(), want)
		}
	}
}

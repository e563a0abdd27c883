package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// GraphQL-only attributes: where the official provider sets an attribute through Buildkite's GraphQL API
// that this provider does not apply, its configurations must still load and plan without a diff; a resource
// listing it in resourceBase.graphQLOnly gets one warning per plan naming those the configuration sets. None
// is listed now: a hosted queue's macOS settings, a rule's description and an organization's enforce_2fa
// are applied through GraphQL (graphql_scope.go declares what needs it, withGraphQLAttrs).

// warnGraphQLOnly adds one warning naming the GraphQL-only attributes the configuration sets, at every plan
// that keeps the resource.
func (b *resourceBase) warnGraphQLOnly(req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if len(b.graphQLOnly) == 0 || req.Plan.Raw.IsNull() || req.Config.Raw.IsNull() {
		return
	}
	var set []string
	for _, a := range b.graphQLOnly {
		p := tftypes.NewAttributePath()
		for _, name := range strings.Split(a, ".") {
			p = p.WithAttributeName(name)
		}
		v, _, err := tftypes.WalkAttributePath(req.Config.Raw, p)
		if val, ok := v.(tftypes.Value); err == nil && ok && !val.IsNull() {
			set = append(set, "`"+a+"`")
		}
	}
	if len(set) == 0 {
		return
	}
	value, verb, them := "value", "is", "it"
	if len(set) > 1 {
		value, verb, them = "values", "are", "them"
	}
	resp.Diagnostics.AddWarning("Attributes Not Managed by This Provider",
		fmt.Sprintf("buildkite_%s: the %s of %s %s NOT applied to Buildkite. Only Buildkite's GraphQL API sets %s, "+
			"which this provider does not use for it yet: Terraform keeps the configured value in its state, but the service "+
			"keeps whatever it had (nothing, for a new object). Set %s in the web interface; removing %s from the "+
			"configuration changes nothing on the service.", b.name, value, joinAnd(set), verb, them, them, them))
}

// joinAnd joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// nullUnknowns settles a GraphQL-only object of attrTypes after an apply: what the plan left unknown (a
// computed attribute inside it, or the object itself) becomes null, since the service never says what it is.
// A model built from the service alone (a list resource's) holds the zero value, which becomes null too.
func nullUnknowns(o types.Object, attrTypes map[string]attr.Type) types.Object {
	ctx := context.Background()
	if o.IsUnknown() || o.IsNull() {
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

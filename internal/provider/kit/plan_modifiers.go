package kit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Plans that more than one resource makes the same way.

// unknownWhenRenamed marks derived attributes unknown in a plan that changes "name": the service derives
// them (slug, URLs) from it.
func unknownWhenRenamed(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, attrs ...string) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &prior)...)
	if resp.Diagnostics.HasError() || planned.Equal(prior) {
		return
	}
	for _, a := range attrs {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(a), types.StringUnknown())...)
	}
}

// KeepWhileUnchanged plans the state's value of a computed attribute derived from another (a default
// queue's key from its queue_id) while that other is planned as it stands in state (or names the same
// object in the other form), and leaves it unknown otherwise, since the service derives a new one. A null
// kept this way (a state from before the attribute existed) is filled by the next refresh; an apply keeps
// what it planned.
type KeepWhileUnchanged struct{ Other string }

var _ planmodifier.String = KeepWhileUnchanged{}

func (m KeepWhileUnchanged) Description(context.Context) string {
	return "kept while " + m.Other + " does not change"
}

func (m KeepWhileUnchanged) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m KeepWhileUnchanged) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || !req.PlanValue.IsUnknown() {
		return
	}
	planned, err := req.Plan.Raw.ApplyTerraform5AttributePathStep(tftypes.AttributeName(m.Other))
	if err != nil {
		return
	}
	prior, err := req.State.Raw.ApplyTerraform5AttributePathStep(tftypes.AttributeName(m.Other))
	if err != nil {
		return
	}
	p, pok := planned.(tftypes.Value)
	s, sok := prior.(tftypes.Value)
	if pok && sok && (p.Equal(s) || sameReference(p, s)) {
		resp.PlanValue = req.StateValue
	}
}

// sameReference reports whether two string values name the same object in two forms. The other attribute's
// own plan modifier may keep its state's form, but each attribute's modifiers see the plan as proposed.
func sameReference(a, b tftypes.Value) bool {
	var x, y string
	if a.As(&x) != nil || b.As(&y) != nil || !a.IsKnown() || !b.IsKnown() {
		return false
	}
	return x != "" && SameObject(x, y)
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// replaceWhenChangedFromKnown replaces the resource when a create-only attribute changes from one value to
// another, but not when it is first set on an imported object (whose value the service never reported) or
// removed from the configuration: neither changes anything on the service.
func replaceWhenChangedFromKnown() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(
		func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			resp.RequiresReplace = !req.StateValue.IsNull() && !req.PlanValue.IsNull() && !req.PlanValue.Equal(req.StateValue)
		},
		"Changing the value from one value to another replaces the resource.",
		"Changing the value from one value to another replaces the resource.",
	)
}

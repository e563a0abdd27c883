package clusters

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// A hosted (Buildkite-run) queue's hosted_agents, over REST
// (https://buildkite.com/docs/apis/rest-api/clusters/queues): the create sends the instance shape, a Linux
// agent image follows as an update repeating the shape, a size change is an update in place, and reads fill
// the block from the answer's hosted_agents. The macOS settings (mac) only GraphQL sets and reads
// (cluster_queue_resource_mac.go).

// hostedAgentsTypes are the attributes of hosted_agents.
var hostedAgentsTypes = hostedAgentsAttribute().GetType().(types.ObjectType).AttrTypes

// hostedLinuxTypes are the attributes of hosted_agents.linux.
var hostedLinuxTypes = hostedAgentsTypes["linux"].(types.ObjectType).AttrTypes

// hostedAgentsAttribute is the official provider's hosted_agents.
func hostedAgentsAttribute() schema.SingleNestedAttribute {
	required := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Required: true}
	}
	return schema.SingleNestedAttribute{
		MarkdownDescription: "The hosted agents of a Buildkite-hosted queue: `instance_shape`, and `mac` or `linux` settings. " +
			"Adding or removing the block replaces the queue (a self-hosted queue cannot become hosted, nor the " +
			"reverse). A change of size is made in place; a change of machine type (Linux, macOS) or architecture " +
			"(AMD64, ARM64) is refused at plan time, as the service refuses it.",
		Optional:      true,
		Validators:    []validator.Object{hostedAgentsPlatform{}},
		PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplaceIf(hostedAgentsAddedOrRemoved, "Adding or removing hosted_agents replaces the queue.", "Adding or removing `hosted_agents` replaces the queue.")},
		Attributes: map[string]schema.Attribute{
			"instance_shape": schema.StringAttribute{
				MarkdownDescription: "The shape of the hosted agents' instances: " + kit.QuoteList(HostedInstanceShapes) + ".",
				Required:            true,
				Validators:          []validator.String{stringvalidator.OneOf(HostedInstanceShapes...)},
			},
			"linux": schema.SingleNestedAttribute{
				MarkdownDescription: "Settings of Linux hosted agents. The image is set after the queue is created " +
					"(the service takes it only on an update); removing the block goes back to the default image.",
				Optional:   true,
				Attributes: map[string]schema.Attribute{"agent_image_ref": required("The agent image to run.")},
			},
			"mac": schema.SingleNestedAttribute{
				MarkdownDescription: "Settings of macOS hosted agents, set and read through Buildkite's GraphQL API " +
					"(`clusterQueueUpdate`; the REST API carries none), so they need the API token's `graphql` scope. Removing " +
					"the block clears the Xcode version.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"xcode_version": required("The Xcode version."),
					"macos_version": schema.StringAttribute{
						MarkdownDescription: "The macOS version (`SONOMA`, `SEQUOIA`, `TAHOE`, …); the service's when not set.",
						Optional:            true, Computed: true,
						PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
					},
				},
			},
		},
	}
}

// hostedAgentsAddedOrRemoved replaces a queue whose hosted_agents is added (state null) or removed
// (configuration null), as the official provider does; REST offers no conversion either way.
func hostedAgentsAddedOrRemoved(_ context.Context, req planmodifier.ObjectRequest, resp *objectplanmodifier.RequiresReplaceIfFuncResponse) {
	if req.State.Raw.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	resp.RequiresReplace = req.StateValue.IsNull() != req.ConfigValue.IsNull()
}

// hostedInstanceShapes are the instance shapes of hosted agents, as the official provider accepts them.
var HostedInstanceShapes = []string{
	"MACOS_ARM64_M4_6X28", "MACOS_ARM64_M4_12X56",
	"LINUX_AMD64_2X4", "LINUX_AMD64_4X16", "LINUX_AMD64_8X32", "LINUX_AMD64_16X64", "LINUX_AMD64_32X128", "LINUX_AMD64_64X256",
	"LINUX_ARM64_2X4", "LINUX_ARM64_4X16", "LINUX_ARM64_8X32", "LINUX_ARM64_16X64", "LINUX_ARM64_32X128", "LINUX_ARM64_64X256",
}

// shapePlatform is the machine type and architecture of a shape: all but the size, which is what may
// change in place. "MACOS_ARM64_M4_6X28" gives "MACOS_ARM64".
func shapePlatform(shape string) string {
	parts := strings.SplitN(shape, "_", 3)
	if len(parts) < 2 {
		return shape
	}
	return parts[0] + "_" + parts[1]
}

// hostedAgentsPlatform checks at plan time that hosted_agents names one platform, and a shape of that
// platform, with the official provider's summaries (which users' tests match on).
type hostedAgentsPlatform struct{}

var _ validator.Object = hostedAgentsPlatform{}

func (hostedAgentsPlatform) Description(context.Context) string {
	return "mac or linux settings (not both), with an instance shape of that platform"
}

func (v hostedAgentsPlatform) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (hostedAgentsPlatform) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if !kit.IsKnownValue(req.ConfigValue) {
		return
	}
	attrs := req.ConfigValue.Attributes()
	set := func(name string) bool { v, ok := attrs[name]; return ok && !v.IsNull() }
	mac, linux := set("mac"), set("linux")
	shape, _ := attrs["instance_shape"].(types.String)
	if mac && linux {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid platform configuration",
			"hosted_agents takes either mac or linux settings, not both.")
		return
	}
	if !kit.IsKnownValue(shape) {
		return
	}
	isMac := strings.HasPrefix(shape.ValueString(), "MACOS_")
	switch {
	case mac && !isMac:
		resp.Diagnostics.AddAttributeError(req.Path.AtName("instance_shape"), "Invalid instance shape for Mac platform",
			fmt.Sprintf("Mac hosted agents need a MACOS_ instance shape, got %q.", shape.ValueString()))
	case linux && isMac:
		resp.Diagnostics.AddAttributeError(req.Path.AtName("instance_shape"), "Invalid instance shape for Linux platform",
			fmt.Sprintf("Linux hosted agents need a LINUX_ instance shape, got %q.", shape.ValueString()))
	}
}

// hostedSettings is what the provider sends of hosted_agents: the shape and the Linux image ("" for none).
type hostedSettings struct {
	shape, image string
}

// hostedFrom reads the shape and image of a hosted_agents value; ok is false when it is null or unknown, or
// its shape is unknown.
func hostedFrom(o types.Object) (h hostedSettings, ok bool) {
	if !kit.IsKnownValue(o) {
		return h, false
	}
	attrs := o.Attributes()
	shape, _ := attrs["instance_shape"].(types.String)
	if !kit.IsKnownValue(shape) {
		return h, false
	}
	h.shape = shape.ValueString()
	if linux, _ := attrs["linux"].(types.Object); kit.IsKnownValue(linux) {
		if img, _ := linux.Attributes()["agent_image_ref"].(types.String); !img.IsUnknown() {
			h.image = img.ValueString()
		}
	}
	return h, true
}

// hostedAgentsFromAPI builds hosted_agents from the service's answer; known is the value planned or held
// before, whose mac block (which REST does not show) is kept while the queue is a macOS one.
func hostedAgentsFromAPI(q *buildkite.Queue, known types.Object) types.Object {
	if q.HostedAgents == nil {
		return types.ObjectNull(hostedAgentsTypes)
	}
	shape := q.HostedAgents.InstanceShape.Name
	linux := types.ObjectNull(hostedLinuxTypes)
	if img := q.HostedAgents.AgentImageRef(); img != "" {
		linux = types.ObjectValueMust(hostedLinuxTypes, map[string]attr.Value{"agent_image_ref": types.StringValue(img)})
	}
	mac := types.ObjectNull(hostedAgentsTypes["mac"].(types.ObjectType).AttrTypes)
	if kit.IsKnownValue(known) && strings.HasPrefix(shape, "MACOS_") {
		if m, ok := kit.NullUnknowns(known, hostedAgentsTypes).Attributes()["mac"].(types.Object); ok {
			mac = m
		}
	}
	return types.ObjectValueMust(hostedAgentsTypes, map[string]attr.Value{
		"instance_shape": types.StringValue(shape), "linux": linux, "mac": mac,
	})
}

// hostedUpdate is the hostedAgents of an update from state to plan, or nil when neither shape nor image
// changes. The service needs the shape in every update, so it is sent even when only the image changes;
// an image removed from the configuration is sent as null (back to the default image).
func hostedUpdate(plan, state types.Object) *buildkite.HostedAgentsWrite {
	p, planned := hostedFrom(plan)
	s, held := hostedFrom(state)
	if !planned || !held || p == s {
		return nil
	}
	w := &buildkite.HostedAgentsWrite{InstanceShape: p.shape}
	switch {
	case p.image != "":
		w.AgentImageRef = buildkite.Value(p.image)
	case s.image != "":
		w.AgentImageRef = buildkite.Cleared[string]()
	}
	return w
}

// refusePlatformChange refuses at plan time a change of a hosted queue's machine type or architecture,
// which the service refuses (only the size can change), with the service's reason.
func refusePlatformChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return
	}
	var planned, prior types.Object
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("hosted_agents"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("hosted_agents"), &prior)...)
	p, planOK := hostedFrom(planned)
	s, stateOK := hostedFrom(prior)
	if resp.Diagnostics.HasError() || !planOK || !stateOK || shapePlatform(p.shape) == shapePlatform(s.shape) {
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root("hosted_agents").AtName("instance_shape"), "Instance Shape Cannot Change Platform",
		fmt.Sprintf("Changing hosted_agents.instance_shape from %s to %s is refused: Buildkite changes only the size of "+
			"a hosted queue's instances, never the machine type (Linux, macOS) or the architecture (AMD64, ARM64), "+
			"and answers \"Validation failed: Instance shape cannot be changed to %s\". Keep a %s shape, or "+
			"create another queue (a new key) for %s. Nothing has been changed.",
			s.shape, p.shape, p.shape, shapePlatform(s.shape), shapePlatform(p.shape)))
}

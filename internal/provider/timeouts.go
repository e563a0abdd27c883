package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// operation is one of the four things Terraform asks of a resource; each has its own timeout.
type operation int

const (
	opCreate operation = iota
	opRead
	opUpdate
	opDelete
)

// defaultTimeout bounds each operation unless the provider block's timeouts say otherwise, so a service
// that never answers cannot hang a plan.
const defaultTimeout = 3 * time.Minute

// operationTimeouts holds the provider block's timeouts, indexed by operation.
type operationTimeouts [4]time.Duration

func (t operationTimeouts) of(op operation) time.Duration {
	if d := t[op]; d > 0 {
		return d
	}
	return defaultTimeout
}

// operationContext bounds an operation by its timeout (the default where the provider is not configured,
// data nil).
func operationContext(ctx context.Context, data *providerData, op operation) (context.Context, context.CancelFunc) {
	if data == nil {
		return context.WithTimeout(ctx, defaultTimeout)
	}
	return context.WithTimeout(ctx, data.timeouts.of(op))
}

// A resource whose create waits for the service to finish something it started (an agent image's build)
// declares how long in its own `timeouts { create = "45m" }` block, the form the official provider's
// resources take (terraform-plugin-framework-timeouts): createTimeoutBlock in its schema, a types.Object
// field tagged "timeouts" in its model, and createWait in Create. The provider block's timeouts still bound
// each request; this bounds the wait.

// createTimeoutBlock is the timeouts block with its create attribute, a positive duration.
func createTimeoutBlock(description string) schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "How long Terraform waits for what the service does after the create.",
		Attributes: map[string]schema.Attribute{
			"create": schema.StringAttribute{
				MarkdownDescription: description,
				Optional:            true,
				Validators:          []validator.String{durationValidator{}},
			},
		},
	}
}

// createWait returns the wait the block's create sets, or def when the block or create is unset.
func createWait(block types.Object, def time.Duration) (time.Duration, diag.Diagnostics) {
	if !isKnownValue(block) {
		return def, nil
	}
	var diags diag.Diagnostics
	create, _ := block.Attributes()["create"].(types.String)
	if !isKnownValue(create) {
		return def, diags
	}
	d, err := time.ParseDuration(create.ValueString())
	if err != nil || d <= 0 {
		diags.AddAttributeError(path.Root("timeouts").AtName("create"), "Invalid Duration",
			fmt.Sprintf("timeouts.create must be a positive duration such as 90s or 5m, got %q.", create.ValueString()))
		return def, diags
	}
	return d, diags
}

// createTimeoutAttrTypes are the attribute types of createTimeoutBlock, for a null block in a model.
var createTimeoutAttrTypes = map[string]attr.Type{"create": types.StringType}

package kit

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

// Operation is one of the four things Terraform asks of a resource; each has its own timeout.
type Operation int

const (
	OpCreate Operation = iota
	OpRead
	OpUpdate
	OpDelete
)

// defaultTimeout bounds each operation unless the provider block's timeouts say otherwise, so a service
// that never answers cannot hang a plan.
const defaultTimeout = 3 * time.Minute

// OperationTimeouts holds the provider block's timeouts, indexed by operation.
type OperationTimeouts [4]time.Duration

func (t OperationTimeouts) Of(op Operation) time.Duration {
	if d := t[op]; d > 0 {
		return d
	}
	return defaultTimeout
}

// OperationContext bounds an operation by its timeout (the default where the provider is not configured,
// data nil).
func OperationContext(ctx context.Context, data *ProviderData, op Operation) (context.Context, context.CancelFunc) {
	if data == nil {
		return context.WithTimeout(ctx, defaultTimeout)
	}
	return context.WithTimeout(ctx, data.Timeouts.Of(op))
}

// A resource whose create waits for the service to finish something it started (an agent image's build)
// declares how long in its own `timeouts { create = "45m" }` block, the form the official provider's
// resources take (terraform-plugin-framework-timeouts): CreateTimeoutBlock in its schema, a types.Object
// field tagged "timeouts" in its model, and CreateWait in Create. The provider block's timeouts still bound
// each request; this bounds the wait.

// CreateTimeoutBlock is the timeouts block with its create attribute, a positive duration.
func CreateTimeoutBlock(description string) schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "How long Terraform waits for what the service does after the create.",
		Attributes: map[string]schema.Attribute{
			"create": schema.StringAttribute{
				MarkdownDescription: description,
				Optional:            true,
				Validators:          []validator.String{DurationValidator{}},
			},
		},
	}
}

// CreateWait returns the wait the block's create sets, or def when the block or create is unset.
func CreateWait(block types.Object, def time.Duration) (time.Duration, diag.Diagnostics) {
	if !IsKnownValue(block) {
		return def, nil
	}
	var diags diag.Diagnostics
	create, _ := block.Attributes()["create"].(types.String)
	if !IsKnownValue(create) {
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

// CreateTimeoutAttrTypes are the attribute types of CreateTimeoutBlock, for a null block in a model.
var CreateTimeoutAttrTypes = map[string]attr.Type{"create": types.StringType}

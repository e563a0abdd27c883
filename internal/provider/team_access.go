package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// timestampValue renders a service timestamp as RFC 3339, or null when the service sent none.
func timestampValue(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

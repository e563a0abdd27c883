package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
)

// tfLogger writes the REST client's diagnostics through tflog, with the context of the Terraform operation
// that made the call, so TF_LOG=DEBUG shows every request and TF_LOG=TRACE their bodies (secrets masked by
// the client).
type tfLogger struct{}

var _ buildkite.Logger = tfLogger{}

// Debug implements buildkite.Logger.
func (tfLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(ctx, msg, fields)
}

// Trace implements buildkite.Logger.
func (tfLogger) Trace(ctx context.Context, msg string, fields map[string]any) {
	tflog.Trace(ctx, msg, fields)
}

package provider

import (
	"context"
	"os"
	"sync/atomic"

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

// unreadLogs is set by SilenceUnreadLogs: Terraform drops whatever this process logs, so the client logs
// nothing.
var unreadLogs atomic.Bool

// The logger levels terraform-plugin-go and the framework read from the environment for each request:
// the SDK's root logger, its protocol and framework subsystems, and this provider's own (tflog).
var sdkLogLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_BUILDKITE"}

// SilenceUnreadLogs turns this process's logging off when Terraform would read every line and drop it:
// Terraform shows a provider's logs only with TF_LOG or TF_LOG_PROVIDER set, but unless told otherwise
// terraform-plugin-go and the framework log at TRACE (about 80 lines per object in a plan, each encoded
// here and decoded by Terraform), which costs a quarter of a plan's time. Call it before serving, and only
// in a process Terraform starts: one started with -debug logs to its own stderr for whoever runs it. A
// level already set in the environment is left as it is.
func SilenceUnreadLogs() {
	if os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, name := range sdkLogLevels {
		if _, set := os.LookupEnv(name); !set {
			_ = os.Setenv(name, "OFF")
		}
	}
	unreadLogs.Store(true)
}

// clientLogger is the client's Logger: none when the logs are not read, since the client builds each
// line's fields (and masks each body) before tflog looks at the level.
func clientLogger() buildkite.Logger {
	if unreadLogs.Load() {
		return nil
	}
	return tfLogger{}
}

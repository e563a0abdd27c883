package kit

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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

// ClientLogger is the client's Logger: none when the logs are not read, since the client builds each
// line's fields (and masks each body) before tflog looks at the level.
func ClientLogger() buildkite.Logger {
	if unreadLogs.Load() {
		return nil
	}
	return tfLogger{}
}

// maskSensitive registers with the client every value that the resource's schema marks sensitive or
// write-only, in this plan's configuration, plan and state, at any depth (an api_key inside settings, each
// value of a headers map): the client then masks it wherever it appears in a logged body or an error.
// ModifyPlan calls it, and Terraform plans again in the process that then applies, so the values are known
// to the client before the calls that send them. Masking goes by the schema, not by a list of field names.
func (b *ResourceBase) maskSensitive(ctx context.Context, req resource.ModifyPlanRequest) {
	if b.Data == nil || b.Data.Client == nil {
		return
	}
	s, ok := req.Config.Schema.(schema.Schema)
	if !ok {
		return
	}
	var values []string
	for _, raw := range []tftypes.Value{req.Config.Raw, req.Plan.Raw, req.State.Raw} {
		values = append(values, sensitiveStrings(ctx, s, raw)...)
	}
	if len(values) > 0 {
		b.Data.Client.MaskValues(values...)
	}
}

// sensitiveStrings returns the known strings raw holds under a sensitive or write-only attribute.
func sensitiveStrings(ctx context.Context, s schema.Schema, raw tftypes.Value) []string {
	if raw.IsNull() || !raw.IsKnown() {
		return nil
	}
	var out []string
	_ = tftypes.Walk(raw, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		if v.IsNull() || !v.IsKnown() || !v.Type().Is(tftypes.String) || !underSensitive(ctx, s, p) {
			return true, nil
		}
		var str string
		if v.As(&str) == nil && str != "" {
			out = append(out, str)
		}
		return true, nil
	})
	return out
}

// underSensitive reports whether the attribute at p, or one it lies in, is sensitive or write-only. A
// path into a collection's elements is not an attribute: its attribute is found by leaving steps off.
func underSensitive(ctx context.Context, s schema.Schema, p *tftypes.AttributePath) bool {
	for steps := p.Steps(); len(steps) > 0; steps = steps[:len(steps)-1] {
		a, err := s.AttributeAtTerraformPath(ctx, tftypes.NewAttributePathWithSteps(steps))
		if err == nil && (a.IsSensitive() || a.IsWriteOnly()) {
			return true
		}
	}
	return false
}

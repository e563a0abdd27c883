package pipelines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/kit"
)

// buildkite_pipeline's empty provider_settings block. A pipeline created with `provider_settings = {}` holds
// every key blank ("" or false), as the official provider's state does (its acceptance test "create pipeline
// with empty attributes" expects it). The block manages no key: nothing of it is sent, and the service keeps
// its settings. The private state records the blank form, so that refreshes keep it while the block stays
// empty; a configuration that sets a key or drops the block brings the service's values back. An empty
// block put in place of one that set keys keeps the values the state holds (the official provider's "can be
// removed without state change").

// emptySettingsNote is provider_settings' description of the empty block.
const emptySettingsNote = "A pipeline created with an empty block (`provider_settings = {}`) holds every key blank " +
	"(`\"\"` or `false`), as the official provider's state does, and sends none: the service keeps its settings, and " +
	"refreshes keep the blanks while the block stays empty; dropping the block, or importing, reads the service's " +
	"values, and an empty block that replaces set keys keeps the values the state holds."

// blankSettingsKey is the private-state key that records a pipeline whose provider_settings are held blank.
const blankSettingsKey = "providerSettingsBlank"

// settingsBlockEmpty reports whether the configuration has a provider_settings block that sets no key (an
// unknown key counts as set).
func settingsBlockEmpty(config types.Object) bool {
	if !kit.IsKnownValue(config) {
		return false
	}
	for _, v := range config.Attributes() {
		if !v.IsNull() {
			return false
		}
	}
	return true
}

// blankSettings is provider_settings with every key blank: "" for a string, false for a flag.
func BlankSettings() types.Object {
	values := make(map[string]attr.Value, len(PipelineSettings))
	for _, s := range PipelineSettings {
		if s.isString {
			values[s.Key] = types.StringValue("")
		} else {
			values[s.Key] = types.BoolValue(false)
		}
	}
	return types.ObjectValueMust(settingsAttrTypes(), values)
}

// settingsHeldBlank reports whether the private state records provider_settings held blank.
func settingsHeldBlank(ctx context.Context, p kit.PrivateReader) bool {
	if p == nil {
		return false
	}
	data, diags := p.GetKey(ctx, blankSettingsKey)
	return !diags.HasError() && string(data) == "true"
}

// planSettingsBlank plans provider_settings for the empty block: blank at create; on an update of a pipeline
// held blank whose configuration now sets keys or drops the block, the keys it leaves out are unknown (the
// service's values come back), where the state's blanks would otherwise be planned.
func planSettingsBlank(ctx context.Context, creating, heldBlank bool, config types.Object, plan *types.Object) {
	switch {
	case creating && settingsBlockEmpty(config):
		*plan = BlankSettings()
	case creating || !heldBlank || settingsBlockEmpty(config):
	case !kit.IsKnownValue(config):
		*plan = types.ObjectUnknown(settingsAttrTypes())
	default:
		values := make(map[string]attr.Value, len(PipelineSettings))
		for k, v := range config.Attributes() {
			values[k] = v
			if v.IsNull() {
				values[k] = kit.UnknownOf(ctx, v)
			}
		}
		*plan = types.ObjectValueMust(settingsAttrTypes(), values)
	}
}

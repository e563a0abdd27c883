package acctest

import (
	"github.com/ci-rest/terraform-provider-buildkite/internal/buildkite"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
)

// What the harness takes from the areas themselves: an area's tests are its external package, so the
// harness may import an area (the provider it may not: the provider's own tests import the harness).

// AllowlistUpdate is the organization's body of an allowlist change.
func AllowlistUpdate(cidrs []string) buildkite.Optional[string] {
	return organization.AllowlistUpdate(cidrs)
}

// RevocationUpdate is the organization's body of a change of the days after which inactive tokens are revoked.
func RevocationUpdate(days int64) buildkite.Optional[int64] {
	return organization.RevocationUpdate(days)
}

// PipelineSettingKeys are the keys of the pipeline's provider_settings, in its schema's order.
func PipelineSettingKeys() []string {
	keys := make([]string, 0, len(pipelines.PipelineSettings))
	for _, s := range pipelines.PipelineSettings {
		keys = append(keys, s.Key)
	}
	return keys
}

// BlankPipelineSettings is provider_settings as the pipeline records an empty block: every key, null or false.
func BlankPipelineSettings() map[string]any {
	blank := map[string]any{}
	for k, v := range pipelines.BlankSettings().Attributes() {
		blank[k] = pipelines.SettingValue(v)
	}
	return blank
}

package provider

// The rows of the upgrade table (upgrade_test.go), which each type declares in its test file (type_tests_kit_test.go).

// upgradeCase is a state of an earlier version and what some of its attributes must be after the upgrade.
type upgradeCase struct {
	name     string
	typeName string
	version  int64
	state    map[string]any
	want     map[string]any // attributes checked after the upgrade; nil means null
}

// settingsWith is provider_settings with the given keys set and every other key of the 44 null.
func settingsWith(set map[string]any) map[string]any {
	out := map[string]any{}
	for _, s := range pipelineSettings {
		out[s.key] = set[s.key]
	}
	return out
}

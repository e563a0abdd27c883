package acctest

// The rows of the upgrade table (upgrade_test.go), which each type declares in its test file (type_tests.go).

// upgradeCase is a state of an earlier version and what some of its attributes must be after the upgrade.
type UpgradeCase struct {
	Name     string
	TypeName string
	Version  int64
	State    map[string]any
	Want     map[string]any // attributes checked after the upgrade; nil means null
}

// settingsWith is provider_settings with the given keys set and every other key of the 44 null.
func SettingsWith(set map[string]any) map[string]any {
	out := map[string]any{}
	for _, key := range PipelineSettingKeys() {
		out[key] = set[key]
	}
	return out
}

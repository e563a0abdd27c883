package acctest

import "testing"

// The rows of the adoption table (adoption_test.go), which each type declares in its test file (type_tests.go).

// takenCase is one kind whose names or keys are unique.
type TakenCase struct {
	ResourceType string
	// setup makes the object a killed apply left behind and returns the configuration that creates it
	// again (as <type>.test) and the import ID that adopts it.
	Setup func(t *testing.T, e *TestEnv) (config, importID string)
}

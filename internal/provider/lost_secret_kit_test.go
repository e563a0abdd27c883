package provider

import "net/http"

// The rows of the lost secret table (lost_secret_test.go), which each type declares in its test file (type_tests_kit_test.go).

// lostSecretCase is a type whose secret only the create answer carries, created through REST with a 201
// (what the emulator's DropCreates loses). Not here: an unclustered agent token is created through GraphQL,
// and a registry token's create answers 200 (the client's tests lose those answers).
type lostSecretCase struct {
	name, typ, kind, secret string
	// path tells the type's create POST from every other request; item the path of one of its objects.
	path func(*http.Request) bool
	item func(path string) bool
	// config is the configuration with the instances listed (each the block's label), prefix naming them.
	config func(prefix string, instances ...string) string
}

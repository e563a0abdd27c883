package acctest

import "net/http"

// The rows of the lost secret table (lost_secret_test.go), which each type declares in its test file (type_tests.go).

// lostSecretCase is a type whose secret only the create answer carries, created through REST with a 201
// (what the emulator's DropCreates loses). Not here: an unclustered agent token is created through GraphQL,
// and a registry token's create answers 200 (the client's tests lose those answers).
type LostSecretCase struct {
	Name, Typ, Kind, Secret string
	// path tells the type's create POST from every other request; item the path of one of its objects.
	Path func(*http.Request) bool
	Item func(path string) bool
	// config is the configuration with the instances listed (each the block's label), prefix naming them.
	Config func(prefix string, instances ...string) string
}

package acctest

import (
	"slices"
	"sort"
	"sync/atomic"
)

// A resource type's rows of the tables every type runs through (identity, migration, query, ...) are
// declared beside the type, in its own test file, in one registration:
//
//	var _ = acctest.RegisterTypeTests("buildkite_portal", acctest.TypeTests{
//		Identity:  &acctest.IdentityCase{...},
//		Migration: []acctest.MigrationCase{...},
//		Query:     &acctest.QueryCase{...},
//	})
//
// The tables' tests (TestAccResources_identity, TestAccMigration_fromOfficialProvider, ...) are views over
// these registrations (views_*.go), which each package's views_test.go runs over the rows its test binary
// holds, and TestHouse_everyTypeHasItsTestRows fails when a type the package declares lacks a row a table
// requires and says nothing of why (Exempt). A type's sweeper and the IDs the service holds of it are the
// harness's own tables (sweepers.go, service_states.go), which every binary holds.

// TypeTests are one resource type's rows; a nil or empty field is no row.
type TypeTests struct {
	// identity: import by identity and the identity through an update (TestAccResources_identity, identity_test.go).
	Identity *IdentityCase
	// invalidIdentity: import blocks naming an identity that names nothing or is malformed, each refused at
	// plan time (TestAccResources_identityInvalid), where the type's identity can be malformed.
	InvalidIdentity *InvalidIdentityCase
	// migration: moves of the official provider's states of the type (TestAccMigration_fromOfficialProvider,
	// migration_test.go, and examples/migration).
	Migration []MigrationCase
	// query: terraform query of the type's list resource (TestAccResources_query, query_test.go).
	Query *QueryCase
	// taken: a create refused because the name or key is taken names the holder (adoption_test.go), where
	// the type's names or keys are unique.
	Taken *TakenCase
	// lostSecret: a secret only the create answer carries, its answer lost (TestAccLostCreateAnswers).
	LostSecret *LostSecretCase
	// association: the life cycle of an association type (TestAccAssociations, association_test.go).
	Association *AssociationCase
	// upgrade: earlier states of ours and the official provider's, upgraded (TestUpgradeResourceState).
	Upgrade []UpgradeCase

	// exempt says, for a table that requires a row of this type, why the type has none: the table's name
	// (a tableX constant) -> the reason, a sentence.
	Exempt map[string]string
}

// The tables TestHouse_everyTypeHasItsTestRows requires rows in, by the names exempt uses.
const (
	TableIdentity    = "identity"
	TableMigration   = "migration"
	TableSweeper     = "sweeper"
	TableQuery       = "query"
	TableLostSecret  = "lostSecret"
	TableAssociation = "association"
)

var (
	RegisteredTypeTests = map[string]TypeTests{}
	// typeTestsRead is set once a view has read the registrations: a registration after it would be missed.
	// Views running in parallel set it at once.
	typeTestsRead atomic.Bool
)

// RegisterTypeTests records one resource type's rows. Call it once per type, from the type's test file, as
// `var _ = acctest.RegisterTypeTests(...)`: package variables are initialized before any init function or test
// runs, so every view sees every row.
//
//nolint:unparam // the result exists only so that a package variable can hold the call
func RegisterTypeTests(resourceType string, rows TypeTests) bool {
	if typeTestsRead.Load() {
		panic("test rows registered after the tables were read (register with var _ =, not in init): " + resourceType)
	}
	if _, dup := RegisteredTypeTests[resourceType]; dup {
		panic("test rows registered twice: " + resourceType)
	}
	RegisteredTypeTests[resourceType] = rows
	return true
}

// TypesWithTests returns the resource types that registered rows, in the order of their names.
func TypesWithTests() []string {
	typeTestsRead.Store(true)
	names := make([]string, 0, len(RegisteredTypeTests))
	for name := range RegisteredTypeTests {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// TableRows is one table, a view over the registrations: the rows row picks from each type's, the types in
// the order of their names.
func TableRows[R any](row func(TypeTests) []R) []R {
	var out []R
	for _, name := range TypesWithTests() {
		out = append(out, row(RegisteredTypeTests[name])...)
	}
	return slices.Clip(out)
}

// one is a table's row of a type that has at most one: none when nil.
func One[R any](r *R) []R {
	if r == nil {
		return nil
	}
	return []R{*r}
}

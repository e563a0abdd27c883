package acctest

import (
	"fmt"
	"testing"
)

// The rows of the association table (association_test.go), which each type declares in its test file (type_tests.go).

// associationCase is one association type in TestAccAssociations: what it links and how its configuration
// reads. An association type joins the test with its row (typeTests.association, in its test file,
// beside the testKind it registers, which CheckDestroy and the deletion outside Terraform use).
type AssociationCase struct {
	ResourceType string
	// importAttrs are the state attributes whose values, joined by "/", make the import ID.
	ImportAttrs []string
	// values are the association's own field as the configuration sets it: the first on create, the second
	// (where the type has a field it changes in place) on update.
	Values []string
	// setup makes, in a fresh environment, what the association links, and returns its configuration: the
	// association under parent "a" or "b" (both declared in every configuration, so that a change of parent
	// only replaces the association) with its field set to value.
	Setup func(t *testing.T, e *TestEnv) func(parent, value string) string
}

// twoTeams declares teams "a" and "b", named after base.
func TwoTeams(e *TestEnv, base string) string {
	cfg := ""
	for _, name := range []string{"a", "b"} {
		cfg += fmt.Sprintf(`
resource "buildkite_team" %q {
  name                = %q
  privacy             = "visible"
  default_team        = false
  default_member_role = "member"
}
`, name, e.Name(base+"-"+name))
	}
	return cfg
}

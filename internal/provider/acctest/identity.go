package acctest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The rows of the identity tables (identity_test.go), which each type declares in its test file
// (type_tests.go).

// identityCase is one resource type: created as <type>.test by a configuration, its identity holds attrs
// (each equal to the state attribute of the same name); it then imports by an import block naming that
// identity, into the configuration as it stands and with a generated configuration, and keeps its identity
// through an update in place.
type IdentityCase struct {
	ResourceType string
	Attrs        []string
	// setup makes the row's configurations in a fresh environment.
	Setup func(t *testing.T, e *TestEnv) IdentityConfigs
}

// identityConfigs are one row's configurations and what is particular to the type.
type IdentityConfigs struct {
	Create string
	// checks are more checks of the state create leaves.
	Checks []statecheck.StateCheck
	// secret is an attribute the service shows only on create: an import by identity holds it null.
	Secret string
	// importSteps, when set, replace the usual import steps.
	ImportSteps []resource.TestStep
	// update changes the resource in place (optional); updateChecks are more checks of what it leaves.
	Update       string
	UpdateChecks []statecheck.StateCheck
	// more are steps after the update: the identity following a rename, inside Terraform or outside.
	More []resource.TestStep
	// destroyed overrides the CheckDestroy of the type's test kind.
	Destroyed resource.TestCheckFunc
}

// identityValue checks the value of one identity attribute of the resource at address.
func IdentityValue(address, attr, want string) statecheck.StateCheck {
	return statecheck.ExpectIdentityValue(address, tfjsonpath.New(attr), knownvalue.StringExact(want))
}

// invalidIdentityCase is a resource type whose import blocks can name an identity that names nothing or is
// malformed: each such plan is refused, naming the attribute or the object.
type InvalidIdentityCase struct {
	ResourceType string
	// setup returns the import blocks (with their resource) and the error each must give.
	Setup func(e *TestEnv) []InvalidIdentity
}

type InvalidIdentity struct{ Config, Message string }

// importByIdentity is an import block of <resourceType>.test naming an identity of attribute-value pairs,
// with the resource it imports into (body).
func ImportByIdentity(resourceType, body string, kv ...string) string {
	identity := ""
	for i := 0; i+1 < len(kv); i += 2 {
		identity += "    " + kv[i] + ` = "` + kv[i+1] + "\"\n"
	}
	return `
import {
  to       = ` + resourceType + `.test
  identity = {
` + identity + `  }
}

resource "` + resourceType + `" "test" {
` + body + `
}
`
}

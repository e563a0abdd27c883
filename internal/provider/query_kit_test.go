package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The rows of the query table (query_test.go), which each type declares in its test file (type_tests_kit_test.go).

// queryCase is one list resource: run seeds its area in a fresh environment (names start with base) and
// returns what to query and what must be found.
type queryCase struct {
	resourceType string
	run          func(t *testing.T, e *testEnv, base string) queryRow
}

// queryRow is one list resource's query: list blocks (triples of type, name and config body) and the checks
// of what they find, list blocks each refused with an error, and how many objects the unfiltered list
// block finds, which the generated configuration must import.
type queryRow struct {
	blocks  []string
	checks  []querycheck.QueryResultCheck
	refused []queryRefusal
	imports int
}

type queryRefusal struct {
	body    string // the config block of a list block named after the refusal
	message *regexp.Regexp
}

// known is a KnownValueCheck of one attribute.
func known(attr string, value knownvalue.Check) querycheck.KnownValueCheck {
	return querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: value}
}

// byIdentity picks the result with the identity of attribute-value pairs.
func byIdentity(kv ...string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(identityOf(kv...))
}

const unknownUUIDFilter = `    %s = "` + unknownUUID + `"`

package acctest

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The rows of the query table (query_test.go), which each type declares in its test file (type_tests.go).

// queryCase is one list resource: run seeds its area in a fresh environment (names start with base) and
// returns what to query and what must be found.
type QueryCase struct {
	ResourceType string
	Run          func(t *testing.T, e *TestEnv, base string) QueryRow
}

// queryRow is one list resource's query: list blocks (triples of type, name and config body) and the checks
// of what they find, list blocks each refused with an error, and how many objects the unfiltered list
// block finds, which the generated configuration must import.
type QueryRow struct {
	Blocks  []string
	Checks  []querycheck.QueryResultCheck
	Refused []QueryRefusal
	Imports int
}

type QueryRefusal struct {
	Body    string // the config block of a list block named after the refusal
	Message *regexp.Regexp
}

// known is a KnownValueCheck of one attribute.
func Known(attr string, value knownvalue.Check) querycheck.KnownValueCheck {
	return querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: value}
}

// byIdentity picks the result with the identity of attribute-value pairs.
func ByIdentity(kv ...string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(IdentityOf(kv...))
}

const UnknownUUIDFilter = `    %s = "` + UnknownUUID + `"`

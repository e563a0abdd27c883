// Package acctest is the acceptance tests' harness: the environment each test runs against (an emulator in
// the test's process, or the real service), the seeds, the per-type test rows and the views over them,
// the checks, the CLI helpers and the sweepers.
package acctest

import (
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The hooks are what the harness needs from the provider, set before any test row is made: by package
// withprovider, which the areas' tests import, and by the provider's own tests in their acctest_test.go.
// The harness cannot import the provider, whose own (internal) tests import the harness; what it needs of
// an area it imports (areas.go).

// GraphQLEndpoint is the provider's graphqlEndpoint.
var GraphQLEndpoint func(graphqlURL string, restURL string) string

// NewProtocol6Server is the provider's NewProtocol6Server.
var NewProtocol6Server func(version string) func() tfprotov6.ProviderServer

// NewProvider is the provider's New.
var NewProvider func(version string) func() provider.Provider

// ProviderTestdata is the path of a file of internal/provider/testdata from the directory a test runs in:
// internal/provider, or an area's package below it.
func ProviderTestdata(name string) string {
	for _, dir := range []string{"testdata", filepath.Join("..", "testdata")} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name)
		}
	}
	return filepath.Join("testdata", name)
}

package functions_test

import (
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// hooked gives the harness what it needs from the provider before the test rows are registered, some of
// which call the harness as they are made: a package's variables are set in the order of its files'
// names, and this is the first test file.
var hooked = setHooks()

func setHooks() bool {
	acctest.NewProvider = provider.New
	acctest.NewProtocol6Server = provider.NewProtocol6Server
	acctest.GraphQLEndpoint = provider.GraphQLEndpoint
	return true
}

// TestMain runs the tests, or with -sweep the sweepers, once the hooks are set.
func TestMain(m *testing.M) {
	if !hooked {
		panic("the harness's hooks are not set")
	}
	acctest.Main(m)
}

// Package withprovider gives the harness (package acctest) the provider it drives, for the areas' tests,
// which import it for that alone: `import _ ".../acctest/withprovider"`. The harness cannot import the
// provider itself, since the provider's own (internal) tests import the harness; and an imported package is
// initialized before the package importing it, so the hooks are set before any test row is made.
package withprovider

import (
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

func init() {
	acctest.NewProvider = provider.New
	acctest.NewProtocol6Server = provider.NewProtocol6Server
	acctest.GraphQLEndpoint = provider.GraphQLEndpoint
}

package clusters_test

import (
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/organization"
	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/pipelines"
)

// hooked gives the harness what it needs from the provider before the test rows are registered, some of
// which call the harness as they are made: a package's variables are set in the order of its files'
// names, and this is the first test file.
var hooked = setHooks()

func setHooks() bool {
	acctest.NewProvider = provider.New
	acctest.NewProtocol6Server = provider.NewProtocol6Server
	acctest.GraphQLEndpoint = provider.GraphQLEndpoint
	acctest.AllowlistUpdate = organization.AllowlistUpdate
	acctest.RevocationUpdate = organization.RevocationUpdate
	acctest.PipelineSettingKeys = func() []string {
		keys := make([]string, 0, len(pipelines.PipelineSettings))
		for _, s := range pipelines.PipelineSettings {
			keys = append(keys, s.Key)
		}
		return keys
	}
	acctest.BlankPipelineSettings = func() map[string]any {
		blank := map[string]any{}
		for k, v := range pipelines.BlankSettings().Attributes() {
			blank[k] = pipelines.SettingValue(v)
		}
		return blank
	}
	return true
}

// TestMain runs the tests, or with -sweep the sweepers, once the hooks are set.
func TestMain(m *testing.M) {
	if !hooked {
		panic("the harness's hooks are not set")
	}
	acctest.Main(m)
}

package teams_test

import (
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
	_ "github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest/withprovider" // the provider the harness drives
)

// TestMain runs the tests, or with -sweep the sweepers.
func TestMain(m *testing.M) { acctest.Main(m) }

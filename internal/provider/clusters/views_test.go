package clusters_test

import (
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The views over the types' rows run in each test binary that registers rows, over the rows it holds: the
// harness's runners (acctest/views_*.go) under the tests' names.

// FuzzUpgradeOfficialState runs acctest.RunFuzzUpgradeOfficialState.
func FuzzUpgradeOfficialState(f *testing.F) { acctest.RunFuzzUpgradeOfficialState(f) }

// TestAccAssociations runs acctest.RunAccAssociations.
func TestAccAssociations(t *testing.T) { acctest.RunAccAssociations(t) }

// TestAccLostCreateAnswers runs acctest.RunAccLostCreateAnswers.
func TestAccLostCreateAnswers(t *testing.T) { acctest.RunAccLostCreateAnswers(t) }

// TestAccMigration_fromOfficialProvider runs acctest.RunAccMigrationFromOfficialProvider.
func TestAccMigration_fromOfficialProvider(t *testing.T) {
	acctest.RunAccMigrationFromOfficialProvider(t)
}

// TestAccResources_createTakenNamesHolder runs acctest.RunAccResourcesCreateTakenNamesHolder.
func TestAccResources_createTakenNamesHolder(t *testing.T) {
	acctest.RunAccResourcesCreateTakenNamesHolder(t)
}

// TestAccResources_identity runs acctest.RunAccResourcesIdentity.
func TestAccResources_identity(t *testing.T) { acctest.RunAccResourcesIdentity(t) }

// TestAccResources_identityInvalid runs acctest.RunAccResourcesIdentityInvalid.
func TestAccResources_identityInvalid(t *testing.T) { acctest.RunAccResourcesIdentityInvalid(t) }

// TestAccResources_query runs acctest.RunAccResourcesQuery.
func TestAccResources_query(t *testing.T) { acctest.RunAccResourcesQuery(t) }

// TestHouse_everyTypeHasItsTestRows runs acctest.RunHouseEveryTypeHasItsTestRows.
func TestHouse_everyTypeHasItsTestRows(t *testing.T) {
	acctest.RunHouseEveryTypeHasItsTestRows(t, "github.com/ci-rest/terraform-provider-buildkite/internal/provider/clusters")
}

// TestUpgradeResourceState runs acctest.RunUpgradeResourceState.
func TestUpgradeResourceState(t *testing.T) { acctest.RunUpgradeResourceState(t) }

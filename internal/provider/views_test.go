package provider

import (
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The views over the types' rows run in each test binary that registers rows, over the rows it holds: the
// harness's runners (acctest/views_*.go) under the tests' names.

// TestAccResources_createTakenNamesHolder runs acctest.RunAccResourcesCreateTakenNamesHolder.
func TestAccResources_createTakenNamesHolder(t *testing.T) {
	acctest.RunAccResourcesCreateTakenNamesHolder(t)
}

// TestAccAssociations runs acctest.RunAccAssociations.
func TestAccAssociations(t *testing.T) { acctest.RunAccAssociations(t) }

// TestAccResources_identity runs acctest.RunAccResourcesIdentity.
func TestAccResources_identity(t *testing.T) { acctest.RunAccResourcesIdentity(t) }

// TestAccClusterQueueResource_identityByGraphQLID runs acctest.RunAccClusterQueueResourceIdentityByGraphQLID.
func TestAccClusterQueueResource_identityByGraphQLID(t *testing.T) {
	acctest.RunAccClusterQueueResourceIdentityByGraphQLID(t)
}

// TestAccTeamResource_identityBySlug runs acctest.RunAccTeamResourceIdentityBySlug.
func TestAccTeamResource_identityBySlug(t *testing.T) { acctest.RunAccTeamResourceIdentityBySlug(t) }

// TestAccTestSuiteResource_identityRenamedOutside runs acctest.RunAccTestSuiteResourceIdentityRenamedOutside.
func TestAccTestSuiteResource_identityRenamedOutside(t *testing.T) {
	acctest.RunAccTestSuiteResourceIdentityRenamedOutside(t)
}

// TestAccResources_identityInvalid runs acctest.RunAccResourcesIdentityInvalid.
func TestAccResources_identityInvalid(t *testing.T) { acctest.RunAccResourcesIdentityInvalid(t) }

// TestAccLostCreateAnswers runs acctest.RunAccLostCreateAnswers.
func TestAccLostCreateAnswers(t *testing.T) { acctest.RunAccLostCreateAnswers(t) }

// TestAccMigration_fromOfficialProvider runs acctest.RunAccMigrationFromOfficialProvider.
func TestAccMigration_fromOfficialProvider(t *testing.T) {
	acctest.RunAccMigrationFromOfficialProvider(t)
}

// TestAccMigration_example runs acctest.RunAccMigrationExample.
func TestAccMigration_example(t *testing.T) { acctest.RunAccMigrationExample(t) }

// TestAccResources_query runs acctest.RunAccResourcesQuery.
func TestAccResources_query(t *testing.T) { acctest.RunAccResourcesQuery(t) }

// TestAccAreas_query runs acctest.RunAccAreasQuery.
func TestAccAreas_query(t *testing.T) { acctest.RunAccAreasQuery(t) }

// TestHouse_everyTypeHasItsTestRows runs acctest.RunHouseEveryTypeHasItsTestRows.
func TestHouse_everyTypeHasItsTestRows(t *testing.T) {
	acctest.RunHouseEveryTypeHasItsTestRows(t, "github.com/ci-rest/terraform-provider-buildkite/internal/provider")
}

// TestUpgradeResourceState runs acctest.RunUpgradeResourceState.
func TestUpgradeResourceState(t *testing.T) { acctest.RunUpgradeResourceState(t) }

// TestUpgradeResourceState_refused runs acctest.RunUpgradeResourceStateRefused.
func TestUpgradeResourceState_refused(t *testing.T) { acctest.RunUpgradeResourceStateRefused(t) }

// TestMoveState_keepsEmptyOfComputed runs acctest.RunMoveStateKeepsEmptyOfComputed.
func TestMoveState_keepsEmptyOfComputed(t *testing.T) { acctest.RunMoveStateKeepsEmptyOfComputed(t) }

// FuzzUpgradeOfficialState runs acctest.RunFuzzUpgradeOfficialState.
func FuzzUpgradeOfficialState(f *testing.F) { acctest.RunFuzzUpgradeOfficialState(f) }

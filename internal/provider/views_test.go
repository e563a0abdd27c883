package provider

import (
	"testing"

	"github.com/ci-rest/terraform-provider-buildkite/internal/provider/acctest"
)

// The views over the types' rows run in each test binary that registers rows, over the rows it holds: the
// harness's runners (acctest/views_*.go) under the tests' names.

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

// TestAccMigration_example runs acctest.RunAccMigrationExample.
func TestAccMigration_example(t *testing.T) { acctest.RunAccMigrationExample(t) }

// TestAccAreas_query runs acctest.RunAccAreasQuery.
func TestAccAreas_query(t *testing.T) { acctest.RunAccAreasQuery(t) }

// TestUpgradeResourceState_refused runs acctest.RunUpgradeResourceStateRefused.
func TestUpgradeResourceState_refused(t *testing.T) { acctest.RunUpgradeResourceStateRefused(t) }

// TestMoveState_keepsEmptyOfComputed runs acctest.RunMoveStateKeepsEmptyOfComputed.
func TestMoveState_keepsEmptyOfComputed(t *testing.T) { acctest.RunMoveStateKeepsEmptyOfComputed(t) }
